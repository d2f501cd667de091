"""An OpenAI-compatible chat-completions server on 127.0.0.1 for tests and benchmarks.

A minimal HTTP/1.1 server on ``loop.create_server`` (keep-alive, Content-Length bodies; an
``asyncio.Protocol`` rather than streams, so that it costs little CPU per request and a
benchmark measures the client), run in a background thread (:class:`OpenAITestServer`) or
as a process (``python tests/evaluate/openai_server.py --latency 0.05`` prints ``PORT <n>``).

What it answers is scripted by markers in the last user message:

=================  =========================================================
``[answer:X]``     answer ``X`` (default ``1``)
``[bad]``          answer ``1. Explanation: …`` (does not follow the instruction)
``[fail:S:N]``     the first N receipts of this prompt get HTTP status S (429 and
                   503 carry ``Retry-After: <retry_after>``, default 1 s); then it answers
``[stall]``        wait ``stall_s`` seconds (longer than the client timeout) first
``[latency:S]``    wait S seconds before answering (on top of the global latency)
``[echo-auth]``    answer with the Authorization header it received (a careless server)
``[echo-auth:S]``  fail with HTTP status S, the Authorization header in the error body
``[big:N]``        answer N bytes (``x`` repeated)
``[gzip:N]``       answer N bytes, gzip-compressed (``Content-Encoding: gzip``)
``[huge-length]``  claim ``Content-Length: 10**12``, send one byte and hold the connection
``[trickle:S]``    send the answer one byte every S seconds (a slow-loris server)
``[logprobs:A]``   with ``logprobs: true``: the first output token's alternatives, e.g.
                   ``[logprobs:1=-0.3,0=-1.4]`` (default: the answer at log 0.75 and, for
                   ``1``/``0``, the other at log 0.25)
=================  =========================================================

A request with ``logprobs: true`` gets them in the chat format (vLLM, llama.cpp server,
OpenAI): one position per character of the answer, each with ``top_logprobs`` (the first
position's as above, later ones the character itself at log 0.99). ``answer_of`` (a
function of the last user message) replaces the default answer ``1``.

It records, per prompt, how many requests it received (``counts``), the Authorization
headers seen, the request targets (``paths``, query included), arrival times and the
maximum number of requests in flight at once.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import math
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, Self

__all__ = ["OpenAITestServer"]

MARKER = re.compile(r"\[(answer|bad|fail|stall|latency|echo-auth|big|gzip|huge-length|trickle"
                    r"|logprobs)"
                    r"(?::([^\]]*))?\]")
BAD_ANSWER = "1. Explanation: the statement follows from the cited article."
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 429: "Too Many Requests",
           500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable",
           504: "Gateway Timeout"}


class OpenAITestServer:
    def __init__(
        self,
        *,
        latency: float = 0.0,
        stall_s: float = 30.0,
        retry_after: str = "1",
        keep_alive: bool = True,
        answer_of: Callable[[str], str] | None = None,
    ):
        #: the default answer to a prompt (else ``1``)
        self.answer_of = answer_of
        #: False: hang up after every answer without saying so (as servers do with idle
        #: keep-alive connections), so that clients must notice and reconnect
        self.keep_alive = keep_alive
        self.latency = latency
        self.stall_s = stall_s
        self.retry_after = retry_after
        self.port = 0
        self.counts: Counter[str] = Counter()
        self.authorization: list[str | None] = []
        self.arrivals: list[float] = []
        self.bodies: list[dict[str, Any]] = []
        #: the request targets received, query included
        self.paths: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.total = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._connections: set[_Connection] = set()
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def reset(self) -> None:
        self.counts.clear()
        self.authorization.clear()
        self.arrivals.clear()
        self.bodies.clear()
        self.paths.clear()
        self.max_in_flight = 0
        self.total = 0

    # -- lifecycle -------------------------------------------------------------------------

    async def serve(self, port: int = 0) -> asyncio.Server:
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            lambda: _Connection(self), "127.0.0.1", port, backlog=1024, reuse_address=True
        )
        self.port = self._server.sockets[0].getsockname()[1]
        return self._server

    def start(self) -> Self:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            loop.run_until_complete(self.serve())
            ready.set()
            loop.run_forever()
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

        self._thread = threading.Thread(target=run, name="openai-test-server", daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def stop(self) -> None:
        loop = self._loop
        if loop is None:
            return

        def shutdown() -> None:
            if self._server is not None:
                self._server.close()
            for connection in list(self._connections):
                connection.close()
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.call_later(0.05, loop.stop)

        loop.call_soon_threadsafe(shutdown)
        if self._thread is not None:
            self._thread.join(5)
        self._loop = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP ------------------------------------------------------------------------------

    async def _respond(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, str], dict[str, Any] | bytes]:
        """Status, extra headers (a ``Content-Length`` among them replaces the true one) and
        the JSON payload, or the body's bytes as they are."""
        self.paths.append(path)
        path = path.partition("?")[0]  # a query (?api-version=…) does not change the route
        if method == "GET" and path.rstrip("/").endswith("/models"):
            return 200, {}, {"object": "list", "data": []}
        if method != "POST" or not path.rstrip("/").endswith("/chat/completions"):
            return 404, {}, {"error": {"message": f"no route {method} {path}"}}
        request = json.loads(body or b"{}")
        messages = request.get("messages", [])
        prompt = next(
            (_text(m.get("content")) for m in reversed(messages) if m.get("role") == "user"), ""
        )
        self.counts[prompt] += 1
        seen = self.counts[prompt]
        self.total += 1
        self.authorization.append(headers.get("authorization"))
        self.arrivals.append(time.monotonic())
        self.bodies.append(request)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            answer = self.answer_of(prompt) if self.answer_of is not None else "1"
            alternatives: str | None = None
            delay = self.latency
            auth = headers.get("authorization") or ""
            for kind, arg in MARKER.findall(prompt):
                if kind == "echo-auth" and arg:
                    return int(arg), {}, {"error": {"message": f"bad key: {auth}"}}
                if kind == "echo-auth":
                    answer = f"your header was {auth}"
                elif kind == "big":
                    answer = "x" * int(arg)
                elif kind == "gzip":
                    data = json.dumps(_completion(request.get("model", "test"), "x" * int(arg),
                                                  prompt)).encode()
                    return 200, {"Content-Encoding": "gzip"}, gzip.compress(data)
                elif kind == "huge-length":
                    return 200, {"Content-Length": str(10**12)}, b"{"
                elif kind == "trickle":
                    data = json.dumps(_completion(request.get("model", "test"), answer,
                                                  prompt)).encode()
                    return 200, {"X-Trickle": arg}, data
                if kind == "answer":
                    answer = arg
                elif kind == "logprobs":
                    alternatives = arg
                elif kind == "bad":
                    answer = BAD_ANSWER
                elif kind == "stall":
                    delay += self.stall_s
                elif kind == "latency":
                    delay += float(arg)
                elif kind == "fail":
                    code, _, times = arg.partition(":")
                    if seen <= int(times or 1):
                        extra = {}
                        if int(code) in (429, 503):
                            extra["Retry-After"] = self.retry_after
                        return int(code), extra, {"error": {"message": f"scripted {code}"}}
            if delay:
                await asyncio.sleep(delay)
            completion = _completion(request.get("model", "test"), answer, prompt)
            if request.get("logprobs"):
                completion["choices"][0]["logprobs"] = _logprobs(
                    answer, alternatives, int(request.get("top_logprobs") or 0))
            return 200, {}, completion
        finally:
            self.in_flight -= 1


