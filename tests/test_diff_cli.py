"""``buildds diff OLD NEW``: exit codes like diff(1) (0 same, 1 changed, 2 trouble), the
files it writes (byte-identical on a rerun) and its one summary line."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from buildds.cli import main


def _jbe_parquet(path: Path, labels: list[str], questions: list[str] | None = None) -> Path:
    n = len(labels)
    pd.DataFrame({
        "id": [f"令和７年-民法-1-{i + 1}" for i in range(n)],
        "year": ["令和７年"] * n, "subject_jp": ["民法"] * n,
        "question": questions or [f"記述{i}" for i in range(n)],
        "label": labels, "answer": [lab == "Y" for lab in labels],
        "corrections": [[] for _ in range(n)],
    }).to_parquet(path)
    return path


@pytest.fixture
def pair(tmp_path: Path) -> tuple[Path, Path]:
    old = _jbe_parquet(tmp_path / "old.parquet", ["Y", "N", "Y"])
    new = _jbe_parquet(tmp_path / "new.parquet", ["Y", "Y"], ["記述0", "記述1を直した"])
    return old, new


def test_identical_exports_exit_0(pair: tuple[Path, Path], tmp_path: Path) -> None:
    old, _ = pair
    result = CliRunner().invoke(main, ["diff", str(old), str(old), "--out", str(tmp_path / "d")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("jbe: no changes (3 items")
    assert json.loads((tmp_path / "d" / "diff.json").read_text())["changed"] is False


def test_changes_exit_1_and_the_outputs_are_byte_identical_on_a_rerun(
        pair: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = pair
    runs = []
    for name in ("d1", "d2"):
        result = CliRunner().invoke(main, ["diff", str(old), str(new), "--out",
                                           str(tmp_path / name)])
        assert result.exit_code == 1, result.output
        runs.append({f: (tmp_path / name / f).read_bytes() for f in ("diff.json", "diff.md")})
    assert runs[0] == runs[1]
    assert result.output.count("\n") == 1
    assert ("jbe: 2 items differ (1 removed, 1 text changed, 1 label changed); 1 unchanged, "
            in result.output)
    data = json.loads(runs[0]["diff.json"])
    assert [i["id"] for i in data["items"]] == ["令和７年-民法-1-2", "令和７年-民法-1-3"]
    assert data["items"][0]["classes"] == ["text_changed", "label_changed"]
    assert data["counts"]["removed"] == 1


def test_without_out_only_the_summary(pair: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = pair
    result = CliRunner().invoke(main, ["diff", str(old), str(new)])
    assert result.exit_code == 1 and "see " not in result.output


def test_trouble_exits_2(pair: tuple[Path, Path], tmp_path: Path) -> None:
    old, _ = pair
    clauses = tmp_path / "clauses.parquet"
    pd.DataFrame({"id": ["a-1"], "text": ["t"], "input_text": ["1 t"],
                  "block_start": [0]}).to_parquet(clauses)
    kinds = CliRunner().invoke(main, ["diff", str(old), str(clauses)])
    assert kinds.exit_code == 2
    assert kinds.output == (f"Error: cannot compare exports of different kinds: {old} is jbe, "
                            f"{clauses} is contracts-clauses; give two exports of the same "
                            "kind\n")
    junk = tmp_path / "junk.parquet"
    junk.write_text("not parquet")
    bad = CliRunner().invoke(main, ["diff", str(junk), str(old)])
    assert bad.exit_code == 2 and bad.output.startswith(f"Error: {junk}: cannot read parquet")
    missing = CliRunner().invoke(main, ["diff", str(tmp_path / "nope"), str(old)])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    blocked = tmp_path / "blocked"
    blocked.write_text("")
    unwritable = CliRunner().invoke(main, ["diff", str(old), str(old), "--out",
                                           str(blocked / "d")])
    assert unwritable.exit_code == 2 and unwritable.output.startswith("Error: ")


def test_help_names_the_exit_codes_and_an_example() -> None:
    result = CliRunner().invoke(main, ["diff", "--help"])
    assert result.exit_code == 0
    assert "0 no changes; 1 something changed; 2 trouble" in result.output
    assert "buildds diff build/jbe-2025-01 build/jbe --out build/jbe-diff" in result.output
