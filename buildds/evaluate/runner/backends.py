"""The backends of a run: each spec built with the options its kind takes, baselines fitted
without seeing the gold answers they are scored on (:class:`CrossFitted`, :class:`Stratified`),
cacheable backends put behind the response cache, and settings without secrets for the
manifest.

Baselines (backends with ``fit``: majority, random, tfidf) are cross-fitted when the task has
no training split of its own (``task.cross_fit``); a task with ``baseline_stratum(item)`` gets
one baseline per stratum; the ``oracle`` answers each item's reference (see
:mod:`buildds.evaluate.runner`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.backends.base import BackendBase
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["CROSS_FIT_FOLDS", "CrossFitted", "Stratified", "build_backend", "default_factory",
           "options_for", "scrub_secrets", "with_cache"]

#: options each backend kind accepts (others are dropped for it)
_OPTIONS_BY_KIND = {
    "openai": ("base_url", "api_key_env", "concurrency", "rpm", "tpm", "send_files",
               "timeout_s", "max_attempts", "max_retry_after_s", "max_response_bytes"),
    "hf": ("device",),
}
_DEFAULT_OPTIONS = ("concurrency",)
_SECRET = re.compile(r"(api_?key|token|secret|password|authorization)$", re.IGNORECASE)
CROSS_FIT_FOLDS = 5


def scrub_secrets(obj: Any) -> Any:
    """Settings without anything that looks like a secret."""
    if isinstance(obj, Mapping):
        return {str(k): ("***" if _SECRET.search(str(k)) else scrub_secrets(v)) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [scrub_secrets(v) for v in obj]
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    return str(obj)


def options_for(spec: str, options: Mapping[str, Any]) -> dict[str, Any]:
    kind = spec.partition(":")[0].strip().lower()
    allowed = _OPTIONS_BY_KIND.get(kind, _DEFAULT_OPTIONS)
    return {k: v for k, v in options.items() if k in allowed and v is not None}


def default_factory(spec: str, **options: Any) -> Any:
    from buildds.evaluate.backends.registry import make_backend

    return make_backend(spec, **options)


class CrossFitted(BackendBase):
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


class Stratified(BackendBase):
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

    def fit(self, train: Sequence[Mapping[str, Any]]) -> Stratified:
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


def build_backend(spec: str, factory: Callable[..., Any], options: Mapping[str, Any],
                   task: Any, items: Sequence[Mapping[str, Any]],
                   extra_train: Sequence[Mapping[str, Any]],
                   items_by_id: Mapping[str, Any]) -> Any:
    opts = options_for(spec, options)
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
            return Stratified(lambda **k: _fitless(factory(spec, **fit_opts, **k), label_field),
                               stratum_of, kw["items_by_id"])
        return _fitless(factory(spec, **fit_opts, **kw), label_field)

    if task.cross_fit:
        return CrossFitted(make, items, extra_train, items_by_id, task.group_of,
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


def with_cache(backend: Any, cache: Any) -> Any:
    if cache is not None and getattr(backend, "cacheable", False):
        from buildds.evaluate.cache import CachedBackend

        return CachedBackend(backend, cache)
    return backend
