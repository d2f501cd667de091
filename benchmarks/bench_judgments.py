"""Judgments/s through parse + error injection, against just reading the JSON (I/O).

    python benchmarks/bench_judgments.py [--shared ../shared] [--repeat 3]

Reads JuDGE test.json and CAIL data_train.json from ``<shared>/realdata/judgments``; for
each prints the time to read and ``json.loads`` every line, the time to parse into
``Judgment`` records, and the time to inject E1–E6 (every parsed judgment is the E1 corpus),
with judgments/s for each. The statute profile is built once, outside the timing.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _best(fn, repeat: int):  # type: ignore[no-untyped-def]
    best, value = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t)
    return best, value


def main() -> None:
    from buildds.extract.judgments import load_cail, load_judge
    from buildds.inject_errors.base import inject_all
    from buildds.inject_errors.statutes import build_cn_profile

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    root = args.shared / "realdata" / "judgments"
    profile = build_cn_profile(root / "cn-criminal-law", root / "cn-confusable-charges"
                               / "legalattack_sheet1_similar_charges.csv")
    for name, path, loader in (("JuDGE", root / "judge-benchmark" / "test.json", load_judge),
                               ("CAIL", root / "cail2018-sample" / "data_train.json", load_cail)):
        if not path.is_file():
            print(f"{name}: {path} not present, skipped")
            continue

        def read(path: Path = path) -> int:
            with path.open(encoding="utf-8") as fh:
                return sum(1 for line in fh if line.strip() and json.loads(line) is not None)

        t_io, lines = _best(read, args.repeat)
        t_parse, judgments = _best(lambda path=path, loader=loader: list(loader(path, [])),
                                   args.repeat)
        t_inj, (done, skipped) = _best(lambda judgments=judgments: inject_all(
            judgments, profile=profile, seed=0, corpus=judgments), args.repeat)
        n = len(judgments)
        total = t_parse + t_inj
        print(f"{name}: {lines} lines, {n} judgments, {len(done)} injections "
              f"({len(skipped)} skipped)")
        print(f"  read JSON (I/O)   {t_io:8.3f} s  {lines / t_io:10.0f} lines/s")
        print(f"  parse             {t_parse:8.3f} s  {n / t_parse:10.0f} judgments/s")
        print(f"  inject E1-E6      {t_inj:8.3f} s  {n / t_inj:10.0f} judgments/s")
        print(f"  parse + inject    {total:8.3f} s  {n / total:10.0f} judgments/s "
              f"({total / t_io:.1f}x the I/O time)")


if __name__ == "__main__":
    main()
