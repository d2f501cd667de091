"""Evaluation tasks: dataset + prompt + parser + scorer. :func:`get_task` by name.

Each task family is a package, and each task follows
:class:`~buildds.evaluate.tasks.base.TaskBase`:

* ``jbe`` (:mod:`.jbe`) — JBE-QA true/false statements (seed 001);
* ``clause-classification`` / ``clause-revision`` (:mod:`.rikai`) — LegalRikai (seed 000);
* ``appellate-review`` (:mod:`.appellate_review`) — AR-Bench detection, classification and
  correction (seed 003);
* ``highbar`` (:mod:`.highbar`) — native-format tasks graded on binary lawyer criteria by two
  judges (seed 002).

:mod:`.export_io` reads our exports (parquet, ``save_to_disk``) for every task.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from buildds.errors import BuildError

__all__ = ["TASKS", "get_task"]

#: task name → "module:class" (imported on demand: a task's dependencies load only when used)
_REGISTRY = {
    "jbe": "buildds.evaluate.tasks.jbe.task:JbeTask",
    "clause-classification": "buildds.evaluate.tasks.rikai.classification:ClauseClassificationTask",
    "clause-revision": "buildds.evaluate.tasks.rikai.revision:ClauseRevisionTask",
    "appellate-review": "buildds.evaluate.tasks.appellate_review.task:AppellateReviewTask",
    "highbar": "buildds.evaluate.tasks.highbar.task:HighBarTask",
}

#: the task names ``buildds eval --task`` accepts
TASKS = tuple(_REGISTRY)


def get_task(name: str, **options: Any) -> Any:
    """The task object for ``name`` (one of :data:`TASKS`; ``_`` may stand for ``-``).

    ``name:variant`` picks a variant of a task (``appellate-review:detection``): it is
    passed to the task's constructor as ``variant=``, like the other ``options``."""
    key, _, variant = name.strip().lower().replace("_", "-").partition(":")
    if key not in _REGISTRY:
        raise BuildError(f"unknown task {name!r}: expected one of {', '.join(TASKS)}")
    if variant:
        options = {**options, "variant": variant}
    module, _, cls = _REGISTRY[key].partition(":")
    return getattr(import_module(module), cls)(**options)
