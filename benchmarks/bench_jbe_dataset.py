"""Benchmark: the whole ``buildds jbe`` build (PDFs → XML → items → validation → dataset).

Each scenario runs ``buildds jbe`` as a command, as a user would, and reports wall time and
the peak RSS of the process tree (the command and its worker processes):

* cold           — empty output folder;
* warm           — nothing changed (target < 1 s);
* one correction — one correction file added (target < 5 s): only its booklet's items are
                   redone, then validation and export.

Targets: warm < 1 s, one-correction < 5 s, peak RSS < 1 GB. Usage:

    python3 benchmarks/bench_jbe_dataset.py [--raw ../shared/jbe/pdf] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def run(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of the largest process of ``cmd``'s tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    took = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return took, max(before, peak) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--raw", type=Path, default=REPO.parent / "shared" / "jbe" / "pdf")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    cold, warm, corr = [], [], []
    peak = 0.0
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            out, fixes = Path(tmp) / "out", Path(tmp) / "corrections"
            fixes.mkdir()
            cmd = ["buildds", "jbe", "--years", "2015-2024", "--raw", str(args.raw), "--out",
                   str(out), "--corrections", str(fixes), "-q"]
            took, rss = run(cmd)
            cold.append(took)
            peak = max(peak, rss)
            took, rss = run(cmd)
            warm.append(took)
            import pandas

            item = pandas.read_parquet(out / "data" / "test.parquet").iloc[100]
            (fixes / "one.yaml").write_text(
                f"- id: {item.id}\n  action: label\n  label: {'N' if item.label == 'Y' else 'Y'}"
                f"\n  reason: benchmark\n", encoding="utf-8")
            took, rss = run(cmd)
            corr.append(took)
            peak = max(peak, rss)
            report = json.loads((out / "report.json").read_text("utf-8"))
            assert report["dataset"]["corrections"]["applied"] == 1
    items = report["dataset"]["summary"]["total"]
    print(f"items: {items}; cores: {os.cpu_count()}; median of {args.repeat} runs")
    print(f"cold            {statistics.median(cold):6.2f} s")
    print(f"warm            {statistics.median(warm):6.2f} s   (target < 1 s)")
    print(f"one correction  {statistics.median(corr):6.2f} s   (target < 5 s)")
    print(f"peak RSS        {peak:6.0f} MB  (target < 1024 MB; largest process of the tree)")


if __name__ == "__main__":
    main()
