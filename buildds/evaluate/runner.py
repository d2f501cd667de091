"""Run an evaluation: dataset × task × backends → samples, metrics, leaderboard, plots.

:func:`run_eval` loads the export, builds the task's requests, runs each backend (asyncio,
bounded concurrency inside the backend, a rich progress bar unless ``quiet``) and writes::

    <out>/manifest.json                    dataset fingerprint, template hashes, backend
                                           settings (no secrets), package versions, seed …
    <out>/leaderboard.md, leaderboard.json the task's tables (for jbe: Tables 2/3 of seed
                                           001) over every run in <out> on the same dataset
                                           and limit
    <out>/*.png                            the task's summary plots (jbe: subject_f1.png)
    <out>/<model-slug>/<N>shot/samples.jsonl   one SampleRecord per scored item
    <out>/<model-slug>/<N>shot/metrics.json    the task's metrics with bootstrap CIs
    <out>/<model-slug>/<N>shot/*.png           the task's run plots (confusion.png …)
    <out>/<model-slug>/<N>shot/…               judged tasks: the judges' logs (disagreements …)

Zero- and four-shot runs of the same model live side by side (``0shot/``, ``4shot/``), so
running ``--shots 0`` and later ``--shots 4`` into the same ``<out>`` fills both columns of
the leaderboard. Every file is written atomically and holds no timestamps: the same outputs
give the same bytes.

Baselines (backends with ``fit``: majority, random, tfidf) are cross-fitted when the task
has no training split of its own (``task.cross_fit``): the scored items are split into 5
folds by ``task.group_of`` (for jbe: statements of one question stay together) and each fold
is answered by a baseline fitted on the other folds and ``task.training_items``, so a
baseline never sees the gold answer of an item it is scored on. Otherwise a baseline is
fitted on ``task.training_items`` (e.g. the development split) alone. A task with a
``baseline_stratum(item)`` method gets one baseline per stratum (appellate-review: one per
correction target). The ``oracle``
backend answers each item's reference (``task.reference_answer``): a judge's ceiling.

Judged tasks (``task.judged``: clause-revision, highbar) send ``task.judge_requests`` to
every ``judges`` backend after the model has answered; ``task.apply_judgments`` folds the
verdicts into the records and may add log files to the run folder.

Responses are cached (SQLite, ``<out>/cache/responses.sqlite`` unless
``backend_options["cache_path"]``) for backends whose answers depend only on the request;
``use_cache=False`` skips the cache.

Limits of a run:

* ``deadline_s`` bounds the whole run's wall-clock time (from the call of :func:`run_eval`):
  when it is reached, the requests still out are abandoned — each becomes a per-sample
  error saying so (:data:`DEADLINE_ERROR`), requests not yet sent too, judges included —
  and everything answered so far is written as usual (it is in the cache already, so a
  re-run sends only what is missing);
* an item the task refuses (``task.item_error(item)``: a High Bar task whose documents
  were refused) is never sent to any backend: its result is that error;
* failed requests: each run (:class:`ModelRun`) keeps the model's and each judge's failed
  requests (:class:`FailedRequests`: sample id and error) for the console;
  :meth:`EvalReport.nothing_evaluated` names the runs in which nothing was evaluated (every
  item failed or was refused, or every judge failed every request) — the command exits 1
  for them, after everything is written;
* bad options (an unknown task or backend spec, a base URL that is not http(s), too few
  judges, shots the task does not take) raise :class:`OptionError` naming the option,
  before anything is loaded;
* secrets: every file is written through the run's
  :class:`~buildds.evaluate.redact.Redactor` (the values of the backends' key variables
  become ``***``), and the cache redacts what it stores.
"""

from __future__ import annotations

