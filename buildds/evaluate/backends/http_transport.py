"""The HTTP transports of the OpenAI-compatible backend: one JSON POST to one URL, many times.

* :class:`AsyncioClient` — HTTP/1.1 spoken on asyncio directly: keep-alive connections (one
  request at a time each, at most ``concurrency``), Content-Length, chunked and
  read-until-close bodies, gzip/deflate, interim 1xx responses skipped, TLS for https, a
  request retried once at once when the server had closed a kept-alive connection. Per request
  it costs about an eighth of httpx's client CPU (0.25 ms vs 2 ms here), which is what bounds
  throughput at high concurrency against a fast local server such as vLLM
  (``benchmarks/bench_eval_throughput.py``).
* :class:`HttpxClient` — httpx, one single-connection client per slot. The backend uses it for
  https endpoints (remote APIs, where rate limits bound throughput and httpx's maturity with
  TLS, proxies and odd servers matters more than client CPU), when a proxy is configured, or
  when asked to.

Both raise :class:`Failure` for timeouts and connection errors (the backend retries those) and
return a :class:`Reply` otherwise. Both bound each try as a whole by ``timeout_s`` (connecting,
sending and reading: a server that trickles bytes cannot hold a try open) and read at most
``max_response_bytes`` of a response, counted before and after gzip/deflate decoding: a
longer Content-Length is refused before the body is read, a longer body as soon as it passes
the limit (:class:`Failure`, not retried, naming ``--max-response-bytes``).
"""

from __future__ import annotations

import asyncio
import ssl
import urllib.request
import zlib
from typing import NamedTuple, Protocol
from urllib.parse import urlsplit

import httpx

from buildds import __version__
from buildds.errors import BuildError
from buildds.safeio.limits import LIMITS

__all__ = [
    "USER_AGENT",
    "AsyncioClient",
    "Failure",
    "HttpClient",
    "HttpxClient",
    "ProtocolError",
    "Reply",
    "ResponseReader",
    "ResponseTooLarge",
    "decode_body",
    "env_proxy",
]

USER_AGENT = f"buildds/{__version__}"
#: bytes of one response, at most (before and after decoding); ``--max-response-bytes``
DEFAULT_MAX_RESPONSE_BYTES = LIMITS["response_bytes"].default
#: bytes of a response head (status line and headers) or of its trailers, at most
_MAX_HEAD = 65536
#: bytes of one chunk-size line (the size and any extensions), at most
_MAX_LINE = 4096


