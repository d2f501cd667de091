"""Articles/s of :func:`buildds.laws.diff.diff_versions` on the real versions of the Civil
and Penal Codes.

    python benchmarks/bench_laws_diff.py [--shared ../shared] [--repeat 5]

Reads the per-article oracle files in ``<shared>/realdata/laws/jp-*/articles_*.jsonl`` (made
into LawArticles outside the timing) and, best of ``--repeat`` runs (wall clock), diffs:

- 民法 2023-06-14 → 2026-01 (~1,220 articles a side, few changes: mostly exact matches);
- 民法 2013-11 → 2023-06-14 (the 債権法 and 相続法 reforms: hundreds of articles go through
  the similarity alignment — the heavy case);
- 刑法 2023-07-13 → 2026-01-01 with the 拘禁刑 terminology map.

Target: well under a second for ~1,200 articles a side.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from buildds.laws.diff import diff_versions
from buildds.laws.readers import read_law
from buildds.laws.terminology import TerminologyMap, builtin_terminology
from buildds.schema.laws import LawArticle

REPO = Path(__file__).resolve().parent.parent


def load(path: Path) -> list[LawArticle]:
    """A per-article JSONL file (the data provider's parse of each version) as LawArticles,
    through buildds' own article-JSONL reader."""
    return list(read_law(path).articles)


def bench(name: str, old: list[LawArticle], new: list[LawArticle],
          terminology: TerminologyMap | None, repeat: int) -> None:
    best, changes = float("inf"), []
    for _ in range(max(1, repeat)):
        t = time.perf_counter()
        changes = diff_versions(old, new, terminology=terminology)
        best = min(best, time.perf_counter() - t)
    kinds = Counter(c.kind for c in changes)
    shown = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    print(f"{name}: {len(old)} → {len(new)} articles, best of {repeat}: {best * 1000:.1f} ms "
          f"({(len(old) + len(new)) / best:,.0f} articles/s)\n    {shown}")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    laws = args.shared / "realdata" / "laws"
    civil = {v: load(laws / "jp-civil-code" / f"articles_{v}.jsonl")
             for v in ("2013-11", "2023-06-14", "2026-01")}
    penal = {v: load(laws / "jp-penal-code" / f"articles_{v}.jsonl")
             for v in ("2023-07-13", "2026-01-01")}
    bench("民法 2023-06-14 → 2026-01", civil["2023-06-14"], civil["2026-01"], None, args.repeat)
    bench("民法 2013-11 → 2023-06-14", civil["2013-11"], civil["2023-06-14"], None, args.repeat)
    bench("刑法 2023-07-13 → 2026-01-01 (拘禁刑 map)", penal["2023-07-13"],
          penal["2026-01-01"], builtin_terminology(), args.repeat)


if __name__ == "__main__":
    main()
