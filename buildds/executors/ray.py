"""The ``ray`` executor: each item a Ray task, on a local instance or an existing cluster.

``RayExecutor(address=None)`` starts a local Ray instance (``jobs`` CPUs, default: every
core; no dashboard) and shuts it down on :meth:`~RayExecutor.close`; ``address="auto"`` joins
the cluster ``ray start --head`` started on this machine, ``"ray://host:port"`` a remote one
through Ray Client. When this process already called ``ray.init`` (a test, a notebook), that
instance is used and left running.

Each item is one ``ray.remote`` task (one CPU) with ``max_retries``: a task whose worker
process died (killed, out of memory, a node lost) is run again by Ray. At most ``2 × CPUs``
tasks are in flight (``2 × jobs`` when ``jobs`` is given), submitted as results are taken,
so the driver never holds the whole input; results come back in input order. An exception
raised by the function comes back as that exception (not Ray's wrapper), from ``map`` at
that item's place. Ray is imported here only, and a missing Ray is a
:class:`~buildds.errors.MissingDependency` naming ``pip install 'buildds[ray]'``.

On a cluster every node needs the same buildds installed and the inputs at the same path
(a shared file system): tasks carry file paths, not file contents.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Self, TypeVar

from buildds.errors import BuildError, MissingDependency

__all__ = ["MAX_RETRIES", "RayExecutor", "import_ray", "ray_map"]

T = TypeVar("T")
R = TypeVar("R")

#: how many times Ray runs a task again whose worker died
MAX_RETRIES = 3


def import_ray() -> Any:
    """The ``ray`` module, or :class:`MissingDependency` naming the extra to install."""
    try:
        import ray
    except ImportError as exc:
        raise MissingDependency("ray", "ray", hint="needed by --executor ray") from exc
    return ray


def _init(ray: Any, address: str | None, kwargs: dict[str, Any]) -> None:
    """``ray.init``, its failures a :class:`~buildds.errors.BuildError` naming the address
    (no cluster at ``auto``, Ray Client not installed for ``ray://``, a head that does not
    answer — Ray then gives up with ``SystemExit`` after its retries)."""
    try:
        ray.init(address=address or "local", **kwargs)
    except (ConnectionError, ValueError, RuntimeError, SystemExit) as exc:
        where = f"join the Ray cluster at {address}" if address else "start a local Ray instance"
        why = str(exc) if not isinstance(exc, SystemExit) else "it did not answer"
        hint = " (start one with 'ray start --head')" if address == "auto" else ""
        raise BuildError(f"cannot {where}: {why}{hint}") from None


def _call(fn: Callable[[Any], Any], item: Any) -> tuple[bool, Any]:
    """Run in a Ray worker: ``(True, fn(item))``, or ``(False, the exception)`` — so the
    driver raises the function's own exception, not Ray's wrapper of it."""
    try:
        return True, fn(item)
    except Exception as exc:  # noqa: BLE001 - handed back to the driver, which raises it
        return False, exc


class RayExecutor:
    """:class:`~buildds.executors.base.Executor` on Ray (see the module docstring)."""

    name = "ray"

    def __init__(self, *, address: str | None = None, jobs: int | None = None,
                 max_retries: int = MAX_RETRIES):
        self._ray = ray = import_ray()
        self.address = address
        self._owns = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "logging_level": logging.WARNING}
            if address is None:  # "local": a new instance, even where `ray start` runs
                kwargs["num_cpus"] = jobs
            _init(ray, address, kwargs)
            self._owns = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.jobs = max(1, min(jobs, cpus) if jobs else cpus)
        self._remote = ray.remote(num_cpus=1, max_retries=max_retries)(_call)

    @property
    def window(self) -> int:
        """Tasks in flight at most: two per CPU used, so none waits for the next one."""
        return 2 * self.jobs

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``fn(item)`` for each item, in input order, each a Ray task."""
        ray = self._ray
        fn_ref = ray.put(fn)
        pending: deque[Any] = deque()
        it = iter(items)
        try:
            while True:
                while len(pending) < self.window:
                    item = next(it, _END)
                    if item is _END:
                        break
                    pending.append(self._remote.remote(fn_ref, item))
                if not pending:
                    return
                ok, value = ray.get(pending[0])
                pending.popleft()
                if not ok:
                    raise value
                yield value
        except BaseException:
            for ref in pending:  # Ctrl-C or an error: the rest is not wanted
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # noqa: BLE001,S110 - done already, or the cluster is gone
                    pass
            raise

    def close(self) -> None:
        """Shut down the Ray instance this executor started (one it joined stays)."""
        if self._owns and self._ray.is_initialized():
            self._ray.shutdown()
        self._owns = False

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_END: Any = object()


def ray_map(workers: int = 1) -> Callable[[Callable[[Any], Any], Iterable[Any]], Iterator[Any]]:
    """A ``map_fn(fn, items)`` on a local Ray instance of ``workers`` CPUs (the seam of
    :func:`buildds.jobs.judgments.build_judgments`; ``benchmarks/bench_judgments_scale.py
    --map-fn buildds.executors.ray:ray_map``). The instance lives until the process ends."""
    return RayExecutor(jobs=workers).map