class Failure(Exception):
    """One failed try: why, whether another try may help, and the server's Retry-After."""

    def __init__(self, reason: str, *, retry: bool, retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.retry = retry
        self.retry_after = retry_after


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


class ProtocolError(Exception):
    """The server's answer is not HTTP/1.1 as we read it."""


class ResponseTooLarge(Exception):
    """A response longer than the limit; its message is the per-sample error."""

    def __init__(self, limit: int):
        self.limit = limit
        super().__init__(f"response larger than the limit of {limit:,} bytes (raise it with "
                         f"{LIMITS['response_bytes'].option})")


def decode_body(body: bytes, encoding: str, max_bytes: int | None = None) -> bytes:
    """``body`` decoded from its Content-Encoding (identity, gzip or deflate), producing at
    most ``max_bytes`` (:class:`ResponseTooLarge` past it: a small gzip bomb stays small)."""
    encoding = encoding.strip().lower()
    if encoding in ("identity", ""):
        out = body
    elif encoding in ("gzip", "x-gzip", "deflate"):
        out = b""
        for wbits in (47, -15):  # a zlib or gzip header; else raw deflate (as some send it)
            decoder = zlib.decompressobj(wbits)
            try:
                out = decoder.decompress(body, 0 if max_bytes is None else max_bytes + 1)
            except zlib.error:
                continue
            if decoder.eof or (max_bytes is not None and len(out) > max_bytes):
                break
        else:
            raise ProtocolError(f"bad {encoding} body")
    else:
        raise ProtocolError(f"unsupported Content-Encoding {encoding!r}")
    if max_bytes is not None and len(out) > max_bytes:
        raise ResponseTooLarge(max_bytes)
    return out


class ResponseReader:
    """An incremental HTTP/1.1 response parser: :meth:`feed` bytes until it returns the reply.

    Bodies by Content-Length, chunked, or up to the end of the connection (:meth:`eof`);
    gzip/deflate bodies are decoded (none are asked for); 1xx interim responses are skipped.
    A body (raw or decoded) longer than ``max_body`` raises :class:`ResponseTooLarge` as soon
    as that is known.
    """

    def __init__(self, max_body: int | None = None) -> None:
        self.max_body = max_body
        self._chunk_bytes = 0
        self.buffer = bytearray()
        self.started = False
        self.status = 0
        self.headers: dict[str, str] = {}
        self.keep_alive = True
        self._length: int | None = None  # None: chunked or up to the end of the connection
        self._chunked = False
        self._chunks: list[bytes] = []
        self._in_body = False

    def feed(self, data: bytes) -> Reply | None:
        """Takes more bytes; the reply once it is complete, else ``None``."""
        self.started = True
        self.buffer += data
        if not self._in_body and not self._read_head():
            return None
        if self._chunked:
            return self._read_chunks()
        if self._length is None:
            self._check_size(len(self.buffer))
            return None
        if len(self.buffer) < self._length:
            return None
        body = bytes(self.buffer[: self._length])
        del self.buffer[: self._length]
        return self._reply(body)

    def eof(self) -> Reply:
        """The connection ended: the reply if its body runs up to here, else an error."""
        if self._in_body and self._length is None and not self._chunked:
            self.keep_alive = False
            body = bytes(self.buffer)
            self.buffer.clear()
            return self._reply(body)
        raise ConnectionResetError("the server closed the connection before answering")

    def _check_size(self, size: int) -> None:
        if self.max_body is not None and size > self.max_body:
            raise ResponseTooLarge(self.max_body)

    def _read_head(self) -> bool:
        """Parses the status line and headers once they are all in; skips 1xx replies."""
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buffer) > _MAX_HEAD:
                    raise ProtocolError("response head too long")
                return False
            status_line, *lines = self.buffer[:end].decode("latin-1").split("\r\n")
            del self.buffer[: end + 4]
            version, _, rest = status_line.partition(" ")
            if not version.startswith("HTTP/1.") or not rest[:3].isdigit():
                raise ProtocolError(f"bad status line {status_line[:40]!r}")
            status = int(rest[:3])
            if 100 <= status < 200:
                continue
            self.status = status
            self.headers = {}
            for line in lines:
                name, _, value = line.partition(":")
                self.headers[name.strip().lower()] = value.strip()
            self._start_body(version)
            return True

    def _start_body(self, version: str) -> None:
        connection = self.headers.get("connection", "").lower()
        self.keep_alive = connection != "close" and (
            version != "HTTP/1.0" or "keep-alive" in connection
        )
        self._in_body = True
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            self._chunked = True
        elif "content-length" in self.headers:
            try:
                self._length = int(self.headers["content-length"])
            except ValueError:
                raise ProtocolError("bad Content-Length")
            if self._length < 0:
                raise ProtocolError("bad Content-Length")
            self._check_size(self._length)
        elif self.status in (204, 304):
            self._length = 0
        else:
            self.keep_alive = False  # the body runs up to the end of the connection

    def _read_chunks(self) -> Reply | None:
        while True:
            line_end = self.buffer.find(b"\r\n")
            if line_end < 0 or line_end > _MAX_LINE:
                if len(self.buffer) > _MAX_LINE:  # a size line that never ends
                    raise ProtocolError("chunk size line too long")
                return None
            try:
                size = int(self.buffer[:line_end].split(b";", 1)[0], 16)
            except ValueError:
                raise ProtocolError("bad chunk size")
            if size == 0:  # the last chunk, then optional trailers and an empty line
                end = self._trailers_end(line_end + 2)
                if end < 0:
                    if len(self.buffer) > _MAX_HEAD:
                        raise ProtocolError("response trailers too long")
                    return None
                del self.buffer[:end]
                return self._reply(b"".join(self._chunks))
            self._check_size(self._chunk_bytes + size)
            if len(self.buffer) < line_end + 2 + size + 2:
                return None
            start = line_end + 2
            self._chunks.append(bytes(self.buffer[start : start + size]))
            self._chunk_bytes += size
            del self.buffer[: start + size + 2]

    def _trailers_end(self, start: int) -> int:
        """Where the trailers that begin at ``start`` end (-1: not all in yet)."""
        if self.buffer[start : start + 2] == b"\r\n":
            return start + 2
        end = self.buffer.find(b"\r\n\r\n", start)
        return end + 4 if end >= 0 else -1

    def _reply(self, body: bytes) -> Reply:
        body = decode_body(body, self.headers.get("content-encoding", "identity"),
                           self.max_body)
        return Reply(self.status, self.headers.get("retry-after"), body)


