"""The endpoint: a base URL checked (http(s) with a host) and the chat-completions URL made
from it."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from buildds.errors import BuildError
from buildds.evaluate.redact import redact_url

__all__ = ["DEFAULT_BASE_URL", "check_base_url", "endpoint_url"]

DEFAULT_BASE_URL = "https://api.openai.com/v1"


def check_base_url(url: str) -> str:
    """``url`` without trailing slashes, when it is an http(s) URL with a host; raises
    :class:`BuildError` otherwise (``file:///etc/passwd``, ``localhost:8000``). The message
    shows the URL with its secrets redacted."""
    base = url.rstrip("/")
    try:
        parts = urlsplit(base)
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
        if ok:
            parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        ok = False
    if not ok:
        raise BuildError(f"{redact_url(url)!r} is not an http(s):// URL with a host "
                         "(e.g. http://localhost:8000/v1)")
    return base


def endpoint_url(base_url: str) -> str:
    """``{base_url}/chat/completions``; a query in the base URL (``?api-version=…``) stays
    the query, after the path."""
    parts = urlsplit(base_url)
    if not parts.query:
        return f"{base_url}/chat/completions"
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/chat/completions"))
