"""A raw tree whose files link out of --raw (a downloaded tree with keiho-seito.pdf ->
/etc/shadow) is refused file by file; nothing of the linked file reaches any output."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from buildds.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "buildds" / "sample" / "pdf"


def test_link_out_of_raw_is_refused_and_never_quoted(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    shutil.copytree(SAMPLE, raw)
    secret = tmp_path / "secret.txt"
    secret.write_text("root:TOPSECRET-HASH:20228:0:99999:7:::\n")
    key = raw / "2025" / "keiho-seito.pdf"
    key.unlink()
    key.symlink_to(secret)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["jbe", "--years", "2025", "--raw", str(raw), "--out",
                                       str(out), "-q", "-j", "1", "--corrections",
                                       str(tmp_path)])
    assert result.exit_code == 1, result.output  # a requested input is unusable
    assert "2025/keiho-seito.pdf: is a link to" in result.output
    assert "outside" in result.output
    assert "dataset exported" in result.output  # the other subjects built
    for path in out.rglob("*"):
        if path.is_file():
            assert b"TOPSECRET" not in path.read_bytes(), path
    assert "TOPSECRET" not in result.output


def test_link_inside_raw_is_followed(tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    shutil.copytree(SAMPLE, raw)
    store = raw / "store"
    store.mkdir()
    booklet = raw / "2025" / "kenpo-mondai.pdf"
    booklet.rename(store / "kenpo-mondai.pdf")
    booklet.symlink_to(store / "kenpo-mondai.pdf")
    result = CliRunner().invoke(main, ["jbe", "--years", "2025", "--raw", str(raw), "--out",
                                       str(tmp_path / "out"), "-q", "-j", "1",
                                       "--corrections", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "0 failed" in result.output
