"""Benchmark: report.html for a large run — its size, the time to render it in Python, and
(when chromium and playwright are installed) the time a headless chromium takes to open it
and to apply a filter.

The run is synthetic but shaped like JBE-QA: ``--items`` items (a ~600-character Japanese
question; four-shot adds the same four ~600-character exemplars before it, which the page
stores once), ``--models`` models × both settings, answers
``1``/``0`` with one in ten unparseable and one in twenty failed requests. Usage:

    python3 benchmarks/bench_report_html.py [--items 1500] [--models 2] [--no-browser]

It prints the samples, the page's size (and the share that is prompts), the Python render
time, and in the browser: load until the table is ready, a filter change (status), showing
every row at once (``Rows per page: all``) and back to 100, each with the layout it causes.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from buildds.evaluate.report_html import render_report_html
from buildds.evaluate.report_samples import RunSamples, page_data

SUBJECTS = ("Civil Code", "Constitution", "Penal Code")
CHUNK = "民法第九十四条第二項の類推適用により、善意の第三者は保護されるという見解がある。"


def synthetic_runs(items: int, models: int, seed: int = 0) -> list[RunSamples]:
    rng = random.Random(seed)
    ids = [f"令和{1 + i // 500}年-{SUBJECTS[i % 3]}-{i}" for i in range(items)]
    groups = {sid: SUBJECTS[i % 3] for i, sid in enumerate(ids)}
    system = ("system", "以下の法律に関する問題を解答せよ。出力は必ず1または0のいずれかとせよ。")
    exemplars = tuple(part for k in range(4) for part in
                      (("user", f"例{k}\n" + CHUNK * 15), ("assistant", str(k % 2))))
    prompts = {0: {sid: (system, ("user", f"{sid}\n" + CHUNK * 15)) for sid in ids},
               4: {sid: (system, *exemplars, ("user", f"{sid}\n" + CHUNK * 15))
                   for sid in ids}}
    runs = []
    for m in range(models):
        for shots in (0, 4):
            records: list[dict[str, Any]] = []
            for sid in ids:
                gold = rng.random() < 0.5
                roll = rng.random()
                if roll < 0.05:
                    rec = {"raw_output": None, "parsed": None, "score": None,
                           "error": "http 500: upstream error"}
                elif roll < 0.15:
                    rec = {"raw_output": "説明：" + CHUNK * 3, "parsed": None, "score": 0.0,
                           "error": None}
                else:
                    ans = rng.random() < 0.5
                    rec = {"raw_output": str(int(ans)), "parsed": int(ans),
                           "score": float(ans == gold), "error": None}
                records.append({"id": sid, "gold": gold, **rec})
            runs.append(RunSamples(f"openai:model-{m}", shots, records, prompts[shots], groups))
    return runs


def browser_times(path: Path) -> dict[str, float] | None:
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if binary is None:
        return None
    out: dict[str, float] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=binary, headless=True)
        page = browser.new_page()
        t = time.perf_counter()
        page.goto(path.as_uri())
        page.wait_for_selector("body[data-ready='1']")
        out["load_s"] = time.perf_counter() - t
        change = """([id, value]) => { const t = performance.now();
            const s = document.getElementById(id); s.value = value;
            s.dispatchEvent(new Event('change')); void document.body.offsetHeight;
            return (performance.now() - t) / 1000; }"""
        out["filter_status_s"] = page.evaluate(change, ["f-status", "wrong"])
        out["filter_clear_s"] = page.evaluate(change, ["f-status", ""])
        out["all_rows_s"] = page.evaluate(change, ["f-size", "all"])
        out["rows_in_dom"] = page.locator("#sample-rows tr").count()
        out["back_to_100_s"] = page.evaluate(change, ["f-size", "100"])
        browser.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=1500)
    ap.add_argument("--models", type=int, default=2)
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    runs = synthetic_runs(args.items, args.models)
    t = time.perf_counter()
    data = page_data(runs, group_title="Subject")
    html = render_report_html(title="Evaluation report: synthetic", leaderboard_md="# x\n",
                              plots=[], data=data)
    render_s = time.perf_counter() - t
    size = len(html.encode("utf-8"))
    prompts = sum(len(text.encode("utf-8")) for _, text in data["parts"])
    print(f"samples: {len(data['samples'])} ({args.items} items × {args.models} models × 2 "
          f"settings); distinct prompts: {len(data['prompts'])}, their distinct messages: "
          f"{len(data['parts'])}")
    print(f"report.html: {size / 1e6:.2f} MB ({prompts / size:.0%} prompts); "
          f"render in Python: {render_s:.2f} s")
    if args.no_browser:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.html"
        path.write_text(html, encoding="utf-8")
        times = browser_times(path)
    if times is None:
        print("browser: skipped (no chromium or no playwright)")
        return
    print("chromium: " + ", ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}"
                                   for k, v in times.items()))


if __name__ == "__main__":
    main()
