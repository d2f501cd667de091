"""What a run writes over all its models: the leaderboard (every ``metrics.json`` in ``<out>``
on the same task, dataset and limit, earlier runs too), the task's summary plots and files,
``manifest.json``, and the warnings for the console."""

from __future__ import annotations

import platform
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds import __version__
from buildds.evaluate.answering import Deadline
from buildds.evaluate.runner.answered import samples_table
from buildds.evaluate.runner.files import RunFiles, dumps_json, write_plots
from buildds.evaluate.runner.outcome import EvalReport, JudgeEntry, ModelEntry
from buildds.evaluate.runner.plan import EvalPlan, PreparedData
from buildds.safeio import loads_strict

__all__ = ["collect_metrics", "dataset_info", "run_warnings", "write_leaderboard",
           "write_manifest"]

_PACKAGES = ("buildds", "click", "datasets", "jinja2", "matplotlib", "numpy", "pandas",
             "pyarrow", "pydantic", "scikit-learn", "httpx")


def collect_metrics(out: Path, task: str, dataset_key: str, limit: int | None
                    ) -> list[dict[str, Any]]:
    """Every metrics.json under ``out`` for this task, dataset and limit (earlier runs too)."""
    entries = []
    for path in sorted(out.glob("*/*shot/metrics.json")):
        try:
            m = loads_strict(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if m.get("task") == task and m.get("dataset_key") == dataset_key \
                and m.get("limit") == limit:
            entries.append(m)
    return entries


def dataset_info(data: PreparedData) -> dict[str, Any]:
    """The dataset as the leaderboard and the manifest name it: its key, its fingerprint
    and its card's fields (``card_<field>``)."""
    fingerprint = data.fingerprint
    return {"key": data.key, **{k: v for k, v in fingerprint.items() if k != "card"},
            **({f"card_{k}": v for k, v in fingerprint.get("card", {}).items()})}


def write_leaderboard(plan: EvalPlan, data: PreparedData, files: RunFiles,
                      report: EvalReport) -> None:
    """leaderboard.md/.json, the summary plots (first in ``report.plots``) and the task's
    summary files, over every run in ``plan.out`` on the same dataset and limit."""
    task, out = plan.task, plan.out
    every = collect_metrics(out, task.name, data.key, plan.limit)
    # a run with nothing answered has no figures: it is only in the samples table
    entries = [e for e in every if e.get("n")]
    report.leaderboard_md = out / "leaderboard.md"
    files.write(report.leaderboard_md, task.render_leaderboard(
        entries, dataset={"key": data.key, "limit": plan.limit}).rstrip("\n") + "\n\n"
        + "\n".join(samples_table(every)))
    report.leaderboard_json = out / "leaderboard.json"
    files.write(report.leaderboard_json, dumps_json({**task.leaderboard_json(
        entries, dataset={**dataset_info(data), "limit": plan.limit}),
        "samples": [{"model": e["model"], "shots": e["shots"], **(e.get("samples") or {})}
                    for e in sorted(every, key=lambda e: (str(e["model"]), int(e["shots"])))]}))
    summary = write_plots(out, lambda: task.summary_plots(entries))
    report.plots[:0] = summary
    for name, text in sorted(task.summary_files(entries, out).items()):
        files.write(out / name, text)


def write_manifest(plan: EvalPlan, data: PreparedData, files: RunFiles, report: EvalReport,
                   dataset_path: str | Path, models: Sequence[ModelEntry],
                   judges: Sequence[JudgeEntry]) -> None:
    """manifest.json: dataset fingerprint, template hashes, backend settings (no secrets),
    package versions, seed …"""
    manifest = {
        "buildds": __version__,
        "task": plan.task.name,
        "dataset": {"path": str(dataset_path), **dataset_info(data),
                    "scored_items": len(data.scored_items),
                    "fewshot_ids": sorted(getattr(data.data, "fewshot_ids", ()))},
        "templates": plan.task.template_hashes(),
        "models": [m.to_json() for m in models],
        **({"judges": [j.to_json() for j in judges]} if judges else {}),
        **({"form_judges": plan.form_judges} if plan.form_judges else {}),
        "shots": plan.shots,
        "limit": plan.limit,
        "seed": plan.seed,
        **({"deadline_s": plan.deadline_s} if plan.deadline_s is not None else {}),
        "cache": str(plan.cache_path) if plan.use_cache else None,
        "plots": _has_matplotlib(),
        "packages": _package_versions(),
    }
    report.manifest = plan.out / "manifest.json"
    files.write(report.manifest, dumps_json(manifest))


def run_warnings(task: Any, items: Sequence[Mapping[str, Any]], deadline: Deadline | None, *,
                 cached: bool) -> list[str]:
    """What the console should say besides the summary line."""
    out = []
    if deadline is not None and deadline.abandoned:
        resume = ("run the same command again to resume (answers so far are cached)" if cached
                  else "without the cache (--no-cache) a re-run sends every request again")
        out.append(f"the run reached its deadline of {deadline.seconds:g} s: "
                   f"{deadline.abandoned} request(s) abandoned as per-sample errors; {resume}")
    refused = sorted({e for e in (task.item_error(it) for it in items) if e})
    out += [f"not evaluated: {e}" for e in refused]
    return out


def _package_versions() -> dict[str, str | None]:
    from importlib import metadata

    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True
