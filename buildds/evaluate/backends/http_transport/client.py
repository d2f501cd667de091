"""What the backend needs of an HTTP client: POST a body (:class:`HttpClient`), get a
:class:`Reply`, or a :class:`Failure` for a try that failed; the User-Agent, the response
size limit and the environment's proxy (:func:`env_proxy`)."""

from __future__ import annotations

import urllib.request
from typing import NamedTuple, Protocol
from urllib.parse import urlsplit

from buildds import __version__
from buildds.safeio.limits import LIMITS

__all__ = ["DEFAULT_MAX_RESPONSE_BYTES", "USER_AGENT", "Failure", "HttpClient", "Reply",
           "env_proxy"]

USER_AGENT = f"buildds/{__version__}"
#: bytes of one response, at most (before and after decoding); ``--max-response-bytes``
DEFAULT_MAX_RESPONSE_BYTES = LIMITS["response_bytes"].default


class Failure(Exception):
    """One failed try: why, whether another try may help, the server's Retry-After, and
    whether it is ``fatal`` (the endpoint refuses every request: the run must stop)."""

    def __init__(self, reason: str, *, retry: bool, retry_after: float | None = None,
                 fatal: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.retry = retry
        self.retry_after = retry_after
        self.fatal = fatal


class Reply(NamedTuple):
    """What the backend needs from an HTTP response."""

    status: int
    retry_after: str | None
    body: bytes


class HttpClient(Protocol):
    """POSTs a JSON body; raises :class:`Failure` for timeouts and connection errors."""

    async def post(self, body: bytes) -> Reply: ...

    async def aclose(self) -> None: ...


def env_proxy(url: str) -> str | None:
    """The proxy for ``url`` from ``$HTTPS_PROXY``/``$HTTP_PROXY``/``$NO_PROXY``, if any."""
    parts = urlsplit(url)
    if parts.hostname and urllib.request.proxy_bypass(parts.hostname):
        return None
    return urllib.request.getproxies().get(parts.scheme)