class Connection(asyncio.Protocol):
    """One keep-alive connection: one request at a time."""

    def __init__(self, max_body: int | None = None) -> None:
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.max_body = max_body
        self.reader = ResponseReader(max_body)
        self._waiter: asyncio.Future[Reply] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        if self._waiter is None or self._waiter.done():
            self.close()  # bytes nobody asked for: the connection is out of step
            return
        try:
            reply = self.reader.feed(data)
        except (ProtocolError, ResponseTooLarge) as exc:
            self._waiter.set_exception(exc)
            self.close()
            return
        if reply is not None:
            self._waiter.set_result(reply)

    def eof_received(self) -> bool:
        if self._waiter is not None and not self._waiter.done():
            try:
                self._waiter.set_result(self.reader.eof())
            except ConnectionResetError as exc:
                self._waiter.set_exception(exc)
        return False  # close the transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(exc or ConnectionResetError("connection closed"))

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    async def exchange(self, request: bytes) -> Reply:
        """Sends ``request``, waits for the whole reply."""
        assert self.transport is not None
        self.reader = ResponseReader(self.max_body)
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            self.transport.write(request)
            return await self._waiter
        finally:
            self._waiter = None


class AsyncioClient:
    """POSTs to one URL over keep-alive HTTP/1.1 connections (TLS for ``https``).

    Each try (connecting included) is abandoned after ``timeout_s``, its connection closed.
    A reused connection that the server closed before answering is retried once, at once, on
    a new one (servers close idle connections); any other failure is the caller's to retry.
    A response over ``max_response_bytes`` fails the try (not retried).
    """

    def __init__(self, url: str, headers: dict[str, str], timeout_s: float,
                 max_response_bytes: int | None = DEFAULT_MAX_RESPONSE_BYTES):
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise BuildError(f"cannot POST to {url!r}: expected an http(s):// URL")
        self._host = parts.hostname
        self._port = parts.port or (443 if parts.scheme == "https" else 80)
        self._ssl = ssl.create_default_context() if parts.scheme == "https" else None
        fields = {"Host": parts.netloc.rpartition("@")[2], "User-Agent": USER_AGENT,
                  "Accept": "application/json", **headers}
        if any(c in str(v) for v in fields.values() for c in "\r\n\0"):
            raise BuildError("an HTTP header value contains a line break")
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        head = f"POST {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items())
        self._head = head.encode("latin-1") + b"Content-Length: "
        self._timeout_s = timeout_s
        self._max_response_bytes = max_response_bytes
        self._idle: list[Connection] = []

    async def post(self, body: bytes) -> Reply:
        request = self._head + str(len(body)).encode() + b"\r\n\r\n" + body
        try:
            async with asyncio.timeout(self._timeout_s):
                connection = self._idle_connection()
                if connection is not None:
                    try:
                        return await self._exchange(connection, request)
                    except ConnectionError:
                        if connection.reader.started:
                            raise
                return await self._exchange(await self._connect(), request)
        except TimeoutError:
            raise Failure("timeout", retry=True)
        except ResponseTooLarge as exc:
            raise Failure(str(exc), retry=False)
        except (OSError, ProtocolError) as exc:  # ssl.SSLError and socket.gaierror too
            raise Failure(f"connection error: {type(exc).__name__}", retry=True)

    def _idle_connection(self) -> Connection | None:
        while self._idle:
            connection = self._idle.pop()
            if not connection.closed:
                return connection
        return None

    async def _connect(self) -> Connection:
        loop = asyncio.get_running_loop()
        _, connection = await loop.create_connection(
            lambda: Connection(self._max_response_bytes), self._host, self._port, ssl=self._ssl,
            server_hostname=self._host if self._ssl else None,
        )
        return connection

    async def _exchange(self, connection: Connection, request: bytes) -> Reply:
        """One request on ``connection``; keeps it for the next one if it is still good."""
        try:
            reply = await connection.exchange(request)
        except BaseException:
            connection.close()  # a timeout or an error leaves it out of step
            raise
        if connection.reader.keep_alive and not connection.closed:
            self._idle.append(connection)
        else:
            connection.close()
        return reply

    async def aclose(self) -> None:
        for connection in self._idle:
            connection.close()
        self._idle.clear()


