"""The backend interface: a :class:`ChatRequest` in, a :class:`ChatResult` out.

Every backend — a remote API, a local model, an offline baseline, a replay of saved
outputs, a deterministic mock — answers the same two calls, so the runner stays uniform::

    result = await backend.complete(request)
    results = await backend.complete_many(requests, on_result=write_line)

Per-sample failures are data (``ChatResult.error``), never exceptions; a backend raises only
per run (bad spec, missing dependency, missing file), when it is built, or
:class:`EndpointRefused` when its endpoint refuses every request (a wrong key, an unknown
model): that stops the run at once.

The backends themselves live in their own modules and subclass :class:`BackendBase`; this
module imports none of them. :mod:`buildds.evaluate.backends.registry` turns a command-line
spec (``openai:gpt-4o``, ``random:13`` …) into one.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from buildds.errors import BuildError
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["Backend", "BackendBase", "EndpointRefused", "OnResult", "complete_bounded",
           "report_result"]


class EndpointRefused(BuildError):
    """The endpoint refuses every request alike (HTTP 401/403: the key; 404: the model or
    the URL): no sample can be answered, so the run stops. The message names the backend
    and its endpoint, never the key."""

#: called as each result arrives: ``on_result(index_in_input, result)``; may be async
OnResult = Callable[[int, ChatResult], Awaitable[Any] | Any]


@runtime_checkable
class Backend(Protocol):
    """What the runner needs from a backend."""

    #: shown in reports and the manifest, e.g. ``openai:gpt-4o``
    name: str
    #: whether answers depend only on the request (not on ``sample_id``): may be cached
    cacheable: bool

    def settings(self) -> dict[str, Any]:
        """The backend's options for the run manifest. Never contains secrets."""
        ...

    async def complete(self, request: ChatRequest) -> ChatResult: ...

    async def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: OnResult | None = None
    ) -> list[ChatResult]: ...


async def report_result(on_result: OnResult | None, index: int, result: ChatResult) -> None:
    """Hand ``result`` (the ``index``-th of the input) to ``on_result``, awaiting it when it
    returns an awaitable; nothing when there is no ``on_result``."""
    if on_result is None:
        return
    out = on_result(index, result)
    if inspect.isawaitable(out):
        await out


async def complete_bounded(
    complete: Callable[[ChatRequest], Awaitable[ChatResult]],
    requests: Sequence[ChatRequest],
    *,
    concurrency: int,
    on_result: OnResult | None = None,
) -> list[ChatResult]:
    """Run ``complete`` over ``requests`` with at most ``concurrency`` in flight.

    Results come back in input order; ``on_result`` sees each one as it arrives. A fixed
    pool of workers pulls indices, so a million requests do not make a million tasks.
    Cancelling the caller cancels every worker (TaskGroup), and an exception raised by
    ``on_result`` stops the run; :class:`EndpointRefused` comes out as itself, not inside
    an exception group.
    """
    results: list[ChatResult | None] = [None] * len(requests)
    next_index = iter(range(len(requests)))

    async def worker() -> None:
        for i in next_index:
            result = await complete(requests[i])
            results[i] = result
            await report_result(on_result, i, result)

    n_workers = max(1, min(concurrency, len(requests)))
    if requests:
        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(n_workers):
                    group.create_task(worker())
        except BaseExceptionGroup as errors:  # an endpoint refusing: raised as itself
            refused, rest = errors.split(EndpointRefused)
            if refused is None or rest is not None:
                raise
            first: BaseException = refused
            while isinstance(first, BaseExceptionGroup):
                first = first.exceptions[0]
            raise first from None
    return [r for r in results if r is not None]


class BackendBase:
    """Shared plumbing: ``complete_many`` over ``complete`` with bounded concurrency."""

    name: str = "backend"
    cacheable: bool = True
    concurrency: int = 1

    def settings(self) -> dict[str, Any]:
        return {"backend": self.name}

    async def complete(self, request: ChatRequest) -> ChatResult:  # pragma: no cover
        raise NotImplementedError

    async def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: OnResult | None = None
    ) -> list[ChatResult]:
        return await complete_bounded(
            self.complete, requests, concurrency=self.concurrency, on_result=on_result
        )
