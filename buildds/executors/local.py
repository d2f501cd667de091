"""The ``local`` executor: this machine's :class:`buildds.workers.WorkerPool`, or this process.

With one job (or a single item) the work runs here, in order, with no start-up cost. Else a
pool of ``jobs`` worker processes (one per core by default) takes at most ``2 × jobs`` items
at a time, read lazily from the iterable, and the results come back in input order. The pool
keeps :mod:`buildds.workers`' behaviour: its workers ignore Ctrl-C and die with their parent,
and an interrupt (or a caller that stops early) ends them at once. A worker that dies (killed,
out of memory) breaks the pool: a new pool runs the items that had not come back, up to
:data:`RESTARTS` times in one ``map``, before :class:`BrokenProcessPool` is raised.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Self, TypeVar

from buildds.pipeline import default_processes
from buildds.workers import WorkerPool, stop_pool

__all__ = ["RESTARTS", "LocalExecutor"]

T = TypeVar("T")
R = TypeVar("R")

#: how many times one ``map`` starts a new pool after a worker died
RESTARTS = 3


class LocalExecutor:
    """:class:`~buildds.executors.base.Executor` on this machine (see the module docstring)."""

    name = "local"

    def __init__(self, jobs: int | None = None):
        self.jobs = max(1, jobs or default_processes())
        self._pool: WorkerPool | None = None

    @property
    def window(self) -> int:
        """Items in flight at most: two per worker, so none waits for the next one."""
        return 2 * self.jobs

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``fn(item)`` for each item, in input order."""
        it = iter(items)
        head = list(itertools.islice(it, 2))
        if self.jobs <= 1 or len(head) <= 1:  # nothing to gain from a pool
            for item in itertools.chain(head, it):
                yield fn(item)
            return
        yield from self._pooled(fn, itertools.chain(head, it))

    def _pooled(self, fn: Callable[[T], R], items: Iterator[T]) -> Iterator[R]:
        pending: deque[tuple[T, Future[Any]]] = deque()
        restarts = 0
        try:
            while True:
                while len(pending) < self.window:
                    item = next(items, _END)
                    if item is _END:
                        break
                    pending.append((item, self._get_pool().submit(fn, item)))
                if not pending:
                    return
                item, future = pending[0]
                try:
                    result = future.result()
                except BrokenProcessPool:
                    restarts += 1
                    if restarts > RESTARTS:
                        raise
                    self._restart([i for i, _ in pending], fn, pending)
                    continue
                pending.popleft()
                yield result
        except BaseException:
            # Ctrl-C, an error, or the caller stopping early: end the workers now rather
            # than wait for what they are doing
            if self._pool is not None:
                if pending:
                    stop_pool(self._pool)
                else:  # the last result was taken and the caller let go (zip)
                    self._pool.shutdown(wait=False)
                self._pool = None
            raise

    def _restart(self, items: list[Any], fn: Callable[[Any], Any],
                 pending: deque[tuple[Any, Future[Any]]]) -> None:
        """A worker died: a new pool runs again every item that had not come back."""
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None
        pending.clear()
        pool = self._get_pool()
        pending.extend((item, pool.submit(fn, item)) for item in items)

    def _get_pool(self) -> WorkerPool:
        if self._pool is None:
            self._pool = WorkerPool(self.jobs)
        return self._pool

    def close(self) -> None:
        """Shut the pool down (its work is done: ``map`` was read to the end)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_END: Any = object()
