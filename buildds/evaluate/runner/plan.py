"""What a run will do, checked before anything is sent: the options (:func:`plan_eval`,
raising :class:`OptionError` for a bad one before anything is loaded) and the loaded export
with each setting's requests (:func:`prepare_data`)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.answering import Deadline
from buildds.evaluate.runner.scoring import check_scorings
from buildds.evaluate.tasks import get_task
from buildds.safeio.hashing import sha256_bytes
from buildds.schema.evaluation import ChatRequest

__all__ = ["EvalPlan", "OptionError", "PreparedData", "check_specs", "dataset_key", "model_slug",
           "plan_eval", "prepare_data"]


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
class EvalPlan:
    """A run's checked options."""

    task: Any
    models: list[str]
    #: each model's folder name, in the order of ``models``
    slugs: list[str]
    judges: list[str]
    #: highbar: the form judges (``--form-judge``)
    form_judges: list[str]
    #: the settings (demonstration counts), sorted
    shots: list[int]
    limit: int | None
    out: Path
    #: backend options (``cache_path`` taken out)
    options: dict[str, Any]
    cache_path: Path
    use_cache: bool
    seed: int
    deadline_s: float | None
    deadline: Deadline | None
    #: how answers are scored: "generate" and/or "logprob" (:mod:`.scoring`)
    scorings: list[str] = field(default_factory=lambda: ["generate"])
    #: spec → the options its models-file entry sets (``--models``)
    endpoints: dict[str, dict[str, Any]] = field(default_factory=dict)

    def options_of(self, spec: str) -> dict[str, Any]:
        """The backend options of ``spec``: the command line's, then its models-file
        entry's."""
        return {**self.options, **self.endpoints.get(spec, {})}

    def key_variables(self) -> list[str]:
        """Every environment variable an API key of the run is read from."""
        names = [self.options.get("api_key_env") or "OPENAI_API_KEY",
                 *(e.get("api_key_env") for e in self.endpoints.values())]
        return sorted({n for n in names if n})


def plan_eval(*, task: str, models: Sequence[str], shots: int | Sequence[int],
              limit: int | None, out: str | Path, judges: Sequence[str],
              backend_options: Mapping[str, Any] | None, use_cache: bool, seed: int,
              check_backend_specs: bool, deadline_s: float | None,
              task_options: Mapping[str, Any] | None, form_judges: Sequence[str] = (),
              endpoints: Mapping[str, Any] | None = None,
              scorings: Sequence[str] = ("generate",)) -> EvalPlan:
    """Check the options of :func:`~buildds.evaluate.runner.run_eval` (the deadline starts
    here). ``check_backend_specs``: check the specs the command line takes (tests that bring
    their own backend factory do not)."""
    if deadline_s is not None and deadline_s <= 0:
        raise OptionError("--deadline", f"the deadline must be positive, got {deadline_s:g} s")
    deadline = Deadline(deadline_s) if deadline_s is not None else None
    slugs = _check_models(models)
    try:
        the_task = get_task(task, **(task_options or {}))
    except BuildError as exc:
        raise OptionError("--task", exc.message) from exc
    _check_judges(the_task, judges, form_judges)
    shot_list = [shots] if isinstance(shots, int) else sorted(set(shots))
    for s in shot_list:
        try:
            the_task.check_shots(s)
        except BuildError as exc:
            raise OptionError("--shots", exc.message) from exc
    try:
        scoring_list = check_scorings(the_task, scorings)
    except BuildError as exc:
        raise OptionError("--scoring", exc.message) from exc
    options = dict(backend_options or {})
    used = {*models, *judges, *form_judges}
    by_spec = {name: (e.backend_options() if hasattr(e, "backend_options") else dict(e))
               for name, e in (endpoints or {}).items() if name in used}
    if check_backend_specs:
        check_specs(models, [*judges, *form_judges], options, by_spec)
    cache_path = Path(options.pop("cache_path", None) or Path(out) / "cache" /
                      "responses.sqlite")
    return EvalPlan(task=the_task, models=list(models), slugs=slugs, judges=list(judges),
                    form_judges=list(form_judges), shots=shot_list, limit=limit,
                    out=Path(out), options=options, cache_path=cache_path,
                    use_cache=use_cache, seed=seed, deadline_s=deadline_s,
                    deadline=deadline, endpoints=by_spec,
                    scorings=scoring_list)


