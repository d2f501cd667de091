"""buildds.laws.impact on a store written by the tests: a substantive change → needs_review,
a wording change (懲役 → 拘禁刑) → terminology_only, a moved article followed to its new key,
no grounds → unknown, a revision whose text is not held → unknown with its reason (or
unaffected when the article is the same on both sides of the gap), transitional 附則 quoted;
the exam-date table; the same inputs give the same records."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path

import pytest

from buildds.laws.exam_dates import exam_date_of, load_exam_dates, parse_exam_date, western_year
from buildds.laws.grounding import CIVIL_CODE
from buildds.laws.impact import assess_items, touched_articles
from buildds.laws.impact_suppl import article_in_kanji, law_number_key, names_article
from buildds.laws.readers import read_law
from buildds.laws.revisions import Revision
from buildds.laws.store import LawStore
from buildds.schema.core import JbeItem
from buildds.schema.laws import Ground, ItemGrounds, ItemImpact

V1 = "129AC0000000089_20100101_421AC0000000001"
V2 = "129AC0000000089_20250601_504AC0000000068"
GAP_LISTED = "129AC0000000089_20150101_426AC0000000009"   # changed art. 9 only
GAP_WHOLE = "129AC0000000089_20180101_429AC0000000044"    # articles not listed

OLD = {"1": "売主は、買主に対し、目的物を引き渡す義務を負う。",
       "2": "人を殴った者は、三年以下の懲役に処する。",
       "3": "第三の規定であって、その全文がそのまま後の条に移るものである。",
       "4": "変わらない規定である。",
       "9": "九条の旧い規定である。"}
NEW = {"1": "売主は、買主に対し、契約の内容に適合した目的物を引き渡す義務を負う。",
       "2": "人を殴った者は、三年以下の拘禁刑に処する。",
       "3": "削除",
       "4": "変わらない規定である。",
       "5": "第三の規定であって、その全文がそのまま後の条に移るものである。",
       "9": "九条の新しい規定であって、内容が大きく変わったものである。"}
SUPPL = ("<SupplProvision AmendLawNum=\"令和四年六月一七日法律第六八号\" Extract=\"true\">"
         "<SupplProvisionLabel>附　則</SupplProvisionLabel>"
         "<Article Num=\"1\"><ArticleTitle>第一条</ArticleTitle><Paragraph Num=\"1\"><ParagraphNum/>"
         "<ParagraphSentence><Sentence Num=\"1\">この法律は、政令で定める日から施行する。</Sentence>"
         "</ParagraphSentence></Paragraph></Article>"
         "<Article Num=\"2\"><ArticleTitle>第二条</ArticleTitle><Paragraph Num=\"1\"><ParagraphNum/>"
         "<ParagraphSentence><Sentence Num=\"1\">この法律の施行前に締結された契約については、"
         "新法第一条の規定にかかわらず、なお従前の例による。</Sentence></ParagraphSentence>"
         "</Paragraph></Article></SupplProvision>")


def _xml(articles: dict[str, str], suppl: str = "") -> str:
    body = "".join(
        f"<Article Num=\"{k}\"><ArticleTitle>第{article_in_kanji(k)[1:-1]}条</ArticleTitle>"
        f"<Paragraph Num=\"1\"><ParagraphNum/><ParagraphSentence><Sentence Num=\"1\">{t}"
        f"</Sentence></ParagraphSentence></Paragraph></Article>" for k, t in articles.items())
    return ("<Law Era=\"Meiji\" Year=\"29\" Num=\"089\" LawType=\"Act\" Lang=\"ja\">"
            "<LawNum>明治二十九年法律第八十九号</LawNum><LawBody><LawTitle>民法</LawTitle>"
            f"<MainProvision>{body}</MainProvision>{suppl}</LawBody></Law>")


def _rev(rid: str, valid_from: date, amended_by: str) -> Revision:
    return Revision(law_id=CIVIL_CODE, revision_id=rid, valid_from=valid_from,
                    amended_by=amended_by, sources="test")


TABLE = [_rev(V1, date(2010, 1, 1), "平成21年法律第1号"),
         _rev(GAP_LISTED, date(2015, 1, 1), "平成26年法律第9号"),
         _rev(GAP_WHOLE, date(2018, 1, 1), "平成29年法律第44号"),
         _rev(V2, date(2025, 6, 1), "令和4年法律第68号")]
TOUCHED = {GAP_LISTED: frozenset({"9"})}


@pytest.fixture
def store(tmp_path: Path) -> LawStore:
    s = LawStore(tmp_path / "store")
    for name, arts, suppl, rev in (("v1.xml", OLD, "", TABLE[0]), ("v2.xml", NEW, SUPPL, TABLE[3])):
        path = tmp_path / name
        path.write_text(_xml(arts, suppl), encoding="utf-8")
        s.import_text(read_law(path), rev)
    return s


def _item(item_id: str, year: str = "平成２４年", question: str = "問") -> JbeItem:
    return JbeItem(id=item_id, year=year, subject="minpo", subject_jp="民法", instruction="",
                   question=question, label="Y", answer=True, question_type="per_statement",
                   points=2, source="x.pdf", sha256="0" * 64, page=1)


def _grounds(item_id: str, *articles: str, paragraph: int | None = None) -> ItemGrounds:
    return ItemGrounds(item_id=item_id, status="explicit" if articles else "unknown",
                       grounds=tuple(Ground(law_id=CIVIL_CODE, article=a, how="explicit",
                                            paragraph=paragraph) for a in articles))


def _assess(store: LawStore, grounds: Mapping[str, tuple[str, ...]], exam: date):
    items = [_item(k) for k in grounds]
    return {i.item_id: i for i in assess_items(
        items, store, date(2026, 1, 1), assumed=lambda _i: exam,
        grounds={k: _grounds(k, *v) for k, v in grounds.items()},
        revisions=TABLE, touched=TOUCHED)}


def test_statuses_without_gaps(store: LawStore) -> None:
    got = _assess(store, {"a": ("1",), "b": ("2",), "c": ("3",), "d": ("4",), "e": (),
                          "f": ("2", "4")}, date(2012, 5, 1))
    assert got["a"].status == "needs_review"
    change = got["a"].impacts[0].change
    assert change.kind == "substantive" and 0 < change.similarity < 1
    assert got["b"].status == "terminology_only"          # 懲役 → 拘禁刑, kokinkei map
    assert got["c"].status == "needs_review"
    moved = got["c"].impacts[0].change
    assert (moved.kind, moved.old_article, moved.new_article) == ("moved", "3", "5")
    assert got["d"].status == "unaffected" and not got["d"].impacts
    assert got["e"].status == "unknown" and "no grounds" in (got["e"].reason or "")
    assert got["f"].status == "terminology_only"          # terminology + unchanged
    assert got["a"].assumed == date(2012, 5, 1) and got["a"].as_of == date(2026, 1, 1)


def test_revision_and_transitional_provision(store: LawStore) -> None:
    impact = _assess(store, {"a": ("1",)}, date(2012, 5, 1))["a"].impacts[0]
    # GAP_LISTED changed art. 9 only: not a candidate; of the other two, only V2's 附則
    # names 第一条 (新法第一条)
    assert impact.candidates == (GAP_WHOLE, V2)
    assert impact.revision_id == V2 and impact.enforced == date(2025, 6, 1)
    assert impact.transitional and "なお従前の例による" in impact.transitional[0]
    assert "新法第一条" in impact.transitional[0]


def test_gaps(store: LawStore) -> None:
    # exam 2016: after GAP_LISTED (art. 9 only), before GAP_WHOLE
    got = _assess(store, {"a": ("1",), "n": ("9",), "d": ("4",)}, date(2016, 5, 1))
    assert got["a"].status == "needs_review"               # the gap did not touch art. 1
    assert got["n"].status == "unknown"
    assert got["n"].reason == (f"law text in force on 2016-05-01 not held (revision "
                               f"{GAP_LISTED} of 2015-01-01)")
    assert got["d"].status == "unaffected"
    # exam 2019: after GAP_WHOLE (articles unknown) — changed grounds are unknown, the same
    # text on both sides of the gap is unaffected
    got = _assess(store, {"a": ("1",), "d": ("4",), "b": ("2",)}, date(2019, 5, 1))
    assert got["a"].status == "unknown" and GAP_WHOLE in (got["a"].reason or "")
    assert got["a"].impacts                                 # the change is still reported
    assert got["b"].status == "unknown"
    assert got["d"].status == "unaffected"


def test_gap_after_the_last_held_version(store: LawStore) -> None:
    late = [*TABLE, _rev("129AC0000000089_20251201_507AC0000000001", date(2025, 12, 1),
                         "令和7年法律第1号")]
    out = assess_items([_item("d")], store, date(2026, 1, 1), assumed=lambda _i: date(2012, 5, 1),
                       grounds={"d": _grounds("d", "4")}, revisions=late, touched={})
    assert out[0].status == "unknown" and "2025-12-01" in (out[0].reason or "")


def test_paragraph_cited_and_unknown_law(store: LawStore) -> None:
    items = [_item("c"), _item("k")]
    grounds = {"c": _grounds("c", "1", paragraph=1),
               "k": ItemGrounds(item_id="k", status="explicit", grounds=(
                   Ground(law_id="321CONSTITUTION", article="9", how="explicit"),))}
    got = {i.item_id: i for i in assess_items(items, store, date(2026, 1, 1),
                                              assumed=lambda _i: date(2012, 5, 1),
                                              grounds=grounds, revisions=TABLE, touched={})}
    assert got["c"].status == "needs_review"   # paragraph 1 is the one that changed
    assert got["k"].status == "unknown"
    assert got["k"].reason == "law 321CONSTITUTION has no text in the store"


def test_deterministic_and_ordered(store: LawStore) -> None:
    grounds = {"b": ("2",), "a": ("1",), "c": ("3",)}
    one = _assess(store, grounds, date(2012, 5, 1))
    two = _assess(store, dict(reversed(list(grounds.items()))), date(2012, 5, 1))
    assert list(one) == ["a", "b", "c"]
    assert [i.model_dump_json() for i in one.values()] == \
        [i.model_dump_json() for i in two.values()]


def test_grounded_here(store: LawStore) -> None:
    item = _item("g", question="民法第四条の規定によれば、正しい。")
    out = assess_items([item], store, date(2026, 1, 1), assumed=lambda _i: date(2012, 5, 1),
                       revisions=TABLE, touched={})
    assert out[0].grounds.status == "explicit"
    assert [g.article for g in out[0].grounds.grounds] == ["4"]
    assert out[0].status == "unaffected"


def test_exam_dates() -> None:
    table = load_exam_dates()
    assert set(table) == set(range(2015, 2025))
    assert all(d.year == y for y, d in table.items())
    assert [table[y].month for y in range(2015, 2025)] == [5, 5, 5, 5, 5, 8, 5, 5, 7, 7]
    assert western_year("令和元年") == 2019 and western_year("平成２７年") == 2015
    assert parse_exam_date("2019=2019-05-20") == (2019, date(2019, 5, 20))
    with pytest.raises(ValueError):
        parse_exam_date("2019")
    of = exam_date_of({2019: date(2019, 5, 20)})
    assert of(_item("x", year="令和元年")) == date(2019, 5, 20)
    assert of(_item("y", year="平成２７年")) == date(2015, 5, 17)


def test_suppl_helpers() -> None:
    assert law_number_key("平成29年法律第44号") == law_number_key("平成二九年六月二日法律第四四号")
    assert article_in_kanji("398_22") == "第三百九十八条の二十二"
    assert article_in_kanji("1050") == "第千五十条"
    assert names_article("新法第九十三条、第九十五条及び第九十六条の規定", "95")
    assert not names_article("（経過措置）第二十条施行日前に", "20")      # the 附則's own article
    assert not names_article("新法第九十五条の二の規定", "95")
    touched = touched_articles()
    assert touched["129AC0000000089_20131211_425AC0000000094"] == frozenset({"900"})


def test_memoised_assessment_equals_one_item_at_a_time(store: LawStore) -> None:
    """Attributions, 附則 look-ups and versions by day are memoised within a run: the records
    of many items assessed together equal those of each item assessed alone."""
    grounds = {"a": ("1",), "b": ("2",), "c": ("3",), "d": ("1", "9"), "e": ("1",)}
    exams = {"a": date(2012, 5, 1), "b": date(2012, 5, 1), "c": date(2016, 5, 1),
             "d": date(2016, 5, 1), "e": date(2019, 5, 1)}
    items = [_item(k) for k in grounds]

    def run(some: list[JbeItem]) -> list[ItemImpact]:
        return assess_items(some, store, date(2026, 1, 1), assumed=lambda i: exams[i.id],
                            grounds={i.id: _grounds(i.id, *grounds[i.id]) for i in some},
                            revisions=TABLE, touched=TOUCHED)

    together = run(items)
    alone = [run([i])[0] for i in items]
    assert [r.model_dump_json() for r in together] == [r.model_dump_json() for r in alone]
    assert together[0].impacts[0].transitional  # the memoised 附則 excerpt is there


def test_a_changed_store_is_never_served_from_the_last_run(store: LawStore,
                                                           tmp_path: Path) -> None:
    """The loaded laws are reused only while the store's files hash the same."""
    def run() -> str:
        return _assess(store, {"d": ("4",)}, date(2012, 5, 1))["d"].status

    assert run() == "unaffected" and run() == "unaffected"
    v3 = _rev("129AC0000000089_20251201_507AC0000000001", date(2025, 12, 1), "令和7年法律第1号")
    path = tmp_path / "v3.xml"
    path.write_text(_xml({**NEW, "4": "大きく書き換えられて、もとの文言が残らない規定となった。"}),
                    encoding="utf-8")
    store.import_text(read_law(path), v3)
    assert run() == "needs_review"


