"""Judgments/s through parse + inject + rows + shortcut audit, and the peak memory of a whole
``buildds judgments`` build at 1×, 2×, 4× the corpus (does memory grow with the corpus?).

    python benchmarks/bench_judgments_pipeline.py [--shared ../shared] [--repeat 1]
        [--scales 1,2,4] [--tracemalloc]

Reads JuDGE test.json and CAIL data_train.json from ``<shared>/realdata/judgments`` (a
missing one is skipped). For each:

1. **stages** (in this process, best of ``--repeat``, wall clock): parse (the loader),
   inject E1–E6 (every parsed judgment is the E1 corpus), the AR-Bench rows, the audit's
   rules, the audit's classifier (cross-validated, one model per task); judgments/s of each
   and of the whole chain. The statute profile and the law texts are built once, outside.
2. **scaling** (one fresh subprocess per scale, so peaks do not mix): the input repeated
   ``k`` times with renamed ids (JuDGE ``text_id`` + ``~k``; CAIL ids are line numbers) is
   built by :func:`buildds.jobs.judgments.build_judgments` (parse, inject, rows, validate,
   audit, export) into a temporary folder; the child reports the wall time and its peak RSS
   (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) minus its RSS after the imports, and with
   ``--tracemalloc`` the peak of Python allocations (slower: tracing costs 2–3×). A second
   child runs parse, inject, rows, the audit, validation and the export one by one and
   reports what each stage's records hold (tracemalloc) and the peak of the last three above
   them — what holds the memory.

On a busy machine the times move by tens of percent from run to run; the memory figures
are steadier. Note that repeated judgments are the same texts: a corpus of new judgments
would give the audit's TF-IDF more distinct n-grams than a repeated one.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # this checkout's buildds, as the children get (PYTHONPATH)
T = TypeVar("T")


def _best(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    """The shortest wall time of ``repeat`` calls of ``fn``, and its (last) value."""
    best, value = float("inf"), None
    for _ in range(max(1, repeat)):
        t = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t)
    return best, value  # type: ignore[return-value]


def _stages(name: str, path: Path, root: Path, repeat: int) -> None:
    """Time each stage of the pipeline on one input and print judgments/s."""
    import sklearn.linear_model  # noqa: F401  (its import is not the classifier's time)

    from buildds.extract.judgments import load_cail, load_judge
    from buildds.inject_errors.arbench_rows import arbench_rows, load_article_texts
    from buildds.inject_errors.registry import inject_all
    from buildds.inject_errors.statutes import build_cn_profile
    from buildds.validate.shortcut_audit import audit_rows

    profile = build_cn_profile(root / "cn-criminal-law", root / "cn-confusable-charges"
                               / "legalattack_sheet1_similar_charges.csv")
    texts = load_article_texts(root / "cn-criminal-law")
    loader = load_judge if name == "JuDGE" else load_cail
    t_parse, judgments = _best(lambda: list(loader(path, [])), repeat)
    t_inj, (done, _skipped) = _best(lambda: inject_all(judgments, profile=profile, seed=0,
                                                       corpus=judgments), repeat)
    t_rows, rows = _best(lambda: arbench_rows(judgments, done, texts=texts, profile=profile),
                         repeat)
    t_rules, _ = _best(lambda: audit_rows(rows, profile=profile, classifier=False), repeat)
    t_audit, audit = _best(lambda: audit_rows(rows, profile=profile), repeat)
    t_clf = max(t_audit - t_rules, 1e-9)
    n = len(judgments)
    total = t_parse + t_inj + t_rows + t_audit
    print(f"{name}: {n} judgments, {len(done)} injections, {len(rows)} rows "
          f"({audit.untouched} untouched)")
    for label, t in (("parse", t_parse), ("inject E1-E6", t_inj), ("rows", t_rows),
                     ("audit: rules", t_rules), ("audit: classifier", t_clf),
                     ("parse + inject + rows + audit", total)):
        print(f"  {label:30s} {t:8.3f} s  {n / t:10.0f} judgments/s  ({t / total:4.0%})")


def _scaled_input(path: Path, k: int, folder: Path) -> Path:
    """``path`` repeated ``k`` times, each copy's JuDGE ``text_id`` suffixed ``~i`` and its
    case number (in the header) ``~i`` before 号 — else the copies are ``duplicate_case``
    rejects and every scale builds the same judgments."""
    from buildds.extract.judgments.cases import _CASE_NO_RE as case_no  # noqa: PLC2701

    def renumber(text: str, i: int) -> str:
        m = case_no.search(text[:400])
        return text if m is None else (text[:m.end() - 1] + f"~{i}" + text[m.end() - 1:])

    out = folder / f"x{k}-{path.name}"
    lines = [line for line in path.read_text("utf-8").splitlines() if line.strip()]
    with out.open("w", encoding="utf-8") as fh:
        for i in range(k):
            for line in lines:
                if i and '"text_id"' in line[:200]:
                    record = json.loads(line)
                    record["text_id"] = f"{record['text_id']}~{i}"
                    record["fd"] = renumber(str(record.get("fd") or ""), i)
                    line = json.dumps(record, ensure_ascii=False)
                fh.write(line + "\n")
    return out


#: a whole build; every library it loads is imported before the base RSS is taken
_CHILD = """
import json, resource, sys, time
trace = sys.argv[4] == "1"
from pathlib import Path
from buildds.jobs.judgments import build_judgments
import buildds.validate.shortcut_audit, buildds.validate.arbench, buildds.export.arbench
import buildds.inject_errors.statutes, buildds.extract.judgments
import sklearn.linear_model, sklearn.feature_extraction.text, sklearn.model_selection
import datasets, pandas, pyarrow.parquet, pandera
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if trace:
    import tracemalloc
    tracemalloc.start()