def _check_models(models: Sequence[str]) -> list[str]:
    """The models' folder names; raises when there is no model or two share a folder."""
    if not models:
        raise OptionError("--model", "give at least one model (--model)")
    if len(set(models)) != len(models):
        raise OptionError("--model", "the same model is given twice")
    slugs = [model_slug(m) for m in models]
    if len(set(slugs)) != len(slugs):
        raise OptionError("--model", f"models {', '.join(models)} map to the same folder name")
    return slugs


def _check_judges(task: Any, judges: Sequence[str], form_judges: Sequence[str]) -> None:
    if task.judged and len(judges) < task.min_judges:
        raise OptionError("--judge", f"task {task.name} is graded by judges: give at least "
                          f"{task.min_judges} with --judge (e.g. --judge openai:gpt-4o)")
    if judges and not task.judged:
        raise OptionError("--judge", f"task {task.name} is scored without judges; "
                          "drop --judge")
    if len(set(judges)) != len(judges):
        raise OptionError("--judge", "the same judge is given twice")
    need = getattr(task, "min_form_judges", 0)
    if form_judges and not need:
        raise OptionError("--form-judge", f"task {task.name} has no form judges; drop "
                          "--form-judge")
    if need and len(form_judges) < need:
        raise OptionError("--form-judge", f"task {task.name} grades form by judges of its "
                          f"own (seed 002: a different pair from the substance judges): "
                          f"give at least {need} with --form-judge (e.g. --form-judge "
                          "openai:gpt-4o-mini)")
    if len(set(form_judges)) != len(form_judges):
        raise OptionError("--form-judge", "the same form judge is given twice")


def check_specs(models: Sequence[str], judges: Sequence[str],
                options: Mapping[str, Any],
                endpoints: Mapping[str, Mapping[str, Any]] | None = None) -> None:
    """Backend specs and the base URLs (``--base-url``, the models file's), checked before
    anything is loaded or sent."""
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
    for name, entry in sorted((endpoints or {}).items()):
        if entry.get("base_url") is not None:
            from buildds.evaluate.backends.openai import check_base_url

            try:
                check_base_url(str(entry["base_url"]))
            except BuildError as exc:
                raise OptionError("--models", f"{name}: base_url {exc.message}") from exc


@dataclass
class PreparedData:
    """The loaded export and what every setting asks."""

    data: Any
    fingerprint: dict[str, Any]
    #: one id for the dataset's scored content (:func:`dataset_key`)
    key: str
    #: per setting: the scored items and their requests
    prepared: dict[int, tuple[list[Mapping[str, Any]], list[ChatRequest]]]
    #: the items of the first setting (every setting scores the same items)
    scored_items: list[Mapping[str, Any]]
    items_by_id: Mapping[str, Any]
    #: the task's training items (baselines fit on them)
    extra_train: list[Mapping[str, Any]]


def prepare_data(plan: EvalPlan, dataset_path: str | Path) -> PreparedData:
    """Load the export and build each setting's requests; raises when nothing is scored."""
    data = plan.task.load(dataset_path)
    fingerprint = dict(data.fingerprint)
    dkey = dataset_key(fingerprint)
    prepared = {s: plan.task.build_requests(data, s, plan.limit) for s in plan.shots}
    scored_items = prepared[plan.shots[0]][0]
    if not scored_items:
        raise BuildError("no items to evaluate (is the export empty, or --limit 0?)")
    return PreparedData(data=data, fingerprint=fingerprint, key=dkey, prepared=prepared,
                        scored_items=scored_items, items_by_id=data.items_by_id,
                        extra_train=plan.task.training_items(data))


def dataset_key(fp: Mapping[str, Any]) -> str:
    """One id for the dataset's scored content, whatever form it was loaded from: an
    export's data fingerprint (:func:`buildds.export.data_fingerprint.data_fingerprint`,
    the one its card and ``buildds validate`` show) when it has one."""
    if fp.get("data_fingerprint"):
        return str(fp["data_fingerprint"])
    if fp.get("test_sha256"):
        return str(fp["test_sha256"])[:16]
    splits = fp.get("splits") or {}
    if splits.get("test"):
        return str(splits["test"])
    return sha256_bytes(json.dumps(fp, sort_keys=True, default=str).encode())[:16]
