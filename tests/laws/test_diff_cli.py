"""``buildds laws diff`` (the click command of buildds.commands.laws_diff, invoked
directly): versions from a law store, bad combinations of options, and two real statute
files read by the readers."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.commands.laws_diff import diff
from buildds.schema.core import Source
from buildds.schema.laws import LawText
from tests.conftest import shared_path
from tests.laws.test_diff import LONG, OTHER, THIRD, art

LAW = "129AC0000000089"


def _store(tmp_path: Path, unenforced: tuple[str, str] | None = None) -> Path:
    store_mod = pytest.importorskip("buildds.laws.store")
    revisions = pytest.importorskip("buildds.laws.revisions")
    root = tmp_path / "store"
    store = store_mod.LawStore(root)
    texts = {
        "20230614": [art("1", LONG, law_id=LAW), art("433", OTHER, law_id=LAW),
                     art("733", THIRD, law_id=LAW)],
        "20240401": [art("1", LONG, law_id=LAW), art("437", OTHER, law_id=LAW),
                     art("733", "削除", law_id=LAW)],
    }
    for day, arts in texts.items():
        rid = f"{LAW}_{day}_000000000000000"
        text = LawText(law_id=LAW, law_title="民法", articles=tuple(arts),
                       source=Source(path=f"{day}.xml", sha256="0" * 64))
        store.import_text(text, revisions.Revision(
            law_id=LAW, revision_id=rid,
            valid_from=date(int(day[:4]), int(day[4:6]), int(day[6:])),
            unenforced=unenforced if day == "20240401" else None,
            unenforced_note="令和7年法律第39号, by 2027-03-31" if unenforced else None))
    return root


def test_diff_from_the_store(tmp_path: Path) -> None:
    root, out = _store(tmp_path), tmp_path / "out"
    argv = [LAW, "--from", "2023-12-31", "--to", "2026-01-01", "--store", str(root),
            "--out", str(out)]
    result = CliRunner().invoke(diff, argv)
    assert result.exit_code == 0, result.output
    assert result.output.count("\n") == 1
    assert "3 articles (1 unchanged, 1 deleted, 1 moved)" in result.output
    rows = [json.loads(line) for line in (out / "changes.jsonl").read_text("utf-8").splitlines()]
    assert [(r["kind"], r["old_article"], r["new_article"]) for r in rows] == [
        ("unchanged", "1", "1"), ("moved", "433", "437"), ("deleted", "733", "733")]
    first = (out / "changes.jsonl").read_bytes(), (out / "summary.md").read_bytes()
    assert CliRunner().invoke(diff, argv).exit_code == 0
    assert ((out / "changes.jsonl").read_bytes(), (out / "summary.md").read_bytes()) == first


def test_diff_errors(tmp_path: Path) -> None:
    root, out = _store(tmp_path), tmp_path / "out"
    before = CliRunner().invoke(diff, [LAW, "--from", "2001-01-01", "--to", "2026-01-01",
                                       "--store", str(root), "--out", str(out)])
    assert before.exit_code == 1 and "before its first version" in before.output
    assert not out.exists()
    no_dates = CliRunner().invoke(diff, [LAW, "--store", str(root), "--out", str(out)])
    assert no_dates.exit_code == 2 and "--from" in no_dates.output
    f = tmp_path / "a.xml"
    f.write_text("<Law/>", encoding="utf-8")
    half = CliRunner().invoke(diff, ["--old", str(f), "--out", str(out)])
    assert half.exit_code == 2 and "--old and --new" in half.output
    backwards = CliRunner().invoke(diff, [LAW, "--from", "2026-01-01", "--to", "2024-01-01",
                                          "--store", str(root), "--out", str(out)])
    assert backwards.exit_code == 2 and "is after --to" in backwards.output
    assert not out.exists()


def test_diff_real_penal_code_files(tmp_path: Path) -> None:
    readers = pytest.importorskip("buildds.laws.readers")
    if not hasattr(readers, "read_law"):
        pytest.skip("buildds.laws.readers.read_law is not there yet")
    old = shared_path("realdata", "statutes", "140AC0000000045_20230713_505AC0000000066.html")
    new = shared_path("realdata", "laws", "jp-penal-code", "keiho_egov_api_v1_2026-01-01.xml")
    out = tmp_path / "out"
    result = CliRunner().invoke(diff, ["--old", str(old), "--new", str(new),
                                       "--terminology", "kokinkei", "--out", str(out)])
    if result.exit_code != 0 and "not" in result.output:
        pytest.skip(f"the readers cannot read both files yet: {result.output}")
    assert result.exit_code == 0, result.output
    kinds = [json.loads(line)["kind"] for line in (out / "changes.jsonl").read_text("utf-8").splitlines()]
    assert kinds.count("terminology") >= 150 and kinds.count("substantive") <= 25


def test_diff_notes_text_not_yet_in_force(tmp_path: Path) -> None:
    root, out = _store(tmp_path, unenforced=("437", "437")), tmp_path / "out"
    result = CliRunner().invoke(diff, [LAW, "--from", "2023-12-31", "--to", "2026-01-01",
                                       "--store", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 note(s) on text not yet in force" in result.output
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert (f"- {LAW}_20240401_000000000000000 holds articles 437 as amended by a law not "
            "yet in force (令和7年法律第39号, by 2027-03-31)") in summary