import json
import platform
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds import __version__
from buildds.errors import BuildError
from buildds.evaluate.answering import DEADLINE_ERROR, Deadline, answer, progress_bar
from buildds.evaluate.backends.base import BackendBase
from buildds.evaluate.redact import Redactor
from buildds.evaluate.tasks import get_task
from buildds.pipeline import atomic_write_bytes, atomic_write_text, sha256_bytes
from buildds.safeio import loads_strict
from buildds.schema.evaluation import ChatRequest, ChatResult, SampleRecord

__all__ = ["DEADLINE_ERROR", "EvalReport", "FailedRequests", "ModelRun", "OptionError",
           "model_slug", "run_eval"]

#: options each backend kind accepts (others are dropped for it)
_OPTIONS_BY_KIND = {
    "openai": ("base_url", "api_key_env", "concurrency", "rpm", "tpm", "send_files",
               "timeout_s", "max_attempts", "max_retry_after_s", "max_response_bytes"),
    "hf": ("device",),
}
_DEFAULT_OPTIONS = ("concurrency",)
_SECRET = re.compile(r"(api_?key|token|secret|password|authorization)$", re.IGNORECASE)
CROSS_FIT_FOLDS = 5
_PACKAGES = ("buildds", "click", "datasets", "jinja2", "matplotlib", "numpy", "pandas",
             "pyarrow", "pydantic", "scikit-learn", "httpx")


class OptionError(BuildError):
    """A bad option value (an unknown task or backend, a base URL that is not http(s), too
    few judges …): a usage error, raised before anything is loaded. ``option`` names the
    command-line option (``--model``); the command maps it to exit 2."""

    def __init__(self, option: str, message: str):
        self.option = option
        super().__init__(message)


