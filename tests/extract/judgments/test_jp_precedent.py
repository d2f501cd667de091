"""The courts.go.jp precedent reader (:mod:`buildds.extract.judgments.jp_precedent`), its
主文 parser (:mod:`.jp_sentence`) and sections / 罰条 (:mod:`.jp_sections`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from buildds.extract.judgments.jp_precedent import (
    jp_precedent_files,
    probe_jp_precedent,
    read_jp_precedents,
)
from buildds.extract.judgments.jp_sections import (
    jp_case_laws,
    parse_jp_citations,
    split_jp_sections,
)
from buildds.extract.judgments.jp_sentence import ja_yen, parse_jp_sentence
from buildds.schema.judgments import Judgment, JudgmentReject
from tests.conftest import shared_path
from tests.extract.judgments.jp_texts import CASES, THEFT_SUSPENDED, record, write_cases


@pytest.mark.parametrize(("text", "kind", "months", "probation", "fine", "term_text"), [
    ("被告人を懲役２年に処する。\nこの裁判確定の日から３年間その刑の執行を猶予する。",
     "懲役", 24, 36, None, "２年"),
    (("被告人を懲役１年１０月及び罰金１００万円に処する。\nその罰金を完納することができないと"
     "きは，金５０００円を１日に換算した期間被告人を労役場に留置する。"), "懲役", 22, None,
     1_000_000, "１年１０月"),
    ("被告人を罰金三十万円に処する。", "罰金", None, None, 300_000, None),
    ("被告人を禁錮二年六月に処する。", "禁錮", 30, None, None, "二年六月"),
    ("被告人を拘禁刑8月に処する。", "拘禁刑", 8, None, None, "8月"),
    ("被告人を懲役１年１\n０月に処する。", "懲役", 22, None, None, "１年１\n０月"),
])
def test_sentence(text: str, kind: str, months: int | None, probation: int | None,
                  fine: int | None, term_text: str | None) -> None:
    s, orders = parse_jp_sentence(text, 100)
    assert (s.kind, s.months, s.probation_months, s.fine_yuan) == (kind, months, probation, fine)
    assert (s.term_span.text if s.term_span else None) == term_text
    for span in s.spans():  # every span indexes the text (shifted by the offset)
        assert text[span.start - 100:span.end - 100] == span.text
    assert orders.suspended == (probation is not None)


def test_other_orders_and_money() -> None:
    _, orders = parse_jp_sentence("被告人を懲役１６年に処する。\n未決勾留日数中２５０日をその刑に"
                                  "算入する。\n押収してある包丁１本を没収する。")
    assert orders.detention_credit_days == 250 and orders.confiscation and not orders.suspended
    assert [ja_yen(t) for t in ("100万円", "５０万５０００円", "５０００円", "三十万円")] == [
        1_000_000, 505_000, 5_000, 300_000]


def test_sections_and_citations() -> None:
    sections = split_jp_sections(THEFT_SUSPENDED)
    assert {"main", "facts", "law", "sentencing", "demand"} <= set(sections)
    start, end = sections["law"]
    cites = parse_jp_citations(THEFT_SUSPENDED[start:end], start)
    assert cites.penal == [(235, None)] and cites.general == [25] and cites.other_laws == []
    assert [r.number for r in cites.refs] == [235, 25]
    assert all(THEFT_SUSPENDED[r.span.start:r.span.end] == r.span.text for r in cites.refs)
    other = parse_jp_citations("罰条　いずれも包括して刑法６０条，公職選挙法２２１条１項１号，"
                               "同法２３９条\n併合罪の処理\n刑法４５条前段，４７条本文\n訴訟費用　刑事"
                               "訴訟法１８１条１項本文\n判示第２の所為は刑法２５\n４条に該当する")
    assert other.other_laws == ["公職選挙法"]  # 同法 is the same law; procedure is not counted
    assert other.general == [60, 45, 47] and other.penal == [(254, None)]
    assert jp_case_laws("著作権法違反，窃盗被告事件") == ["著作権法"]


def test_reader_parses_self_written_cases(tmp_path: Path) -> None:
    paths = write_cases(tmp_path)
    got = {r.id: r for r in read_jp_precedents(paths) if isinstance(r, Judgment)}
    assert set(got) == {"jp-90001", "jp-90002", "jp-90003", "jp-90004"}
    theft = got["jp-90001"]
    assert theft.dataset == "jp" and theft.charges == ("窃盗",)
    assert (theft.sentence.kind, theft.sentence.months, theft.sentence.probation_months) == (
        "懲役", 24, 36)
    assert theft.jp is not None and theft.jp.penal_articles == ((235, None),)
    assert theft.judgment_date is not None and theft.judgment_date.isoformat() == "2020-01-15"
    assert theft.facts.startswith("被告人は，令和元年６月１日") and theft.reasoning.startswith("罰条")
    assert "量刑の理由" in theft.reasoning and "求刑" not in theft.reasoning
    assert theft.judgment.startswith("被告人を懲役２年") and "理" not in theft.judgment[-3:]
    assert got["jp-90003"].sentence.fine_yuan == 300_000
    assert got["jp-90004"].jp.other_laws == ("覚醒剤取締法",)  # type: ignore[union-attr]
    assert jp_precedent_files(tmp_path) == sorted(paths)


def _reject(tmp_path: Path, value: object, name: str = "x.json") -> JudgmentReject:
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False),
                    encoding="utf-8")
    (got,) = list(read_jp_precedents([path]))
    assert isinstance(got, JudgmentReject)
    return got


def test_rejects_name_their_reason(tmp_path: Path) -> None:
    many = THEFT_SUSPENDED.replace("被告人を懲役２年に処する。",
                                   "被告人Ａを懲役２年に，被告人Ｂを懲役１年に処する。")
    assert _reject(tmp_path, record(many, lawsuit_id="1", case_name="窃盗")).reason == "multi_defendant"
    assert _reject(tmp_path, record("", lawsuit_id="2", case_name="窃盗")).reason == "empty_field"
    assert _reject(tmp_path, record("理由だけ", lawsuit_id="3", case_name="窃盗")).reason == "missing_field"
    assert _reject(tmp_path, "{not json").reason == "malformed_json"
    assert _reject(tmp_path, {"text_id": "a"}).reason == "missing_field"
    assert probe_jp_precedent(tmp_path / "x.json") is not None
    path = tmp_path / "dup.json"
    path.write_text(json.dumps(CASES["theft_prison"], ensure_ascii=False), encoding="utf-8")
    first, second = read_jp_precedents([path, path])
    assert isinstance(first, Judgment) and isinstance(second, JudgmentReject)
    assert second.reason == "duplicate_id"


#: per real file: the parsed penalty and applied laws, or the reject reason
REAL = {
    "R02-02-19_Sapporo-DC_R1wa886_89302.json": "multi_defendant",
    "R02-03-18_Fukuoka-DC_R1wa1008_89448.json": ("懲役", 22, 36, 1_000_000, (), ("著作権法",)),
    "R02-03-23_Nagoya-DC_R1wa2156_89878.json": ("懲役", 8, 36, None, (), (
        "放射性同位元素等による放射線障害の防止に関する法律", "毒物及び劇物取締法")),
    "R02-07-08_Osaka-DC_R1wa2326_89617.json": ("懲役", 192, None, None,
                                               ((254, None), (108, None), (211, None)),
                                               ("廃棄物の処理及び清掃に関する法律",)),
}


def test_real_precedents() -> None:
    folder = shared_path("realdata", "judgments", "jp-precedents-sample")
    assert probe_jp_precedent(jp_precedent_files(folder)[0]) is None
    for got in read_jp_precedents(jp_precedent_files(folder)):
        want = REAL[got.source if isinstance(got, JudgmentReject) else got.source.path]
        if isinstance(got, JudgmentReject):
            assert got.reason == want
            continue
        s, jp = got.sentence, got.jp
        assert jp is not None
        assert (s.kind, s.months, s.probation_months, s.fine_yuan, jp.penal_articles,
                jp.other_laws) == want
    osaka = next(r for r in read_jp_precedents([folder / "R02-07-08_Osaka-DC_R1wa2326_89617.json"]))
    assert isinstance(osaka, Judgment) and osaka.jp is not None
    assert osaka.jp.detention_credit_days == 250 and 45 in osaka.jp.general_articles
