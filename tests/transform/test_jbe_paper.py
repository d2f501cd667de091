"""The "Compared with the paper" section: the build's counts next to the paper's figures
(from jbe_paper_figures.yaml, each cited), with the causes the counts show."""

from __future__ import annotations

from buildds.schema import JbeExclusion, JbeItem
from buildds.text import year_of_era
from buildds.transform.jbe_paper import paper_comparison_markdown, paper_figures

ERAS = {2015: "平成27年", 2016: "平成28年", 2017: "平成29年", 2018: "平成30年",
        2019: "令和元年", 2020: "令和２年", 2021: "令和３年", 2022: "令和４年",
        2023: "令和５年", 2024: "令和６年", 2025: "令和７年"}
JP = {"Civil Code": "民法", "Penal Code": "刑法", "Constitution": "憲法"}


def item(year: int, subject: str, q: int, s: int, answer: bool = True) -> JbeItem:
    era, jp = ERAS[year], JP[subject]
    return JbeItem(id=f"{era}-{jp}-{q}-{s}", year=era, subject=subject, subject_jp=jp,
                   instruction="次の記述について答えよ。", question=f"記述{q}-{s}",
                   label="Y" if answer else "N", answer=answer, question_type="combination",
                   points=2, source=f"{year}/x-mondai.pdf", sha256="ab" * 32, page=1)


def excluded(year: int, subject: str, q: int, reason: str) -> JbeExclusion:
    return JbeExclusion(id=f"{ERAS[year]}-{JP[subject]}-{q}", subject=subject, reason=reason,
                        message="m", source=f"{year}/x-mondai.pdf", page=1)


def test_era_table_matches_the_years():
    assert all(year_of_era(era) == y for y, era in ERAS.items())


def test_years_the_paper_does_not_cover_have_nothing_to_compare():
    lines = paper_comparison_markdown([item(2025, "Civil Code", 1, 1)], [])
    text = "\n".join(lines)
    assert lines[0] == "## Compared with the paper"
    assert "the paper gives no figures for 2025" in text and "| subject |" not in text
    part = "\n".join(paper_comparison_markdown([item(2015, "Civil Code", 1, 1)], []))
    assert "not per year" in part and "| subject |" not in part


def test_full_years_compare_per_subject_with_causes():
    items = [item(y, "Civil Code", 1, s, answer=s % 2 == 0) for y in ERAS if y < 2025
             for s in (1, 2)]
    items.append(item(2015, "Penal Code", 2, 1))
    exclusions = [excluded(y, "Penal Code", 3, "fill_in") for y in range(2015, 2025)]
    exclusions += [excluded(2016, "Penal Code", 4, "counting")]
    text = "\n".join(paper_comparison_markdown(items, exclusions, level=3))
    fig = paper_figures()
    civil, penal = fig["subjects"]["Civil Code"], fig["subjects"]["Penal Code"]
    assert text.startswith("### Compared with the paper")
    assert (f"| Civil Code | 20 | {civil['items']} | {20 - civil['items']:+d} | 0 | "
            f"{civil['excluded']} | {-civil['excluded']:+d} | — |") in text
    assert (f"| Penal Code | 1 | {penal['items']} | {1 - penal['items']:+d} | 11 | "
            f"{penal['excluded']} | {11 - penal['excluded']:+d} | `fill_in` 10, `counting` 1 |"
            ) in text
    assert f"| **total** | 21 | {fig['items']['value']} |" in text
    assert "| 2015 | 3 | 1 |" in text and "| 2016 | 2 | 2 |" in text
    assert f"the paper excludes {penal['excluded'] - 11} more question(s)" in text
    assert "fewer items than the paper, which its excluded questions do not explain" in text
    assert "(paper, 2.4)" in text  # the manual review, cited


def test_more_exclusions_than_the_paper_name_our_reasons():
    items = [item(y, "Constitution", 1, 1) for y in range(2015, 2025)]
    n = paper_figures()["subjects"]["Constitution"]["excluded"] + 2
    exclusions = [excluded(2015, "Constitution", q, "matching") for q in range(10, 10 + n)]
    text = "\n".join(paper_comparison_markdown(items, exclusions))
    assert ("Constitution: this build excludes 2 more question(s) than the paper "
            f"(`matching` {n}): the paper kept at least 2") in text


def test_fewer_items_with_the_papers_exclusion_count_is_still_a_cause():
    """Equal exclusion counts explain no difference in items (the Civil Code of 2015–2024:
    one question excluded as in the paper, yet fewer items)."""
    fig = paper_figures()["subjects"]["Civil Code"]
    items = [item(y, "Civil Code", 1, 1) for y in range(2015, 2025)]
    exclusions = [excluded(2015, "Civil Code", 30 + k, "no_statements")
                  for k in range(fig["excluded"])]
    text = "\n".join(paper_comparison_markdown(items, exclusions))
    assert (f"Civil Code: {fig['items'] - 10} fewer items than the paper, which its excluded "
            "questions do not explain") in text