class _Connection(asyncio.Protocol):
    """One client connection: parses requests from the buffer, answers them in order."""

    def __init__(self, server: OpenAITestServer):
        self.server = server
        self.buffer = bytearray()
        self.transport: asyncio.Transport | None = None
        self.task: asyncio.Task[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.server._connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server._connections.discard(self)
        if self.task is not None:
            self.task.cancel()
        self.transport = None

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        self._next_request()

    def _next_request(self) -> None:
        """Starts answering the next complete request in the buffer, if any."""
        if self.task is not None or self.transport is None:
            return
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0:
            return
        try:
            request_line, *lines = self.buffer[:end].decode("latin-1").split("\r\n")
            method, path, _ = request_line.split(" ", 2)
            headers = {}
            for line in lines:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0") or 0)
        except ValueError:
            self.close()
            return
        if len(self.buffer) < end + 4 + length:
            return
        body = bytes(self.buffer[end + 4 : end + 4 + length])
        del self.buffer[: end + 4 + length]
        self.task = asyncio.get_running_loop().create_task(
            self._answer(method, path, headers, body)
        )

    async def _answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> None:
        try:
            status, extra, payload = await self.server._respond(method, path, headers, body)
        except asyncio.CancelledError:
            return
        except ValueError:  # a body that is not JSON: hang up, as a real server might
            self.close()
            return
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        length = extra.pop("Content-Length", str(len(data)))
        trickle = float(extra.pop("X-Trickle", 0) or 0)
        head = [f"HTTP/1.1 {status} {REASONS.get(status, 'Status')}",
                "Content-Type: application/json", f"Content-Length: {length}"]
        head += [f"{k}: {v}" for k, v in extra.items()]
        raw_head = ("\r\n".join(head) + "\r\n\r\n").encode()
        if trickle and self.transport is not None:  # the head, then one byte at a time
            self.transport.write(raw_head)
            raw_head = b""
            for i in range(len(data)):
                try:
                    await asyncio.sleep(trickle)
                except asyncio.CancelledError:
                    return
                if self.transport is None:
                    return
                self.transport.write(data[i : i + 1])
            data = b""
        self.task = None
        if self.transport is None:
            return
        self.transport.write(raw_head + data)
        if not self.server.keep_alive or headers.get("connection", "").lower() == "close":
            self.close()
            return
        self._next_request()


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts, as some clients send them
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def _completion(model: str, text: str, prompt: str) -> dict[str, Any]:
    prompt_tokens = max(1, len(prompt) // 2)
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": 1,
            "total_tokens": prompt_tokens + 1,
        },
    }


def _logprobs(answer: str, alternatives: str | None, top: int) -> dict[str, Any]:
    """Chat-format logprobs: one position per character of ``answer``."""
    if alternatives:
        first = {t: float(v) for t, _, v in (a.partition("=") for a in alternatives.split(","))}
    else:
        first = {answer[:1]: math.log(0.75)}
        if answer in ("1", "0"):
            first["0" if answer == "1" else "1"] = math.log(0.25)
    content = []
    for i, char in enumerate(answer[:8]):
        alts = first if i == 0 else {char: math.log(0.99)}
        ranked = sorted(alts.items(), key=lambda kv: -kv[1])[:max(1, top)]
        content.append({"token": char, "logprob": alts.get(char, ranked[0][1]),
                        "bytes": list(char.encode()),
                        "top_logprobs": [{"token": t, "logprob": v, "bytes": list(t.encode())}
                                         for t, v in ranked]})
    return {"content": content}


def main(argv: list[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args(argv)
    server = OpenAITestServer(latency=args.latency)

    async def run() -> None:
        srv = await server.serve(args.port)
        print(f"PORT {server.port}", flush=True)
        async with srv:
            await srv.serve_forever()

    asyncio.run(run())


if __name__ == "__main__":
    main(sys.argv[1:])
