"""Benchmark: the same work on the local executor and on Ray (1 and 2 workers).

Two workloads (``--executor`` of ``buildds contracts`` and ``buildds jbe``):

* **contracts OCR**: the image-only contracts of ``../shared/realdata/contracts`` (a JPEG and
  a PDF of ``jp_hanbai-keiyakusho``, two ``jp_yomitoku-images`` JPEGs and the 3-page
  ``scan_zh-tw_hualien`` scan, read with ``jpn+eng``) through
  :func:`buildds.extract.contracts.read_documents`: one file after another with no executor
  (each file's pages on a local pool, today's library default), then with ``executor=`` local
  1 / 2 workers and Ray 1 / 2 workers (every page one task). Pages/s, and each run's
  documents must equal the first's;
* **jbe sample**: stage 1 (``xml_only``) of the bundled sample exam (3 booklet + key pairs,
  text PDFs) through :func:`buildds.jobs.jbe.build_jbe`: pairs/s (small work: shows the
  per-task overhead of each executor more than its throughput).

A Ray run starts its own local instance (``num_cpus`` = workers) and shuts it down; the
start-up is timed apart from the work ("start s"). Wall times are the best of
``--repeat``; on a shared machine they are noisy, and the CPU seconds (this process and its
pool workers; Ray's workers cannot be counted from here) say more.

Usage::

    python3 benchmarks/bench_executors.py [--shared ../shared] [--repeat 2] [--no-jbe]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_contracts import OCR_FILES  # the same real scans (this script's folder is on sys.path)

REPO = Path(__file__).resolve().parent.parent
CONFIGS = [("none", 0), ("local", 1), ("local", 2), ("ray", 1), ("ray", 2)]


def _executor(kind: str, jobs: int) -> tuple[Any, float]:
    """The executor of a config and the seconds it took to start (a Ray instance)."""
    from buildds.executors import make_executor

    if kind == "none":
        return None, 0.0
    started = time.perf_counter()
    ex = make_executor(kind, jobs=jobs)
    return ex, time.perf_counter() - started


def cpu_seconds() -> float:
    """CPU time of this process and its waited-for children (pool workers, tesseracts);
    Ray's workers are the raylet's children, not counted."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(kind: str, jobs: int, work: Callable[[Any], Any], repeat: int
           ) -> tuple[float, float, float, Any]:
    """(start-up seconds, best work seconds, CPU seconds of the last run, the result)."""
    ex, start = _executor(kind, jobs)
    best, cpu, result = float("inf"), 0.0, None
    try:
        for _ in range(repeat):
            t, c = time.perf_counter(), cpu_seconds()
            result = work(ex)
            best = min(best, time.perf_counter() - t)
            if ex is not None:
                ex.close()  # the pool's workers end: their CPU time is counted
            cpu = cpu_seconds() - c
    finally:
        if ex is not None:
            ex.close()
    return start, best, cpu, result


def bench_contracts(root: Path, repeat: int) -> None:
    from buildds.extract.contracts import read_documents

    files = [root / rel for rel in OCR_FILES if (root / rel).is_file()]
    if not files:
        print(f"contracts OCR: skipped ({root} has none of the OCR files)")
        return

    def work(ex: Any) -> list[str]:
        return [(doc.model_dump_json() if doc is not None else repr(probs))
                for _, doc, probs in read_documents(files, root=root, ocr_lang="jpn+eng",
                                                    executor=ex)]

    print(f"\ncontracts OCR: {len(files)} files")
    print("| executor | workers | start s | pages | wall s | pages/s | CPU s | same documents |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    first: list[str] | None = None
    for kind, jobs in CONFIGS:
        start, best, cpu, docs = _timed(kind, jobs, work, repeat)
        pages = sum(_pages(d) for d in docs)
        first = docs if first is None else first
        shown = "none (serial files)" if kind == "none" else kind
        cpu_shown = "–" if kind == "ray" else f"{cpu:.1f}"
        print(f"| {shown} | {jobs or '–'} | {start:.1f} | {pages} | {best:.1f} | "
              f"{pages / best:.2f} | {cpu_shown} | {docs == first} |", flush=True)


def _pages(doc_json: str) -> int:
    import json

    try:
        return int(json.loads(doc_json)["pages"])
    except (ValueError, KeyError):
        return 0


def bench_jbe(repeat: int) -> None:
    from buildds.jobs.jbe import build_jbe

    sample = REPO / "buildds" / "sample" / "pdf"
    if not (sample / "2025" / "kenpo-mondai.pdf").is_file():
        print("jbe: skipped (python -m buildds.sample buildds/sample/pdf)")
        return
    tmp = Path(tempfile.mkdtemp(prefix="bench-executors-"))

    def work(ex: Any) -> bytes:
        out = tmp / "out"
        shutil.rmtree(out, ignore_errors=True)
        build_jbe(years=[2025], raw=sample, out=out, xml_only=True, use_cache=False,
                  progress=False, processes=1, executor=ex)
        return b"".join(p.read_bytes() for p in sorted((out / "xml").rglob("*.xml")))

    print("\njbe sample, stage 1: 3 pairs")
    print("| executor | workers | start s | wall s | pairs/s | same XML |")
    print("|---|---:|---:|---:|---:|---|")
    first: bytes | None = None
    try:
        for kind, jobs in CONFIGS:
            start, best, _, xml = _timed(kind, jobs, work, repeat)
            first = xml if first is None else first
            shown = "none (processes=1)" if kind == "none" else kind
            print(f"| {shown} | {jobs or '–'} | {start:.1f} | {best:.2f} | {3 / best:.2f} | "
                  f"{xml == first} |", flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--no-jbe", action="store_true")
    ap.add_argument("--no-contracts", action="store_true")
    args = ap.parse_args()
    if not args.no_contracts:
        bench_contracts(args.shared / "realdata" / "contracts", args.repeat)
    if not args.no_jbe:
        bench_jbe(args.repeat)


if __name__ == "__main__":
    main()
