"""The untouched rows matched per error type (issue 13): quotas, bins, at most once,
determinism, coarser bins, shortfalls."""

from __future__ import annotations

import random

from buildds.inject_errors.normal_matching import (
    LEVELS,
    Candidate,
    chapter_of,
    match_bins,
    quota,
    rank,
    select_matched,
)


def _bins(charge: str, term: str, fine: str = "e3", chapter: str = "章5"
          ) -> tuple[str, str, str]:
    return (f"{charge}|有期徒刑|{term}|{fine}", f"{chapter}|有期徒刑|{term}|{fine}",
            f"有期徒刑|{term}|{fine}")


def _pool(spec: dict[tuple[str, str, str], int], seed: int = 0) -> list[Candidate]:
    out = []
    for bins, n in spec.items():
        out += [Candidate(rank(seed, f"{bins[0]}#{i}"), f"{bins[0]}#{i}", bins) for i in range(n)]
    return out


def test_bins_read_the_values_a_surface_reader_sees() -> None:
    from tests.inject_errors.test_injectors import PROFILE

    chapter = chapter_of(PROFILE)  # type: ignore[arg-type]
    text = "被告人张三犯盗窃罪，判处有期徒刑三年，并处罚金人民币五千元。"
    assert match_bins(text, chapter, "judge") == (
        "judge|盗窃|有期徒刑|≤36|e3.5", "judge|章5|有期徒刑|≤36|e3.5", "judge|有期徒刑|≤36|e3.5")
    assert match_bins(text)[1] == "-|-|有期徒刑|≤36|e3.5"  # no profile, no corpus
    # the top of a tier (0.9·max … max) is a bin of its own; probation and several charges
    # are part of the kind
    assert match_bins(text.replace("三年", "二年九个月"))[2] == "-|有期徒刑|≤36|e3.5"
    assert match_bins(text.replace("三年", "二年六个月"))[2] == "-|有期徒刑|≤30|e3.5"
    assert match_bins(text.replace("三年，", "三年，缓刑四年，"))[2] == "-|有期徒刑+缓刑|≤36|e3.5"
    assert match_bins("被告人张三犯盗窃罪，判处有期徒刑十年。")[2] == "-|有期徒刑|≤120|-"
    two = "被告人张三犯盗窃罪，判处有期徒刑一年；犯诈骗罪，判处有期徒刑一年，决定执行有期徒刑一年六个月。"
    assert "+数罪" in match_bins(two)[2]
    assert chapter("故意伤害罪") == "章4" and chapter("不是罪名") == "-"


def test_quota_is_share_of_the_rows_split_over_bins() -> None:
    counts = {f"b{i}": 1 for i in range(8)}
    q = quota(counts, 0.5, 0, "E5")
    assert sum(q.values()) == 4 and set(q.values()) == {0, 1}  # exact total, not 0 by rounding
    assert quota(counts, 0.5, 0, "E5") == q  # seeded
    assert quota({"a": 7, "b": 1}, 0.5, 0, "E4") == {"a": 4, "b": 0}  # largest remainder
    assert sum(quota({"a": 3}, 0.5, 1, "E1").values()) == 2  # half rounded up


def test_each_type_gets_its_quota_from_its_bins_at_most_once() -> None:
    a, b = _bins("盗窃", "≤36"), _bins("诈骗", "≤120")
    pool = _pool({a: 10, b: 10})
    injected = [("E1", a)] * 4 + [("E4", b)] * 6 + [("E3", a)] * 2
    m = select_matched(lambda: pool, injected, share=0.5, seed=0)
    assert m.quota == {"E1": 2, "E3": 1, "E4": 3}
    assert m.shortfall == {"E1": 0, "E3": 0, "E4": 0}
    by_id = {c.id: c for c in pool}
    for source_id, (etype, level) in m.chosen.items():
        assert level == 0
        assert by_id[source_id].bins == (b if etype == "E4" else a)
    assert len(m.chosen) == 6  # a dict: a judgment is chosen once
    # within a bin, the best-ranked candidates
    ranked_a = sorted((c for c in pool if c.bins == a), key=lambda c: c.rank)
    assert {i for i, (t, _) in m.chosen.items() if t != "E4"} == {c.id for c in ranked_a[:3]}


