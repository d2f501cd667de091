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
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import StrictUndefined
from jinja2.sandbox import SandboxedEnvironment

__all__ = ["PROMPTS", "prompt_environment", "prompt_source", "render_prompt",
           "render_prompt_file"]

#: the packaged templates, by name (file ``<name>.md.j2`` in this package)
PROMPTS = ("clause_classification", "clause_revision")


def prompt_environment() -> SandboxedEnvironment:
    return SandboxedEnvironment(undefined=StrictUndefined, autoescape=False,
                                keep_trailing_newline=True)


def prompt_source(name: str) -> str:
    """The text of a packaged template (``clause_classification`` or ``clause_revision``)."""
    if name not in PROMPTS:
        raise KeyError(f"unknown prompt {name!r}; known: {', '.join(PROMPTS)}")
    return resources.files(__name__).joinpath(f"{name}.md.j2").read_text(encoding="utf-8")


def render_prompt(name: str, **context: Any) -> str:
    """Render a packaged template with ``context``."""
    return prompt_environment().from_string(prompt_source(name)).render(**context)


def render_prompt_file(path: str | Path, **context: Any) -> str:
    """Render a user-supplied template file, sandboxed like the packaged ones."""
    source = Path(path).read_text(encoding="utf-8")
    return prompt_environment().from_string(source).render(**context)
