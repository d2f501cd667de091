"""An OpenAI-compatible chat-completions backend (OpenAI, vLLM, llama.cpp, LiteLLM …).

* the API key comes from an environment variable (``$OPENAI_API_KEY`` unless
  ``api_key_env`` names another); it is sent as a Bearer header and nowhere else — not in
  logs, :meth:`OpenAIBackend.settings`, error texts or cache keys;
* at most ``concurrency`` requests in flight (default 32);
* optional requests-per-minute and tokens-per-minute limits (token buckets; a request's
  tokens are estimated as prompt characters / 2 + ``max_tokens``);
* retries with exponential backoff and jitter on 429, 500, 502, 503, 504, connection
  errors and timeouts, honouring ``Retry-After`` (seconds or an HTTP date) on 429/503, up
  to ``max_attempts`` tries (default 6); each try is abandoned after ``timeout_s``;
* every failure ends up in ``ChatResult.error`` — a run never stops for one sample.

HTTP: the backend sends one kind of request (a JSON POST to one URL), so it speaks
HTTP/1.1 itself on asyncio (:class:`AsyncioClient`: keep-alive connections, Content-Length
or chunked bodies, TLS): per request it costs about an eighth of httpx's client CPU and under
half of aiohttp's, and client CPU is what bounds throughput at high concurrency against a
fast server (benchmarks/bench_eval_throughput.py). httpx is used instead when a proxy is set in
the environment (``$HTTPS_PROXY`` …), when ``http_client="httpx"``, or when an httpx
``transport`` is given (e.g. a mock).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import time
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Self
from urllib.parse import urlsplit

import httpx

from buildds.errors import BuildError
from buildds.evaluate.backends.base import BackendBase
from buildds.evaluate.backends.http_transport import (
    AsyncioClient,
    Failure,
    HttpClient,
    HttpxClient,
    env_proxy,
)
from buildds.httputil import parse_retry_after
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = [
    "DEFAULT_BASE_URL", "HttpClientName", "OpenAIBackend", "TokenBucket", "parse_retry_after",
]

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
RETRY_AFTER_STATUSES = frozenset({429, 503})
#: never wait longer than this for one Retry-After
MAX_RETRY_AFTER_S = 300.0
HttpClientName = Literal["asyncio", "httpx"]


def _default_client(base_url: str, transport: httpx.AsyncBaseTransport | None) -> HttpClientName:
    """asyncio for plain-http endpoints (local servers), httpx for https, proxies and mocks."""
    if transport is not None or env_proxy(base_url) or urlsplit(base_url).scheme == "https":
        return "httpx"
    return "asyncio"


class TokenBucket:
    """Allows ``rate_per_min`` units a minute, in bursts of at most ``capacity``.

    ``capacity`` defaults to one minute's worth (how API quotas are counted); a smaller
    ``window_s`` gives a smoother limit: at most ``rate * window_s / 60`` units per window.
    A cost larger than the capacity waits for a full bucket instead of forever.
    """

    def __init__(self, rate_per_min: float, *, window_s: float = 60.0):
        if rate_per_min <= 0:
            raise BuildError(f"rate limit must be positive, got {rate_per_min}")
        self.rate_per_s = rate_per_min / 60.0
        self.capacity = max(1.0, rate_per_min * window_s / 60.0)
        self.level = self.capacity
        self.updated = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.level = min(self.capacity, self.level + (now - self.updated) * self.rate_per_s)
        self.updated = now

    def wait_time(self, cost: float) -> float:
        """Seconds until ``cost`` can be taken (0 = now); takes it when it returns 0."""
        cost = min(cost, self.capacity)
        self._refill()
        if self.level >= cost:
            self.level -= cost
            return 0.0
        return (cost - self.level) / self.rate_per_s


class _Answer(NamedTuple):
    """What one successful exchange says: the text, or why there is none."""

    text: str | None
    error: str | None
    usage: dict[str, int]


@dataclass
class _LoopState:
    """What is bound to one event loop: the HTTP client, the concurrency bound, the rate
    limiter's lock, and a task that closes the client when the loop shuts down."""

    loop: asyncio.AbstractEventLoop
    http: HttpClient
    slots: asyncio.Semaphore
    limiter_lock: asyncio.Lock
    closer: asyncio.Task[None] | None = None


