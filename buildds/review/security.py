"""What keeps the review app to the person who started it and to the files it may show.

* **Session token**: ``buildds review`` prints a URL with ``?token=<random>``
  (:func:`new_token`, ``secrets.token_urlsafe``). The first request with it gets an
  ``HttpOnly``, ``SameSite=Strict`` cookie and is redirected to the same URL without the token
  (so it stays out of the history and the Referer); any request with neither → 403
  (:class:`TokenGate`).
* **CSRF**: every form carries :func:`csrf_token` (an HMAC of the session token); a POST
  without it → 403.
* **Files**: :func:`resolve_served` serves a path only when, resolved (symlinks followed), it
  is a regular file inside the output folder or one of the input files the source lists;
  anything else — ``..``, an absolute path elsewhere, a symlink leading out — is None (404).
* Every response gets a strict Content-Security-Policy (scripts and styles from the app
  only), ``nosniff``, ``no-referrer`` and no framing; files from the output folder are served
  sandboxed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

__all__ = ["COOKIE", "HEADERS", "TokenGate", "csrf_token", "new_token", "resolve_served"]

COOKIE = "buildds_review"
HEADERS = {
    "content-security-policy": ("default-src 'none'; img-src 'self'; script-src 'self'; "
                                "style-src 'self'; form-action 'self'; base-uri 'none'; "
                                "frame-ancestors 'none'"),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-store",
}


def new_token() -> str:
    return secrets.token_urlsafe(24)


def csrf_token(token: str) -> str:
    """The CSRF token forms carry: derived from the session token, never equal to it."""
    return hmac.new(token.encode("utf-8"), b"buildds-review-csrf", hashlib.sha256).hexdigest()


def resolve_served(name: str, out: Path, inputs: Iterable[Path]) -> Path | None:
    """The file ``name`` (relative to ``out``, or an input's absolute path) when it may be
    served, else None."""
    if not name or "\x00" in name:
        return None
    root = out.resolve()
    try:
        path = (root / name).resolve()  # an absolute name stays itself
    except (OSError, RuntimeError):  # a symlink loop
        return None
    allowed = {Path(p).resolve() for p in inputs}
    if not (path in allowed or root in path.parents):
        return None
    return path if path.is_file() else None


class TokenGate:
    """ASGI middleware: 403 without the session token (query, then cookie); adds the
    security headers to every response."""

    def __init__(self, app: Any, token: str):
        self.app = app
        self.token = token

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                          keep_blank_values=True)
        given = next((v for k, v in query if k == "token"), None)
        if given is not None and hmac.compare_digest(given.encode(), self.token.encode()):
            rest = urlencode([(k, v) for k, v in query if k != "token"])
            await _send(send, 303, b"", [(b"location", (scope["path"] + ("?" + rest if rest
                                                                          else "")).encode()),
                                         (b"set-cookie", _cookie(self.token))])
            return
        if not hmac.compare_digest(_cookie_value(scope).encode(), self.token.encode()):
            await _send(send, 403, b"403 Forbidden: open the URL with the token that "
                                   b"`buildds review` printed.\n",
                        [(b"content-type", b"text/plain; charset=utf-8")])
            return

        async def with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"],
                                      *((k.encode(), v.encode()) for k, v in HEADERS.items()
                                        if k.encode() not in have)]
            await send(message)

        await self.app(scope, receive, with_headers)


def _cookie(token: str) -> bytes:
    return f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict".encode()


def _cookie_value(scope: dict[str, Any]) -> str:
    for key, value in scope.get("headers", []):
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                name, _, val = part.strip().partition("=")
                if name == COOKIE:
                    return val
    return ""


async def _send(send: Any, status: int, body: bytes, headers: list[tuple[bytes, bytes]]) -> None:
    extra = [(k.encode(), v.encode()) for k, v in HEADERS.items()]
    await send({"type": "http.response.start", "status": status,
                "headers": [*headers, *extra, (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
