"""One dataset fingerprint (issue 19, point 4): the bundled sample is built, evaluated with
the majority baseline and validated; the same data fingerprint appears in the card, the
build's report.json, the eval leaderboard.json/manifest.json (the dataset key) and
``buildds validate``'s output — and it changes when a data file changes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.export.data_fingerprint import data_fingerprint, fingerprint_of_hashes

SAMPLE = Path(__file__).resolve().parents[2] / "buildds" / "sample" / "pdf"


def _run(args: list[str]) -> str:
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fp") / "jbe"
    _run(["jbe", "--years", "2025", "--raw", str(SAMPLE), "--out", str(out)])
    return out


def test_the_same_fingerprint_in_card_report_leaderboard_and_validate(built: Path,
                                                                      tmp_path: Path) -> None:
    fp = data_fingerprint(built)
    assert fp and re.fullmatch(r"[0-9a-f]{16}", fp)
    card = (built / "README.md").read_text(encoding="utf-8")
    assert f"data fingerprint: `{fp}`" in card
    report = json.loads((built / "report.json").read_text(encoding="utf-8"))
    assert report["dataset"]["data_fingerprint"] == fp
    assert f"data fingerprint: `{fp}`" in (built / "report.md").read_text(encoding="utf-8")

    ev = tmp_path / "eval"
    _run(["eval", str(built), "--model", "majority", "--out", str(ev)])
    for name in ("leaderboard.json", "manifest.json"):
        doc = json.loads((ev / name).read_text(encoding="utf-8"))
        assert doc["dataset"]["key"] == fp, name
    metrics = [json.loads(p.read_text(encoding="utf-8")) for p in ev.rglob("metrics.json")]
    assert metrics and all(m["dataset_key"] == fp for m in metrics)

    line = _run(["validate", str(built), "--out", str(tmp_path / "val")])
    assert f"(data fingerprint {fp})" in line
    val = json.loads((tmp_path / "val" / "report.json").read_text(encoding="utf-8"))
    assert val["data_fingerprint"] == fp
    # the single parquet file and the save_to_disk folder name the same export
    assert f"(data fingerprint {fp})" in _run(
        ["validate", str(built / "data" / "test.parquet"), "--out", str(tmp_path / "v2")])


def test_the_fingerprint_follows_the_data_files(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    assert data_fingerprint(tmp_path) is None
    (tmp_path / "data" / "test.parquet").write_bytes(b"a")
    first = data_fingerprint(tmp_path)
    (tmp_path / "data" / "test.parquet").write_bytes(b"b")
    assert data_fingerprint(tmp_path) != first
    assert fingerprint_of_hashes({"b": "2", "a": "1"}) == fingerprint_of_hashes({"a": "1", "b": "2"})
