"""Rendering the peers' task files of a task (:func:`peer_task_files`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any

from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

from buildds import __version__
from buildds.errors import BuildError

__all__ = ["PEER_TASKS", "peer_task_files"]


@cache
def _environment() -> SandboxedEnvironment:
    env = SandboxedEnvironment(undefined=StrictUndefined, autoescape=False,
                               keep_trailing_newline=True)
    env.filters["py"] = repr
    env.filters["tojson"] = lambda v: json.dumps(v, ensure_ascii=False)
    return env


def _render(name: str, **context: Any) -> str:
    source = resources.files(__package__).joinpath("templates", name).read_text(encoding="utf-8")
    return _environment().from_string(source).render(version=__version__, **context)


def _jbe_files() -> dict[str, str]:
    from buildds.evaluate.prompts import template_text
    from buildds.evaluate.tasks.jbe.prompt import REMARK_PREFIX, USER_TEMPLATE, system_prompt
    from buildds.evaluate.tasks.jbe.task import MAX_TOKENS, SHOTS, TEMPERATURE

    context = {"system_prompt": system_prompt(), "user_template": template_text(USER_TEMPLATE),
               "temperature": TEMPERATURE, "max_tokens": MAX_TOKENS, "shots": SHOTS,
               "remark_prefix": REMARK_PREFIX.pattern}
    core = _render("jbe_core.py.j2", **context).rstrip("\n") + "\n\n"
    files = {"inspect/jbe.py": _render("jbe_inspect.py.j2", core=core),
             "lm_eval/utils.py": _render("jbe_lm_eval_utils.py.j2", core=core)}
    for shots, task_name, file in ((0, "buildds_jbe", "jbe"), (4, "buildds_jbe_4shot",
                                                                 "jbe_4shot")):
        files[f"lm_eval/{file}.yaml"] = _render(
            "jbe_lm_eval.yaml.j2", **{**context, "shots": shots}, task_name=task_name,
            shots_name="zero-shot" if shots == 0 else f"{shots}-shot")
    return files


def _appellate_review_files() -> dict[str, str]:
    from buildds.evaluate.prompts import template_text
    from buildds.evaluate.tasks.appellate_review import parse as arp
    from buildds.evaluate.tasks.appellate_review.task import (
        DEFAULT_SETTING,
        MAX_TOKENS,
        TEMPERATURE,
    )
    from buildds.inject_errors.arbench_rows import SETTINGS

    cleaner = arp.CLEANING
    context = {
        "templates": {s: template_text(f"appellate_review_{s}.md.j2")
                      for s in ("detection", "classification")},
        "settings": tuple(SETTINGS), "default_setting": DEFAULT_SETTING,
        "temperature": TEMPERATURE, "max_tokens": MAX_TOKENS,
        "detection_answers": dict(arp.DETECTION_ANSWERS),
        "classification_answers": dict(arp.CLASSIFICATION_ANSWERS),
        "classes": list(arp.CLASSES), **cleaner}
    core = _render("ar_core.py.j2", **context).rstrip("\n") + "\n\n"
    files = {"inspect/appellate_review.py": _render("ar_inspect.py.j2", core=core),
             "lm_eval/utils.py": _render("ar_lm_eval_utils.py.j2", core=core)}
    for subtask in ("detection", "classification"):
        files[f"lm_eval/appellate_review_{subtask}.yaml"] = _render(
            "ar_lm_eval.yaml.j2", **context, subtask=subtask)
    return files


#: task → the function rendering its files
PEER_TASKS: dict[str, Callable[[], dict[str, str]]] = {
    "jbe": _jbe_files, "appellate-review": _appellate_review_files}


def peer_task_files(task: str) -> dict[str, str]:
    """The peers' task files of ``task`` (path relative to the export → text), sorted by
    path; the same bytes for the same buildds."""
    if task not in PEER_TASKS:
        raise BuildError(f"no peer task files for task {task!r} (have: {', '.join(PEER_TASKS)})")
    return dict(sorted(PEER_TASKS[task]().items()))
