"""The one protocol every build runs its work through, and the choice of executor by name.

A build turns its work into items (a booklet pair, a contract's OCR page, a judgments shard)
and a picklable module-level function, and asks ``executor.map(fn, items)`` for the results:

* in input order, so outputs never depend on which worker finished first;
* with a bounded number of items in flight (``window``): ``items`` is read lazily, so the
  memory a build holds does not grow with its corpus;
* a task whose worker process died is run again (Ray: ``max_retries``; local: a new pool);
* an exception raised by ``fn`` propagates from ``map`` at that item's place. The builds'
  functions return per-item failures as data (rejects with their reason) and do not raise.

:func:`make_executor` makes one by name (``local`` or ``ray``) and :class:`ExecutorSpec`
carries that choice (name, address, jobs) through a build's settings until it is made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

__all__ = ["EXECUTORS", "Executor", "ExecutorSpec", "make_executor"]

T = TypeVar("T")
R = TypeVar("R")

#: the executors ``--executor`` accepts; ``local`` is the default and needs no extra
EXECUTORS = ("local", "ray")


class Executor(Protocol):
    """Runs ``fn`` over ``items``: results in input order, bounded work in flight."""

    name: str

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``fn(item)`` for each item, in input order (see the module docstring)."""
        ...

    def close(self) -> None:
        """Let go of the workers (a Ray instance this executor started is shut down)."""
        ...


@dataclass(frozen=True)
class ExecutorSpec:
    """Which executor a build runs on: ``name`` (``local`` or ``ray``), ``address`` (Ray:
    ``auto``, ``ray://host:port``, or None for a local instance) and ``jobs`` (workers;
    None: one per core)."""

    name: str = "local"
    address: str | None = None
    jobs: int | None = None

    def make(self) -> Executor:
        """The executor this spec names (:func:`make_executor`)."""
        return make_executor(self.name, address=self.address, jobs=self.jobs)


def make_executor(kind: str = "local", *, address: str | None = None,
                  jobs: int | None = None) -> Executor:
    """A :class:`~buildds.executors.local.LocalExecutor` (``local``) or a
    :class:`~buildds.executors.ray.RayExecutor` (``ray``; raises
    :class:`~buildds.errors.MissingDependency` naming ``pip install 'buildds[ray]'`` when Ray
    is not installed). ``address`` is for Ray only; ``jobs`` caps the workers."""
    if kind == "local":
        if address is not None:
            raise ValueError("--ray-address is for --executor ray")
        from buildds.executors.local import LocalExecutor

        return LocalExecutor(jobs)
    if kind == "ray":
        from buildds.executors.ray import RayExecutor

        return RayExecutor(address=address, jobs=jobs)
    raise ValueError(f"unknown executor {kind!r} (one of {', '.join(EXECUTORS)})")
