"""The High Bar's numbers (seed 002): substance, form and the High Bar subset.

Per application run (``metrics.json``), over every attempt (task × run):

* **criteria met** — applicable criteria satisfied / applicable criteria, over all attempts
  (micro: every applicable criterion of every attempt counts once);
* **pass rate** — attempts where every applicable criterion passed / attempts;
* **form** — per rubric (never combined with substance, nor with each other): the mean 1–3
  score over the attempts that have one, and each judge's own mean;
* ``per_task`` — each task's pass/fail per run, which the leaderboard needs.

Over every application in the output folder (the leaderboard):

* **High Bar subset** — tasks completed (passed) by at most ``max_completers`` (2) of the N
  applications in either run (an application completed a task when it passed it in run 1 or
  run 2);
* **High Bar pass rate** — attempt-based: passed attempts / (High Bar tasks × 2 runs); a
  missing attempt counts as not passed.

Intervals are seeded percentile bootstraps (1,000 resamples, 95%) over *tasks*, both runs of
a task kept together (its two attempts are not independent).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from buildds.evaluate.metrics import bootstrap_ci

__all__ = [
    "RUNS",
    "Attempt",
    "attempt_pass_rate",
    "completers",
    "highbar_subset",
    "ratio",
    "score_attempts",
]

#: runs per application (seed 002: two)
RUNS = (1, 2)
N_RESAMPLES = 1000
CONFIDENCE = 0.95


@dataclass(frozen=True)
class Attempt:
    """One task × run of one application, as judged."""

    task: str
    run: int
    passed: bool
    met: int
    applicable: int
    #: rubric id → the consensus score (None: no valid score)
    form: Mapping[str, float | None]
    #: rubric id → judge → score (valid scores only)
    form_judges: Mapping[str, Mapping[str, int]]


def ratio(num: Sequence[float], den: Sequence[float]) -> float:
    """sum(num) / sum(den); 0.0 when the denominator is 0."""
    total = sum(den)
    return float(sum(num)) / total if total else 0.0


def _round(x: float) -> float:
    return round(float(x), 6)


def _ci(num: Sequence[float], den: Sequence[float], seed: int) -> list[float]:
    low, high = bootstrap_ci(ratio, list(num), list(den), n_resamples=N_RESAMPLES, seed=seed,
                             confidence=CONFIDENCE)
    return [_round(low), _round(high)]


def _by_task(attempts: Sequence[Attempt]) -> dict[str, list[Attempt]]:
    out: dict[str, list[Attempt]] = {}
    for a in attempts:
        out.setdefault(a.task, []).append(a)
    return dict(sorted(out.items()))


def _form_block(attempts: Sequence[Attempt], rubrics: Sequence[tuple[str, str]],
                seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for rid, title in rubrics:
        tasks = _by_task([a for a in attempts if a.form.get(rid) is not None])
        sums = [sum(float(a.form[rid] or 0.0) for a in g) for g in tasks.values()]
        counts = [float(len(g)) for g in tasks.values()]
        judges: dict[str, list[int]] = {}
        for a in attempts:
            for judge, score in sorted(a.form_judges.get(rid, {}).items()):
                judges.setdefault(judge, []).append(score)
        out[rid] = {"title": title, "n": int(sum(counts)),
                    "mean": _round(ratio(sums, counts)) if counts else None,
                    "ci": _ci(sums, counts, seed) if counts else None,
                    "judges": {j: _round(sum(v) / len(v)) for j, v in sorted(judges.items())}}
    return out


def score_attempts(attempts: Sequence[Attempt], rubrics: Sequence[tuple[str, str]], *,
                   seed: int = 0) -> dict[str, Any]:
    """Substance and form metrics of one application run (see the module doc)."""
    tasks = _by_task(attempts)
    met = [float(sum(a.met for a in g)) for g in tasks.values()]
    applicable = [float(sum(a.applicable for a in g)) for g in tasks.values()]
    passed = [float(sum(a.passed for a in g)) for g in tasks.values()]
    tried = [float(len(g)) for g in tasks.values()]
    per_task = {t: {str(a.run): {"pass": a.passed, "met": a.met, "applicable": a.applicable}
                    for a in sorted(g, key=lambda a: a.run)} for t, g in tasks.items()}
    return {
        "n": len(attempts), "tasks": len(tasks), "runs": len(RUNS),
        "criteria_met": _round(ratio(met, applicable)),
        "criteria_met_count": [int(sum(met)), int(sum(applicable))],
        "pass_rate": _round(ratio(passed, tried)),
        "pass_count": [int(sum(passed)), int(sum(tried))],
        "ci": {"criteria_met": _ci(met, applicable, seed), "pass_rate": _ci(passed, tried, seed)},
        "form": _form_block(attempts, rubrics, seed),
        "per_task": per_task,
        "bootstrap": {"resamples": N_RESAMPLES, "confidence": CONFIDENCE, "seed": seed,
                      "method": "percentile", "unit": "task"},
    }


# --------------------------------------------------------------------------- High Bar
def _passes(per_task: Mapping[str, Any], task: str) -> list[bool]:
    runs = per_task.get(task) or {}
    return [bool((runs.get(str(r)) or {}).get("pass")) for r in RUNS]


def completers(apps: Mapping[str, Mapping[str, Any]]) -> dict[str, list[str]]:
    """Task → the applications that completed it in either run (``apps``: application →
    its ``per_task``)."""
    tasks = sorted({t for per_task in apps.values() for t in per_task})
    return {t: sorted(app for app, per_task in apps.items() if any(_passes(per_task, t)))
            for t in tasks}


def highbar_subset(apps: Mapping[str, Mapping[str, Any]], max_completers: int = 2
                   ) -> list[str]:
    """The tasks completed by at most ``max_completers`` applications in either run."""
    return [t for t, who in completers(apps).items() if len(who) <= max_completers]


def attempt_pass_rate(per_task: Mapping[str, Any], subset: Sequence[str], *, seed: int = 0
                      ) -> dict[str, Any]:
    """Passed attempts over ``subset`` × 2 runs, with a task-level bootstrap interval."""
    passed = [float(sum(_passes(per_task, t))) for t in subset]
    tried = [float(len(RUNS))] * len(subset)
    return {"pass_rate": _round(ratio(passed, tried)) if subset else None,
            "passed": int(sum(passed)), "attempts": int(sum(tried)),
            "ci": _ci(passed, tried, seed) if subset else None}
