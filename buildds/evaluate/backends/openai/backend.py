"""The OpenAI-compatible chat-completions backend: one request at a time per slot, sent as
:mod:`buildds.evaluate.backends.openai` describes (bounded concurrency, rate limits, retries,
files, redaction), over the HTTP client of the event loop it runs on."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Literal, Self
from urllib.parse import urlsplit

import httpx

from buildds.errors import BuildError
from buildds.evaluate.backends.base import BackendBase, EndpointRefused
from buildds.evaluate.backends.http_transport import (
    DEFAULT_MAX_RESPONSE_BYTES,
    AsyncioClient,
    Failure,
    HttpClient,
    HttpxClient,
    env_proxy,
)
from buildds.evaluate.backends.openai.files import (
    DEFAULT_MAX_FILE_BYTES,
    FileError,
    file_parts,
    sendable,
)
from buildds.evaluate.backends.openai.request import request_body, token_estimate
from buildds.evaluate.backends.openai.response import Answer, parse_reply
from buildds.evaluate.backends.openai.retry import TokenBucket, retry_wait, too_long_to_wait
from buildds.evaluate.backends.openai.urls import DEFAULT_BASE_URL, check_base_url, endpoint_url
from buildds.evaluate.logprob import Position, choice_logprobs
from buildds.evaluate.redact import Redactor, redact_url, url_secrets
from buildds.evaluate.request_defaults import (
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_MAX_RETRY_AFTER_S,
    DEFAULT_TIMEOUT_S,
)
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["HttpClientName", "OpenAIBackend"]

#: the package's logger (one name for every module of the backend)
log = logging.getLogger("buildds.evaluate.backends.openai")

HttpClientName = Literal["asyncio", "httpx"]
#: how long the first try of a backend holds the others back (see ``_first_try``)
PROBE_WAIT_S = 1.0


def _default_client(base_url: str, transport: httpx.AsyncBaseTransport | None) -> HttpClientName:
    """asyncio for plain-http endpoints (local servers), httpx for https, proxies and mocks."""
    if transport is not None or env_proxy(base_url) or urlsplit(base_url).scheme == "https":
        return "httpx"
    return "asyncio"


@dataclass
class _LoopState:
    """What is bound to one event loop: the HTTP client, the concurrency bound, the rate
    limiter's lock, and a task that closes the client when the loop shuts down."""

    loop: asyncio.AbstractEventLoop
    http: HttpClient
    slots: asyncio.Semaphore
    limiter_lock: asyncio.Lock
    #: set when the first try has ended (:meth:`OpenAIBackend._first_try`); None before
    #: the first try starts
    probe: asyncio.Event | None = None
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
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_retry_after_s: float = DEFAULT_MAX_RETRY_AFTER_S,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
        http_client: HttpClientName | None = None,
        send_files: bool = False,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    ):
        if concurrency < 1 or max_attempts < 1:
            raise BuildError("concurrency and max_attempts must be at least 1")
        if max_file_bytes < 1:
            raise BuildError(f"max_file_bytes must be positive, got {max_file_bytes}")
        if timeout_s <= 0 or max_retry_after_s < 0 or max_response_bytes < 1:
            raise BuildError("timeout_s and max_response_bytes must be positive, "
                             "max_retry_after_s at least 0")
        if http_client not in (None, "asyncio", "httpx"):
            raise BuildError(f"http_client must be 'asyncio' or 'httpx', got {http_client!r}")
        if transport is not None and http_client == "asyncio":
            raise BuildError("an httpx transport needs http_client='httpx'")
        self.model = model
        self.name = f"openai:{model}"
        try:
            self.base_url = check_base_url(base_url or DEFAULT_BASE_URL)
        except BuildError as exc:
            raise BuildError(f"backend {self.name}: the base URL {exc.message}") from None
        #: the base URL as stored and shown: secrets in it redacted (the requests use the
        #: real one)
        self.shown_url = redact_url(self.base_url)
        self.api_key_env = api_key_env
        self._api_key = os.environ.get(api_key_env) or None
        self._redactor = Redactor([self._api_key, *url_secrets(self.base_url)])
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
        self.max_retry_after_s = max_retry_after_s
        self.max_response_bytes = max_response_bytes
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.send_files = bool(send_files)
        self.max_file_bytes = max_file_bytes
        #: media types not sent and already logged as such
        self._skipped_types: set[str] = set()
        self._transport = transport
        self.http_client: HttpClientName = http_client or _default_client(self.base_url,
                                                                           transport)
        self._requests_bucket = TokenBucket(rpm, window_s=rate_window_s) if rpm else None
        self._tokens_bucket = TokenBucket(tpm, window_s=rate_window_s) if tpm else None
        self._state: _LoopState | None = None
        self._rng = random.Random()
        #: a try has ended without a fatal status: tries need not wait for the first one
        self._endpoint_answered = False
        #: seconds the other tries wait for the first one to end (:meth:`_first_try`)
        self.probe_wait_s = PROBE_WAIT_S
        #: the fatal failure that refused the first try, once there is one
        self._refusal: Failure | None = None

    # -- what the manifest and the cache see -------------------------------------------

    def settings(self) -> dict[str, Any]:
        files = ({"send_files": True, "max_file_bytes": self.max_file_bytes}
                 if self.send_files else {})
        return {
            "backend": "openai",
            "model": self.model,
            "base_url": self.shown_url,
            "api_key_env": self.api_key_env,
            "concurrency": self.concurrency,
            "rpm": self.rpm,
            "tpm": self.tpm,
            "max_attempts": self.max_attempts,
            "timeout_s": self.timeout_s,
            "max_retry_after_s": self.max_retry_after_s,
            "max_response_bytes": self.max_response_bytes,
            **files,
        }

    @property
    def cache_namespace(self) -> str:
        """The same model name on another server is another model; with ``send_files`` the
        answers (which may have seen the files) are kept apart: ``openai:<model>+files``."""
        name = f"{self.name}+files" if self.send_files else self.name
        if self.base_url == DEFAULT_BASE_URL:
            return name
        return f"{name}@{self.shown_url}"

    def __repr__(self) -> str:
        return f"OpenAIBackend(model={self.model!r}, base_url={self.shown_url!r})"

    @property
    def redactor(self) -> Redactor:
        """Replaces this backend's API key in a text (see :mod:`buildds.evaluate.redact`)."""
        return self._redactor

    def _redact(self, text: str) -> str:
        return self._redactor.text(text)

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
        url = endpoint_url(self.base_url)
        if self.http_client == "httpx":
            return HttpxClient(url, headers, self.timeout_s, self.concurrency, self._transport,
                               self.max_response_bytes)
        return AsyncioClient(url, headers, self.timeout_s, self.max_response_bytes)

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

    def _payload(self, request: ChatRequest, files: list[dict[str, Any]] | None = None) -> bytes:
        """The request body (:func:`~.request.request_body`)."""
        return request_body(self.model, request, files)

    def _log_skipped(self, request: ChatRequest) -> None:
        """Says once per media type that such attachments are left out."""
        for a in request.attachments:
            if not sendable(a) and a.media_type not in self._skipped_types:
                self._skipped_types.add(a.media_type)
                log.info("%s: attachments of type %s are not sent (Chat Completions takes "
                         "PDF and PNG/JPEG/GIF/WebP); their text is in the prompt",
                         self.name, a.media_type)

    async def _body(self, request: ChatRequest) -> bytes:
        """The body; with ``send_files`` the files are read, checked and encoded off the
        event loop. Raises :class:`FileError`."""
        if not self.send_files or not request.attachments:
            return self._payload(request)
        self._log_skipped(request)
        if not any(sendable(a) for a in request.attachments):
            return self._payload(request)
        attachments, limit = request.attachments, self.max_file_bytes
        return await asyncio.to_thread(
            lambda: self._payload(request, file_parts(attachments, limit)))

    async def _wait_for_rate(self, state: _LoopState, request: ChatRequest) -> None:
        if self._requests_bucket is None and self._tokens_bucket is None:
            return
        tokens = token_estimate(request)
        # the lock makes waiters queue in order instead of racing for each refill
        async with state.limiter_lock:
            for bucket, cost in ((self._requests_bucket, 1.0), (self._tokens_bucket, tokens)):
                if bucket is None:
                    continue
                while (wait := bucket.wait_time(cost)) > 0:
                    await asyncio.sleep(wait)

    async def _attempt(self, http: HttpClient, body: bytes) -> Answer:
        """One try: the answer (or a missing-content error), else :class:`Failure`."""
        return parse_reply(await http.post(body), self._redact)

    @contextlib.asynccontextmanager
    async def _first_try(self, state: _LoopState) -> AsyncIterator[None]:
        """Until one try has ended without a fatal status, the others wait for it (up to
        :attr:`probe_wait_s`, so a first request that stalls holds nobody for long): an
        endpoint refusing every request (401/403/404) is told by one request, not by
        ``concurrency`` of them. Then tries run freely."""
        if self._endpoint_answered:
            yield
            return
        if state.probe is None:  # this try is the probe
            state.probe = asyncio.Event()
            try:
                yield
            except Failure as exc:
                if exc.fatal:
                    self._refusal = exc
                self._endpoint_answered = not exc.fatal
                raise
            else:
                self._endpoint_answered = True
            finally:
                state.probe.set()
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.probe_wait_s):
                await state.probe.wait()
        if self._refusal is not None:  # refused meanwhile: this try is not sent
            raise self._refusal
        yield

    def _refused(self, failure: Failure) -> EndpointRefused:
        """The error that stops the run: the backend, its endpoint and what to check."""
        if failure.reason.startswith("http 404"):
            hint = f"check the model name ({self.model!r}) and the base URL"
        elif self._api_key is None:
            hint = f"${self.api_key_env} is not set"
        else:
            hint = f"check the API key in ${self.api_key_env}"
        return EndpointRefused(
            f"{self.name} at {self.shown_url}: {self._redact(failure.reason)} — {hint}. "
            "The run is stopped: every request would fail alike")

    async def complete(self, request: ChatRequest) -> ChatResult:
        """One request, retried as :mod:`buildds.evaluate.backends.openai` says; the result
        holds no API key."""
        return self._redactor.result(await self._complete(request))

    async def _complete(self, request: ChatRequest) -> ChatResult:
        state = self._loop_state()
        started = time.monotonic()
        failure: Failure | None = None
        attempt = 0
        async with state.slots:
            # inside the bound, so at most ``concurrency`` bodies with files are in memory
            try:
                body = await self._body(request)
            except FileError as exc:
                return ChatResult(text=None, error=str(exc), attempts=0,
                                  latency_s=time.monotonic() - started)
            for attempt in range(1, self.max_attempts + 1):
                await self._wait_for_rate(state, request)
                try:
                    async with self._first_try(state):
                        result = await self._attempt(state.http, body)
                except Failure as exc:
                    if exc.fatal:
                        raise self._refused(exc) from None
                    failure = exc
                    if not exc.retry or attempt == self.max_attempts:
                        break
                    if (final := too_long_to_wait(exc, self.max_retry_after_s)) is not None:
                        failure = final
                        break
                    wait = retry_wait(exc, attempt, self.backoff_base_s, self.backoff_max_s,
                                      self._rng)
                    log.debug("%s: %s, attempt %d/%d, retrying in %.2fs", self.name,
                              self._redact(exc.reason), attempt, self.max_attempts, wait)
                    await asyncio.sleep(wait)
                    continue
                return ChatResult(
                    text=result.text,
                    error=result.error,
                    usage=result.usage,
                    attempts=attempt,
                    latency_s=time.monotonic() - started,
                    choice_logprobs=_choice_logprobs(request, result.positions),
                )
        assert failure is not None
        reason = failure.reason
        if failure.retry and attempt > 1:
            reason += f" (gave up after {attempt} tries)"
        return ChatResult(text=None, error=self._redact(reason), attempts=attempt,
                          latency_s=time.monotonic() - started)


def _choice_logprobs(request: ChatRequest, positions: list[Position] | None
                     ) -> dict[str, float | None] | None:
    """``--scoring logprob``: each allowed answer's log-probability along the reply's
    output tokens (:mod:`buildds.evaluate.logprob`); None when not asked or not given."""
    if not request.choices or positions is None:
        return None
    return choice_logprobs(positions, request.choices)