class HttpxClient:
    """``concurrency`` single-connection httpx clients: httpcore's shared pool costs
    O(connections × waiting requests) per request, which caps throughput at high
    concurrency; all clients share one SSL context (loading it is slow). Bodies are
    streamed, counted and decoded here (gzip/deflate asked for), so that neither the raw
    nor the decoded body can pass ``max_response_bytes``."""

    def __init__(
        self,
        url: str,
        headers: dict[str, str],
        timeout_s: float,
        concurrency: int,
        transport: httpx.AsyncBaseTransport | None,
        max_response_bytes: int | None = DEFAULT_MAX_RESPONSE_BYTES,
    ):
        ssl_context = ssl.create_default_context()
        self._url = url
        self._timeout_s = timeout_s
        self._max_response_bytes = max_response_bytes
        # only encodings decode_body reads (httpx would also ask for br/zstd when installed)
        headers = {"Accept-Encoding": "gzip, deflate", **headers}
        self._clients = [
            httpx.AsyncClient(
                headers=headers,
                timeout=httpx.Timeout(timeout_s),
                limits=httpx.Limits(max_connections=1, max_keepalive_connections=1),
                transport=transport,
                verify=ssl_context,
            )
            for _ in range(concurrency)
        ]
        self._idle: asyncio.Queue[httpx.AsyncClient] = asyncio.Queue()
        for client in self._clients:
            self._idle.put_nowait(client)

    async def post(self, body: bytes) -> Reply:
        client = await self._idle.get()
        try:
            async with asyncio.timeout(self._timeout_s):  # the whole try, not each read
                async with client.stream("POST", self._url, content=body) as response:
                    raw = await self._read(response)
        except (TimeoutError, httpx.TimeoutException):
            raise Failure("timeout", retry=True)
        except ResponseTooLarge as exc:
            raise Failure(str(exc), retry=False)
        except (ProtocolError, httpx.TransportError) as exc:
            raise Failure(f"connection error: {type(exc).__name__}", retry=True)
        finally:
            self._idle.put_nowait(client)
        return Reply(response.status_code, response.headers.get("retry-after"), raw)

    async def _read(self, response: httpx.Response) -> bytes:
        """The body, decoded, read at most to the limit."""
        limit = self._max_response_bytes
        length = response.headers.get("content-length", "")
        if limit is not None and length.isdigit() and int(length) > limit:
            raise ResponseTooLarge(limit)
        parts: list[bytes] = []
        size = 0
        try:
            async for chunk in response.aiter_raw():
                size += len(chunk)
                if limit is not None and size > limit:
                    raise ResponseTooLarge(limit)
                parts.append(chunk)
        except httpx.StreamConsumed:  # a body given whole (a mock transport), decoded
            if limit is not None and len(response.content) > limit:
                raise ResponseTooLarge(limit) from None
            return response.content
        return decode_body(b"".join(parts),
                           response.headers.get("content-encoding", "identity"), limit)

    async def aclose(self) -> None:
        for client in self._clients:
            await client.aclose()