root = Path(sys.argv[2])
t = time.perf_counter()
report = build_judgments([Path(sys.argv[1])], out=Path(sys.argv[3]), progress=False,
    law_dir=root / "cn-criminal-law",
    confusable=root / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv")
seconds = time.perf_counter() - t
peak = tracemalloc.get_traced_memory()[1] if trace else None
print(json.dumps({"seconds": seconds, "base_kb": base,
    "peak_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "traced_peak": peak,
    "parsed": sum(report.parsed.values()), "rows": report.rows.get("detection", 0)}))
"""

#: the stages one by one, with the Python memory they hold (tracemalloc) after each
_HELD = """
import json, sys, tempfile, tracemalloc
from pathlib import Path
from buildds.extract.judgments import load_cail, load_judge
from buildds.export.arbench import export_arbench
from buildds.inject_errors.arbench_rows import arbench_rows, load_article_texts
from buildds.inject_errors.registry import inject_all
from buildds.inject_errors.statutes import build_cn_profile
from buildds.validate.arbench import validate_arbench
from buildds.validate.shortcut_audit import audit_rows
import sklearn.linear_model, sklearn.feature_extraction.text, sklearn.model_selection
import datasets, pandas, pyarrow.parquet, pandera
root = Path(sys.argv[2])
profile = build_cn_profile(root / "cn-criminal-law",
    root / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv")
texts = load_article_texts(root / "cn-criminal-law")
loader = load_judge if sys.argv[3] == "JuDGE" else load_cail
held = {}
tracemalloc.start()
def mark(stage):
    held[stage] = tracemalloc.get_traced_memory()[0]
judgments = list(loader(Path(sys.argv[1]), [])); mark("judgments")
done, _ = inject_all(judgments, profile=profile, seed=0, corpus=judgments); mark("injected")
rows = arbench_rows(judgments, done, texts=texts, profile=profile); mark("rows")
def peak(stage, fn):
    tracemalloc.reset_peak()
    fn()
    held[stage] = tracemalloc.get_traced_memory()[1] - held["rows"]
peak("audit_peak", lambda: audit_rows(rows, profile=profile))
peak("validate_peak", lambda: validate_arbench(rows, profile=profile, injected=done))
with tempfile.TemporaryDirectory() as tmp:
    peak("export_peak", lambda: rows and export_arbench(rows, out=Path(tmp), fingerprint="x",
                                                        provenance={}))
print(json.dumps(held))
"""


def _held(name: str, src: Path, root: Path, env: dict[str, str]) -> str:
    """What the stages' records hold (MB, tracemalloc), and the audit's own peak above them."""
    run = subprocess.run([sys.executable, "-c", _HELD, str(src), str(root), name],
                         capture_output=True, text=True, env=env, check=False)
    if run.returncode != 0:
        return f"(failed: {run.stderr.strip().splitlines()[-1:]})"
    h = {k: v / 2**20 for k, v in json.loads(run.stdout.strip().splitlines()[-1]).items()}
    return (f"held: judgments {h['judgments']:.0f}, + injections "
            f"{h['injected'] - h['judgments']:.0f}, + rows {h['rows'] - h['injected']:.0f} MB; "
            f"peak above them: audit +{h['audit_peak']:.0f}, validation "
            f"+{h['validate_peak']:.0f}, export +{h['export_peak']:.0f} MB")


def _scaling(name: str, path: Path, root: Path, scales: list[int], trace: bool) -> None:
    """One child build per scale; print time, judgments/s and memory above the imports,
    then what the records of each stage hold."""
    print(f"{name}: whole build (parse, inject, rows, validate, audit, export) per corpus size")
    print(f"  {'scale':>5} {'judgments':>9} {'rows':>6} {'seconds':>8} {'judg./s':>8} "
          f"{'RSS above imports':>18} {'MB / 1k judgments':>18}"
          + (f" {'traced peak':>12}" if trace else ""))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with tempfile.TemporaryDirectory() as tmp:
        for k in scales:
            src = _scaled_input(path, k, Path(tmp))
            run = subprocess.run([sys.executable, "-c", _CHILD, str(src), str(root),
                                  str(Path(tmp) / f"out{k}"), "1" if trace else "0"],
                                 capture_output=True, text=True, env=env, check=False)
            if run.returncode != 0:
                print(f"  {k}x failed: {run.stderr.strip().splitlines()[-1:]}")
                continue
            r: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
            grown = (r["peak_kb"] - r["base_kb"]) / 1024  # ru_maxrss is in KiB on Linux
            line = (f"  {k:>4}x {r['parsed']:>9} {r['rows']:>6} {r['seconds']:>8.1f} "
                    f"{r['parsed'] / r['seconds']:>8.0f} {grown:>15.0f} MB "
                    f"{grown / max(r['parsed'], 1) * 1000:>15.1f} MB")
            if trace:
                line += f" {r['traced_peak'] / 2**20:>9.0f} MB"
            print(line, flush=True)
            print(f"        {_held(name, src, root, env)}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--shared", type=Path, default=REPO.parent / "shared")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--scales", default="1,2,4")
    ap.add_argument("--tracemalloc", action="store_true")
    args = ap.parse_args()
    root = args.shared / "realdata" / "judgments"
    scales = [int(s) for s in args.scales.split(",") if s.strip()]
    for name, path in (("JuDGE", root / "judge-benchmark" / "test.json"),
                       ("CAIL", root / "cail2018-sample" / "data_train.json")):
        if not path.is_file():
            print(f"{name}: {path} not present, skipped")
            continue
        _stages(name, path, root, args.repeat)
        _scaling(name, path, root, scales, args.tracemalloc)


if __name__ == "__main__":
    main()
