"""Rendering the peers' task files of a task (:func:`peer_task_files`)."""

from __future__ import annotations

import ast
import inspect
import json
from collections.abc import Callable, Sequence
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
    core = _render("ar_core.py.j2", **context).rstrip("\n") + "\n\n\n" + _ar_correction_core()
    files = {"inspect/appellate_review.py": _render("ar_inspect.py.j2", core=core),
             "lm_eval/utils.py": _render("ar_lm_eval_utils.py.j2", core=core)}
    for subtask in ("detection", "classification"):
        files[f"lm_eval/appellate_review_{subtask}.yaml"] = _render(
            "ar_lm_eval.yaml.j2", **context, subtask=subtask)
    files["lm_eval/appellate_review_correction.yaml"] = _render(
        "ar_lm_eval_correction.yaml.j2", **context)
    return files


#: AR-Bench correction: buildds' definitions copied verbatim, module → names
_AR_CORRECTION = {
    "buildds.text.numerals": ("_FULLWIDTH", "_DIGITS", "_SMALL_UNITS", "_BIG_UNITS",
                              "cn_number"),
    "buildds.extract.judgments.amounts": ("CN_NUMERALS", "NUMERAL", "TERM_RE", "parse_months",
                                          "term_months", "MONEY_RE", "_MONEY_CHARS",
                                          "_FULLWIDTH_THOUSANDS_RE", "money_matches",
                                          "money_value", "parse_money"),
    "buildds.evaluate.tasks.appellate_review.parse": (
        "_CHARGE_SEP", "_CHARGE_NAME", "_TERM_PREFIX", "_FINE_PREFIX", "Parsed",
        "parse_charges_answer", "parse_term", "parse_fine", "parse_correction", "_names",
        "correction_gold", "charge_label"),
    "buildds.evaluate.tasks.appellate_review.metrics": ("TERM_BINS", "FINE_BINS", "bin_label",
                                                        "impscore"),
    "buildds.evaluate.tasks.appellate_review.score": ("correction_label",),
}


def _ar_correction_core() -> str:
    """The correction part of the AR-Bench task files (templates/ar_correction_core.py.j2)."""
    import importlib

    from buildds.evaluate.prompts import template_text
    from buildds.evaluate.tasks.appellate_review import parse as arp

    code = {}
    for module, names in _AR_CORRECTION.items():
        text = _definitions(importlib.import_module(module), names)
        # the task's modules name each other by alias; in the file they are one namespace
        code[module.rsplit(".", 1)[1]] = text.replace("arp.", "").replace("arm.", "")
    return _render("ar_correction_core.py.j2", targets=tuple(arp.TARGETS),
                   correction_templates={t: template_text(
                       f"appellate_review_correction_{t}.md.j2") for t in arp.TARGETS},
                   **code).rstrip("\n") + "\n\n"


#: the parser's definitions in buildds/evaluate/tasks/rikai/classification.py, copied verbatim
_RIKAI_PARSER = ("HEADING", "NO_CLAUSES", "_HEADING_RE", "_ITEM_RE", "_NO_CLAUSES_RE",
                 "_WRAPPERS", "ClauseAnswer", "_clean_label", "_unique", "_is_fence",
                 "_list_after", "parse_output")


def _definitions(module: Any, names: Sequence[str]) -> str:
    """The source of the top-level definitions ``names`` of ``module``, in file order."""
    source = inspect.getsource(module)
    wanted, out = set(names), []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            found = {node.name}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found = {t.id for t in targets if isinstance(t, ast.Name)}
        else:
            continue
        if found & wanted:
            start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            out.append("\n".join(source.splitlines()[start - 1:node.end_lineno]))
            wanted -= found
    if wanted:
        raise BuildError(f"{module.__name__} no longer defines {', '.join(sorted(wanted))}")
    return "\n\n\n".join(out)


def _clause_classification_files() -> dict[str, str]:
    from buildds.evaluate.prompts import prompt_source
    from buildds.evaluate.tasks.rikai import classification as rc

    context = {"template": prompt_source("clause_classification"),
               "temperature": rc.TEMPERATURE, "max_tokens": rc.MAX_TOKENS,
               "parser": _definitions(rc, _RIKAI_PARSER)}
    core = _render("rikai_core.py.j2", **context).rstrip("\n") + "\n\n"
    return {"inspect/clause_classification.py": _render("rikai_inspect.py.j2", core=core),
            "lm_eval/utils.py": _render("rikai_lm_eval_utils.py.j2", core=core),
            "lm_eval/clause_classification.yaml": _render("rikai_lm_eval.yaml.j2", **context)}


#: task → the function rendering its files
PEER_TASKS: dict[str, Callable[[], dict[str, str]]] = {
    "jbe": _jbe_files, "appellate-review": _appellate_review_files,
    "clause-classification": _clause_classification_files}


def peer_task_files(task: str) -> dict[str, str]:
    """The peers' task files of ``task`` (path relative to the export → text), sorted by
    path; the same bytes for the same buildds."""
    if task not in PEER_TASKS:
        raise BuildError(f"no peer task files for task {task!r} (have: {', '.join(PEER_TASKS)})")
    return dict(sorted(PEER_TASKS[task]().items()))
