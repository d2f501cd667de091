"""AR-Bench rows, settings, validation and export on hand-made judgments (real parsers and
injectors, the hand-built profile of tests/inject_errors/test_injectors.py)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from buildds.inject_errors.arbench_rows import (
    arbench_rows,
    injected_row,
    matched_normals,
    normal_row,
    select_normals,
    task_rows,
)
from buildds.inject_errors.normal_matching import chapter_of, match_bins
from buildds.schema.arbench import COLUMNS, ArbenchRow
from buildds.schema.judgments import InjectedJudgment
from buildds.validate.arbench import validate_arbench
from tests.inject_errors.test_injectors import PROFILE, run, theft

TEXTS = {(264, None): "第二百六十四条　盗窃公私财物，数额较大的，处三年以下有期徒刑。",
         (67, None): "第六十七条　犯罪以后自动投案，如实供述自己的罪行的，是自首。"}


def _inj(etype: str, **kw: object) -> InjectedJudgment:
    out = run(etype, theft(**kw))  # type: ignore[arg-type]
    assert isinstance(out, InjectedJudgment), out
    return out


@pytest.fixture(scope="module")
def rows() -> list[ArbenchRow]:
    judgments = [theft(rid=f"j{i}", amount=str(2000 + i)) for i in range(6)]
    injected = [_inj("E3", rid="j0", factor="", extra=""), _inj("E4", rid="j1"), _inj("E1", rid="j2")]
    return arbench_rows(judgments, injected, texts=TEXTS, profile=PROFILE, seed=0,
                        normal_share=0.5)


def test_normal_row_and_settings() -> None:
    j = theft()
    row = normal_row(j, TEXTS, PROFILE)
    assert list(row.as_dict()) == list(COLUMNS)
    assert (row.id, row.error_type, row.error_class, row.label) == ("j1-none", "none", "none", 0)
    assert row.judgment == row.original_judgment == j.judgment
    assert row.cited_articles == ("第二百六十四条", "第六十七条")
    assert row.articles_text == TEXTS[(264, None)] + "\n\n" + TEXTS[(67, None)]
    assert row.factor == "mitigating"
    assert row.input_s1 == f"【案件事实】\n{j.facts}\n\n【判决结果】\n{j.judgment}"
    assert row.input_s2 == (f"【案件事实】\n{j.facts}\n\n【裁判理由】\n{j.reasoning}\n\n"
                            f"【判决结果】\n{j.judgment}")
    assert row.input_s3 == row.input_s2 + "\n\n【相关法条】\n" + row.articles_text
    assert row.input_s4 == row.input_s2 and row.input_s5 == row.input_s3
    # the export's values: lists for the list columns, compact sorted JSON for the JSON ones
    d = row.as_dict()
    assert d["cited_articles"] == ["第二百六十四条", "第六十七条"] and d["charges"] == ["盗窃"]
    assert (d["gold_correction"], d["rationale"], d["edits"]) == ("{}", "{}", "[]")
    assert type(d["label"]) is int and type(d["seed"]) is int


def test_injected_rows_per_setting() -> None:
    e4 = _inj("E4")
    row = injected_row(e4, TEXTS, PROFILE)
    assert (row.error_type, row.error_class, row.label) == ("E4", "prison_term", 1)
    assert row.judgment == e4.judgment != e4.original.judgment
    assert row.reasoning == e4.original.reasoning          # S2/S3: normal reasoning
    assert row.anomalous_reasoning == e4.reasoning != e4.original.reasoning  # S4/S5
    assert "如实供述" in row.input_s2 and "如实供述" not in row.input_s4
    # E4 drops the factor's article: S5 cites fewer articles than S3
    assert "第六十七条" in row.cited_articles and "第六十七条" not in row.anomalous_cited_articles
    assert "第六十七条" in row.input_s3 and "第六十七条" not in row.input_s5.split("【相关法条】")[1]
    assert row.gold_correction == e4.gold_correction and row.edits == e4.edits
    d = row.as_dict()
    assert json.loads(d["gold_correction"]) == e4.gold_correction
    assert json.loads(d["rationale"]) == e4.rationale
    assert json.loads(d["edits"]) == [e.model_dump() for e in e4.edits]
    assert d["edits"] == json.dumps([e.model_dump() for e in e4.edits], ensure_ascii=False,
                                    sort_keys=True, separators=(",", ":"))
    e3 = injected_row(_inj("E3", factor="", extra=""), TEXTS, PROFILE)
    assert e3.error_class == "prison_term" and e3.gold_correction == {"months": 8}
    assert e3.as_dict()["gold_correction"] == '{"months":8}'
    with pytest.raises(dataclasses.FrozenInstanceError):
        e3.label = 0  # type: ignore[misc]


def test_rows_tasks_and_normal_share(rows: list[ArbenchRow]) -> None:
    ids = [r.id for r in rows]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    tasks = task_rows(rows)
    assert len(tasks["classification"]) == len(tasks["correction"]) == 3
    assert len(tasks["detection"]) == len(rows)
    normals = [r for r in rows if r.label == 0]
    # at most one untouched row per error type (share 0.5 of one row, half rounded up), each
    # drawn for its type (normal_matching: E3/E4 move the term out of every untouched row's
    # bin here — a shortfall), each judgment at most once
    assert [r.rationale["matched_for"] for r in normals] == ["E1"]
    # E1 changed the charge (盗窃 → 抢夺, both of chapter 5): matched on the chapter
    assert normals[0].rationale["matched_on"] == "corpus·chapter·kind·term·fine"
    chapter = chapter_of(PROFILE)  # type: ignore[arg-type]
    assert match_bins(normals[0].judgment, chapter)[1:] == match_bins(
        next(r.judgment for r in rows if r.error_type == "E1"), chapter)[1:]
    # the draw is per id: order does not matter, and it is the same again
    judgments = [theft(rid=f"j{i}") for i in range(6)]
    assert [j.id for j in select_normals(judgments, 0.5, 0)] == \
        sorted(j.id for j in select_normals(list(reversed(judgments)), 0.5, 0))
    assert not select_normals(judgments, 0.0, 0) and len(select_normals(judgments, 1.0, 0)) == 6


def test_validation_passes_and_names_broken_rows(rows: list[ArbenchRow]) -> None:
    injected = [_inj("E3", rid="j0", factor="", extra=""), _inj("E4", rid="j1"), _inj("E1", rid="j2")]
    report = validate_arbench(rows, profile=PROFILE, injected=injected)
    assert report.ok, report.errors
    assert report.counts["by_error_type"] == {"none": len(rows) - 3, "E1": 1, "E3": 1, "E4": 1}
    assert report.checked["E3_inside_range"] == 1 and report.checked["edits_roundtrip"] == 3

    e3 = next(r for r in rows if r.error_type == "E3")
    # move the E3 term back inside the tier's range (盗窃 数额较大: 6–36 months)
    e3 = dataclasses.replace(e3, judgment=e3.judgment.replace(e3.edits[0].new, "一年"))
    broken = [e3 if r.id == e3.id else r for r in rows]
    dup = dataclasses.replace(next(r for r in rows if r.error_type == "E1"), label=0)
    broken.append(dup)
    report = validate_arbench(broken, profile=PROFILE, injected=injected)
    assert not report.ok
    checks = {e["check"]: e for e in report.errors}
    assert e3.id in checks["E3_inside_range"]["ids"]
    assert e3.id in checks["E3_inside_range"]["message"] and "inside" in checks["E3_inside_range"]["message"]
    assert e3.id in checks["edits_roundtrip"]["ids"]
    assert any(dup.id in e["ids"] for c, e in checks.items() if c.startswith("schema:"))
    md = report.to_markdown()
    assert "FAILED" in md and e3.id in md


def test_no_rows_is_valid_not_a_schema_failure() -> None:
    # e.g. CAIL records (no judgment text): nothing injected is nothing wrong
    report = validate_arbench([], profile=PROFILE, injected=[])
    assert report.ok, report.errors
    assert report.counts["rows"] == 0


def test_validation_rejects_non_confusable_e1(rows: list[ArbenchRow]) -> None:
    e1 = next(r for r in rows if r.error_type == "E1")
    pair = e1.rationale["confusable_pair"]
    assert isinstance(pair, list)
    e1 = dataclasses.replace(e1, rationale={**e1.rationale,
                                            "confusable_pair": [pair[0], "故意杀人"]})
    broken = [e1 if r.id == e1.id else r for r in rows]
    report = validate_arbench(broken, profile=PROFILE)
    assert [e["ids"] for e in report.errors if e["check"] == "E1_not_confusable"] == [[e1.id]]


def test_export_loads_and_is_byte_identical(rows: list[ArbenchRow], tmp_path) -> None:  # type: ignore[no-untyped-def]
    datasets = pytest.importorskip("datasets")
    import pandas as pd

    from buildds.export.arbench import export_arbench

    a = export_arbench(rows, out=tmp_path / "a", fingerprint="f" * 32, provenance={}, seed=0)
    b = export_arbench(rows, out=tmp_path / "b", fingerprint="f" * 32, provenance={}, seed=0)
    assert a.files == b.files and "README.md" in a.files
    assert a.splits == {"detection": len(rows), "classification": 3, "correction": 3}
    dd = datasets.load_from_disk(str(a.dataset_dir))
    assert set(dd) == {"detection", "classification", "correction"}
    assert dd["detection"].features["label"].dtype == "int8"
    assert list(dd["classification"]["error_class"]) == ["prison_term", "prison_term", "charge"]
    frame = pd.read_parquet(a.parquet("detection"))
    assert list(frame.columns) == list(COLUMNS) and len(frame) == len(rows)
    assert list(frame["id"]) == [r.id for r in rows]
    assert frame.iloc[0].to_dict()["edits"] == rows[0].as_dict()["edits"]
    card = a.card.read_text("utf-8")
    assert card.startswith("---\n") and "input_s5" in card and "## Rows per error type" in card
    export_arbench(rows, out=tmp_path / "a", fingerprint="f" * 32, provenance={}, seed=0)
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["README.md", "data", "dataset"]


def test_as_dict_follows_the_export_features(rows: list[ArbenchRow]) -> None:
    pytest.importorskip("datasets")
    from buildds.export.arbench import arbench_features

    features = list(arbench_features())
    assert list(COLUMNS) == features
    assert all(list(r.as_dict()) == features for r in rows)
    assert [f.name for f in dataclasses.fields(ArbenchRow)] == features


def test_normals_come_from_the_injected_rows_judgments() -> None:
    """Untouched rows are drawn from the injected rows' population (issue 13): a judgment no
    error applies to is never one, and one with k versions is kept with probability
    min(1, share·k) — so with share 0.5 every judgment with two versions is kept."""
    from collections import Counter
    from types import SimpleNamespace

    judgments = [theft(rid=f"j{i:03d}") for i in range(400)]
    versions = [SimpleNamespace(source_id=f"j{i:03d}") for i in range(100, 400)]
    versions += [SimpleNamespace(source_id=f"j{i:03d}") for i in range(300, 400)]
    kept = Counter(int(j.id[1:]) // 100 for j in select_normals(judgments, 0.5, 0, versions))
    assert kept[0] == 0  # no injection: never a normal row
    assert 30 < kept[1] < 70 and 30 < kept[2] < 70  # one version: about half
    assert kept[3] == 100  # two versions: share·2 = 1
    again = select_normals(list(reversed(judgments)), 0.5, 0, list(reversed(versions)))
    assert sorted(j.id for j in again) == [j.id for j in select_normals(judgments, 0.5, 0, versions)]


def test_matched_normals_are_the_rows_drawn_for_the_type(
        rows: list[ArbenchRow]) -> None:
    assert [r.rationale["matched_for"] for r in matched_normals(rows, "E1")] == ["E1"]
    assert matched_normals(rows, "E4") == matched_normals(rows, "E6") == []
    # rows without the record (a --profile jp build): the injected rows' own judgments
    plain = [dataclasses.replace(r, rationale={}) if r.label == 0 else r for r in rows]
    assert {r.source_id for r in matched_normals(plain, "E4")} <= {"j1"}


def test_e6_without_an_amount_involved_is_checked_on_the_stated_base() -> None:
    """The facts total no amount (so none is involved) but the reasoning states the 违法所得
    that 非法经营's multiple is reckoned on: the row is checked against that base (it was
    rejected before, 'amount involved None differs from the rationale's None'), and a
    rationale whose base the judgment does not state fails."""
    from tests.inject_errors.test_injectors import injected, make_judgment

    j = make_judgment("经审理查明：被告人张三非法经营卷烟。",
                      "本院认为，被告人张三非法经营卷烟，违法所得人民币20000元，构成非法经营罪。"
                      "依照《中华人民共和国刑法》第二百二十五条之规定，",
                      "判决如下：被告人张三犯非法经营罪，判处有期徒刑八个月，并处罚金人民币五万元。")
    assert j.amount_involved_yuan is None
    out = injected("E6", j)
    assert out.rationale["amount_yuan"] is None and out.rationale["base_yuan"] == 20000
    row = injected_row(out, TEXTS, PROFILE)
    checks = validate_arbench([row], profile=PROFILE, injected=[out])
    assert checks.ok, checks.errors
    unstated = dataclasses.replace(row, rationale={**row.rationale, "base_text": "违法所得人民币30000元"})
    failed = validate_arbench([unstated], profile=PROFILE)
    assert [e["check"] for e in failed.errors] == ["E6_inside_range"]
    assert "is not stated" in failed.errors[0]["message"]