def test_same_selection_whatever_the_order() -> None:
    a, b = _bins("盗窃", "≤36"), _bins("盗窃", "≤12")
    pool = _pool({a: 30, b: 30})
    injected = [("E1", a)] * 10 + [("E4", a)] * 12 + [("E4", b)] * 6
    first = select_matched(lambda: pool, injected, share=0.5, seed=3)
    shuffled, inj = list(pool), list(injected)
    random.Random(1).shuffle(shuffled)
    random.Random(2).shuffle(inj)
    again = select_matched(lambda: iter(shuffled), inj, share=0.5, seed=3)
    assert again.chosen == first.chosen and again.drawn == first.drawn
    # a bin short of candidates is shared in proportion to the quotas
    small = _pool({a: 6})
    m = select_matched(lambda: small, [("E1", a)] * 10 + [("E4", a)] * 2, share=1.0, seed=0)
    got = [t for t, _ in m.chosen.values()]
    assert got.count("E1") == 5 and got.count("E4") == 1


def test_coarser_bins_then_shortfall_reported() -> None:
    fine = _bins("盗窃", "≤36")
    same_chapter = _bins("诈骗", "≤36")                      # same chapter, kind, term, fine
    other_chapter = _bins("受贿", "≤36", chapter="章8")      # same kind, term, fine only
    other_fine = _bins("抢夺", "≤36", fine="e5")             # another fine: never a match
    far = _bins("盗窃", "≤6")                                # another term: never a match
    pool = _pool({fine: 1, same_chapter: 1, other_chapter: 1, other_fine: 5, far: 20})
    m = select_matched(lambda: pool, [("E4", fine)] * 10, share=1.0, seed=0)
    assert m.quota == {"E4": 10}
    assert m.drawn == {"E4": [1, 1, 1]} and m.shortfall == {"E4": 7}
    assert all(not i.startswith(("盗窃|有期徒刑|≤6", "抢夺")) for i in m.chosen)
    assert m.as_json()["by_type"]["E4"] == {
        "quota": 10, "drawn": 3, "by_level": dict(zip(LEVELS, [1, 1, 1], strict=True)),
        "shortfall": 7, "injected_left_out": 0}
    assert "| E4 | 10 | 1 | 1 | 1 | 7 | 0 |" in m.to_markdown()


def test_candidates_are_read_once() -> None:
    """Read once into the store (a sharded run streams them from the shards' files)."""
    a = _bins("盗窃", "≤36")
    pool = _pool({a: 5})
    calls = []

    def candidates() -> list[Candidate]:
        calls.append(1)
        return pool

    select_matched(candidates, [("E1", a)] * 4, share=0.5, seed=0)
    assert len(calls) == 1


def test_injected_rows_the_corpus_cannot_match_are_left_out() -> None:
    """Where the coarsest bin falls short, a type keeps ⌊matched / share⌋ of its rows there
    (the rest would be told apart by their values alone); other bins keep every row."""
    from buildds.inject_errors.normal_matching import unmatched_rows

    top, low = _bins("盗窃", "≤120"), _bins("盗窃", "≤12")
    pool = _pool({top: 2, low: 40})
    injected = [(f"t{i}-E4", "E4", top) for i in range(10)]
    injected += [(f"l{i}-E4", "E4", low) for i in range(10)]
    m = select_matched(lambda: pool, [(t, b) for _, t, b in injected], share=0.5, seed=0)
    assert m.shortfall == {"E4": 3} and m.drawn["E4"] == [7, 0, 0]
    out = unmatched_rows(lambda: injected, m, share=0.5, seed=0)
    assert len(out) == 6 and all(i.startswith("t") for i in out)  # 10 - ⌊2 / 0.5⌋
    assert m.left_out == {"E4": 6} and m.as_json()["by_type"]["E4"]["injected_left_out"] == 6
    again = unmatched_rows(lambda: list(reversed(injected)), m, share=0.5, seed=0)
    assert again == out
    # nothing short: nothing left out
    full = select_matched(lambda: _pool({top: 9, low: 9}), [(t, b) for _, t, b in injected],
                          share=0.5, seed=0)
    assert unmatched_rows(lambda: injected, full, share=0.5, seed=0) == []