def _retrieved(item_id: str, *scored: tuple[str, float]) -> ItemGrounds:
    return ItemGrounds(item_id=item_id, status="retrieved", grounds=tuple(
        Ground(law_id=CIVIL_CODE, article=a, how="retrieved", score=s, rank=r)
        for r, (a, s) in enumerate(scored, 1)))


def test_weak_retrieved_grounds_are_low_confidence(store: LawStore) -> None:
    # art. 1 changed in substance, art. 4 did not
    grounds = {"w": _retrieved("w", ("4", 10.0), ("1", 8.0)),    # weak: 8 < 0.85 × 10
               "s": _retrieved("s", ("4", 10.0), ("1", 9.0)),    # close to the top one
               "t": _retrieved("t", ("1", 10.0), ("4", 2.0))}

    def run(**kw: float) -> dict[str, ItemImpact]:
        return {i.item_id: i for i in assess_items(
            [_item(k) for k in grounds], store, date(2026, 1, 1),
            assumed=lambda _i: date(2012, 5, 1), grounds=grounds, revisions=TABLE,
            touched={}, **kw)}

    got = run()
    assert got["w"].status == "low_confidence"      # never unaffected: the change is kept
    assert [g.ground.article for g in got["w"].impacts] == ["1"]
    assert got["w"].reason == ("only weakly retrieved grounds changed: "
                               "1 (score 8.00 < 0.85 × 10.00)")
    assert got["s"].status == "needs_review" and got["t"].status == "needs_review"
    assert got["s"].reason is None
    off = run(margin=0.0)
    assert off["w"].status == "needs_review" and off["w"].reason is None


def test_an_as_of_date_before_the_exam_day_is_not_assessed(store: LawStore) -> None:
    """Read backwards, a revision would be misattributed (the grounds are keys of the later
    text, and a key may have been reused since): such items are unknown, never unaffected."""
    items = [_item("a"), _item("d")]
    got = {i.item_id: i for i in assess_items(
        items, store, date(2012, 5, 1), assumed=lambda _i: date(2026, 1, 1),
        grounds={"a": _grounds("a", "1"), "d": _grounds("d", "4")},
        revisions=TABLE, touched=TOUCHED)}
    for impact in got.values():
        assert impact.status == "unknown"
        assert "--as-of 2012-05-01 is before the day the item was written for" in (
            impact.reason or "")
