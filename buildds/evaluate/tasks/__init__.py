"""Evaluation tasks: dataset + prompt + parser + scorer. :func:`get_task` by name."""

from __future__ import annotations

from typing import Any

from buildds.errors import BuildError

__all__ = ["TASKS", "get_task"]

#: the task names ``buildds eval --task`` accepts
TASKS = ("jbe",)


def get_task(name: str) -> Any:
    """The task object for ``name`` (``jbe``)."""
    key = name.strip().lower()
    if key == "jbe":
        from buildds.evaluate.tasks.jbe import JbeTask

        return JbeTask()
    raise BuildError(f"unknown task {name!r}: expected one of {', '.join(TASKS)}")
