"""Corpora read by a declared field mapping (LeCaRD, Caseformer, a user's): the parts become
spans of the full text as JuDGE's do, every bad record is a reject with its line and reason,
ids and cases are de-duplicated across files."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from buildds.extract.judgments import (
    BUILTIN_MAPS,
    CaseRegistry,
    load_input,
    place_parts,
    read_mapped,
)
from buildds.schema.judgment_fields import JudgmentFieldMap
from buildds.schema.judgments import Judgment, JudgmentReject
from tests.extract.judgments.corpus_records import (
    APPEAL,
    BASIS,
    FACTS,
    REASON,
    caseformer,
    judge,
    lecard,
    qw,
    write,
)

LECARD, CASEFORMER = BUILTIN_MAPS["lecard"], BUILTIN_MAPS["caseformer"]


def read(path: Path, fmap: JudgmentFieldMap, **kw: object) -> list[Judgment | JudgmentReject]:
    return list(read_mapped(path, fmap, **kw))  # type: ignore[arg-type]


def test_a_lecard_record_is_split_like_a_judge_one(tmp_path: Path) -> None:
    (j,) = read(write(tmp_path / "c.jsonl", [lecard()]), LECARD)
    assert isinstance(j, Judgment)
    assert (j.id, j.dataset, j.line) == ("w1", "lecard", 1)
    assert j.facts == FACTS and j.facts_span is not None
    assert j.reasoning == REASON + BASIS.removesuffix("判决如下：")
    assert j.judgment.startswith("判决如下：") and APPEAL not in j.judgment
    assert "刑期从判决执行之日起计算" in j.judgment  # the date note stays in the part
    for span in (j.facts_span, j.reasoning_span, j.judgment_span):
        assert span is not None and j.full_text[span.start:span.end] == span.text
    assert j.charges == ("盗窃",) and j.articles == (264, 67)
    assert (j.sentence.kind, j.sentence.months, j.sentence.fine_yuan) == ("有期徒刑", 6, 2000)
    assert j.judgment_date == date(2017, 11, 20)  # 二○一七年十一月二十日: ○ read as 〇
    assert not [p for p in j.problems if p.severity == "error"]


def test_caseformer_reasoning_takes_in_the_statutory_basis(tmp_path: Path) -> None:
    (j,) = read(write(tmp_path / "d.jsonl", [caseformer()]), CASEFORMER)
    assert isinstance(j, Judgment)
    assert "依照" not in REASON and j.reasoning.endswith("第六十七条第三款之规定，")
    assert j.articles == (264, 67)  # cited only in the sentence the reason field leaves out
    assert j.judgment.startswith("判决如下被告人甲某犯盗窃罪")  # no punctuation upstream
    assert APPEAL not in j.judgment and j.judgment_date == date(2018, 12, 15)


@pytest.mark.parametrize(("record", "reason", "words"), [
    (lecard(pjjg=None), "missing_field", "no judgment (pjjg)"),
    (lecard(qw=12), "wrong_type", "qw (full_text) is a number"),
    (lecard(cpfxgc="  "), "empty_field", "cpfxgc (reasoning) is empty"),
    (lecard(writId=["x"]), "wrong_type", "writId is a list"),
    (lecard(crime="盗窃罪"), "wrong_type", "crime (charges) is a string"),
    (lecard(pjjg="被告人甲某犯诈骗罪，判处拘役一个月。"), "part_not_in_text", "not in the full text"),
    (lecard(title="甲某盗窃罪二审刑事判决书"), "not_first_instance", "appeal"),
    (lecard(title="甲某盗窃罪刑事判决书", qw=qw().replace("刑初", "刑终")), "not_first_instance",
     "2017某0101刑终1号"),
    (lecard(sentence="一、被告人甲某犯盗窃罪，判处拘役一个月。 二、被告人乙某犯盗窃罪，判处拘役二个月。"),
     "multi_defendant", "2 defendants (甲某、乙某)"),
    (lecard(sentence="被告人甲某犯盗窃罪，判处拘役一个月。 被告人乙某犯盗窃罪，判处拘役二个月。"),
     "multi_defendant", "2 defendants"),
])
def test_a_bad_record_is_rejected_with_line_and_reason(tmp_path: Path, record: str,
                                                       reason: str, words: str) -> None:
    got = read(write(tmp_path / "c.jsonl", [lecard("w0", "a0", 9), record, "{"]), LECARD)
    assert isinstance(got[0], Judgment)
    bad = got[1]
    assert isinstance(bad, JudgmentReject), bad
    assert (bad.source, bad.line, bad.reason) == ("c.jsonl", 2, reason)
    assert bad.message.startswith("line 2: ") and words in bad.message
    assert isinstance(got[2], JudgmentReject) and got[2].reason == "malformed_json"


def test_duplicate_ids_and_cases_name_the_first(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", [lecard("w1", "a1", 1), lecard("w1", "a1", 1),
                                     lecard("w2", "a1", 2)])
    got = read(a, LECARD)
    assert [getattr(r, "reason", "ok") for r in got] == ["ok", "duplicate_id", "duplicate_case"]
    assert "id w1 is already a.jsonl line 1 (the first is kept)" in got[1].message  # type: ignore[union-attr]
    assert "case a1 is already a.jsonl line 1" in got[2].message  # type: ignore[union-attr]


def test_a_case_in_two_corpora_is_kept_once(tmp_path: Path) -> None:
    """JuDGE's text_id is LeCaRD's ajId; Caseformer shares case numbers only."""
    seen: dict[str, str] = {}
    cases = CaseRegistry()
    rejects: list[JudgmentReject] = []
    j = write(tmp_path / "test.json", [judge("a1", 1), judge("a5", 5)])
    c = write(tmp_path / "cand.jsonl", [lecard("w1", "a1", 1), lecard("w2", "a2", 2),
                                        lecard("w3", "a3", 5)])
    f = write(tmp_path / "docs.jsonl", [caseformer("（2017）某0101刑初2号"), caseformer()])
    kept = [x.id for path, fmap in ((j, BUILTIN_MAPS["judge"]), (c, LECARD), (f, CASEFORMER))
            for x in load_input(path, fmap, rejects, seen=seen, cases=cases)]
    assert kept == ["a1", "a5", "w2", "（2018）某0102刑初7号"]
    assert [(r.source, r.line, r.reason) for r in rejects] == [
        ("cand.jsonl", 1, "duplicate_case"), ("cand.jsonl", 3, "duplicate_case"),
        ("docs.jsonl", 1, "duplicate_case")]
    assert "case a1 is already test.json line 1" in rejects[0].message
    assert "case 2017某0101刑初5号 is already test.json line 2" in rejects[1].message
    assert "is already cand.jsonl line 2" in rejects[2].message


def test_a_user_mapping_with_dotted_paths_and_no_full_text(tmp_path: Path) -> None:
    fmap = JudgmentFieldMap(name="mine", detect=("doc",), id="doc.no", facts="doc.parts.facts",
                            reasoning="doc.parts.why", judgment="doc.parts.ruling",
                            date="doc.day", procedure="doc.kind")
    rec = {"doc": {"no": 7, "day": "2019-03-04", "kind": "一审",
                   "parts": {"facts": FACTS, "why": REASON + BASIS,
                             "ruling": "被告人甲某犯盗窃罪，判处拘役三个月。"}}}
    (j,) = read(write(tmp_path / "u.jsonl", [json.dumps(rec, ensure_ascii=False)]), fmap)
    assert isinstance(j, Judgment)
    assert (j.id, j.dataset, j.judgment_date) == ("7", "mine", date(2019, 3, 4))
    assert j.full_text == "\n".join([FACTS, REASON + BASIS, "被告人甲某犯盗窃罪，判处拘役三个月。"])
    assert j.judgment.startswith("判决如下：") and (j.sentence.kind, j.sentence.months) == ("拘役", 3)


def test_without_an_operative_part_the_full_text_is_split() -> None:
    full = "头部 " + FACTS + " " + REASON + BASIS + " 被告人甲某犯盗窃罪，判处拘役三个月。 " + APPEAL
    placed = place_parts(full, FACTS, None, None)
    assert not isinstance(placed, str)
    _, _, facts_r, reasoning_r, judgment_r = placed
    assert facts_r and full[slice(*facts_r)] == FACTS
    assert reasoning_r and full[slice(*reasoning_r)].startswith("本院认为")
    assert judgment_r and full[slice(*judgment_r)].startswith("判决如下")


def test_declared_charges_that_differ_are_a_warning(tmp_path: Path) -> None:
    (j,) = read(write(tmp_path / "c.jsonl", [lecard(crime=["诈骗罪"])]), LECARD)
    assert isinstance(j, Judgment)
    assert [p.code for p in j.problems] == ["charges_differ"]


def test_appeals_can_be_kept(tmp_path: Path) -> None:
    path = write(tmp_path / "c.jsonl", [lecard(title="甲某盗窃罪二审刑事判决书")])
    (j,) = read(path, LECARD, first_instance_only=False)
    assert isinstance(j, Judgment)


def test_judge_appeals_are_rejected_by_case_number_unless_kept(tmp_path: Path) -> None:
    appeal = judge("a9", 9).replace("刑初9号", "刑终9号")
    path = write(tmp_path / "test.json", [judge("a1", 1), appeal])
    rejects: list[JudgmentReject] = []
    kept = list(load_input(path, BUILTIN_MAPS["judge"], rejects))
    assert [j.id for j in kept] == ["a1"]
    (r,) = rejects
    assert (r.line, r.reason) == (2, "not_first_instance")
    assert "case number 2017某0101刑终9号" in r.message
    both = list(load_input(path, BUILTIN_MAPS["judge"], [], first_instance_only=False))
    assert [j.id for j in both] == ["a1", "a9"]


def test_an_operative_part_before_the_reasoning_is_refused(tmp_path: Path) -> None:
    """Caseformer's speedy-procedure tables put something else in ``result``, found only
    before the reasoning: it is not taken for the operative part."""
    record = caseformer(result="公诉机关指控被告人甲某犯盗窃罪")
    (r,) = read(write(tmp_path / "d.jsonl", [record]), CASEFORMER)
    assert isinstance(r, JudgmentReject) and r.reason == "part_not_in_text"
    assert "not in the full text after the reasoning" in r.message
