"""``buildds jbe`` end to end: XML → items → corrections → validation → HF dataset."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.jobs.jbe import build_jbe
from buildds.sample import SAMPLE_DIR
from tests.conftest import shared_path

YEAR = 2025


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    dest = tmp_path / "raw"
    shutil.copytree(SAMPLE_DIR, dest)
    return dest


def build(raw: Path, out: Path, corrections: Path | None = None, **kw):
    return build_jbe(years=[YEAR], raw=raw, out=out, progress=False, processes=1,
                     corrections=corrections, **kw)


def tree(root: Path) -> dict[str, bytes]:
    """Every output file (the cache aside) by relative path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(root).parts}


def test_sample_builds_a_loadable_dataset(raw: Path, tmp_path: Path) -> None:
    import datasets
    import pandas

    out = tmp_path / "out"
    report = build(raw, out)
    d = report.dataset
    assert d is not None and d.exported and not d.unchanged
    dd = datasets.load_from_disk(str(out / "dataset"))
    assert set(dd) == {"test", "fewshot"}
    df = pandas.read_parquet(out / "data" / "test.parquet")
    assert len(df) == len(dd["test"]) == len(d.items) > 30
    assert df.id.is_unique and set(df.label) == {"Y", "N"}
    assert (df.label == "Y").eq(df.answer).all()
    assert df.id.str.match(r"^令和７年-(憲法|民法|刑法)-\d+-\d+$").all()
    assert sorted(df[df.is_fewshot].id) == sorted(d.fewshot_ids) and len(d.fewshot_ids) == 4
    # every excluded question is in the rejects file with its reason
    rejects = [json.loads(x) for x in (out / "rejects.jsonl").read_text("utf-8").splitlines()]
    assert {r["id"] for r in rejects if r["stage"] == "jbe-items"} == {
        e.id for e in d.exclusions}
    assert all(r["reason"] and r["message"] for r in rejects)
    card = (out / "README.md").read_text("utf-8")
    assert card.startswith("---\n") and str(len(df)) in card
    md = (out / "report.md").read_text("utf-8")
    assert "## Items (JBE-QA)" in md and "Few-shot exemplars" in md


def test_same_inputs_give_byte_identical_outputs(raw: Path, tmp_path: Path) -> None:
    build(raw, tmp_path / "a")
    build(raw, tmp_path / "b", use_cache=False)
    a, b = tree(tmp_path / "a"), tree(tmp_path / "b")
    assert a.keys() == b.keys() and "dataset/test/state.json" in a
    assert [k for k in a if a[k] != b[k]] == []


def test_no_change_rebuild_does_no_work(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(raw, out)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    report = build(raw, out)
    assert report.cached == 3 and report.built == 0
    assert report.dataset is not None and report.dataset.unchanged
    assert report.dataset.booklets_built == 0
    after = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    assert after == before  # nothing rewritten


def first_item(out: Path, subject_jp: str) -> dict:
    import pandas

    df = pandas.read_parquet(out / "data" / "test.parquet")
    return df[df.subject_jp == subject_jp].iloc[0].to_dict()


def test_a_correction_redoes_only_its_booklet_and_is_recorded(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(raw, out)
    item = first_item(out, "民法")
    fix = tmp_path / "corrections"
    fix.mkdir()
    old = item["question"][:6]
    (fix / "2025-minpo.yaml").write_text(
        f"- id: {item['id']}\n  action: text\n  find: \"{old}\"\n  replace: \"{old}（訂正）\"\n"
        f"  reason: test\n- id: {item['id']}\n  action: label\n  label: "
        f"{'N' if item['label'] == 'Y' else 'Y'}\n  reason: key misread\n", encoding="utf-8")
    report = build(raw, out, corrections=fix)
    d = report.dataset
    assert d is not None and d.booklets_built == 1 and d.booklets_cached == 2
    assert d.applied == 2 and d.stale == [] and d.exported and not d.unchanged
    fixed = first_item(out, "民法")
    assert fixed["question"].startswith(f"{old}（訂正）")
    assert fixed["label"] != item["label"] and list(fixed["corrections"]) == [
        "2025-minpo.yaml#1", "2025-minpo.yaml#2"]


def test_stale_correction_is_reported_and_fails_strict(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    fix = tmp_path / "corrections"
    fix.mkdir()
    (fix / "2025-keiho.yaml").write_text(
        "- id: 令和７年-刑法-1-1\n  action: text\n  find: この文は問題にない\n  replace: x\n"
        "  reason: typo\n", encoding="utf-8")
    args = ["jbe", "--years", str(YEAR), "--raw", str(raw), "--out", str(out), "-q", "-j", "1",
            "--corrections", str(fix)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "1 stale" in result.output
    data = json.loads((out / "report.json").read_text("utf-8"))
    (stale,) = data["dataset"]["corrections"]["stale"]
    assert stale["origin"] == "2025-keiho.yaml#1" and "no longer contains" in stale["message"]
    assert "STALE 2025-keiho.yaml#1" in (out / "report.md").read_text("utf-8")
    assert CliRunner().invoke(main, [*args, "--strict"]).exit_code == 1


def test_validation_failure_is_not_exported_and_names_the_id(raw: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(raw, out)
    item = first_item(out, "憲法")
    fix = tmp_path / "corrections"
    fix.mkdir()
    # a correction that blanks a statement: the schema must catch it, naming the item
    (fix / "bad.yaml").write_text(
        f"- id: {item['id']}\n  action: text\n  find: {json.dumps(item['question'])}\n"
        f"  replace: \"\"\n  reason: test\n", encoding="utf-8")
    report = build(raw, out, corrections=fix)
    d = report.dataset
    assert d is not None and not d.exported and d.validation_errors > 0
    assert item["id"] in json.dumps(d.validation, ensure_ascii=False)
    assert not (out / ".dataset-fingerprint").exists()
    assert "NOT exported" in report.summary_line()


@pytest.mark.shared
def test_all_years_build_end_to_end(tmp_path: Path) -> None:
    import datasets
    import pandas

    raw = shared_path("jbe", "pdf")
    out = tmp_path / "jbe"
    result = CliRunner().invoke(main, ["jbe", "--years", "2015-2024", "--raw", str(raw),
                                       "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    df = pandas.read_parquet(out / "data" / "test.parquet")
    dd = datasets.load_from_disk(str(out / "dataset"))
    assert len(dd["test"]) == len(df) > 3000
    assert set(df.subject) == {"Civil Code", "Penal Code", "Constitution"}
    assert 0.40 < df.answer.mean() < 0.55
    data = json.loads((out / "report.json").read_text("utf-8"))
    assert data["dataset"]["validation"]["errors"] == []
    assert os.path.exists(out / "xml" / "2019" / "kenpo.xml")
