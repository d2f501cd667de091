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

from buildds.evaluate.backends.http_transport.asyncio_client import AsyncioClient
from buildds.evaluate.backends.http_transport.client import (
    DEFAULT_MAX_RESPONSE_BYTES,
    USER_AGENT,
    Failure,
    HttpClient,
    Reply,
    env_proxy,
)
from buildds.evaluate.backends.http_transport.httpx_client import HttpxClient
from buildds.evaluate.backends.http_transport.reader import (
    ProtocolError,
    ResponseReader,
    ResponseTooLarge,
    decode_body,
)

__all__ = [
    "DEFAULT_MAX_RESPONSE_BYTES",
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
