"""The JBE card's provenance comes from the raw folder's records: the bundled sample's card
names the project (and its licence), a build from the official PDFs credits the ministry."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from buildds.jobs.jbe import build_jbe
from buildds.jobs.jbe_sources import MINISTRY, PROJECT, annotate_inputs
from tests.conftest import REPO, shared_path

SAMPLE_RAW = REPO / "buildds" / "sample" / "pdf"


def _card(raw: Path, out: Path, years: list[int]) -> tuple[str, dict]:
    build_jbe(raw=raw, out=out, years=years, processes=1, progress=False)
    text = (out / "README.md").read_text(encoding="utf-8")
    return text, yaml.safe_load(text.split("---\n")[1])


def test_sample_card_names_the_project_not_the_ministry(tmp_path):
    text, front = _card(SAMPLE_RAW, tmp_path / "out", [2025])
    assert front["license"] == "apache-2.0"
    assert "written\nand typeset by the buildds project" in text
    assert "questions written and typeset\nby the buildds project" in text  # in the intro too
    assert "© Ministry of Justice" not in text and "法務省" not in text
    manifest = json.loads((SAMPLE_RAW / "manifest.json").read_text(encoding="utf-8"))
    for f in manifest["files"]:  # every source file with its sha256 and the project as author
        assert f"| `{f['path']}` | {PROJECT} | Apache-2.0 | `{f['sha256']}` |" in text
    # no paper figures for 2025: the comparison says so, in the card and in report.md
    for doc in (text, (tmp_path / "out" / "report.md").read_text(encoding="utf-8")):
        assert "Compared with the paper" in doc
        assert "the paper gives no figures for 2025" in doc


def test_official_build_credits_the_ministry(tmp_path):
    raw = shared_path("jbe", "pdf")
    text, front = _card(raw, tmp_path / "out", [2015])
    assert front["license"] == "other"
    assert f"- 6 source files: {MINISTRY}" in text
    assert "https://www.moj.go.jp/" in text
    assert PROJECT not in text


def test_unlisted_or_edited_file_is_not_taken_for_the_sample(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps(
        {"sample": True, "files": [{"path": "a.pdf", "sha256": "aa"}]}), encoding="utf-8")
    rows = annotate_inputs([{"path": "a.pdf", "sha256": "aa"},
                            {"path": "b.pdf", "sha256": "bb"}], tmp_path)
    assert rows[0]["by_project"] and rows[0]["publisher"] == PROJECT
    assert not rows[1]["by_project"] and rows[1]["publisher"] == MINISTRY
    assert rows[1]["basis"].startswith("assumed")