async def _close_at_shutdown(http: HttpClient) -> None:
    """Waits forever; ``asyncio.run`` cancels it on the way out, which closes ``http``
    while its loop still runs (a runner that reuses the backend never calls aclose)."""
    try:
        await asyncio.Event().wait()
    finally:
        await http.aclose()


class OpenAIBackend(BackendBase):
    """Chat completions against ``{base_url}/chat/completions``."""

    cacheable = True

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        concurrency: int = 32,
        rpm: float | None = None,
        tpm: float | None = None,
        rate_window_s: float = 60.0,
        max_attempts: int = 6,
        timeout_s: float = 120.0,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
        http_client: HttpClientName | None = None,
    ):
        if concurrency < 1 or max_attempts < 1:
            raise BuildError("concurrency and max_attempts must be at least 1")
        if http_client not in (None, "asyncio", "httpx"):
            raise BuildError(f"http_client must be 'asyncio' or 'httpx', got {http_client!r}")
        if transport is not None and http_client == "asyncio":
            raise BuildError("an httpx transport needs http_client='httpx'")
        self.model = model
        self.name = f"openai:{model}"
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        if urlsplit(self.base_url).scheme not in ("http", "https"):
            raise BuildError(f"backend {self.name}: the base URL must start with http(s)://")
        self.api_key_env = api_key_env
        self._api_key = os.environ.get(api_key_env) or None
        if self._api_key and any(c in self._api_key for c in "\r\n\0"):
            raise BuildError(f"backend {self.name}: ${api_key_env} contains a line break")
        if self._api_key is None and self.base_url == DEFAULT_BASE_URL:
            raise BuildError(
                f"backend {self.name}: set ${api_key_env} to your API key "
                "(or give --base-url for a local server that needs none)"
            )
        self.concurrency = concurrency
        self.rpm = rpm
        self.tpm = tpm
        self.rate_window_s = rate_window_s
        self.max_attempts = max_attempts
        self.timeout_s = timeout_s
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self._transport = transport
        self.http_client: HttpClientName = http_client or _default_client(self.base_url,
                                                                           transport)
        self._requests_bucket = TokenBucket(rpm, window_s=rate_window_s) if rpm else None
        self._tokens_bucket = TokenBucket(tpm, window_s=rate_window_s) if tpm else None
        self._state: _LoopState | None = None
        self._rng = random.Random()

    # -- what the manifest and the cache see -------------------------------------------

    def settings(self) -> dict[str, Any]:
        return {
            "backend": "openai",
            "model": self.model,
            "base_url": self.base_url,
            "api_key_env": self.api_key_env,
            "concurrency": self.concurrency,
            "rpm": self.rpm,
            "tpm": self.tpm,
            "max_attempts": self.max_attempts,
            "timeout_s": self.timeout_s,
        }

    @property
    def cache_namespace(self) -> str:
        """The same model name on another server is another model."""
        if self.base_url == DEFAULT_BASE_URL:
            return self.name
        return f"{self.name}@{self.base_url}"

    def __repr__(self) -> str:
        return f"OpenAIBackend(model={self.model!r}, base_url={self.base_url!r})"

    def _redact(self, text: str) -> str:
        if self._api_key:
            text = text.replace(self._api_key, "***")
        return text

    # -- per-loop state ------------------------------------------------------------------

    def _loop_state(self) -> _LoopState:
        loop = asyncio.get_running_loop()
        if self._state is None or self._state.loop is not loop:
            # HTTP clients belong to one event loop; a new asyncio.run() gets new ones
            http = self._make_http_client()
            slots = asyncio.Semaphore(self.concurrency)
            self._state = _LoopState(loop, http, slots, asyncio.Lock())
            self._state.closer = loop.create_task(_close_at_shutdown(http))
        return self._state

    def _make_http_client(self) -> HttpClient:
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        url = f"{self.base_url}/chat/completions"
        if self.http_client == "httpx":
            return HttpxClient(url, headers, self.timeout_s, self.concurrency, self._transport)
        return AsyncioClient(url, headers, self.timeout_s)

    async def aclose(self) -> None:
        state, self._state = self._state, None
        if state is not None and state.loop is asyncio.get_running_loop():
            if state.closer is not None:
                state.closer.cancel()
                await asyncio.gather(state.closer, return_exceptions=True)
            else:  # pragma: no cover - the closer is made with the state
                await state.http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- the request ---------------------------------------------------------------------

    def _payload(self, request: ChatRequest) -> bytes:
        """The request body, encoded once for all tries."""
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        }
        if request.temperature is not None:
            payload["temperature"] = request.temperature
        if request.max_tokens is not None:
            payload["max_tokens"] = request.max_tokens
        payload.update(request.extra)
        return json.dumps(payload, ensure_ascii=False).encode()

    def _token_estimate(self, request: ChatRequest) -> float:
        chars = sum(len(m.content) for m in request.messages)
        return chars / 2 + (request.max_tokens or 0)

    async def _wait_for_rate(self, state: _LoopState, request: ChatRequest) -> None:
        if self._requests_bucket is None and self._tokens_bucket is None:
            return
        tokens = self._token_estimate(request)
        # the lock makes waiters queue in order instead of racing for each refill
        async with state.limiter_lock:
            for bucket, cost in ((self._requests_bucket, 1.0), (self._tokens_bucket, tokens)):
                if bucket is None:
                    continue
                while (wait := bucket.wait_time(cost)) > 0:
                    await asyncio.sleep(wait)

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with equal jitter: attempt 1 → ~base, 2 → ~2·base …"""
        ceiling = min(self.backoff_max_s, self.backoff_base_s * 2 ** (attempt - 1))
        return ceiling / 2 + self._rng.uniform(0, ceiling / 2)

    async def _attempt(self, http: HttpClient, body: bytes) -> _Answer:
        """One try: the answer (or a missing-content error), else :class:`Failure`."""
        reply = await http.post(body)
        status = reply.status
        if status != 200:
            retry_after = None
            if status in RETRY_AFTER_STATUSES:
                retry_after = parse_retry_after(reply.retry_after)
            reason = "rate limited" if status == 429 else f"http {status}"
            if status not in RETRY_STATUSES:
                reason += f": {_snippet(reply.body)}"
            raise Failure(reason, retry=status in RETRY_STATUSES, retry_after=retry_after)
        try:
            data = json.loads(reply.body)
            text = data["choices"][0]["message"].get("content")
            usage = {k: v for k, v in (data.get("usage") or {}).items() if isinstance(v, int)}
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise Failure(f"bad response: {_snippet(reply.body)}", retry=False)
        if text is None:
            return _Answer(None, "no content in response", usage)
        return _Answer(text, None, usage)

    def _retry_wait(self, failure: Failure, attempt: int) -> float:
        """Seconds before the next try: the server's Retry-After, else backoff."""
        if failure.retry_after is not None:
            return min(MAX_RETRY_AFTER_S, failure.retry_after) + self._rng.uniform(0, 0.1)
        return self._backoff(attempt)

    async def complete(self, request: ChatRequest) -> ChatResult:
        state = self._loop_state()
        body = self._payload(request)
        started = time.monotonic()
        failure: Failure | None = None
        attempt = 0
        async with state.slots:
            for attempt in range(1, self.max_attempts + 1):
                await self._wait_for_rate(state, request)
                try:
                    result = await self._attempt(state.http, body)
                except Failure as exc:
                    failure = exc
                    if not exc.retry or attempt == self.max_attempts:
                        break
                    wait = self._retry_wait(exc, attempt)
                    log.debug(
                        "%s: %s, attempt %d/%d, retrying in %.2fs",
                        self.name, exc.reason, attempt, self.max_attempts, wait,
                    )
                    await asyncio.sleep(wait)
                    continue
                return ChatResult(
                    text=result.text,
                    error=result.error,
                    usage=result.usage,
                    attempts=attempt,
                    latency_s=time.monotonic() - started,
                )
        assert failure is not None
        reason = failure.reason
        if failure.retry and attempt > 1:
            reason += f" (gave up after {attempt} tries)"
        return ChatResult(
            text=None,
            error=self._redact(reason),
            attempts=attempt,
            latency_s=time.monotonic() - started,
        )


def _snippet(body: bytes) -> str:
    """The start of a response body, for an error message."""
    return body[:800].decode("utf-8", "replace")[:200]
