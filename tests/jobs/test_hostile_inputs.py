"""``buildds contracts`` and ``buildds jbe`` over hostile documents next to good ones: each bad
file fails on its own with a message naming the file and the limit (or what the file is), the
good files in the same run complete, and the run stays within seconds and bounded memory.

Every hostile input is generated in tmp_path (:mod:`tests.hostile_inputs`). The runs go through
a subprocess with a timeout and an address-space cap, so that a regression (a FIFO read, a
bomb inflated) fails instead of hanging or eating the machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, simple_pdf_bytes
from tests.hostile_inputs import (
    CONTENT_TYPES,
    blank_pages_pdf,
    bomb_zip,
    dev_zero_link,
    fifo,
    good_docx,
    huge_page_pdf,
    numbered_docx,
    run_bounded,
)

SAMPLE = REPO / "buildds" / "sample" / "pdf" / "2025"


def cli(*args: str, timeout: float = 180, memory_mb: int = 3_000) -> tuple[int, str, float]:
    """``buildds ARGS`` in a subprocess capped at ``memory_mb`` of address space: exit code,
    output, seconds."""
    code = ("import resource, sys\n"
            f"resource.setrlimit(resource.RLIMIT_AS, ({memory_mb << 20}, {memory_mb << 20}))\n"
            "from buildds.cli import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, cwd=str(REPO), check=False,
                          env=dict(os.environ, PYTHONPATH=str(REPO)))
    return proc.returncode, proc.stdout + proc.stderr, time.perf_counter() - started


def files(out: Path) -> dict[str, dict[str, Any]]:
    report = json.loads((out / "report.json").read_text("utf-8"))
    return {f["file"]: f for f in report["files"]}


def message(entry: dict[str, Any]) -> str:
    (problem,) = entry["problems"]
    return f"{problem['code']}: {problem['message']}"


@pytest.mark.ocr
def test_contracts_hostile_files_fail_alone(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    good_docx(src / "good.docx")
    (src / "good.pdf").write_bytes(simple_pdf_bytes("Article 1. The parties agree."))
    fifo(src / "fifo.pdf")
    dev_zero_link(src / "zero.docx")
    bomb_zip(src / "zip.pdf", mimetype_zeros=300_000_000)  # a zip named .pdf
    bomb_zip(src / "bomb.odt", odt=True, zeros={"content.xml": 300_000_000})
    bomb_zip(src / "bomb.docx", members={"[Content_Types].xml": CONTENT_TYPES},
             zeros={"word/document.xml": 300_000_000})
    numbered_docx(src / "numbers.docx", start="100000000000", fmt="upperLetter")
    blank_pages_pdf(src / "blank.pdf", count=1_001, white=1)
    huge_page_pdf(src / "huge.pdf")
    out = tmp_path / "out"
    inputs = sorted(str(p) for p in src.iterdir())
    code, output, seconds = cli("contracts", *inputs, "--out", str(out), "-q", "--strict")
    assert code == 1, output  # --strict: files failed
    assert seconds < 60, seconds
    got = files(out)
    assert got["good.docx"]["status"] == "ok" and got["good.pdf"]["status"] == "ok"
    docx_json = json.loads((out / "documents" / "good.docx.json").read_text("utf-8"))
    assert [b["text"] for b in docx_json["blocks"]] == ["第１条Clause 0 text.",
                                                         "第２条Clause 1 text."]
    assert "The parties agree." in (out / "documents" / "good.pdf.json").read_text("utf-8")
    assert {f for f, e in got.items() if e["status"] == "failed"} == {
        "fifo.pdf", "zero.docx", "zip.pdf", "bomb.odt", "bomb.docx", "numbers.docx",
        "blank.pdf", "huge.pdf"}
    assert message(got["fifo.pdf"]) == ("unreadable: cannot read file (is a named pipe (FIFO), "
                                        "not a regular file; refusing to read it)")
    assert message(got["zero.docx"]) == ("unreadable: cannot read file (is a character device, "
                                         "not a regular file; refusing to read it)")
    assert message(got["zip.pdf"]) == ("wrong_file_type: named .pdf but not a PDF: the file "
                                       "looks like a ZIP archive that is not a Word document "
                                       "(no word/document.xml)")
    assert message(got["bomb.odt"]).startswith("limit_exceeded: zip member content.xml expands")
    assert message(got["bomb.docx"]).startswith(
        "limit_exceeded: zip member word/document.xml expands")
    assert message(got["numbers.docx"]) == (
        "limit_exceeded: body paragraph 1: list number value 100,000,000,000 exceeds the "
        "limit of 1,000,000 (raise it with BUILDDS_LIMITS=numbering_value=N)")
    assert message(got["blank.pdf"]) == ("limit_exceeded: number of pages 1,001 exceeds the "
                                         "limit of 1,000 (raise it with --max-pages)")
    assert message(got["huge.pdf"]) == (
        "limit_exceeded: page of 14,400 × 14,400 pt rendered for OCR at 150 dpi (the least that "
        "reads well) would have 900,000,000 pixels exceeds the limit of 50,000,000 pixels "
        "(raise it with BUILDDS_LIMITS=page_pixels=N)")
    assert got["huge.pdf"]["problems"][0]["page"] == 1
    assert not (out / "documents" / "numbers.docx.json").exists()


@pytest.mark.ocr
def test_contracts_blank_pages_cost_seconds(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    good_docx(src / "good.docx")
    blank_pages_pdf(src / "blank.pdf", count=2_000)
    out = tmp_path / "out"
    code, output, seconds = cli("contracts", str(src / "blank.pdf"), str(src / "good.docx"),
                                "--out", str(out), "-q", "--max-pages", "2000")
    assert code == 0, output
    assert seconds < 30, seconds
    got = files(out)
    assert got["good.docx"]["status"] == "ok"
    assert message(got["blank.pdf"]) == ("no_text: no text found (the PDF has no text layer and "
                                         "OCR (auto) found no text on 2000 page(s))")


@pytest.mark.ocr
def test_contracts_batch_pool_limits(tmp_path: Path) -> None:
    """``read_documents(jobs=2)`` (one OCR pool for the batch) applies the same limits."""
    good = good_docx(tmp_path / "good.docx")
    blank = blank_pages_pdf(tmp_path / "blank.pdf", count=300, white=20)
    huge = huge_page_pdf(tmp_path / "huge.pdf")
    pipe = fifo(tmp_path / "pipe.png")
    long_scan = blank_pages_pdf(tmp_path / "long.pdf", count=301, white=0)
    run = run_bounded(f"""
        from buildds.extract.contracts.reader import read_documents
        paths = {[str(p) for p in (good, blank, huge, pipe, long_scan)]!r}
        result = []
        for path, doc, problems in read_documents(paths, jobs=2, max_pages=300):
            result.append([path.name, doc is not None, [p.message for p in problems]])
    """, memory_mb=3_000, timeout=120)
    assert run["error"] is None, run
    assert run["result"] == [
        ["good.docx", True, []],
        ["blank.pdf", False, [("no text found (the PDF has no text layer and OCR (auto) "
                              "found no text on 300 page(s))")]],
        ["huge.pdf", False, [("page of 14,400 × 14,400 pt rendered for OCR at 150 dpi (the "
                             "least that reads well) would have 900,000,000 pixels exceeds "
                             "the limit of 50,000,000 pixels (raise it with "
                             "BUILDDS_LIMITS=page_pixels=N)")]],
        ["pipe.png", False, [("cannot read file (is a named pipe (FIFO), not a regular file; "
                             "refusing to read it)")]],
        ["long.pdf", False, [("number of pages 301 exceeds the limit of 300 (raise it with "
                             "--max-pages)")]],
    ]


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    if not all((SAMPLE / f"{s}-{k}.pdf").is_file() for s in ("kenpo", "minpo", "keiho")
               for k in ("mondai", "seito")):
        pytest.skip(f"the bundled sample is not generated yet ({SAMPLE})")
    root = tmp_path / "raw"
    shutil.copytree(SAMPLE, root / "2025")
    return root


def test_jbe_fifo_and_dev_zero_fail_alone(tmp_path: Path, raw: Path) -> None:
    (raw / "2025" / "kenpo-mondai.pdf").unlink()
    fifo(raw / "2025" / "kenpo-mondai.pdf")
    (raw / "2025" / "minpo-seito.pdf").unlink()
    dev_zero_link(raw / "2025" / "minpo-seito.pdf")
    out = tmp_path / "out"
    code, output, seconds = cli("jbe", "--years", "2025", "--raw", str(raw), "--out", str(out),
                                "--xml-only", "-q", "-j", "1", "--corrections", str(tmp_path))
    assert seconds < 60
    assert code == 1, output  # files missing
    report = json.loads((out / "report.json").read_text("utf-8"))
    problems = {p["source"]: p["message"] for m in report["missing"] for p in m["problems"]}
    # the link to /dev/zero leaves --raw, which is refused before its type is looked at
    assert problems == {
        "2025/kenpo-mondai.pdf": "is a named pipe (FIFO), not a regular file; refusing to read it",
        "2025/minpo-seito.pdf": f"is a link to /dev/zero, outside {raw.resolve()}; refusing to "
                                "read it",
    }
    (keiho,) = report["pairs"]
    assert keiho["subject"] == "keiho" and keiho["status"] == "ok"
    assert (out / "xml" / "2025" / "keiho.xml").is_file()


def test_jbe_max_pages(tmp_path: Path, raw: Path) -> None:
    out = tmp_path / "out"
    code, output, _ = cli("jbe", "--years", "2025", "--raw", str(raw), "--out", str(out),
                          "--xml-only", "-q", "-j", "1", "--corrections", str(tmp_path),
                          "--subjects", "kenpo", "--max-pages", "3")
    (pair,) = json.loads((out / "report.json").read_text("utf-8"))["pairs"]
    assert pair["status"] == "failed", output
    (problem,) = pair["problems"]
    assert problem["code"] == "LimitExceeded"
    assert problem["message"] == ("number of pages 4 exceeds the limit of 3 (raise it with "
                                  "--max-pages)")
    assert problem["source"] == "2025/kenpo-mondai.pdf"
    code, output, _ = cli("jbe", "--years", "2025", "--raw", str(raw), "--out", str(out),
                          "--xml-only", "-q", "-j", "1", "--corrections", str(tmp_path),
                          "--subjects", "kenpo", "--max-pages", "4")
    (pair,) = json.loads((out / "report.json").read_text("utf-8"))["pairs"]
    assert code == 0 and pair["status"] == "ok", output
