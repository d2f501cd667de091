"""highbar: scoring against hand-computed values, the High Bar subset, the leaderboard."""

from __future__ import annotations

import pytest

from buildds.evaluate.tasks.highbar.report import (
    highbar_table,
    leaderboard_json,
    render_leaderboard,
)
from buildds.evaluate.tasks.highbar.scoring import (
    Attempt,
    attempt_pass_rate,
    completers,
    highbar_subset,
    score_attempts,
)


def _runs(r1: bool, r2: bool) -> dict[str, dict[str, object]]:
    return {"1": {"pass": r1}, "2": {"pass": r2}}


# 4 applications × 3 tasks × 2 runs
APPS = {
    "A": {"t1": _runs(True, False), "t2": _runs(False, False), "t3": _runs(True, True)},
    "B": {"t1": _runs(False, False), "t2": _runs(False, True), "t3": _runs(True, True)},
    "C": {"t1": _runs(False, False), "t2": _runs(False, False), "t3": _runs(True, False)},
    "D": {"t1": _runs(True, True), "t2": _runs(False, False), "t3": _runs(False, False)},
}


def test_completers_and_subset():
    assert completers(APPS) == {"t1": ["A", "D"], "t2": ["B"], "t3": ["A", "B", "C"]}
    assert highbar_subset(APPS) == ["t1", "t2"]  # completed by ≤ 2 applications
    assert highbar_subset(APPS, max_completers=1) == ["t2"]
    assert highbar_subset(APPS, max_completers=3) == ["t1", "t2", "t3"]


@pytest.mark.parametrize("app,rate,passed", [("A", 0.25, 1), ("B", 0.25, 1), ("C", 0.0, 0),
                                             ("D", 0.5, 2)])
def test_attempt_based_pass_rate_over_the_subset(app, rate, passed):
    out = attempt_pass_rate(APPS[app], ["t1", "t2"])
    assert (out["pass_rate"], out["passed"], out["attempts"]) == (rate, passed, 4)
    assert out["ci"][0] <= rate <= out["ci"][1]


def test_missing_attempt_counts_as_not_passed():
    out = attempt_pass_rate({"t1": {"1": {"pass": True}}}, ["t1", "t9"])
    assert (out["pass_rate"], out["passed"], out["attempts"]) == (0.25, 1, 4)
    assert attempt_pass_rate({}, [])["pass_rate"] is None


def _attempt(task, run, passed, met, applicable, clarity):
    return Attempt(task, run, passed, met, applicable, {"clarity": clarity},
                   {"clarity": {} if clarity is None else {"j1": 3, "j2": 2}})


def test_substance_and_form_by_hand():
    attempts = [_attempt("t1", 1, True, 3, 3, 3.0), _attempt("t1", 2, False, 2, 3, 2.5),
                _attempt("t2", 1, False, 1, 2, None), _attempt("t2", 2, False, 0, 2, 1.0),
                _attempt("t3", 1, True, 4, 4, 2.0), _attempt("t3", 2, True, 4, 4, 2.0)]
    m = score_attempts(attempts, [("clarity", "Clarity")], seed=0)
    assert m["n"] == 6 and m["tasks"] == 3
    assert m["criteria_met"] == round(14 / 18, 6) and m["criteria_met_count"] == [14, 18]
    assert m["pass_rate"] == 0.5 and m["pass_count"] == [3, 6]
    assert m["form"]["clarity"]["mean"] == 2.1 and m["form"]["clarity"]["n"] == 5
    assert m["form"]["clarity"]["judges"] == {"j1": 3.0, "j2": 2.0}
    assert m["per_task"]["t1"] == {"1": {"pass": True, "met": 3, "applicable": 3},
                                   "2": {"pass": False, "met": 2, "applicable": 3}}
    for key in ("criteria_met", "pass_rate"):
        low, high = m["ci"][key]
        assert 0.0 <= low <= m[key] <= high <= 1.0
    assert m == score_attempts(attempts, [("clarity", "Clarity")], seed=0)  # deterministic


def _entry(model, per_task, category=None):
    return {"model": model, "shots": 0, "seed": 0, "n": 6, "max_completers": 2,
            "per_task": per_task, "criteria_met": 0.5, "pass_rate": 0.5,
            "ci": {"criteria_met": [0.4, 0.6], "pass_rate": [0.3, 0.7]},
            "form": {"clarity": {"mean": 2.5}}, "rubrics": [["clarity", "Clarity"]],
            "judging": {"disagreements": 1, "escalations_pending": 0},
            "categories": {"A": "legal", "B": "legal", "C": "general", "D": "general"},
            "task_info": {"t1": {"title": "First"}}}


def test_leaderboard_over_every_application():
    entries = [_entry(m, p) for m, p in APPS.items()]
    table = highbar_table(entries)
    assert table["subset"] == ["t1", "t2"]
    assert [r["model"] for r in table["rows"]] == ["D", "A", "B", "C"]
    md = render_leaderboard(entries, title="The High Bar — leaderboard")
    assert "no more than 2 of the 4 evaluated applications" in md
    assert "this yields 2 High Bar tasks; each application is scored over 4 attempts" in md
    assert "| D | 50.0% |" in md and "| C | 0.0% |" in md
    assert "| *Legal AI average* (2) | 25.0% |" in md
    assert "| *General-purpose average* (2) | 25.0% |" in md
    assert "| *Industry average* (4) | 25.0% |" in md
    assert "| t1 | First | yes | 2 (A, D) |" in md
    data = leaderboard_json(entries, task="highbar")
    assert data["highbar_tasks"] == ["t1", "t2"]
    assert data["averages"]["Industry average"]["highbar_pass_rate"] == 0.25
