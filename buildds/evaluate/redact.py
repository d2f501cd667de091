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

A base URL may carry a secret too (``?api-key=…``, ``user:password@host``):
:func:`redact_url` gives the URL that is stored and shown (manifest, metrics, cache,
console) with those values replaced by ``***`` — query parameters whose names look like
keys, tokens, secrets, passwords, signatures or credentials, and the userinfo — while the
requests use the real URL; :func:`url_secrets` gives the values, for a redactor. A URL
without secrets is returned unchanged, character for character (so its cache keys stay).

A value shorter than :data:`MIN_SECRET_CHARS` is not treated as a secret: a placeholder key
for a local server (``EMPTY``, ``x``) guards nothing, and replacing it would rewrite answers
(``1``, ``0``) that happen to contain it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import unquote_plus

from buildds.schema.evaluation import ChatResult

__all__ = ["MIN_SECRET_CHARS", "REDACTED", "Redactor", "redact_url", "url_secrets"]

MIN_SECRET_CHARS = 8
REDACTED = "***"
#: query-parameter names whose values are secrets (``api-key``, ``access_token``,
#: ``X-Amz-Signature``, ``sig``, ``client_secret``, ``password`` …)
_SECRET_PARAM = re.compile(r"key|token|secret|passw|pwd|signature|credential|auth|"
                           r"(?:^|[_.-])sig(?:$|[_.-])", re.IGNORECASE)


def _split_url(url: str) -> tuple[str, str, str, str]:
    """(before the userinfo, the userinfo with its ``@``, host … path ``?``, query with
    the fragment) — pieces that join back to ``url`` exactly."""
    scheme_end = url.find("://")
    start = scheme_end + 3 if scheme_end >= 0 else 0
    rest = url[start:]
    authority_end = min((i for i in (rest.find("/"), rest.find("?"), rest.find("#"))
                         if i >= 0), default=len(rest))
    at = rest.rfind("@", 0, authority_end)
    userinfo = rest[:at + 1] if at >= 0 else ""
    tail = rest[at + 1:]
    q = tail.find("?")
    if q < 0:
        return url[:start], userinfo, tail, ""
    return url[:start], userinfo, tail[:q + 1], tail[q + 1:]


def _secret_params(query: str) -> list[tuple[int, int]]:
    """(start, end) in ``query`` of each value whose parameter name looks secret."""
    spans = []
    pos = 0
    body = query.split("#", 1)[0]
    for part in body.split("&"):
        name, eq, value = part.partition("=")
        if eq and value and _SECRET_PARAM.search(unquote_plus(name)):
            start = pos + len(name) + 1
            spans.append((start, start + len(value)))
        pos += len(part) + 1
    return spans


def url_secrets(url: str) -> list[str]:
    """The secret values in ``url`` (userinfo, secret-looking query values), as written
    and percent-decoded."""
    _, userinfo, _, query = _split_url(url)
    values = [userinfo[:-1]] if userinfo else []
    if userinfo and ":" in userinfo:
        values.append(userinfo[:-1].split(":", 1)[1])
    values += [query[a:b] for a, b in _secret_params(query)]
    return sorted({form for v in values for form in (v, unquote_plus(v)) if form})


def redact_url(url: str) -> str:
    """``url`` with its userinfo and secret-looking query values replaced by ``***``; a
    URL without them comes back unchanged."""
    head, userinfo, middle, query = _split_url(url)
    spans = _secret_params(query)
    if not userinfo and not spans:
        return url
    for a, b in reversed(spans):
        query = query[:a] + REDACTED + query[b:]
    return head + (f"{REDACTED}@" if userinfo else "") + middle + query


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