def model_slug(spec: str) -> str:
    """A folder name for a model spec: ``openai:gpt-4o`` → ``openai_gpt-4o``."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", spec.strip()).strip("._")
    return slug or "model"


@dataclass
class FailedRequests:
    """The requests of one backend in one run (model/setting) that got no answer: the
    sample id and the error of each, in request order."""

    #: who was asked: the model spec, or ``judge <spec>``
    who: str
    #: requests sent (items the task refused are not sent)
    sent: int
    failures: list[tuple[str, str]] = field(default_factory=list)

    @property
    def all_failed(self) -> bool:
        return self.sent > 0 and len(self.failures) == self.sent

    def reason_lines(self) -> list[str]:
        """One line per distinct reason, in order of first occurrence: ``<first sample>
        [and N others]: <reason>`` (a reason on one line)."""
        by_reason: dict[str, list[str]] = {}
        for sid, error in self.failures:
            by_reason.setdefault(" ".join(error.split()), []).append(sid)
        lines = []
        for reason, sids in by_reason.items():
            more = len(sids) - 1
            who = sids[0] + (f" and {more} other{'s' if more > 1 else ''}" if more else "")
            lines.append(f"{who}: {reason}")
        return lines


@dataclass
class ModelRun:
    model: str
    slug: str
    shots: int
    dir: Path
    metrics: dict[str, Any]
    settings: dict[str, Any]
    #: items of the run, and how many of them the task refused (never sent)
    items: int = 0
    refused: int = 0
    #: the model's failed requests, then each judge's (judged tasks)
    failed: list[FailedRequests] = field(default_factory=list)

    @property
    def samples(self) -> Path:
        return self.dir / "samples.jsonl"

    def nothing_evaluated(self) -> str | None:
        """Why nothing of this run was evaluated (every item refused or failed, or every
        judge failed every request), else None."""
        model = self.failed[0] if self.failed else None
        failed = len(model.failures) if model is not None else 0
        if self.items and self.refused + failed >= self.items:
            if not failed:
                what = f"every one of its {self.refused} items was refused"
            elif not self.refused:
                what = f"all {failed} requests failed"
            else:
                what = (f"{self.refused} of {self.items} items were refused and the other "
                        f"{failed} requests failed")
            return f"{self.model} {self.shots}-shot: {what}"
        judges = self.failed[1:]
        if judges and all(j.all_failed for j in judges):
            return (f"{self.model} {self.shots}-shot: every judge failed every request, "
                    "nothing was graded")
        return None


@dataclass
class EvalReport:
    out: Path
    task: str
    #: the metric the summary line ranks by
    headline: str = "f1"
    runs: list[ModelRun] = field(default_factory=list)
    leaderboard_md: Path | None = None
    leaderboard_json: Path | None = None
    manifest: Path | None = None
    plots: list[Path] = field(default_factory=list)
    #: requests abandoned at the deadline (over every backend and setting)
    abandoned: int = 0
    #: what the user should hear besides the summary (deadline reached, refused items)
    warnings: list[str] = field(default_factory=list)

    def nothing_evaluated(self) -> list[str]:
        """The runs (model/setting) in which nothing was evaluated (see
        :meth:`ModelRun.nothing_evaluated`): a failed run, whatever was written."""
        return [why for r in self.runs if (why := r.nothing_evaluated()) is not None]

    def summary_line(self) -> str:
        if not self.runs:
            return f"nothing evaluated — see {self.out}"
        n = self.runs[0].metrics["n"]
        h = self.headline
        best = max(self.runs, key=lambda r: (float(r.metrics.get(h) or 0.0), r.model))
        name = "F1" if h == "f1" else h
        return (f"evaluated {len({r.model for r in self.runs})} model(s) × "
                f"{len({r.shots for r in self.runs})} setting(s) on {n} items; best {name} "
                f"{float(best.metrics.get(h) or 0.0):.3f} ({best.model}, {best.shots}-shot) — "
                f"see {self.leaderboard_md}")


# --------------------------------------------------------------------------- backends
def _scrub(obj: Any) -> Any:
    """Settings without anything that looks like a secret."""
    if isinstance(obj, Mapping):
        return {str(k): ("***" if _SECRET.search(str(k)) else _scrub(v)) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_scrub(v) for v in obj]
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    return str(obj)


def _options_for(spec: str, options: Mapping[str, Any]) -> dict[str, Any]:
    kind = spec.partition(":")[0].strip().lower()
    allowed = _OPTIONS_BY_KIND.get(kind, _DEFAULT_OPTIONS)
    return {k: v for k, v in options.items() if k in allowed and v is not None}


def _default_factory(spec: str, **options: Any) -> Any:
    from buildds.evaluate.backends.registry import make_backend

    return make_backend(spec, **options)


class _CrossFitted(BackendBase):
    """A baseline answered fold by fold, each fold by a copy fitted on the others."""

    cacheable = False

    def __init__(self, make: Callable[..., Any], items: Sequence[Mapping[str, Any]],
                 extra_train: Sequence[Mapping[str, Any]], items_by_id: Mapping[str, Any],
                 group_of: Callable[[Mapping[str, Any]], str], *,
                 folds: int = CROSS_FIT_FOLDS, concurrency: int = 64, group_name: str = "item"):
        groups = sorted({group_of(it) for it in items})
        k = min(folds, len(groups))
        self.concurrency = concurrency
        self.fold_of: dict[str, int] = {}
        self.models: list[Any] = []
        if k < 2:
            model = make(items_by_id=items_by_id)
            model.fit(list(extra_train))
            self.models = [model]
            self.fold_of = {str(it["id"]): 0 for it in items}
            self.folds = 1
        else:
            group_fold = {g: i % k for i, g in enumerate(groups)}
            self.fold_of = {str(it["id"]): group_fold[group_of(it)] for it in items}
            for f in range(k):
                train = [*extra_train, *(it for it in items if self.fold_of[str(it["id"])] != f)]
                model = make(items_by_id=items_by_id)
                model.fit(train)
                self.models.append(model)
            self.folds = k
        self.name = self.models[0].name
        self.group_name = group_name

    def settings(self) -> dict[str, Any]:
        base = {k: v for k, v in self.models[0].settings().items() if k not in ("n_train",
                                                                                "answer")}
        fits = [m.settings() for m in self.models]
        return {**base, "cross_fit": {
            "folds": self.folds, "group": self.group_name,
            "n_train": [s.get("n_train") for s in fits],
            **({"answers": [s.get("answer") for s in fits]} if "answer" in fits[0] else {})}}

    async def complete(self, request: ChatRequest) -> ChatResult:
        fold = self.fold_of.get(request.sample_id or "", 0)
        return await self.models[fold].complete(request)


class _Stratified(BackendBase):
    """A baseline fitted once per stratum of the training items (``task.baseline_stratum``,
    e.g. appellate-review's correction target), each item answered by its stratum's model:
    a baseline never answers a charge question with a prison term. A backend in its own
    right (not cacheable: answers depend on the sample id), cross-fitted or not."""

    cacheable = False

    def __init__(self, make: Callable[..., Any], stratum_of: Callable[[Mapping[str, Any]], str],
                 items_by_id: Mapping[str, Any], concurrency: int = 64):
        self.make, self.stratum_of, self.items_by_id = make, stratum_of, items_by_id
        self.concurrency = concurrency
        self.models: dict[str, Any] = {}
        self.name = make(items_by_id=items_by_id).name

    def fit(self, train: Sequence[Mapping[str, Any]]) -> _Stratified:
        groups: dict[str, list[Mapping[str, Any]]] = {}
        for it in train:
            groups.setdefault(self.stratum_of(it), []).append(it)
        self.models = {}
        for key in sorted(groups):
            self.models[key] = self.make(items_by_id=self.items_by_id)
            self.models[key].fit(groups[key])
        return self

    def settings(self) -> dict[str, Any]:
        fits = {k: m.settings() for k, m in self.models.items()}
        base: dict[str, Any] = next(iter(fits.values()), {})
        out = {k: v for k, v in base.items() if k not in ("n_train", "answer")}
        out["n_train"] = sum(int(s.get("n_train") or 0) for s in fits.values())
        out["strata"] = {k: {"n_train": s.get("n_train"),
                             **({"answer": s["answer"]} if "answer" in s else {})}
                         for k, s in fits.items()}
        return out

    async def complete(self, request: ChatRequest) -> ChatResult:
        item = self.items_by_id.get(request.sample_id or "")
        model = self.models.get(self.stratum_of(item)) if item is not None else None
        if model is None:
            return ChatResult(text=None, error=f"no training items like {request.sample_id!r}")
        return await model.complete(request)


def _build_backend(spec: str, factory: Callable[..., Any], options: Mapping[str, Any],
                   task: Any, items: Sequence[Mapping[str, Any]],
                   extra_train: Sequence[Mapping[str, Any]],
                   items_by_id: Mapping[str, Any]) -> Any:
    opts = _options_for(spec, options)
    if spec.partition(":")[0].strip().lower() == "oracle":
        return factory(spec, **opts, items_by_id=items_by_id, answer_of=task.reference_answer)
    backend = factory(spec, **opts)
    if not callable(getattr(backend, "fit", None)):
        return backend
    fit_opts = {**opts, **task.baseline_options()}
    label_field = fit_opts.pop("label_field", None)
    stratum_of = getattr(task, "baseline_stratum", None)

    def make(**kw: Any) -> Any:
        if stratum_of is not None:
            return _Stratified(lambda **k: _fitless(factory(spec, **fit_opts, **k), label_field),
                               stratum_of, kw["items_by_id"])
        return _fitless(factory(spec, **fit_opts, **kw), label_field)

    if task.cross_fit:
        return _CrossFitted(make, items, extra_train, items_by_id, task.group_of,
                            concurrency=int(opts.get("concurrency") or 64),
                            group_name=getattr(task, "group_name", "item"))
    train = list(extra_train)
    if not train:
        raise BuildError(f"{spec}: task {task.name} has no training split to fit on")
    backend = make(items_by_id=items_by_id)
    backend.fit(train)
    return backend


def _fitless(backend: Any, label_field: str | None) -> Any:
    """A baseline told which field holds the label (before it is fitted)."""
    if label_field is not None:
        backend.label_field = label_field
    return backend


# --------------------------------------------------------------------------- manifest
def _package_versions() -> dict[str, str | None]:
    from importlib import metadata

    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def _dataset_key(fp: Mapping[str, Any]) -> str:
    """One id for the dataset's scored content, whatever form it was loaded from."""
    if fp.get("test_sha256"):
        return str(fp["test_sha256"])[:16]
    splits = fp.get("splits") or {}
    if splits.get("test"):
        return str(splits["test"])
    return sha256_bytes(json.dumps(fp, sort_keys=True, default=str).encode())[:16]


def _json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def _collect(out: Path, task: str, dataset_key: str, limit: int | None) -> list[dict[str, Any]]:
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


# --------------------------------------------------------------------------- run
def _cached(backend: Any, cache: Any) -> Any:
    if cache is not None and getattr(backend, "cacheable", False):
        from buildds.evaluate.cache import CachedBackend

        return CachedBackend(backend, cache)
    return backend


def run_eval(dataset_path: str | Path, *, task: str = "jbe", models: Sequence[str],
             shots: int | Sequence[int] = 0, limit: int | None = None, out: str | Path,
             judges: Sequence[str] = (), backend_options: Mapping[str, Any] | None = None,
             use_cache: bool = True, seed: int = 0, quiet: bool = True,
             backend_factory: Callable[..., Any] | None = None,
             deadline_s: float | None = None,
             task_options: Mapping[str, Any] | None = None) -> EvalReport:
    """Evaluate ``models`` (backend specs: ``openai:gpt-4o``, ``mock``, ``majority`` …) on
    the export at ``dataset_path`` with ``task`` and write the results under ``out`` (see
    the module doc). ``judges`` are the judge backends of a judged task.

    ``backend_options`` go to the backends that take them (``base_url``, ``api_key_env``,
    ``concurrency``, ``rpm``, ``tpm``, ``timeout_s``, ``max_attempts``,
    ``max_retry_after_s``, ``max_response_bytes``; ``cache_path`` picks the cache file);
    ``task_options`` go to the task (highbar: ``max_document_bytes``). ``deadline_s``
    bounds the run's wall-clock time (see the module doc).
    ``backend_factory(spec, **options)`` replaces :func:`make_backend` (tests)."""
    if deadline_s is not None and deadline_s <= 0:
        raise OptionError("--deadline", f"the deadline must be positive, got {deadline_s:g} s")
    deadline = Deadline(deadline_s) if deadline_s is not None else None
    if not models:
        raise OptionError("--model", "give at least one model (--model)")
    if len(set(models)) != len(models):
        raise OptionError("--model", "the same model is given twice")
    slugs = [model_slug(m) for m in models]
    if len(set(slugs)) != len(slugs):
        raise OptionError("--model", f"models {', '.join(models)} map to the same folder name")
    try:
        the_task = get_task(task, **(task_options or {}))
    except BuildError as exc:
        raise OptionError("--task", exc.message) from exc
    if the_task.judged and len(judges) < the_task.min_judges:
        raise OptionError("--judge", f"task {the_task.name} is graded by judges: give at least "
                          f"{the_task.min_judges} with --judge (e.g. --judge openai:gpt-4o)")
    if judges and not the_task.judged:
        raise OptionError("--judge", f"task {the_task.name} is scored without judges; "
                          "drop --judge")
    if len(set(judges)) != len(judges):
        raise OptionError("--judge", "the same judge is given twice")
    shot_list = [shots] if isinstance(shots, int) else sorted(set(shots))
    for s in shot_list:
        try:
            the_task.check_shots(s)
        except BuildError as exc:
            raise OptionError("--shots", exc.message) from exc
    options = dict(backend_options or {})
    if backend_factory is None:  # the specs the command line takes (tests bring their own)
        _check_specs(models, judges, options)
    cache_path = Path(options.pop("cache_path", None) or Path(out) / "cache" /
                      "responses.sqlite")
    factory = backend_factory or _default_factory
    out = Path(out)
    data = the_task.load(dataset_path)
    fingerprint = dict(data.fingerprint)
    dkey = _dataset_key(fingerprint)
    prepared = {s: the_task.build_requests(data, s, limit) for s in shot_list}
    scored_items = prepared[shot_list[0]][0]
    if not scored_items:
        raise BuildError("no items to evaluate (is the export empty, or --limit 0?)")
    items_by_id = data.items_by_id
    extra_train = the_task.training_items(data)

    redactor = Redactor.from_env([options.get("api_key_env") or "OPENAI_API_KEY"])

    def write(path: Path, text: str) -> None:
        atomic_write_text(path, redactor.text(text))

    cache = None
    if use_cache:
        from buildds.evaluate.cache import ResponseCache

        cache = ResponseCache(cache_path, redactor=redactor)

    def secrets_of(backend: Any) -> Any:
        """The backend, its secrets added to the run's redactor (and the cache's)."""
        nonlocal redactor
        extra = getattr(backend, "redactor", None)
        if isinstance(extra, Redactor) and extra:
            redactor = redactor | extra
            if cache is not None:
                cache.redactor = redactor
        return backend

    report = EvalReport(out=out, task=the_task.name, headline=the_task.headline)
    model_manifest: list[dict[str, Any]] = []
    judge_manifest: list[dict[str, Any]] = []
    progress = progress_bar(quiet)
    try:
        judge_backends = []
        for spec in judges:
            backend = _cached(secrets_of(factory(spec, **_options_for(spec, options))), cache)
            judge_backends.append((spec, backend))
            judge_manifest.append({"judge": spec, "settings": _scrub(backend.settings())})
        for spec, slug in zip(models, slugs, strict=True):
            backend = _cached(secrets_of(_build_backend(spec, factory, options, the_task,
                                                        scored_items, extra_train,
                                                        items_by_id)), cache)
            settings = _scrub(backend.settings())
            model_manifest.append({"model": spec, "slug": slug, "settings": settings})
            for s in shot_list:
                items, requests = prepared[s]
                refused = [the_task.item_error(it) for it in items]
                results = answer(backend, requests, progress, f"{spec} {s}-shot", deadline,
                                  refused)
                failed = [_failed(spec, requests, results, refused)]
                records = [the_task.sample_record(it, rq, rs)
                           for it, rq, rs in zip(items, requests, results, strict=True)]
                run_dir = out / slug / f"{s}shot"
                extra_files: dict[str, str] = {}
                if the_task.judged:
                    jrequests = the_task.judge_requests(items, records)
                    verdicts = {jspec: answer(jb, jrequests, progress,
                                               f"judge {jspec} on {spec} {s}-shot", deadline)
                                for jspec, jb in judge_backends}
                    failed += [_failed(f"judge {jspec}", jrequests, verdicts[jspec])
                               for jspec, _ in judge_backends]
                    records, extra_files = the_task.apply_judgments(items, records, jrequests,
                                                                    verdicts)
                write(run_dir / "samples.jsonl", _samples_text(records))
                for name, text in sorted(extra_files.items()):
                    write(run_dir / name, text)
                metrics = {"task": the_task.name, "model": spec, "slug": slug, "shots": s,
                           "limit": limit, "dataset_key": dkey, "seed": seed,
                           **the_task.score(items, records, seed=seed), "backend": settings,
                           **({"judges": list(judges)} if judges else {})}
                write(run_dir / "metrics.json", _json(metrics))
                report.runs.append(ModelRun(spec, slug, s, run_dir, metrics, settings,
                                            items=len(items),
                                            refused=sum(1 for r in refused if r),
                                            failed=failed))
                title = f"{spec} — {s}-shot"

                def run_plots(m: dict[str, Any] = metrics, t: str = title) -> Any:
                    return the_task.run_plots(m, t)

                report.plots += _write_plots(run_dir, run_plots)
    finally:
        if progress is not None:
            progress.stop()
        if cache is not None:
            cache.close()

    entries = _collect(out, the_task.name, dkey, limit)
    dataset_info = {"key": dkey, **{k: v for k, v in fingerprint.items() if k != "card"},
                    **({f"card_{k}": v for k, v in fingerprint.get("card", {}).items()})}
    report.leaderboard_md = out / "leaderboard.md"
    write(report.leaderboard_md, the_task.render_leaderboard(
        entries, dataset={"key": dkey, "limit": limit}))
    report.leaderboard_json = out / "leaderboard.json"
    write(report.leaderboard_json, _json(the_task.leaderboard_json(
        entries, dataset={**dataset_info, "limit": limit})))
    summary = _write_plots(out, lambda: the_task.summary_plots(entries))
    report.plots[:0] = summary
    for name, text in sorted(the_task.summary_files(entries, out).items()):
        write(out / name, text)
    manifest = {
        "buildds": __version__,
        "task": the_task.name,
        "dataset": {"path": str(dataset_path), **dataset_info,
                    "scored_items": len(scored_items),
                    "fewshot_ids": sorted(getattr(data, "fewshot_ids", ()))},
        "templates": the_task.template_hashes(),
        "models": model_manifest,
        **({"judges": judge_manifest} if judge_manifest else {}),
        "shots": shot_list,
        "limit": limit,
        "seed": seed,
        **({"deadline_s": deadline_s} if deadline_s is not None else {}),
        "cache": str(cache_path) if use_cache else None,
        "plots": _has_matplotlib(),
        "packages": _package_versions(),
    }
    report.manifest = out / "manifest.json"
    write(report.manifest, _json(manifest))
    report.warnings = _warnings(the_task, scored_items, deadline, cached=use_cache)
    report.abandoned = deadline.abandoned if deadline is not None else 0
    return report


def _check_specs(models: Sequence[str], judges: Sequence[str],
                 options: Mapping[str, Any]) -> None:
    """Backend specs and the base URL, checked before anything is loaded or sent."""
    from buildds.evaluate.backends.registry import check_spec

    for option, specs in (("--model", models), ("--judge", judges)):
        for spec in specs:
            try:
                check_spec(spec)
            except BuildError as exc:
                raise OptionError(option, exc.message) from exc
    if options.get("base_url") is not None:
        from buildds.evaluate.backends.openai import check_base_url

        try:
            check_base_url(str(options["base_url"]))
        except BuildError as exc:
            raise OptionError("--base-url", exc.message) from exc


def _failed(who: str, requests: Sequence[ChatRequest], results: Sequence[ChatResult],
            refused: Sequence[str | None] | None = None) -> FailedRequests:
    """The requests of ``results`` that failed (those refused were not sent: not counted)."""
    out = FailedRequests(who, sent=0)
    for i, (rq, rs) in enumerate(zip(requests, results, strict=True)):
        if refused and refused[i]:
            continue
        out.sent += 1
        if rs.error is not None:
            out.failures.append((rq.sample_id or f"#{i + 1}", rs.error))
    return out


def _warnings(task: Any, items: Sequence[Mapping[str, Any]], deadline: Deadline | None, *,
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


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _write_plots(folder: Path, make: Callable[[], Mapping[str, bytes]]) -> list[Path]:
    """Write the PNGs ``make()`` returns (nothing when matplotlib is missing)."""
    try:
        pngs = make()
    except ImportError:
        return []
    paths = []
    for name, png in sorted(pngs.items()):
        atomic_write_bytes(folder / name, png)
        paths.append(folder / name)
    return paths


def _samples_text(records: Sequence[SampleRecord]) -> str:
    return "".join(json.dumps(r.model_dump(mode="json"), ensure_ascii=False, sort_keys=True)
                   + "\n" for r in records)
