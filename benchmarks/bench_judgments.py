"""Judgments/s through parse + error injection, against just reading the JSON (I/O).

    python benchmarks/bench_judgments.py [--shared ../shared] [--repeat 3]

Reads JuDGE test.json and CAIL data_train.json from ``<shared>/realdata/judgments``; for
each prints, best of ``--repeat`` runs (wall clock):

- read JSON: reading the file and ``json.loads`` of every line (the I/O floor: parsing does
  this too, so it is part of the parse time);
- parse: the loader, file to ``Judgment`` records; judgments/s and MB/s of the input file;
- inject E1–E6: every parsed judgment is also the E1 corpus;
- the share of parse + inject spent reading JSON, parsing beyond it, and injecting.

The statute profile is built once, outside the timing. On a busy machine the figures move
by tens of percent from run to run; raise ``--repeat`` to get closer to the floor.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parent.parent
T = TypeVar("T")


def _best(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    """The shortest wall time of ``repeat`` calls of ``fn``, and its (last) value."""
    best, value = float("inf"), None
    for _ in range(max(1, repeat)):
        t = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t)
    return best, value  # type: ignore[return-value]


def _read_json(path: Path) -> int:
    """Non-blank lines of ``path``, each decoded with ``json.loads``."""
    with path.open(encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip() and json.loads(line) is not None)


def _load(loader: Callable[..., Any], path: Path) -> list[Any]:
    """Every judgment ``loader`` parses from ``path`` (rejects collected, not logged)."""
    return list(loader(path, []))


def _report(name: str, path: Path, lines: int, n: int, injected: int, skipped: int,
            t_io: float, t_parse: float, t_inj: float) -> None:
    """Print the figures of one dataset."""
    mb = path.stat().st_size / 1e6
    total = t_parse + t_inj
    print(f"{name}: {lines} lines ({mb:.1f} MB), {n} judgments, {injected} injections "
          f"({skipped} skipped)")
    print(f"  read JSON (I/O)   {t_io:8.3f} s  {lines / t_io:10.0f} lines/s   "
          f"{mb / t_io:7.1f} MB/s")
    print(f"  parse             {t_parse:8.3f} s  {n / t_parse:10.0f} judgments/s "
          f"{mb / t_parse:7.1f} MB/s")
    print(f"  inject E1-E6      {t_inj:8.3f} s  {n / t_inj:10.0f} judgments/s")
    print(f"  parse + inject    {total:8.3f} s  {n / total:10.0f} judgments/s "
          f"{mb / total:7.1f} MB/s ({total / t_io:.1f}x the I/O time)")
    beyond = max(t_parse - t_io, 0.0)
    print(f"  share of parse + inject: read JSON {t_io / total:4.0%}, parse beyond JSON "
          f"{beyond / total:4.0%}, inject {t_inj / total:4.0%}")


def main() -> None:
    from buildds.extract.judgments import load_cail, load_judge
    from buildds.inject_errors.registry import inject_all
    from buildds.inject_errors.statutes import build_cn_profile

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    root = args.shared / "realdata" / "judgments"
    profile = build_cn_profile(root / "cn-criminal-law", root / "cn-confusable-charges"
                               / "legalattack_sheet1_similar_charges.csv")
    datasets: tuple[tuple[str, Path, Callable[..., Any]], ...] = (
        ("JuDGE", root / "judge-benchmark" / "test.json", load_judge),
        ("CAIL", root / "cail2018-sample" / "data_train.json", load_cail))
    for name, path, loader in datasets:
        if not path.is_file():
            print(f"{name}: {path} not present, skipped")
            continue
        t_io, lines = _best(partial(_read_json, path), args.repeat)
        t_parse, judgments = _best(partial(_load, loader, path), args.repeat)
        t_inj, (done, skipped) = _best(partial(inject_all, judgments, profile=profile, seed=0,
                                               corpus=judgments), args.repeat)
        _report(name, path, lines, len(judgments), len(done), len(skipped), t_io, t_parse, t_inj)


if __name__ == "__main__":
    main()
