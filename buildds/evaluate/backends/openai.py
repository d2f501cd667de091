"""An OpenAI-compatible chat-completions backend (OpenAI, vLLM, llama.cpp, LiteLLM …).

* the API key comes from an environment variable (``$OPENAI_API_KEY`` unless
  ``api_key_env`` names another); it is sent as a Bearer header and nowhere else — not in
  logs, :meth:`OpenAIBackend.settings`, error texts or cache keys; a server that echoes it
  back (in an error or in an answer) finds it replaced by ``***`` in every result
  (:mod:`buildds.evaluate.redact`); a secret in the base URL (``?api-key=…``, userinfo)
  is redacted wherever the URL is stored or shown (settings, cache namespace, manifest),
  the requests going to the real URL;
* at most ``concurrency`` requests in flight (default 32);
* optional requests-per-minute and tokens-per-minute limits (token buckets; a request's
  tokens are estimated as prompt characters / 2 + ``max_tokens``);
* retries with exponential backoff and jitter on 429, 500, 502, 503, 504, connection
  errors and timeouts, honouring ``Retry-After`` (seconds or an HTTP date) on 429/503, up
  to ``max_attempts`` tries (default 6); each try as a whole (connecting, sending, reading)
  is abandoned after ``timeout_s`` (default 120 s); a ``Retry-After`` longer than
  ``max_retry_after_s`` (default 60 s) is not waited for: the sample fails at once with an
  error saying so (waiting the cap instead would only be refused again);
* at most ``max_response_bytes`` (default 16 MiB) read of one response, raw or decoded; a
  longer one is a per-sample error naming ``--max-response-bytes``;
* every failure ends up in ``ChatResult.error`` — a run never stops for one sample;
* ``send_files=True`` (``buildds eval --send-files``) also sends a request's original files
  (``ChatRequest.attachments``), see below. Off by default: most OpenAI-compatible servers
  reject content parts they do not know.

Files (``send_files``). The attachments the Chat Completions API takes as input are added to
the last user message, whose content becomes a list — the text part first, then one part per
file in attachment order::

    {"type": "text", "text": "<the prompt>"}
    {"type": "file", "file": {"filename": "<name>",
                              "file_data": "data:application/pdf;base64,<bytes>"}}
    {"type": "image_url", "image_url": {"url": "data:image/png;base64,<bytes>"}}

PDF (``application/pdf``) goes as a ``file`` part: "Chat Completions accepts only PDF files
as file content parts", as base64 ``file_data`` (a data URL) with a ``filename``
(https://developers.openai.com/api/docs/guides/file-inputs). PNG, JPEG, GIF and WebP go as
``image_url`` parts holding a base64 data URL (the Chat Completions API takes images as
input: https://developers.openai.com/api/docs/guides/images-vision; the part shape is the
one OpenAI-compatible servers document too, e.g. DeepSeek, OpenRouter). Other types (.docx,
.odt, .tiff, .txt, .md …) are not sent — their text is already in the prompt — and the
backend logs once per media type that it leaves them out; which files a request carried
follows from its attachments' media types, so results get no extra field. A request with
nothing sendable is sent exactly as without ``send_files``.

The bytes are read from ``Attachment.path`` when the request is sent and checked against
``Attachment.sha256``; a missing file, a hash mismatch, or files over ``max_file_bytes``
together (default 32 MiB of raw bytes per request; base64 adds a third on the wire, so
lower it for a server with a smaller body limit) make a per-sample error naming the file,
and nothing is sent (``attempts`` 0). The cache keeps answers given with files apart from those given without: with
``send_files`` the backend's :attr:`~OpenAIBackend.cache_namespace` gains ``+files`` (the
request's attachments — name, hash, media type — are in the key already). The tokens-per-
minute estimate counts the text only.

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
import base64
import hashlib
import json
import logging
import os
import random
import time
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, Self
from urllib.parse import urlsplit, urlunsplit

import httpx

from buildds.errors import BuildError, ExtractError
from buildds.evaluate.backends.base import BackendBase
from buildds.evaluate.backends.http_transport import (
    DEFAULT_MAX_RESPONSE_BYTES,
    AsyncioClient,
    Failure,
    HttpClient,
    HttpxClient,
    env_proxy,
)
from buildds.evaluate.redact import Redactor, redact_url, url_secrets
from buildds.evaluate.request_defaults import (
    DEFAULT_MAX_ATTEMPTS,
    DEFAULT_MAX_RETRY_AFTER_S,
    DEFAULT_TIMEOUT_S,
)
from buildds.httputil import parse_retry_after
from buildds.safeio import open_regular
from buildds.schema.evaluation import Attachment, ChatRequest, ChatResult

__all__ = [
    "DEFAULT_BASE_URL", "DEFAULT_MAX_ATTEMPTS", "DEFAULT_MAX_FILE_BYTES",
    "DEFAULT_MAX_RESPONSE_BYTES", "DEFAULT_MAX_RETRY_AFTER_S", "DEFAULT_TIMEOUT_S",
    "FILE_MEDIA_TYPES", "IMAGE_MEDIA_TYPES", "FileError", "HttpClientName", "OpenAIBackend",
    "TokenBucket", "check_base_url", "endpoint_url", "file_parts", "parse_retry_after",
]

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
RETRY_AFTER_STATUSES = frozenset({429, 503})
HttpClientName = Literal["asyncio", "httpx"]
#: attachments sent as ``{"type": "file"}`` parts (Chat Completions: PDF only)
FILE_MEDIA_TYPES = frozenset({"application/pdf"})
#: attachments sent as ``{"type": "image_url"}`` parts
IMAGE_MEDIA_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
#: raw bytes of the files of one request, at most
DEFAULT_MAX_FILE_BYTES = 32 * 1024 * 1024


class FileError(Exception):
    """An attachment that cannot be sent; its message is the per-sample error."""


def _sendable(attachment: Attachment) -> bool:
    return attachment.media_type in FILE_MEDIA_TYPES or attachment.media_type in IMAGE_MEDIA_TYPES


def _read_attachment(attachment: Attachment, budget: int) -> bytes:
    """The attachment's bytes, checked against its sha256 and the remaining ``budget``."""
    where = f"attachment {attachment.name!r}"
    if not attachment.path:
        raise FileError(f"{where}: no path to read it from")
    try:
        with open_regular(attachment.path) as fh:  # no FIFO, device or vanished file
            size = os.fstat(fh.fileno()).st_size
            if size > budget:
                raise FileError(f"{where}: {size} bytes, over what is left of the "
                                f"per-request file limit ({budget} bytes; max_file_bytes)")
            data = fh.read(budget + 1)
    except ExtractError as exc:
        raise FileError(f"{where}: cannot read the file ({exc.message})") from exc
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise FileError(f"{where}: cannot read the file ({reason})") from exc
    if len(data) > budget:  # grew since fstat
        raise FileError(f"{where}: over the per-request file limit ({budget} bytes left)")
    if hashlib.sha256(data).hexdigest() != attachment.sha256.lower():
        raise FileError(f"{where}: the file does not match its sha256 (changed since the "
                        "task set was loaded?); not sent")
    return data


