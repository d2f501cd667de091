"""The LegalRikai prompt templates (seed 000), verbatim, and a sandboxed renderer.

* ``clause_classification`` — variables ``candidate_labels`` (every label, a list of str)
  and ``text`` (the clause);
* ``clause_revision`` — ``text``, ``ai_alert``, ``guidelines``, ``n_demonstrations`` and
  ``demonstrations`` (dicts/objects with ``ai_alert``, ``guidelines``, ``text``,
  ``reference_revision``).

Templates are rendered in jinja2's ``SandboxedEnvironment`` with ``StrictUndefined`` (a
missing variable is an error, not an empty string), no autoescaping and the trailing newline
kept. :func:`render_prompt_file` renders a user-supplied template the same way, so a template
reaching for ``__class__``/``__subclasses__`` raises :class:`jinja2.sandbox.SecurityError`.

Every task reads its packaged templates (any file of this package) through
:func:`template_text` (read once), :func:`render_template` (compiled once, rendered per
request) and :func:`template_sha256` (for the run manifest).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import StrictUndefined, Template
from jinja2.sandbox import SandboxedEnvironment

from buildds.safeio.hashing import sha256_bytes

__all__ = ["PROMPTS", "packaged_template", "prompt_environment", "prompt_source",
           "render_prompt", "render_prompt_file", "render_template", "template_sha256",
           "template_text"]

#: the packaged templates, by name (file ``<name>.md.j2`` in this package)
PROMPTS = ("clause_classification", "clause_revision")


def prompt_environment(keep_trailing_newline: bool = True) -> SandboxedEnvironment:
    return SandboxedEnvironment(undefined=StrictUndefined, autoescape=False,
                                keep_trailing_newline=keep_trailing_newline)


@cache
def template_text(filename: str) -> str:
    """The text of a file of this package (``jbe_user.j2``, ``highbar_task.md.j2`` …), read
    once per process."""
    return resources.files(__name__).joinpath(filename).read_text(encoding="utf-8")


def template_sha256(filename: str) -> str:
    """sha256 of a packaged template's text (the run manifest's ``templates``)."""
    return sha256_bytes(template_text(filename).encode("utf-8"))


@cache
def packaged_template(filename: str, keep_trailing_newline: bool = True) -> Template:
    """A packaged template compiled once in the sandboxed environment."""
    return prompt_environment(keep_trailing_newline).from_string(template_text(filename))


def render_template(filename: str, **context: Any) -> str:
    """A packaged template file rendered sandboxed (``StrictUndefined``) with ``context``."""
    return packaged_template(filename).render(**context)


def _seed_file(name: str) -> str:
    if name not in PROMPTS:
        raise KeyError(f"unknown prompt {name!r}; known: {', '.join(PROMPTS)}")
    return f"{name}.md.j2"


def prompt_source(name: str) -> str:
    """The text of a packaged template (``clause_classification`` or ``clause_revision``)."""
    return template_text(_seed_file(name))


def render_prompt(name: str, **context: Any) -> str:
    """Render a packaged template with ``context``."""
    return render_template(_seed_file(name), **context)


def render_prompt_file(path: str | Path, **context: Any) -> str:
    """Render a user-supplied template file, sandboxed like the packaged ones."""
    source = Path(path).read_text(encoding="utf-8")
    return prompt_environment().from_string(source).render(**context)
