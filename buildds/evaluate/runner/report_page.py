"""``<out>/report.html`` (:mod:`buildds.evaluate.report_html`), written after the leaderboard
from what the run wrote: ``leaderboard.md`` as it is, the PNGs of ``<out>`` and of each run
folder, and each run's ``samples.jsonl`` — every run in ``<out>`` on the same task, dataset
and limit, as the leaderboard counts them. The prompts are the requests of each setting,
rebuilt from the export (the same items and templates the run sent)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.report_samples import (
    Prompt,
    RunSamples,
    group_field,
    page_data,
    prompt_parts,
)
from buildds.evaluate.runner.files import RunFiles
from buildds.evaluate.runner.outcome import EvalReport
from buildds.evaluate.runner.plan import EvalPlan, PreparedData
from buildds.evaluate.runner.summary import collect_metrics
from buildds.safeio import loads_strict

__all__ = ["REPORT_HTML", "write_report_html"]

#: the page's file name in ``<out>``
REPORT_HTML = "report.html"


def write_report_html(plan: EvalPlan, data: PreparedData, files: RunFiles,
                      report: EvalReport) -> Path:
    """Write ``<out>/report.html``; its path."""
    from buildds.evaluate.report_html import render_report_html

    out = plan.out
    entries = sorted(collect_metrics(out, plan.task.name, data.key, plan.limit),
                     key=lambda e: (str(e["model"]), int(e["shots"])))
    requests = _requests_by_shots(plan, data, {int(e["shots"]) for e in entries})
    field = group_field(data.scored_items)
    groups = {} if field is None else {str(it["id"]): str(it.get(field[0]) or "")
                                       for it in data.scored_items}
    runs, notes = [], []
    for e in entries:
        run_dir = out / str(e["slug"]) / f"{int(e['shots'])}shot"
        records, bad = _read_samples(run_dir / "samples.jsonl")
        if bad:
            notes.append(f"{run_dir.relative_to(out)}/samples.jsonl: {bad} unreadable line(s) "
                         "left out")
        prompts = requests.get(int(e["shots"]))
        if prompts is None:
            notes.append(f"{e['model']} {int(e['shots'])}-shot: prompts not available")
        runs.append(RunSamples(model=str(e["model"]), shots=int(e["shots"]), records=records,
                               prompts=prompts or {}, groups=groups))
    md_path = report.leaderboard_md or out / "leaderboard.md"
    leaderboard = md_path.read_text(encoding="utf-8") if md_path.is_file() else ""
    page = render_report_html(
        title=f"Evaluation report: {plan.task.name}", leaderboard_md=leaderboard,
        plots=_plots(out, entries), data=page_data(runs, group_title=field and field[1]),
        notes=notes)
    path = out / REPORT_HTML
    files.write(path, page)
    return path


def _requests_by_shots(plan: EvalPlan, data: PreparedData, shots: set[int]
                       ) -> dict[int, dict[str, Prompt]]:
    """Per setting: sample id → the prompt sent (settings this run did not prepare are
    rebuilt; one the task cannot build has no prompts)."""
    out: dict[int, dict[str, Prompt]] = {}
    for s in sorted(shots):
        prepared = data.prepared.get(s)
        if prepared is None:
            try:
                prepared = plan.task.build_requests(data.data, s, plan.limit)
            except BuildError:
                continue
        out[s] = {str(rq.sample_id): prompt_parts(rq) for rq in prepared[1]
                  if rq.sample_id is not None}
    return out


def _read_samples(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The records of a samples.jsonl, and how many lines could not be read."""
    records: list[dict[str, Any]] = []
    bad = 0
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return [], 1
    for line in lines:
        if not line.strip():
            continue
        try:
            rec = loads_strict(line)
        except ValueError:
            bad += 1
            continue
        if isinstance(rec, dict):
            records.append(rec)
        else:
            bad += 1
    return records, bad


def _plots(out: Path, entries: Sequence[Mapping[str, Any]]) -> list[tuple[str, bytes]]:
    """The summary PNGs of ``out``, then each run's, with a caption naming the run."""
    found = [(p.name, p) for p in sorted(out.glob("*.png"))]
    for e in entries:
        run_dir = out / str(e["slug"]) / f"{int(e['shots'])}shot"
        found += [(f"{e['model']} {int(e['shots'])}-shot: {p.name}", p)
                  for p in sorted(run_dir.glob("*.png"))]
    plots = []
    for caption, path in found:
        try:
            plots.append((caption, path.read_bytes()))
        except OSError:
            continue
    return plots
