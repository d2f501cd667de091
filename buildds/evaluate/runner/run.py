"""The run itself, step by step: the options checked (:mod:`.plan`), the export loaded, the
cache opened, every model × setting answered (:mod:`.setting`), then the leaderboard and the
manifest written (:mod:`.summary`). See :mod:`buildds.evaluate.runner` for what it writes."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds.evaluate.answering import progress_bar
from buildds.evaluate.redact import Redactor
from buildds.evaluate.runner.backends import default_factory
from buildds.evaluate.runner.files import RunFiles
from buildds.evaluate.runner.outcome import EvalReport
from buildds.evaluate.runner.plan import plan_eval, prepare_data
from buildds.evaluate.runner.report_page import write_report_html
from buildds.evaluate.runner.setting import RunContext, build_judges, run_models
from buildds.evaluate.runner.summary import run_warnings, write_leaderboard, write_manifest

__all__ = ["run_eval"]


def run_eval(dataset_path: str | Path, *, task: str = "jbe", models: Sequence[str],
             shots: int | Sequence[int] = 0, limit: int | None = None, out: str | Path,
             judges: Sequence[str] = (), backend_options: Mapping[str, Any] | None = None,
             use_cache: bool = True, seed: int = 0, quiet: bool = True,
             backend_factory: Callable[..., Any] | None = None,
             deadline_s: float | None = None,
             task_options: Mapping[str, Any] | None = None,
             form_judges: Sequence[str] = (),
             endpoints: Mapping[str, Any] | None = None,
             scorings: Sequence[str] = ("generate",)) -> EvalReport:
    """Evaluate ``models`` (backend specs: ``openai:gpt-4o``, ``mock``, ``majority`` …) on
    the export at ``dataset_path`` with ``task`` and write the results under ``out`` (see
    :mod:`buildds.evaluate.runner`). ``judges`` are the judge backends of a judged task.

    ``backend_options`` go to the backends that take them (``base_url``, ``api_key_env``,
    ``concurrency``, ``rpm``, ``tpm``, ``timeout_s``, ``max_attempts``,
    ``max_retry_after_s``, ``max_response_bytes``; ``cache_path`` picks the cache file);
    ``task_options`` go to the task (highbar: ``max_document_bytes``). ``deadline_s``
    bounds the run's wall-clock time (see :mod:`buildds.evaluate.runner`).
    ``form_judges``: highbar's form judges. ``endpoints``: spec → its models-file entry
    (:func:`buildds.evaluate.models_file.load_models_file`), whose options override
    ``backend_options`` for that spec.
    ``scorings``: ``generate`` (the default) and/or ``logprob`` (:mod:`.scoring`).
    ``backend_factory(spec, **options)`` replaces :func:`make_backend` (tests)."""
    plan = plan_eval(task=task, models=models, shots=shots, limit=limit, out=out,
                     judges=judges, backend_options=backend_options, use_cache=use_cache,
                     seed=seed, check_backend_specs=backend_factory is None,
                     deadline_s=deadline_s, task_options=task_options,
                     form_judges=form_judges, endpoints=endpoints,
                     scorings=scorings)
    factory = backend_factory or default_factory
    data = prepare_data(plan, dataset_path)
    redactor = Redactor.from_env(plan.key_variables())
    cache = None
    if plan.use_cache:
        from buildds.evaluate.cache import ResponseCache

        cache = ResponseCache(plan.cache_path, redactor=redactor)
    files = RunFiles(redactor, cache)
    report = EvalReport(out=plan.out, task=plan.task.name, headline=plan.task.headline)
    ctx = RunContext(plan=plan, data=data, files=files, cache=cache,
                     progress=progress_bar(quiet), judges=[])
    try:
        judge_entries = build_judges(ctx, factory)
        model_entries = run_models(ctx, factory, report)
    finally:
        if ctx.progress is not None:
            ctx.progress.stop()
        if cache is not None:
            cache.close()
    write_leaderboard(plan, data, files, report)
    report.report_html = write_report_html(plan, data, files, report)
    write_manifest(plan, data, files, report, dataset_path, model_entries, judge_entries)
    report.warnings = [*report.warnings, *run_warnings(plan.task, data.scored_items,
                                                       plan.deadline, cached=plan.use_cache)]
    report.abandoned = plan.deadline.abandoned if plan.deadline is not None else 0
    return report
