"""httpx as the backend's HTTP client (:class:`HttpxClient`): for https endpoints, proxies
and mock transports."""

from __future__ import annotations

import asyncio
import ssl

import httpx

from buildds.evaluate.backends.http_transport.client import (
    DEFAULT_MAX_RESPONSE_BYTES,
    Failure,
    Reply,
)
from buildds.evaluate.backends.http_transport.reader import (
    ProtocolError,
    ResponseTooLarge,
    decode_body,
)

__all__ = ["HttpxClient"]


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
