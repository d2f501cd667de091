"""Secrets kept out of every stored text.

An ``openai:`` backend reads its API key from an environment variable and sends it as a
Bearer header, nowhere else. A server may still send it back — in an error body, or in a
normal answer ("your header was Bearer sk-…") — and from there it would reach
``samples.jsonl``, the judges' logs, metrics, the cache and the console. A
:class:`Redactor` holds the secret values of a run (the values of the key variables the
backends name) and replaces each with ``***``.

Every text passes a redactor before it is stored or shown:

* :class:`~buildds.evaluate.backends.openai.OpenAIBackend` redacts every result it returns
  (answer and error) and every log line — the one place a text from the network enters;
* :class:`~buildds.evaluate.cache.ResponseCache` redacts what it stores and what it returns
  (so a cache written by an older version cannot bring a key back);
* the runner writes every file (samples, judges' logs, metrics, leaderboard, manifest)
  through the run's redactor.

A value shorter than :data:`MIN_SECRET_CHARS` is not treated as a secret: a placeholder key
for a local server (``EMPTY``, ``x``) guards nothing, and replacing it would rewrite answers
(``1``, ``0``) that happen to contain it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from typing import Any

from buildds.schema.evaluation import ChatResult

__all__ = ["MIN_SECRET_CHARS", "REDACTED", "Redactor"]

MIN_SECRET_CHARS = 8
REDACTED = "***"


class Redactor:
    """Replaces the given secret values (and their JSON-escaped forms) with ``***``."""

    def __init__(self, secrets: Iterable[str | None] = ()):
        forms: set[str] = set()
        for secret in secrets:
            if not secret or len(secret) < MIN_SECRET_CHARS:
                continue
            forms.add(secret)
            forms.add(json.dumps(secret)[1:-1])  # as it reads inside a JSON string
            forms.add(json.dumps(secret, ensure_ascii=False)[1:-1])
        # longest first, so that a secret holding another is replaced whole
        self._forms = tuple(sorted(forms, key=lambda f: (-len(f), f)))

    @classmethod
    def from_env(cls, names: Iterable[str | None]) -> Redactor:
        """The values of the environment variables ``names`` (unset ones are skipped)."""
        return cls(os.environ.get(n) for n in names if n)

    def __bool__(self) -> bool:
        return bool(self._forms)

    def __or__(self, other: Redactor) -> Redactor:
        merged = Redactor()
        merged._forms = tuple(sorted({*self._forms, *other._forms}, key=lambda f: (-len(f), f)))
        return merged

    def text(self, text: str) -> str:
        for form in self._forms:
            if form in text:
                text = text.replace(form, REDACTED)
        return text

    def optional(self, text: str | None) -> str | None:
        return None if text is None else self.text(text)

    def value(self, obj: Any) -> Any:
        """A JSON-like value with every string (keys too) redacted."""
        if not self._forms:
            return obj
        if isinstance(obj, str):
            return self.text(obj)
        if isinstance(obj, Mapping):
            return {self.value(k): self.value(v) for k, v in obj.items()}
        if isinstance(obj, (list, tuple)):
            return [self.value(v) for v in obj]
        return obj

    def result(self, result: ChatResult) -> ChatResult:
        if not self._forms:
            return result
        text, error = self.optional(result.text), self.optional(result.error)
        if text == result.text and error == result.error:
            return result
        return result.model_copy(update={"text": text, "error": error})
