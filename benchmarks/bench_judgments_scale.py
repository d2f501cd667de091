"""``buildds judgments`` as the corpus grows: judgments/s and peak memory at 1×, 10× … of
the real JuDGE judgments (issues 13 and 18).

    python benchmarks/bench_judgments_scale.py [--shared ../shared] [--scales 1,10]
        [--shard-bytes 4194304] [--workers 1] [--map-fn module:function] [--no-audit]
        [--whole] [--keep DIR] [--runs local:1,local:2,ray:1,ray:2]

The corpus of scale k is made from JuDGE ``test.json`` by seeded perturbation
(:func:`perturbed_corpus`): copy c of each record gets a new ``text_id`` and case number
(so de-duplication keeps it), another defendant name, the days of its dates shifted and its
amounts in yuan scaled (the same change everywhere the value appears in the record); copy 0
is the record itself. Each build runs in a fresh process (``python -c``), which prints its
own wall time and peak RSS (``resource.getrusage``: the process, and separately its worker
processes), so one scale's peak never hides another's.

``--map-fn module:function`` names a function ``f(workers) -> map_fn`` (the seam of
:func:`buildds.jobs.judgments.build_judgments`: ``map_fn(fn, shards)`` → results in input
order); the default is :func:`buildds.jobs.judgments_sharded.local_map`. ``--runs
local:1,local:2,ray:1,ray:2`` runs each executor and worker count on every scale in one
invocation (the same generated corpora). "1 worker MB" is the largest resident size any
one process the build started reached (a pool or Ray worker, or one of Ray's daemons),
"all procs MB" the largest sum over the build's process tree (both sampled every 0.25 s
with psutil: Ray's workers are not children the kernel counts for ``workers MB``). ``--whole`` runs
the whole-corpus path (``shard_bytes=0``) for comparison. "pre-merge" is the time and peak
RSS when the shards are done (survey + parse/inject/rows), before the merge streams the rows
for validation, audit and export. Figures on a shared, busy machine
move by tens of percent from run to run.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_NAME_RE = re.compile(r"被告人([\u4e00-\u9fff][\u4e00-\u9fff0-9]{0,3}?)[，,（(]")
_CASE_RE = re.compile(r"([（(〔\[［]\s*(?:19|20)\d\d\s*[）)〕\]］]\s*[^\s，,。；;：:（）()]{1,16}?)(\d+)号")
_YUAN_RE = re.compile(r"(\d{3,9})元")
_DAY_RE = re.compile(r"(\d{1,2})月(\d{1,2})日")
_SURNAMES = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦许何吕施孔曹严华金魏陶姜"


def perturb(record: dict, copy: int, seed: int) -> dict:
    """Copy ``copy`` of a JuDGE record (0: the record itself); see the module docstring."""
    if copy == 0:
        return record
    rng = random.Random(f"{seed}:{record.get('text_id')}:{copy}")
    fd, facts = str(record["fd"]), str(record["text"])
    m = _NAME_RE.search(fd)
    if m:
        name = m[1]
        new = rng.choice(_SURNAMES) + name[1:] + str(copy % 10)
        if new not in fd:
            fd, facts = fd.replace(name, new), facts.replace(name, new)
    fd = _CASE_RE.sub(lambda c: f"{c[1]}{c[2]}{copy:05d}号", fd, count=1)
    scale = rng.uniform(0.8, 1.25)
    amounts: dict[str, str] = {}
    shift = rng.randint(1, 27)

    def yuan(a: re.Match[str]) -> str:
        amounts.setdefault(a[1], str(max(1, round(int(a[1]) * scale))))
        return amounts[a[1]] + "元"

    def day(d: re.Match[str]) -> str:
        return f"{d[1]}月{(int(d[2]) - 1 + shift) % 28 + 1}日"

    new_facts = _DAY_RE.sub(day, _YUAN_RE.sub(yuan, facts))
    if facts and facts in fd:  # the facts as the full text holds them change alike
        fd = fd.replace(facts, new_facts)
    return {**record, "text_id": f"{record.get('text_id')}-x{copy}", "text": new_facts,
            "fd": fd}


def perturbed_corpus(src: Path, out: Path, copies: int, seed: int = 0) -> int:
    """``copies`` perturbed copies of every line of ``src`` into ``out`` (JSON lines), copy
    by copy; the lines written."""
    n = 0
    with out.open("w", encoding="utf-8") as fh:
        for copy in range(copies):
            with src.open(encoding="utf-8") as lines:
                for line in lines:
                    if line.strip():
                        fh.write(json.dumps(perturb(json.loads(line), copy, seed),
                                            ensure_ascii=False) + "\n")
                        n += 1
    return n


_CHILD = r"""
import json, resource, sys, time
from pathlib import Path
from importlib import import_module
from buildds.jobs import judgments_sharded
from buildds.jobs.judgments import build_judgments
a = json.loads(sys.argv[1])
phase = {}
merge = judgments_sharded.merge_shards
def timed_merge(*args, **kw):  # the peak of survey + shards, before the merge streams the rows
    phase["before_merge_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    phase["before_merge_s"] = time.perf_counter() - t
    return merge(*args, **kw)
judgments_sharded.merge_shards = timed_merge
tree = {"worker_max": 0, "total": 0}
def sample():  # every process this build started (pool or Ray workers, Ray's daemons): RSS
    import psutil
    me = psutil.Process()
    while True:
        total = me.memory_info().rss
        for kid in me.children(recursive=True):
            try:
                rss = kid.memory_info().rss
            except psutil.Error:
                continue
            total += rss
            tree["worker_max"] = max(tree["worker_max"], rss)
        tree["total"] = max(tree["total"], total)
        time.sleep(0.25)
import threading
threading.Thread(target=sample, daemon=True).start()
mod, _, fn = a["map_fn"].partition(":")
map_fn = getattr(import_module(mod), fn)(a["workers"])
t = time.perf_counter()
r = build_judgments([Path(a["input"])], out=Path(a["out"]), law_dir=Path(a["law"]),
                    confusable=Path(a["confusable"]), seed=0, progress=False,
                    audit=a["audit"], shard_bytes=a["shard_bytes"], map_fn=map_fn)
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"seconds": time.perf_counter() - t, "judgments": sum(r.parsed.values()),
                  "rows": r.rows.get("detection", 0), "peak_mb": own / 1024,
                  "workers_peak_mb": kids / 1024, "shards": r.shards,
                  "worker_max_mb": tree["worker_max"] / 2**20, "tree_peak_mb": tree["total"] / 2**20,
                  **phase}))
