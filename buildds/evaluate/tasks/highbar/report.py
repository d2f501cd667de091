"""The High Bar's leaderboard and plots, in the layout of seed 002.

The leaderboard is computed over every application's ``metrics.json`` (the High Bar subset
depends on all of them):

1. **The High Bar** — the subset rule and its size in the seed's words, then each
   application's attempt-based pass rate over the subset (95% CI, passed/attempts), and the
   Industry average (every application) — plus Legal AI and General-purpose averages when the
   task set's ``taskset.yaml`` puts applications in those categories;
2. **Substance** — criteria met and pass rate over every task;
3. **Form** — one column per rubric (1–3, 3 best), never combined with substance or with
   each other;
4. **Grading** — disagreements, escalations awaiting a lawyer, lawyer verdicts applied, judge
   errors, attempts without an answer; a note when results are provisional;
5. **High Bar tasks** — each task and the applications that completed it.

Everything is a pure function of the metrics dicts; plots are matplotlib Agg PNGs without
timestamps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from buildds.evaluate.report import grouped_bars, new_figure, png_bytes
from buildds.evaluate.tables import SAMPLES_HEAD, leaderboard_head, md_cell, samples_cell
from buildds.evaluate.tasks.highbar.scoring import (
    RUNS,
    attempt_pass_rate,
    completers,
    highbar_subset,
)

__all__ = ["highbar_table", "leaderboard_json", "plot_form", "plot_highbar", "plot_run",
           "render_leaderboard"]

CATEGORY_TITLES = {"legal": "Legal AI average", "general": "General-purpose average"}


def _pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.1f}%"


def _pct_ci(ci: Any) -> str:
    if not ci:
        return "–"
    return f"[{100 * float(ci[0]):.1f}, {100 * float(ci[1]):.1f}]"


def _score(value: Any) -> str:
    return "–" if value is None else f"{float(value):.2f}"


def _mean(values: Sequence[float | None]) -> float | None:
    vals = [float(v) for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


def _latest(entries: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """One entry per application (the zero-shot run), sorted by name."""
    by_model: dict[str, Mapping[str, Any]] = {}
    for e in sorted(entries, key=lambda e: (str(e["model"]), int(e.get("shots", 0)))):
        by_model.setdefault(str(e["model"]), e)
    return [by_model[m] for m in sorted(by_model)]


def highbar_table(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The High Bar numbers over every application: subset, completers, per-app rates."""
    apps = _latest(entries)
    max_completers = int(apps[0].get("max_completers", 2)) if apps else 2
    per_task = {str(e["model"]): e.get("per_task", {}) for e in apps}
    subset = highbar_subset(per_task, max_completers)
    seed = int(apps[0].get("seed", 0)) if apps else 0
    rows: list[dict[str, Any]] = []
    for e in apps:
        hb = attempt_pass_rate(per_task[str(e["model"])], subset, seed=seed)
        rows.append({"model": str(e["model"]), "highbar": hb, "metrics": e})
    rows.sort(key=lambda r: (-(r["highbar"]["pass_rate"] or 0.0),
                             -float(r["metrics"].get("pass_rate") or 0.0), r["model"]))
    return {"max_completers": max_completers, "subset": subset,
            "completers": completers(per_task), "rows": rows,
            "tasks": sorted({t for p in per_task.values() for t in p})}


