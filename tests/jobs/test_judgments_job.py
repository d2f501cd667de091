"""``buildds judgments`` end to end on the first 60 JuDGE judgments (needs ../shared)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.commands.judgments import judgments
from tests.conftest import shared_path


@pytest.fixture(scope="module")
def shared() -> Path:
    return shared_path("realdata", "judgments")


def _args(shared: Path, out: Path, *extra: str) -> list[str]:
    return [str(shared / "judge-benchmark" / "test.json"), "--out", str(out),
            "--law", str(shared / "cn-criminal-law"),
            "--confusable", str(shared / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv"),
            "--limit", "60", "-q", *extra]


def test_judgments_job_end_to_end(shared: Path, tmp_path: Path) -> None:
    import pandas as pd

    out = tmp_path / "arbench"
    result = CliRunner().invoke(judgments, _args(shared, out, "--strict"))
    report = json.loads((out / "report.json").read_text("utf-8"))
    # --strict also fails when the shortcut audit finds the injected rows by surface cues
    assert result.exit_code == (0 if report["shortcut_audit"]["ok"] else 1), result.output
    assert "parsed 60 judgments" in result.output and "report.md" in result.output
    assert report["parsed"] == {"test.json": 60}
    assert report["inputs"][0]["format"] == "judge"
    assert report["validation"]["ok"] and report["exported"]
    assert set(report["injections"]) == {"E1", "E2", "E3", "E4", "E5", "E6"}
    for etype, c in report["injections"].items():
        assert c["succeeded"] + c["skipped"] == 60, etype
        assert c["skipped"] == sum(v for k, v in c.items() if k.startswith("skipped:"))
    assert report["injections"]["E3"]["succeeded"] > 0
    assert 0.9 < report["parse_coverage"]["test.json"]["judgment"] <= 1.0
    rejects = [json.loads(line) for line in (out / "rejects.jsonl").read_text("utf-8").splitlines()]
    assert sum(1 for r in rejects if r["stage"] == "inject") == sum(
        c["skipped"] for c in report["injections"].values())
    assert all(r["reason"] for r in rejects)
    frame = pd.read_parquet(out / "data" / "detection.parquet")
    assert len(frame) == report["rows"]["detection"] and frame["id"].is_unique
    assert set(frame["label"]) == {0, 1}
    md = (out / "report.md").read_text("utf-8")
    assert "## Injections" in md and "## Parse coverage" in md
    card = (out / "README.md").read_text("utf-8")  # every source file, its format and sha256
    # publisher and licence read from ../shared/realdata/judgments/PROVENANCE.md (issue 19)
    assert (f"| test.json | judge | oneal2000/JuDGE @ 2457c65eb4fbeff65f60dba617f6c9cbc221e71b "
            "(2025-03-20) | MIT, © 2025 Weihang Su (LICENSE included) | PROVENANCE.md above "
            f"the input, row `judge-benchmark/` | `{report['inputs'][0]['sha256']}` |") in card
    assert "| statute | LawRefBook/Laws @ " in card  # the law files read, hashed

    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    again = CliRunner().invoke(judgments, _args(shared, out))
    assert again.exit_code == 0 and "unchanged" in again.output
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before

    other = CliRunner().invoke(judgments, _args(shared, tmp_path / "e3", "--errors", "E3"))
    assert other.exit_code == 0, other.output
    assert set(json.loads((tmp_path / "e3" / "report.json").read_text("utf-8"))["injections"]) == {"E3"}


def test_judgments_command_help_and_missing_law(tmp_path: Path) -> None:
    runner = CliRunner()
    help_ = runner.invoke(judgments, ["--help"])
    assert help_.exit_code == 0 and "Example" in help_.output
    src = tmp_path / "x.json"
    src.write_text('{"text_id": "a", "text": "t", "fd": "t"}\n', encoding="utf-8")
    res = runner.invoke(judgments, [str(src), "--out", str(tmp_path / "o"),
                                    "--law", str(tmp_path), "--confusable", str(tmp_path / "no.csv")])
    assert res.exit_code == 2 and "--law" in res.output and "--confusable" in res.output
    bad = runner.invoke(judgments, [str(src), "--out", str(tmp_path / "o"), "--errors", "E9"])
    assert bad.exit_code == 2 and "E9" in bad.output


def test_detect_format(tmp_path: Path) -> None:
    from buildds.errors import BuildError
    from buildds.jobs.judgments import detect_format

    (tmp_path / "j.json").write_text('\n{"text_id": "a", "fd": "x"}\n', encoding="utf-8")
    (tmp_path / "c.json").write_text('{"fact": "x", "meta": {}}\n', encoding="utf-8")
    (tmp_path / "o.json").write_text('{"other": 1}\n', encoding="utf-8")
    assert detect_format(tmp_path / "j.json") == "judge"
    assert detect_format(tmp_path / "c.json") == "cail"
    with pytest.raises(BuildError):
        detect_format(tmp_path / "o.json")


def test_a_provenance_record_added_later_rebuilds_the_card(shared: Path, tmp_path: Path) -> None:
    """The declared provenance is part of the build's fingerprint: writing a
    buildds-sources.yaml beside an input makes the next run rebuild (not "unchanged") and
    the card name the declared publisher and licence."""
    import shutil

    data = tmp_path / "corpus"
    data.mkdir()
    shutil.copy(shared / "judge-benchmark" / "test.json", data / "test.json")  # a temp copy
    args = _args(shared, tmp_path / "out", "--limit", "20")
    args[0] = str(data / "test.json")
    first = CliRunner().invoke(judgments, args)
    assert first.exit_code == 0, first.output
    assert "| test.json | judge | not declared | not declared |" in (
        tmp_path / "out" / "README.md").read_text("utf-8")
    (data / "buildds-sources.yaml").write_text(
        'sources:\n  - match: "*.json"\n    publisher: "Example Court Press"\n'
        '    licence: "CC BY 4.0"\n', "utf-8")
    second = CliRunner().invoke(judgments, args)
    assert second.exit_code == 0 and "unchanged" not in second.output, second.output
    card = (tmp_path / "out" / "README.md").read_text("utf-8")
    assert "| test.json | judge | Example Court Press | CC BY 4.0 |" in card