"""


#: ``--runs`` names: the map function of each executor
EXECUTORS = {"local": "buildds.jobs.judgments_sharded:local_map",
             "ray": "buildds.executors.ray:ray_map"}


def run_one(corpus: Path, out: Path, args: argparse.Namespace, law: Path, confusable: Path,
            map_fn: str, workers: int) -> dict:
    """One build in a fresh process; its figures."""
    spec = {"input": str(corpus), "out": str(out), "law": str(law),
            "confusable": str(confusable), "audit": not args.no_audit,
            "shard_bytes": 0 if args.whole else args.shard_bytes, "workers": workers,
            "map_fn": map_fn}
    done = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(spec)], cwd=REPO,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"build failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--scales", default="1,10")
    ap.add_argument("--shard-bytes", type=int, default=4 << 20)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--map-fn", default="buildds.jobs.judgments_sharded:local_map")
    ap.add_argument("--no-audit", action="store_true")
    ap.add_argument("--whole", action="store_true", help="the whole-corpus path")
    ap.add_argument("--keep", type=Path, help="build here (else a temporary folder); a corpus "
                    "made there before is used again")
    ap.add_argument("--runs", help="executor:workers,… each on every scale, in one run "
                    "(e.g. local:1,local:2,ray:1,ray:2; overrides --map-fn/--workers)")
    args = ap.parse_args()
    runs = ([(name, EXECUTORS[name], int(w)) for name, _, w in
             (r.partition(":") for r in args.runs.split(","))] if args.runs
            else [(args.map_fn.rpartition(":")[2], args.map_fn, args.workers)])
    base = args.shared / "realdata" / "judgments"
    src = base / "judge-benchmark" / "test.json"
    law, confusable = base / "cn-criminal-law", (
        base / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv")
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        root = args.keep or Path(tmp)
        root.mkdir(parents=True, exist_ok=True)
        print(f"{'run':>10} {'scale':>5} {'records':>8} {'MB':>7} {'judgments':>9} {'rows':>7} "
              f"{'s':>7} {'judg/s':>7} {'peak MB':>8} {'workers MB':>10} {'1 worker MB':>11} "
              f"{'all procs MB':>12} {'pre-merge s':>11} {'pre-merge MB':>12}")
        for scale in (int(s) for s in args.scales.split(",")):
            corpus, count = root / f"judge_x{scale}.jsonl", root / f"judge_x{scale}.count"
            if corpus.is_file() and count.is_file():  # made by an earlier run with --keep
                n = int(count.read_text())
            else:
                n = perturbed_corpus(src, corpus, scale)
                count.write_text(str(n))
            mb = corpus.stat().st_size / 1e6
            for name, map_fn, workers in runs:
                out = root / f"out_x{scale}_{name}{workers}"
                got = run_one(corpus, out, args, law, confusable, map_fn, workers)
                shutil.rmtree(out, ignore_errors=True)
                print(f"{name + ':' + str(workers):>10} {scale:>5} {n:>8} {mb:>7.1f} "
                      f"{got['judgments']:>9} {got['rows']:>7} "
                      f"{got['seconds']:>7.1f} {got['judgments'] / got['seconds']:>7.1f} "
                      f"{got['peak_mb']:>8.0f} {got['workers_peak_mb']:>10.0f} "
                      f"{got['worker_max_mb']:>11.0f} {got['tree_peak_mb']:>12.0f} "
                      f"{got.get('before_merge_s', 0):>11.1f} "
                      f"{got.get('before_merge_mb', 0):>12.0f}", flush=True)


if __name__ == "__main__":
    main()