def _averages(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """(title, rows) of the averages: each category present, then Industry average."""
    categories: dict[str, str] = {}
    for r in rows:
        categories.update(r["metrics"].get("categories") or {})
    out = []
    for cat, title in CATEGORY_TITLES.items():
        members = [r for r in rows if categories.get(r["model"]) == cat]
        if members:
            out.append((title, members))
    out.append(("Industry average", list(rows)))
    return out


def _highbar_section(table: Mapping[str, Any], n_apps: int) -> list[str]:
    subset, tasks = table["subset"], table["tasks"]
    k = table["max_completers"]
    lines = ["## The High Bar", "",
             (f"A task enters The High Bar when no more than {k} of the {n_apps} evaluated "
             f"applications completed it in either run. Applied to the {len(tasks)} evaluated "
             f"tasks, this yields {len(subset)} High Bar tasks; each application is scored "
             f"over {len(subset) * len(RUNS)} attempts ({len(subset)} tasks × {len(RUNS)} "
             "runs). The High Bar metric is the attempt-based Pass rate over those attempts."),
             ""]
    if n_apps <= k:
        lines += [(f"> With {n_apps} application(s), every task is completed by at most {k}: "
                  "the subset is the whole task set."), ""]
    lines += [("| Application | High Bar pass rate | 95% CI | Passed / attempts | "
               f"{SAMPLES_HEAD} |"),
              "|---|---|---|---|---|"]
    for r in table["rows"]:
        hb = r["highbar"]
        lines.append(f"| {md_cell(r['model'])} | {_pct(hb['pass_rate'])} | "
                     f"{_pct_ci(hb['ci'])} | {hb['passed']} / {hb['attempts']} | "
                     f"{samples_cell(r['metrics'])} |")
    for title, members in _averages(table["rows"]):
        avg = _mean([m["highbar"]["pass_rate"] for m in members])
        lines.append(f"| *{title}* ({len(members)}) | {_pct(avg)} | | | |")
    return [*lines, ""]


def _substance_section(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = ["## Substance", "",
             ("Criteria met: the percentage of applicable lawyer-authored criteria satisfied. "
             "Pass rate: the percentage of attempts where every applicable criterion was "
             "satisfied (all tasks, both runs)."), "",
             ("| Application | Criteria met | 95% CI | Pass rate | 95% CI | Attempts | "
              f"{SAMPLES_HEAD} |"),
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        m = r["metrics"]
        ci = m.get("ci", {})
        lines.append(f"| {md_cell(r['model'])} | {_pct(m.get('criteria_met'))} | "
                     f"{_pct_ci(ci.get('criteria_met'))} | {_pct(m.get('pass_rate'))} | "
                     f"{_pct_ci(ci.get('pass_rate'))} | {m.get('n', '–')} | "
                     f"{samples_cell(m)} |")
    for title, members in _averages(rows):
        lines.append(f"| *{title}* ({len(members)}) | "
                     f"{_pct(_mean([m['metrics'].get('criteria_met') for m in members]))} | | "
                     f"{_pct(_mean([m['metrics'].get('pass_rate') for m in members]))} | | | |")
    return [*lines, ""]


def _rubrics(rows: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    for r in rows:
        if r["metrics"].get("rubrics"):
            return [(str(a), str(b)) for a, b in r["metrics"]["rubrics"]]
    return []


def _form_section(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    rubrics = _rubrics(rows)
    lines = ["## Form", "",
             ("Could a legal practitioner use the work product as delivered? Task-agnostic "
             "rubrics scored 1 to 3 (3 best) by two form judges (not the substance pair); "
             "the mean of the two (or a "
             "lawyer's score) per attempt, averaged. Reported separately: never combined with "
             "substance, nor with each other."), "",
             "| Application | " + " | ".join(t for _, t in rubrics) + " |",
             "|---|" + "---|" * len(rubrics)]
    for r in rows:
        form = r["metrics"].get("form", {})
        cells = [f"{_score(form.get(rid, {}).get('mean'))}" for rid, _ in rubrics]
        lines.append(f"| {md_cell(r['model'])} | " + " | ".join(cells) + " |")
    for title, members in _averages(rows):
        cells = [_score(_mean([m["metrics"].get("form", {}).get(rid, {}).get("mean")
                               for m in members])) for rid, _ in rubrics]
        lines.append(f"| *{title}* ({len(members)}) | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _grading_section(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    judges = sorted({j for r in rows for j in r["metrics"].get("judges", [])})
    lines = ["## Grading", ""]
    if judges:
        lines += ["Judges: " + ", ".join(f"`{j}`" for j in judges) + ".", ""]
    lines += [("| Application | Disagreements | Escalations pending | Lawyer verdicts | "
              "Judge errors | No answer |"), "|---|---|---|---|---|---|"]
    pending = 0
    for r in rows:
        g = r["metrics"].get("judging", {})
        pending += int(g.get("escalations_pending", 0))
        lines.append(f"| {md_cell(r['model'])} | {g.get('disagreements', 0)} | "
                     f"{g.get('escalations_pending', 0)} | {g.get('lawyer_verdicts', 0)} | "
                     f"{g.get('judge_errors', 0)} | {g.get('no_answer', 0)} |")
    lines.append("")
    if pending:
        lines += [(f"> Provisional: {pending} escalated grade(s) await a lawyer's blind review "
                  "(`escalations.jsonl` here, all runs merged and blind; record verdicts in the task set's "
                  "`reviews.yaml`). Until then a disputed criterion counts as not met."), ""]
    return lines


def _tasks_section(table: Mapping[str, Any], info: Mapping[str, Any]) -> list[str]:
    subset = set(table["subset"])
    lines = ["## Tasks", "", "| Task | Title | High Bar | Completed by |", "|---|---|---|---|"]
    for t in table["tasks"]:
        who = table["completers"].get(t, [])
        title = (info.get(t) or {}).get("title", "")
        lines.append(f"| {md_cell(t)} | {md_cell(title)} | {'yes' if t in subset else 'no'} | "
                     f"{len(who)}" + (f" ({md_cell(', '.join(who))})" if who else "") + " |")
    return [*lines, ""]


def render_leaderboard(entries: Sequence[Mapping[str, Any]], *, title: str,
                       dataset: Mapping[str, Any] | None = None) -> str:
    """leaderboard.md (see the module doc)."""
    table = highbar_table(entries)
    rows = table["rows"]
    lines = leaderboard_head(title, dataset, label="Task set")
    if not rows:
        return "\n".join([*lines, "No runs yet.", ""])
    info: dict[str, Any] = {}
    for r in rows:
        info.update(r["metrics"].get("task_info") or {})
    lines += _highbar_section(table, len(rows))
    lines += _substance_section(rows)
    lines += _form_section(rows)
    lines += _grading_section(rows)
    lines += _tasks_section(table, info)
    return "\n".join(lines)


def leaderboard_json(entries: Sequence[Mapping[str, Any]], *, task: str,
                     dataset: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The leaderboard's numbers as data."""
    table = highbar_table(entries)
    rows = []
    for r in table["rows"]:
        m = r["metrics"]
        rows.append({"model": r["model"], "highbar": r["highbar"],
                     "criteria_met": m.get("criteria_met"), "pass_rate": m.get("pass_rate"),
                     "ci": m.get("ci"), "n": m.get("n"),
                     "form": {k: v.get("mean") for k, v in m.get("form", {}).items()},
                     "judging": m.get("judging"), "per_task": m.get("per_task")})
    averages = {title: {"models": [m["model"] for m in members],
                        "highbar_pass_rate": _mean([m["highbar"]["pass_rate"] for m in members]),
                        "criteria_met": _mean([m["metrics"].get("criteria_met")
                                               for m in members]),
                        "pass_rate": _mean([m["metrics"].get("pass_rate") for m in members])}
                for title, members in _averages(table["rows"])} if table["rows"] else {}
    return {"task": task, "dataset": dict(dataset or {}),
            "max_completers": table["max_completers"], "tasks": table["tasks"],
            "highbar_tasks": table["subset"], "completers": table["completers"],
            "applications": rows, "averages": averages}


# --------------------------------------------------------------------------- plots
def plot_highbar(entries: Sequence[Mapping[str, Any]]) -> bytes:
    """Bars: each application's High Bar pass rate with its 95% interval."""
    table = highbar_table(entries)
    rows = table["rows"]
    fig, ax = new_figure(min(12.0, 4.0 + 0.8 * len(rows)), 4.0)
    values = [100 * float(r["highbar"]["pass_rate"] or 0.0) for r in rows]
    cis = [r["highbar"]["ci"] or [0.0, 0.0] for r in rows]
    low = [v - 100 * c[0] for v, c in zip(values, cis, strict=True)]
    high = [100 * c[1] - v for v, c in zip(values, cis, strict=True)]
    ax.bar(range(len(rows)), values, yerr=[low, high], capsize=4)
    ax.set_xticks(range(len(rows)), [r["model"] for r in rows], rotation=20, ha="right")
    ax.set_ylim(0, 100)
    ax.set_ylabel("pass rate (%)")
    ax.set_title(f"The High Bar: {len(table['subset'])} tasks × {len(RUNS)} runs")
    fig.tight_layout()
    return png_bytes(fig)


def plot_form(entries: Sequence[Mapping[str, Any]]) -> bytes:
    """Grouped bars: each form rubric's mean score (1–3) per application."""
    table = highbar_table(entries)
    rows = table["rows"]
    rubrics = _rubrics(rows)
    fig, ax = new_figure(min(12.0, 5.0 + 0.5 * len(rows) * max(1, len(rubrics))), 4.0)
    grouped_bars(ax, len(rubrics), [
        (r["model"], [float(r["metrics"].get("form", {}).get(rid, {}).get("mean") or 0.0)
                      for rid, _ in rubrics]) for r in rows])
    ax.set_xticks(range(len(rubrics)), [t for _, t in rubrics])
    ax.set_ylim(0, 3)
    ax.set_ylabel("mean score (3 best)")
    ax.set_title("Form (not combined with substance)")
    if rows:
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.tight_layout()
    return png_bytes(fig)


def plot_run(metrics: Mapping[str, Any], title: str) -> bytes:
    """Bars: criteria met per task and run for one application."""
    per_task = metrics.get("per_task", {})
    tasks = sorted(per_task)
    fig, ax = new_figure(min(12.0, 4.0 + 0.7 * len(tasks)), 4.0)
    def met(t: str, run: int) -> float:
        a = per_task[t].get(str(run)) or {}
        return 100 * a["met"] / a["applicable"] if a.get("applicable") else 0.0

    grouped_bars(ax, len(tasks), [(f"run {run}", [met(t, run) for t in tasks]) for run in RUNS])
    ax.set_xticks(range(len(tasks)), tasks, rotation=20, ha="right")
    ax.set_ylim(0, 100)
    ax.set_ylabel("criteria met (%)")
    ax.set_title(title, fontsize="small")
    ax.legend(fontsize="small")
    fig.tight_layout()
    return png_bytes(fig)
