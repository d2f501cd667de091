"""Running the models: the judges built (:func:`build_judges`), then each model built and
run (:func:`run_models`): each model × setting answered, judged (judged tasks), scored and
written to ``<out>/<model-slug>/<N>shot/`` (:func:`run_setting`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.evaluate.answering import answer
from buildds.evaluate.runner.answered import (
    failed_flags,
    sample_counts,
    score_answered,
    without_failed,
)
from buildds.evaluate.runner.backends import build_backend, options_for, scrub_secrets, with_cache
from buildds.evaluate.runner.files import RunFiles, dumps_json, samples_text, write_plots
from buildds.evaluate.runner.outcome import (
    EvalReport,
    FailedRequests,
    JudgeEntry,
    ModelEntry,
    ModelRun,
    failed_requests,
)
from buildds.evaluate.runner.plan import EvalPlan, PreparedData
from buildds.evaluate.runner.scoring import (
    LogprobScoring,
    scoring_label,
    scoring_slug,
    supports_logprob,
    with_choice_probs,
)
from buildds.schema.evaluation import ChatRequest, ChatResult, SampleRecord

__all__ = ["RunContext", "build_judges", "run_models", "run_setting"]


@dataclass
class RunContext:
    """What every model × setting of a run shares."""

    plan: EvalPlan
    data: PreparedData
    files: RunFiles
    #: the response cache, or None
    cache: Any
    #: the rich progress bar, or None (quiet)
    progress: Any
    #: the judges (judged tasks): (spec, backend)
    judges: list[tuple[str, Any]]
    #: each judge's roles: "substance" (--judge), "form" (--form-judge)
    judge_roles: dict[str, set[str]] = field(default_factory=dict)


def build_judges(ctx: RunContext, factory: Callable[..., Any]) -> list[JudgeEntry]:
    """Build every judge into ``ctx.judges``; their manifest entries."""
    entries = []
    for spec, role in [*((j, "substance") for j in ctx.plan.judges),
                       *((j, "form") for j in ctx.plan.form_judges)]:
        ctx.judge_roles.setdefault(spec, set()).add(role)
        if any(spec == s for s, _ in ctx.judges):
            continue
        backend = with_cache(ctx.files.secrets_of(
            factory(spec, **options_for(spec, ctx.plan.options_of(spec)))), ctx.cache)
        ctx.judges.append((spec, backend))
        entries.append(JudgeEntry(spec, scrub_secrets(backend.settings())))
    return entries


def run_models(ctx: RunContext, factory: Callable[..., Any], report: EvalReport
               ) -> list[ModelEntry]:
    """Build each model and run it in every setting, adding the runs and their plots to
    ``report``; the models' manifest entries."""
    plan, data = ctx.plan, ctx.data
    entries = []
    for spec, slug in zip(plan.models, plan.slugs, strict=True):
        backend = with_cache(ctx.files.secrets_of(build_backend(
            spec, factory, plan.options_of(spec), plan.task, data.scored_items, data.extra_train,
            data.items_by_id)), ctx.cache)
        settings = scrub_secrets(backend.settings())
        entries.append(ModelEntry(spec, slug, settings))
        for s in plan.shots:
            for scoring in plan.scorings:
                if scoring == "logprob" and not supports_logprob(spec):
                    report.warnings.append(f"{spec}: logprob scoring needs an openai: or "
                                           "hf: model; not scored so")
                    continue
                run, plots = run_setting(ctx, spec, slug, backend, settings, s, scoring)
                report.runs.append(run)
                report.plots += plots
    return entries


def run_setting(ctx: RunContext, spec: str, slug: str, backend: Any,
                settings: dict[str, Any], shots: int, scoring: str = "generate"
                ) -> tuple[ModelRun, list[Path]]:
    """Answer, judge, score and write one model × setting (× scoring: logprob scoring is
    its own row, :mod:`.scoring`); its run and its plots."""
    plan, task = ctx.plan, ctx.plan.task
    items, requests = ctx.data.prepared[shots]
    if scoring != "generate":
        backend = LogprobScoring(backend, task, ctx.data.items_by_id)
        settings = {**settings, "scoring": scoring}
        spec, slug = scoring_label(spec, scoring), scoring_slug(slug, scoring)
    refused = [task.item_error(it) for it in items]
    results = answer(backend, requests, ctx.progress, f"{spec} {shots}-shot", plan.deadline,
                     refused)
    failed = [failed_requests(spec, requests, results, refused)]
    no_answer = failed_flags(results)
    records = [with_choice_probs(task.sample_record(it, rq, rs), rs)
               for it, rq, rs in zip(items, requests, results, strict=True)]
    run_dir = plan.out / slug / f"{shots}shot"
    extra_files: dict[str, str] = {}
    if task.judged:
        records, extra_files, judge_failed = _judge(ctx, items, records,
                                                    f"{spec} {shots}-shot")
        failed += judge_failed
    records = without_failed(records, no_answer)
    ctx.files.write(run_dir / "samples.jsonl", samples_text(records))
    for name, text in sorted(extra_files.items()):
        ctx.files.write(run_dir / name, text)
    metrics = {"task": task.name, "model": spec, "slug": slug, "shots": shots,
               "limit": plan.limit, "dataset_key": ctx.data.key, "seed": plan.seed,
               **score_answered(task, items, records, no_answer, seed=plan.seed),
               "samples": sample_counts(task, records, no_answer, refused),
               "backend": settings,
               **({"scoring": scoring} if scoring != "generate" else {}),
               **({"judges": list(plan.judges)} if plan.judges else {}),
               **({"form_judges": list(plan.form_judges)} if plan.form_judges else {})}
    ctx.files.write(run_dir / "metrics.json", dumps_json(metrics))
    run = ModelRun(spec, slug, shots, run_dir, metrics, settings, items=len(items),
                   refused=sum(1 for r in refused if r), failed=failed)
    title = f"{spec} — {shots}-shot"
    if not metrics.get("n"):  # nothing answered: no figures to plot
        return run, []
    return run, write_plots(run_dir, lambda: task.run_plots(metrics, title))


def _judge(ctx: RunContext, items: Sequence[Mapping[str, Any]],
           records: list[SampleRecord], what: str
           ) -> tuple[list[SampleRecord], dict[str, str], list[FailedRequests]]:
    """Every judge's verdicts on ``records`` folded in by the task: the records, the task's
    log files and each judge's failed requests."""
    task = ctx.plan.task
    jrequests: list[ChatRequest] = task.judge_requests(items, records)
    verdicts: dict[str, list[ChatResult | None]] = {}
    failed = []
    for jspec, jb in ctx.judges:
        roles = ctx.judge_roles.get(jspec, {"substance"})
        mine = [i for i, rq in enumerate(jrequests) if task.judge_role(rq) in roles]
        asked = [jrequests[i] for i in mine]
        results = answer(jb, asked, ctx.progress, f"judge {jspec} on {what}",
                         ctx.plan.deadline)
        verdicts[jspec] = [None] * len(jrequests)
        for i, result in zip(mine, results, strict=True):
            verdicts[jspec][i] = result
        failed.append(failed_requests(f"judge {jspec}", asked, results))
    records, extra_files = task.apply_judgments(items, records, jrequests, verdicts)
    return records, extra_files, failed
