"""Benchmark: JBE stage 1 (all 60 PDFs → XML) against bare pypdfium2 text extraction.

Measured in one run, on the same files:

* floor   — pypdfium2 alone: open each PDF, get_text_range() of every page (one process);
* cold    — ``build_jbe(xml_only=True)`` with the cache off (extract + parse + key + reconcile + XML + XSD),
            with 1 process and with the default (one per core);
* warm    — ``buildds jbe --xml-only`` as a command (interpreter start included) with nothing changed.

Target: cold within 3× of the floor; warm under 1 s. Usage:

    python3 benchmarks/bench_jbe_extract.py [--raw ../shared/jbe/pdf] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pypdfium2 as pdfium

from buildds.jobs.jbe import build_jbe

REPO = Path(__file__).resolve().parent.parent


def floor(files: list[Path]) -> float:
    t = time.perf_counter()
    for f in files:
        doc = pdfium.PdfDocument(f)
        for page in doc:
            tp = page.get_textpage()
            tp.get_text_range()
            tp.close()
            page.close()
        doc.close()
    return time.perf_counter() - t


def cold(raw: Path, processes: int | None) -> float:
    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        report = build_jbe(years=list(range(2015, 2025)), raw=raw, out=Path(out),
                           processes=processes, use_cache=False, progress=False,
                           xml_only=True)
        took = time.perf_counter() - t
        assert report.xml_files == 30, report.summary_line()
    return took


def warm(raw: Path) -> float:
    with tempfile.TemporaryDirectory() as out:
        cmd = ["buildds", "jbe", "--xml-only", "--years", "2015-2024", "--raw", str(raw), "--out",
               out, "-q"]
        subprocess.run(cmd, check=True, capture_output=True)
        t = time.perf_counter()
        res = subprocess.run(cmd, check=True, capture_output=True, text=True)
        took = time.perf_counter() - t
        assert "30 from cache" in res.stdout, res.stdout
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--raw", type=Path, default=REPO.parent / "shared" / "jbe" / "pdf")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    files = sorted(args.raw.glob("20*/*.pdf"))
    if len(files) != 60:
        sys.exit(f"expected 60 PDFs under {args.raw}, found {len(files)}")
    pages = sum(len(pdfium.PdfDocument(f)) for f in files)

    floors, one, many, warms = [], [], [], []
    for _ in range(args.repeat):
        floors.append(floor(files))
        one.append(cold(args.raw, 1))
        many.append(cold(args.raw, None))
        warms.append(warm(args.raw))
    f, c1, cn, w = (statistics.median(x) for x in (floors, one, many, warms))
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"files: {len(files)} PDFs, {pages} pages; cores: {os.cpu_count()}; "
          f"median of {args.repeat}")
    print(f"floor  bare pypdfium2 text          {f:6.2f} s  ({pages / f:6.0f} pages/s)")
    print(f"cold   build_jbe, 1 process          {c1:6.2f} s  ratio {c1 / f:4.2f}x")
    print(f"cold   build_jbe, {os.cpu_count()} processes        {cn:6.2f} s  ratio {cn / f:4.2f}x"
          "  (target <= 3x)")
    print(f"warm   buildds jbe, nothing changed  {w:6.2f} s  (target < 1 s, process start "
          "included)")
    print(f"peak RSS: this process {rss_mb:.0f} MB, largest child {child_mb:.0f} MB")


if __name__ == "__main__":
    main()
