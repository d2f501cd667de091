"""HTTP/1.1 spoken on asyncio directly (:class:`AsyncioClient`): keep-alive connections, one
request at a time each (:class:`Connection`), TLS for https."""

from __future__ import annotations

import asyncio
import ssl
from urllib.parse import urlsplit

from buildds.errors import BuildError
from buildds.evaluate.backends.http_transport.client import (
    DEFAULT_MAX_RESPONSE_BYTES,
    USER_AGENT,
    Failure,
    Reply,
)
from buildds.evaluate.backends.http_transport.reader import (
    ProtocolError,
    ResponseReader,
    ResponseTooLarge,
)

__all__ = ["AsyncioClient", "Connection"]


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
