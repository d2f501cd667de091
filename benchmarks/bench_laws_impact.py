"""Benchmark: grounding + impact (:func:`buildds.laws.impact.assess_items`) over a JBE
2015–2024 build, beside the time of the build itself.

    python benchmarks/bench_laws_impact.py [--dataset DIR] [--store DIR] [--shared ../shared]
        [--as-of 2026-01-01] [--repeat 3]

Without ``--dataset`` the JBE export is built first into a temporary folder
(``buildds jbe --years 2015-2024 --no-cache``, timed: the build time printed for comparison);
with it, the build is still timed into a temporary folder unless ``--no-build-time``. Without
``--store`` a law store is imported into a temporary folder as the tests make it: 民法
2013-11 (old-system text) / 2023-06-14 (e-Gov HTML) / 2026-01 (the provider's JSONL), 刑法
2013-11 / 2023-07-13 / 2026-01-01 (e-Gov XML).

Printed, in one fresh process (Python and library imports timed apart):

* one-off: the SudachiPy dictionary, the BM25 index of each code version items are
  grounded in;
* cold: grounding (queries tokenised for the first time), then impact on those grounds
  (store read, 附則 files read, diffs made — once per run);
* warm: ``assess_items`` (grounding + impact) again, best of ``--repeat`` — with the query
  analyses forgotten (every query re-tokenised) and kept (a rerun over the same items);
* each per 1,000 items, and the results checked to be the same on every pass.

Target (issue 12): grounding + impact well under the build time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CIVIL_2026 = "129AC0000000089_20250601_504AC0000000068"


def build(raw: Path, out: Path) -> float:
    """Seconds for ``buildds jbe --years 2015-2024 --no-cache`` (a fresh process)."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "buildds", "jbe", "--years", "2015-2024", "--raw",
                    str(raw), "--out", str(out), "-q", "--no-cache"], check=True)
    return time.perf_counter() - t


def make_store(shared: Path, root: Path) -> None:
    laws, statutes = shared / "realdata" / "laws", shared / "realdata" / "statutes"
    files = [laws / "jp-civil-code" / "minpo_2013-11_oldsystem.txt", statutes / "min.html",
             laws / "jp-penal-code" / "keiho_2013-11_oldsystem.txt",
             statutes / "140AC0000000045_20230713_505AC0000000066.html",
             laws / "jp-penal-code" / "keiho_egov_api_v1_2026-01-01.xml"]
    run = [sys.executable, "-m", "buildds", "laws", "import"]
    subprocess.run([*run, *(str(f.resolve()) for f in files), "--store", str(root)],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([*run, str((laws / "jp-civil-code" / "articles_2026-01.jsonl").resolve()),
                    "--revision-id", CIVIL_2026, "--store", str(root)],
                   check=True, stdout=subprocess.DEVNULL)


def _line(name: str, seconds: float, n: int | None = None) -> str:
    per = f"  ({1000 * seconds / n:.3f} s per 1,000 items)" if n else ""
    return f"  {name:<62} {seconds:7.3f} s{per}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--dataset", type=Path)
    ap.add_argument("--store", type=Path)
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--as-of", type=date.fromisoformat, default=date(2026, 1, 1))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-build-time", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        built = None if args.dataset and args.no_build_time else build(
            args.shared / "jbe" / "pdf", Path(tmp) / "jbe")
        dataset = args.dataset or Path(tmp) / "jbe"
        store_root = args.store
        if store_root is None:
            store_root = Path(tmp) / "store"
            make_store(args.shared, store_root)
        run(dataset, store_root, args.as_of, max(1, args.repeat), built)


def run(dataset: Path, store_root: Path, as_of: date, repeat: int, built: float | None) -> None:
    t = time.perf_counter()
    from buildds.commands.laws_impact import load_dataset_items
    from buildds.laws.exam_dates import exam_date_of
    from buildds.laws.grounding import SUBJECT_LAWS, ground_items
    from buildds.laws.impact import DEFAULT_TOP_K, assess_items
    from buildds.laws.retrieval import DEFAULT_ANALYZER, article_index, cached_terms
    from buildds.laws.store import LawStore
    imports = time.perf_counter() - t

    items = load_dataset_items(dataset)
    store = LawStore(store_root)
    day_of = exam_date_of()
    n = len(items)
    print(f"{n} items ({dataset}), store {store_root}, as of {as_of.isoformat()}")
    print(_line("imports (buildds, pandas, sudachipy, rank_bm25)", imports))

    t = time.perf_counter()
    DEFAULT_ANALYZER.terms("民法")
    print(_line("one-off: SudachiPy dictionary", time.perf_counter() - t))
    groups: dict[tuple[str, str], list] = defaultdict(list)
    for item in items:
        law = SUBJECT_LAWS[item.subject_jp]
        versions = [v for v in store.versions(law) if v.valid_from <= day_of(item)]
        groups[(law, versions[-1].revision_id if versions else "")].append(item)
    codes = {key: store.articles(*key) for key in groups if key[1]}
    t = time.perf_counter()
    for articles in codes.values():
        article_index(articles)
    print(_line(f"one-off: {len(codes)} BM25 indexes (one per code version used)",
                time.perf_counter() - t))

    t = time.perf_counter()
    grounds = {g.item_id: g for (law, rid), group in sorted(groups.items())
               for g in ground_items(group, {law: codes[(law, rid)]} if rid else {},
                                     k=DEFAULT_TOP_K)}
    ground_cold = time.perf_counter() - t
    t = time.perf_counter()
    first = assess_items(items, store, as_of, grounds=grounds)
    impact_cold = time.perf_counter() - t
    print(_line("cold: grounding", ground_cold, n))
    print(_line("cold: impact (grounds given)", impact_cold, n))
    print(_line("cold: grounding + impact", ground_cold + impact_cold, n))

    expected = [r.model_dump_json() for r in first]
    for name, forget in (("warm: grounding + impact, queries re-tokenised", True),
                         ("warm: grounding + impact, query analyses kept", False)):
        best = float("inf")
        for _ in range(repeat):
            if forget:
                cached_terms.cache_clear()
            t = time.perf_counter()
            again = assess_items(items, store, as_of)
            best = min(best, time.perf_counter() - t)
            assert [r.model_dump_json() for r in again] == expected, "results differ"
        print(_line(f"{name} (best of {repeat})", best, n))
    if built is not None:
        print(_line("for comparison: buildds jbe 2015-2024 --no-cache (whole process)", built))


if __name__ == "__main__":
    main()
