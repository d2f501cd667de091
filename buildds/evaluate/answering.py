"""Asking one backend a batch of requests, as the runner does: a progress bar, the items a
task refused (never sent; their result is the refusal), and the run's deadline.

The deadline (``buildds eval --deadline``) bounds the whole run's wall-clock time. Each batch
runs under what is left of it; when it runs out, the batch is cancelled — requests in flight
are abandoned, those not yet sent are not sent — and every request without a result gets
:data:`DEADLINE_ERROR` as its per-sample error. Results that arrived are kept (a cached
backend stored each as it arrived, so a re-run sends only what is missing).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from buildds.errors import BuildError
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["DEADLINE_ERROR", "Deadline", "answer", "progress_bar", "run_backend"]

#: the error of a request abandoned at the run's deadline (``{seconds}``)
DEADLINE_ERROR = ("abandoned: the run reached its deadline of {seconds:g} s (--deadline) "
                  "before this request was answered")


class Deadline:
    """The run's wall-clock bound: how long is left, and the results it abandons."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self.abandoned = 0

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def abandon(self) -> ChatResult:
        self.abandoned += 1
        return ChatResult(text=None, error=DEADLINE_ERROR.format(seconds=self.seconds),
                          attempts=0)


async def run_backend(backend: Any, requests: Sequence[ChatRequest],
                      advance: Callable[[], None] | None,
                      deadline: Deadline | None = None) -> list[ChatResult]:
    """The backend's results in request order; at the ``deadline`` the requests still out
    are cancelled and those not answered get the deadline's error."""
    arrived: dict[int, ChatResult] = {}

    def on_result(i: int, result: ChatResult) -> None:
        arrived[i] = result
        if advance is not None:
            advance()

    left = deadline.remaining() if deadline is not None else None
    if deadline is not None and left is not None and left <= 0:  # spent: nothing is sent
        return [deadline.abandon() for _ in requests]
    timer = asyncio.timeout(left)  # None: no bound
    try:
        async with timer:
            results = await backend.complete_many(requests, on_result=on_result)
    except TimeoutError:
        if deadline is None or not timer.expired():
            raise
        return [arrived[i] if i in arrived else deadline.abandon()
                for i in range(len(requests))]
    if len(results) != len(requests):
        raise BuildError(f"backend {backend.name}: {len(results)} results for "
                         f"{len(requests)} requests")
    return list(results)


def _run(batch: Coroutine[Any, Any, list[ChatResult]]) -> list[ChatResult]:
    """``asyncio.run(batch)``; a :class:`BuildError` raised in one of the batch's tasks (the
    response cache failing half-way) comes out as itself, not inside an exception group."""
    try:
        return asyncio.run(batch)
    except BaseExceptionGroup as group:
        matched, _ = group.split(BuildError)
        if matched is None:
            raise
        first: BaseException = matched
        while isinstance(first, BaseExceptionGroup):
            first = first.exceptions[0]
        raise first from None


def progress_bar(quiet: bool) -> Any:
    """A started rich progress bar (None when ``quiet``)."""
    if quiet:
        return None
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeRemainingColumn(), transient=False)
    progress.start()
    return progress


def answer(backend: Any, requests: Sequence[ChatRequest], progress: Any, label: str,
           deadline: Deadline | None = None,
           refused: Sequence[str | None] | None = None) -> list[ChatResult]:
    """The backend's results; a request whose ``refused`` entry is set is not sent (its
    result is that error)."""
    send = [i for i in range(len(requests)) if not (refused and refused[i])]
    advance = None
    if progress is not None:
        pid = progress.add_task(label, total=len(send))
        advance = (lambda: progress.advance(pid))
    if refused is None or len(send) == len(requests):
        return _run(run_backend(backend, requests, advance, deadline))
    results = [ChatResult(text=None, error=error, attempts=0) if error else None
               for error in refused]
    sent = _run(run_backend(backend, [requests[i] for i in send], advance, deadline))
    for i, result in zip(send, sent, strict=True):
        results[i] = result
    return [r for r in results if r is not None]