def file_parts(attachments: tuple[Attachment, ...],
               max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> list[dict[str, Any]]:
    """The content parts of the sendable ``attachments`` (see the module doc), in order;
    raises :class:`FileError` for a missing or changed file or when they are too big."""
    parts: list[dict[str, Any]] = []
    budget = max_bytes
    for attachment in attachments:
        if not _sendable(attachment):
            continue
        data = _read_attachment(attachment, budget)
        budget -= len(data)
        url = f"data:{attachment.media_type};base64,{base64.b64encode(data).decode('ascii')}"
        if attachment.media_type in FILE_MEDIA_TYPES:
            parts.append({"type": "file", "file": {"filename": attachment.name,
                                                   "file_data": url}})
        else:
            parts.append({"type": "image_url", "image_url": {"url": url}})
    return parts


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
        """The request body, encoded once for all tries; ``files`` (content parts) go after
        the text of the last user message."""
        messages: list[dict[str, Any]] = [{"role": m.role, "content": m.content}
                                          for m in request.messages]
        if files:
            last = next((m for m in reversed(messages) if m["role"] == "user"), None)
            if last is None:
                raise FileError("no user message to attach the files to")
            last["content"] = [{"type": "text", "text": last["content"]}, *files]
        payload: dict[str, Any] = {"model": self.model, "messages": messages}
        if request.temperature is not None:
            payload["temperature"] = request.temperature
        if request.max_tokens is not None:
            payload["max_tokens"] = request.max_tokens
        payload.update(request.extra)
        return json.dumps(payload, ensure_ascii=False).encode()

    def _log_skipped(self, request: ChatRequest) -> None:
        """Says once per media type that such attachments are left out."""
        for a in request.attachments:
            if not _sendable(a) and a.media_type not in self._skipped_types:
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
        if not any(_sendable(a) for a in request.attachments):
            return self._payload(request)
        attachments, limit = request.attachments, self.max_file_bytes
        return await asyncio.to_thread(
            lambda: self._payload(request, file_parts(attachments, limit)))

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
                reason += f": {self._snippet(reply.body)}"
            raise Failure(reason, retry=status in RETRY_STATUSES, retry_after=retry_after)
        try:
            data = json.loads(reply.body)
            text = data["choices"][0]["message"].get("content")
            usage = {k: v for k, v in (data.get("usage") or {}).items() if isinstance(v, int)}
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            raise Failure(f"bad response: {self._snippet(reply.body)}", retry=False)
        if text is None:
            return _Answer(None, "no content in response", usage)
        return _Answer(text, None, usage)

    def _retry_wait(self, failure: Failure, attempt: int) -> float:
        """Seconds before the next try: the server's Retry-After, else backoff."""
        if failure.retry_after is not None:
            return failure.retry_after + self._rng.uniform(0, 0.1)
        return self._backoff(attempt)

    def _too_long_to_wait(self, failure: Failure) -> Failure | None:
        """A final failure when the server asks to wait longer than ``max_retry_after_s``."""
        if failure.retry_after is None or failure.retry_after <= self.max_retry_after_s:
            return None
        return Failure(f"{failure.reason}: the server asked to retry after "
                       f"{failure.retry_after:g} s, longer than the limit of "
                       f"{self.max_retry_after_s:g} s (raise it with --max-retry-after); "
                       "not retried", retry=False)

    async def complete(self, request: ChatRequest) -> ChatResult:
        """One request, retried as the module doc says; the result holds no API key."""
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
                    result = await self._attempt(state.http, body)
                except Failure as exc:
                    failure = exc
                    if not exc.retry or attempt == self.max_attempts:
                        break
                    if (final := self._too_long_to_wait(exc)) is not None:
                        failure = final
                        break
                    wait = self._retry_wait(exc, attempt)
                    log.debug(
                        "%s: %s, attempt %d/%d, retrying in %.2fs",
                        self.name, self._redact(exc.reason), attempt, self.max_attempts, wait,
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

    def _snippet(self, body: bytes) -> str:
        """The start of a response body, for an error message (redacted before it is cut, so
        that no part of a key survives the cut)."""
        return self._redact(body[:4096].decode("utf-8", "replace"))[:200]
