"""Where a build's work runs: this machine's process pool, or a Ray cluster.

Every heavy build (``buildds jbe`` booklets, ``buildds contracts`` documents and OCR pages,
``buildds judgments`` shards) hands its work items to an :class:`Executor`'s ``map``, which
yields the results in input order with a bounded amount of work in flight, so the outputs
are the same bytes whatever ran them. :func:`make_executor` picks one by name:

* ``local`` (the default, :mod:`buildds.executors.local`): a
  :class:`buildds.workers.WorkerPool` (workers ignore Ctrl-C and die with their parent), or
  this process itself for one job;
* ``ray`` (:mod:`buildds.executors.ray`): Ray tasks on a local instance or an existing
  cluster (``--ray-address auto`` or ``ray://host:port``); Ray is an optional extra
  (``pip install 'buildds[ray]'``) imported only when this executor is made.
"""

from buildds.executors.base import (
    EXECUTORS,
    Executor,
    ExecutorSpec,
    make_executor,
)

__all__ = ["EXECUTORS", "Executor", "ExecutorSpec", "make_executor"]
