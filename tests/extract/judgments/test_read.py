"""Loaders for JuDGE and CAIL2018 judgments: small hand-written records, then coverage and
agreement with the structured ground truth on the real files (skipped when absent)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from buildds.extract.judgments import (
    load_cail,
    load_judge,
    parse_articles,
    parse_charges,
    parse_sentence,
    read_cail,
    read_judge,
)
from buildds.schema.judgments import CUSTODIAL_KINDS, Judgment, JudgmentReject
from tests.conftest import shared_path

FACTS = "经审理查明，被告人甲某盗窃手机一部，价值人民币三千元。"
FULL = ("某某区人民法院 刑事判决书 公诉机关某某区人民检察院。 被告人甲某，男。 " + FACTS
        + " 本院认为，被告人甲某盗窃他人财物，数额较大，其行为已构成盗窃罪。被告人甲某到案后如实供述自己的罪行，"
        "可以从轻处罚。依照《中华人民共和国刑法》第二百六十四条、第六十七条第三款之规定，判决如下： "
        "被告人甲某犯盗窃罪，判处有期徒刑六个月，并处罚金人民币二千元。 如不服本判决，可在接到判决书的第二日起十日内提出上诉。 "
        "审判员乙某 附：相关法律条文")
MULTI = FULL.replace("被告人甲某犯盗窃罪，判处有期徒刑六个月，并处罚金人民币二千元。",
                     "一、被告人甲某犯盗窃罪，判处有期徒刑六个月。 二、被告人丙某犯盗窃罪，判处拘役三个月。")


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_load_judge_small(tmp_path: Path) -> None:
    path = _write(tmp_path / "test.json", [
        json.dumps({"text_id": "a", "text": FACTS, "la": [264, 67], "fd": FULL}, ensure_ascii=False),
        "{not json",
        json.dumps({"text_id": "m", "text": FACTS, "la": [264], "fd": MULTI}, ensure_ascii=False),
        json.dumps({"text_id": "n", "text": FACTS}, ensure_ascii=False),
        json.dumps({"text_id": "b", "text": FACTS, "la": [], "fd": "被告人甲某，男。" + FACTS},
                   ensure_ascii=False),
    ])
    rejects: list[JudgmentReject] = []
    judgments = list(load_judge(path, rejects))
    assert [(r.line, r.reason) for r in rejects] == [
        (2, "malformed_json"), (3, "multi_defendant"), (4, "missing_field")]
    assert rejects[1].id == "m" and "甲某、丙某" in rejects[1].message
    j, broken = judgments
    assert (j.id, j.dataset, j.line, j.source.path) == ("a", "judge", 1, "test.json")
    assert j.facts == FACTS and j.facts_span is not None
    assert j.reasoning.startswith("本院认为") and j.reasoning.endswith("之规定，")
    assert j.judgment.startswith("判决如下") and "如不服" not in j.judgment
    assert j.charges == ("盗窃",) and j.articles == (264, 67)
    assert j.charge_refs[0].span.text == "盗窃"
    s = j.sentence
    assert (s.kind, s.months, s.fine_yuan, s.probation_months) == ("有期徒刑", 6, 2000, None)
    assert s.term_span is not None and j.full_text[s.term_span.start:s.term_span.end] == "六个月"
    assert j.amount_involved_yuan == 3000
    assert [f.kind for f in j.factors] == ["坦白"]
    assert j.defendants == ("甲某",) and j.problems == ()
    # no 本院认为 / 判决如下: kept, with error problems, never a crash
    assert broken.id == "b" and broken.sentence.kind == "none"
    assert {p.code for p in broken.problems} >= {"no_judgment_part", "no_reasoning"}


def test_judgment_spans_recover_original(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.json", [json.dumps({"text_id": "a", "text": FACTS, "fd": FULL})])
    j = next(load_judge(path))
    # an injector edits by span and can undo the edit exactly
    span = j.sentence.term_span
    assert span is not None
    edited = j.full_text[:span.start] + "三年二个月" + j.full_text[span.end:]
    restored = edited[:span.start] + span.text + edited[span.start + len("三年二个月"):]
    assert restored == j.full_text
    with pytest.raises(ValueError):
        Judgment.model_validate({**j.model_dump(), "full_text": edited})


def test_read_judge_logs_rejects_without_list(tmp_path: Path, caplog: pytest.LogCaptureFixture
                                              ) -> None:
    path = _write(tmp_path / "t.json", ["[1, 2]"])
    assert list(load_judge(path)) == []
    assert "not_an_object" in caplog.text and "line 1" in caplog.text
    assert [type(r) for r in read_judge(path)] == [JudgmentReject]


def _cail(fact: str, **meta: object) -> str:
    base: dict[str, object] = {
        "relevant_articles": [234], "accusation": ["故意伤害"], "punish_of_money": 0,
        "criminals": ["李×1"],
        "term_of_imprisonment": {"death_penalty": False, "imprisonment": 6,
                                 "life_imprisonment": False}}
    base.update(meta)
    return json.dumps({"fact": fact, "meta": base}, ensure_ascii=False)


def test_load_cail_small(tmp_path: Path) -> None:
    fact = "公诉机关指控：被告人李×1将王×推倒在地，致王×轻伤；后被告人李×1投案自首。"
    path = _write(tmp_path / "data_train.json", [
        _cail(fact),
        _cail(fact, criminals=["甲", "乙"]),
        '{"fact": "x"',
        _cail(fact, term_of_imprisonment={"death_penalty": True, "imprisonment": 0,
                                          "life_imprisonment": False}),
        _cail("被告人盗窃财物，价值人民币5000元。", punish_of_money=3000,
              term_of_imprisonment={"death_penalty": False, "imprisonment": 0,
                                    "life_imprisonment": False}),
        json.dumps({"fact": "x", "meta": {"relevant_articles": ["abc"], "criminals": ["a"]}}),
        _cail(fact, criminals=[]),
    ])
    rejects: list[JudgmentReject] = []
    cs = list(load_cail(path, rejects))
    assert [(r.line, r.reason) for r in rejects] == [
        (2, "multi_defendant"), (3, "malformed_json"), (6, "wrong_type"), (7, "no_defendant")]
    assert rejects[2].message == "line 6: meta.relevant_articles is not a list of article numbers"
    first, death, fine_only = cs
    assert first.id == "cail-1" and first.sentence_from == "meta"
    assert (first.sentence.kind, first.sentence.months) == ("有期徒刑", 6)
    assert first.charges == ("故意伤害",) and first.articles == (234,)
    assert first.defendants == ("李×1",) and [f.kind for f in first.factors] == ["自首"]
    assert first.full_text == fact and first.reasoning == first.judgment == ""
    assert death.sentence.kind == "死刑"
    assert (fine_only.sentence.kind, fine_only.sentence.fine_yuan) == ("单处罚金", 3000)
    assert fine_only.amount_involved_yuan == 5000
    assert sum(1 for _ in read_cail(path)) == 7


# --------------------------------------------------------------------------- real data
def _share(n: int, d: int) -> float:
    return n / d if d else 0.0


@pytest.fixture(scope="module")
def judge_run() -> tuple[list[Judgment], list[JudgmentReject], dict[str, list[int]]]:
    path = shared_path("realdata", "judgments", "judge-benchmark", "test.json")
    rejects: list[JudgmentReject] = []
    judgments = list(load_judge(path, rejects))
    la = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            record = json.loads(line)
            la[record["text_id"]] = record["la"]
    return judgments, rejects, la


def test_judge_coverage(judge_run: tuple[list[Judgment], list[JudgmentReject],
                                         dict[str, list[int]]]) -> None:
    judgments, rejects, la = judge_run
    assert len(judgments) + len(rejects) == 501
    assert {r.reason for r in rejects} == {"multi_defendant"}
    assert 40 <= len(rejects) <= 60  # 50 measured
    n = len(judgments)
    custodial = [j for j in judgments if j.sentence.kind in CUSTODIAL_KINDS]
    cov = {
        "charges": _share(sum(bool(j.charges) for j in judgments), n),
        "articles": _share(sum(bool(j.articles) for j in judgments), n),
        "sentence_kind": _share(sum(j.sentence.kind != "none" for j in judgments), n),
        "months": _share(sum(j.sentence.months is not None for j in custodial), len(custodial)),
        "fine_where_罚金": _share(
            sum(j.sentence.fine_yuan is not None for j in judgments if "罚金人民币" in j.judgment
                or "并处罚金" in j.judgment),
            sum("罚金人民币" in j.judgment or "并处罚金" in j.judgment for j in judgments)),
        "amount": _share(sum(j.amount_involved_yuan is not None for j in judgments), n),
        "factor": _share(sum(bool(j.factors) for j in judgments), n),
    }
    # measured: 1.00, 0.993, 0.996, 0.998, ~0.98, 0.32, 0.92
    floors = {"charges": 0.98, "articles": 0.98, "sentence_kind": 0.98, "months": 0.97,
              "fine_where_罚金": 0.95, "amount": 0.25, "factor": 0.88}
    low = {k: round(v, 3) for k, v in cov.items() if v < floors[k]}
    assert not low, f"coverage below floor: {low} (all: {cov})"
    # ground truth: JuDGE's `la` (cited articles) vs the articles parsed from the reasoning
    exact = _share(sum(set(j.articles) == set(la[j.id]) for j in judgments), n)
    assert exact >= 0.93, exact  # measured 0.956
    for j in judgments:
        assert all(j.full_text[s.start:s.end] == s.text for s in j.spans())


def test_judge_term_agrees_with_stated_dates(
        judge_run: tuple[list[Judgment], list[JudgmentReject], dict[str, list[int]]]) -> None:
    """Internal ground truth: the 刑期 note (即自2017年4月28日起至2017年11月27日止) spans the
    term; the parsed months must match it (±1 month for day-level rounding)."""
    import re
    judgments, _, _ = judge_run
    dates = re.compile(r"自(\d{4})年(\d{1,2})月(\d{1,2})日起?至(\d{4})年(\d{1,2})月(\d{1,2})日止")
    checked = agree = 0
    for j in judgments:
        if j.sentence.kind not in CUSTODIAL_KINDS or j.sentence.months is None:
            continue
        found = dates.findall(j.judgment)
        if len(found) != 1:
            continue
        y1, m1, d1, y2, m2, d2 = map(int, found[0])
        span = (y2 - y1) * 12 + (m2 - m1) + (1 if d2 >= d1 else 0)
        checked += 1
        agree += abs(span - j.sentence.months) <= 1
    assert checked >= 200
    assert _share(agree, checked) >= 0.85, (agree, checked)


def test_cail_coverage_and_agreement() -> None:
    path = shared_path("realdata", "judgments", "cail2018-sample", "data_train.json")
    rejects: list[JudgmentReject] = []
    cs = list(load_cail(path, rejects))
    assert len(cs) == 3675 and rejects == []
    n = len(cs)
    kinds = Counter(j.sentence.kind for j in cs)
    assert kinds["死刑"] == 37 and kinds["无期徒刑"] == 45
    assert sum(j.sentence.fine_yuan is not None for j in cs) == 1753
    amount = _share(sum(j.amount_involved_yuan is not None for j in cs), n)
    factor = _share(sum(bool(j.factors) for j in cs), n)
    assert amount >= 0.25 and factor >= 0.35, (amount, factor)  # measured 0.305, 0.41
    # the facts rarely hold the outcome; where they do (a 判处 … quoted, an unmasked 犯…罪 or
    # 刑法第…条), compare with the meta
    stats = Counter()
    for j in cs:
        s = parse_sentence(j.facts)
        if s.kind in CUSTODIAL_KINDS and s.months is not None and j.sentence.months:
            stats["term_found"] += 1
            stats["term_agree"] += s.months == j.sentence.months
        names = {c.name for c in parse_charges(j.facts)} - {"××", "×"}
        names = {x for x in names if "×" not in x}
        if names:
            stats["charge_found"] += 1
            stats["charge_agree"] += bool(names & set(j.charges))
        arts = {a.number for a in parse_articles(j.facts)}
        if arts:
            stats["article_found"] += 1
            stats["article_agree"] += arts <= set(j.articles)
    # measured: charge names survive masking only for earlier convictions (前科: 曾因犯赌博罪…),
    # so they agree with the current accusation in 0 of 103; terms and articles are masked
    # or absent (0 found). The CAIL meta is the only ground truth there is.
    assert stats["charge_found"] >= 100
    assert stats["charge_agree"] <= stats["charge_found"] * 0.1


def test_detect_format_skips_bad_lines_and_reports_encoding(tmp_path: Path) -> None:
    from buildds.extract.judgments import detect_format

    record = json.dumps({"text_id": "a", "text": FACTS, "fd": FULL}, ensure_ascii=False)
    path = tmp_path / "t.json"
    path.write_bytes(b"\xff\xfe" + ("{bad\n[1]\n" + record + "\n").encode("utf-16-le"))
    found = detect_format(path)
    assert (found.format, found.encoding.name, found.encoding.found_by) == (
        "judge", "utf-16-le", "bom")
    assert found.name == "t.json" and len(found.sha256) == 64
    rejects: list[JudgmentReject] = []
    (j,) = load_judge(path, rejects)
    assert j.facts == FACTS
    assert [(r.line, r.reason) for r in rejects] == [(1, "malformed_json"), (2, "not_an_object")]
    other = tmp_path / "o.json"
    other.write_text('{"x": 1}\n{oops\n', encoding="utf-8")
    found = detect_format(other)
    assert found.format is None and [r[:2] for r in found.rejects] == [
        (1, "missing_field"), (2, "malformed_json")]


def test_ids_are_unique_across_files_with_seen(tmp_path: Path) -> None:
    line = json.dumps({"text_id": "a", "text": FACTS, "fd": FULL}, ensure_ascii=False)
    first = _write(tmp_path / "one.json", [line])
    second = _write(tmp_path / "two.json", [line, line.replace('"a"', '"b"')])
    seen: dict[str, str] = {}
    assert [j.id for j in load_judge(first, seen=seen)] == ["a"]
    rejects: list[JudgmentReject] = []
    assert [j.id for j in load_judge(second, rejects, seen=seen)] == ["b"]
    assert [(r.source, r.line, r.reason, r.message) for r in rejects] == [
        ("two.json", 1, "duplicate_id", "line 1: id a is already one.json line 1 (the first is kept)")]
