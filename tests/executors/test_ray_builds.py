"""The same builds on the local pool and on a Ray instance (started by the session's
``ray_instance``): ``buildds jbe`` on the bundled sample exam and ``buildds contracts`` with
a 2-page scan to OCR, each with a broken input, through the command line with
``--executor local`` and ``--executor ray`` — every output file compared byte for byte, and
the broken input rejected with the same reason in both. Both builds write to the same
``--out`` (the first is moved aside): report.md names its own folder.

The one difference allowed: the contracts report's per-file ``seconds`` (wall time, in
report.json and in report.md's files table), which differs between any two runs."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.jobs.contracts import build_contracts
from tests.extract.contracts.test_reader import (
    DPI,
    OCR_LINES,
    make_docx,
    needs_font,
    needs_tesseract,
    render_png,
)
from tests.jobs.test_jbe_job import KINDS, SAMPLE_ROOT, SUBJECTS, YEAR, corrupt_bytes


def tree(out: Path) -> dict[str, bytes]:
    """Every output file under ``out`` (not the cache), by relative path."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(out).parts}


def run(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert "Traceback" not in result.output
    return result


def test_jbe_sample_on_ray_is_byte_identical(ray_instance: Any, tmp_path: Path) -> None:
    sample = SAMPLE_ROOT / str(YEAR)
    if not all((sample / f"{s}-{k}.pdf").is_file() for s in SUBJECTS for k in KINDS):
        pytest.skip(f"the bundled sample is not generated yet ({sample})")
    raw = tmp_path / "raw" / str(YEAR)
    raw.mkdir(parents=True)
    for s in SUBJECTS:
        for k in KINDS:
            shutil.copyfile(sample / f"{s}-{k}.pdf", raw / f"{s}-{k}.pdf")
    (raw / "keiho-seito.pdf").write_bytes(corrupt_bytes())  # one pair fails: a reject
    outs = {}
    for kind in ("local", "ray"):
        result = run("jbe", "--years", str(YEAR), "--raw", str(tmp_path / "raw"), "--out",
                     str(tmp_path / "out"), "-q", "-j", "2", "--executor", kind)
        assert result.exit_code == 1, result.output  # the failed pair fails the run
        assert "processed 6 files: 2 XML" in result.output
        outs[kind] = (tmp_path / "out").rename(tmp_path / kind)
    local, ray = tree(outs["local"]), tree(outs["ray"])
    assert sorted(local) == sorted(ray)
    assert {"xml/2025/kenpo.xml", "xml/2025/minpo.xml", "rejects.jsonl", "report.json",
            "README.md"} <= set(local)
    for name in local:
        assert local[name] == ray[name], name
    rejects = [json.loads(x) for x in local["rejects.jsonl"].decode().splitlines()]
    assert any(r["reason"] == "pair-failed" and r["source"].endswith("keiho-seito.pdf")
               for r in rejects), rejects


def _without_seconds(name: str, data: bytes) -> bytes:
    """``data`` with the contracts report's per-file wall times blanked (they differ on
    every run, whatever runs it)."""
    if name == "report.json":
        report = json.loads(data)
        for f in report["files"]:
            f.pop("seconds", None)
        return json.dumps(report, sort_keys=True).encode()
    if name == "report.md":
        text = data.decode()
        return re.sub(r"^(\| [^\n]*\| )[0-9.]+ \|$", r"\1– |", text, flags=re.MULTILINE).encode()
    return data


@needs_font
@needs_tesseract
def test_contracts_with_ocr_on_ray_are_byte_identical(ray_instance: Any,
                                                      tmp_path: Path) -> None:
    from PIL import Image

    folder = tmp_path / "in"
    folder.mkdir()
    p1 = render_png(tmp_path / "p1.png", OCR_LINES[:2])
    p2 = render_png(tmp_path / "p2.png", OCR_LINES[2:])
    scan = folder / "scan.pdf"
    with Image.open(p1) as a, Image.open(p2) as b:
        a.convert("RGB").save(scan, "PDF", resolution=DPI, save_all=True,
                              append_images=[b.convert("RGB")])
    docx = make_docx(folder / "委託.docx", ["第1条（目的）本契約は、業務の委託について定める。",
                                             "第2条（報酬）甲は、乙に対し報酬を支払う。"])
    broken = folder / "broken.pdf"
    broken.write_text("<html>not found</html>", encoding="utf-8")
    outs = {}
    for kind in ("local", "ray"):
        result = run("contracts", str(scan), str(broken), str(docx), "--out",
                     str(tmp_path / "out"), "-q", "--ocr-lang", "jpn", "--executor", kind)
        assert result.exit_code == 0, result.output
        assert "processed 3 files" in result.output and "1 files failed" in result.output
        outs[kind] = (tmp_path / "out").rename(tmp_path / kind)
    # and the library's default: one file after another in this process, no executor
    build_contracts([scan, broken, docx], out=tmp_path / "out", ocr_lang="jpn", progress=False,
                    corrections=Path("corrections/contracts"))  # the command's default folder
    serial = tree(tmp_path / "out")
    local, ray = tree(outs["local"]), tree(outs["ray"])
    assert sorted(local) == sorted(ray) == sorted(serial)
    assert {"documents/scan.pdf.json", "documents/委託.docx.json", "clauses.jsonl",
            "rejects.jsonl", "report.json", "report.md"} <= set(local)
    for name in local:
        same = _without_seconds(name, local[name])
        assert same == _without_seconds(name, ray[name]), name
        assert same == _without_seconds(name, serial[name]), name
    doc = json.loads(local["documents/scan.pdf.json"])
    assert doc["format"] == "scan" and doc["pages"] == 2
    assert "秘密" in "".join("".join(b["text"].split()) for b in doc["blocks"])
    rejects = [json.loads(x) for x in local["rejects.jsonl"].decode().splitlines()]
    assert [r["source"] for r in rejects] == ["broken.pdf"]
    report = json.loads(local["report.json"])
    assert report["totals"]["failed"] == 1 and report["totals"]["rejected"] == 1
