"""run_parallel: results in input order on a worker pool; a caller that stops early (or is
interrupted) ends the workers at once instead of waiting for their work."""

from __future__ import annotations

import os
import time

from buildds.pipeline import run_parallel
from tests.procs import descendants, needs_proc, wait_gone


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_results_come_in_input_order() -> None:
    items = [0.3, 0.0, 0.2, 0.1]
    seen: list[int] = []
    got = list(run_parallel(_nap, items, processes=2, on_done=lambda i, _: seen.append(i)))
    assert got == items and seen == [0, 1, 2, 3]


@needs_proc
def test_stopping_early_ends_the_workers_at_once() -> None:
    results = run_parallel(_nap, [0.0, 30, 30, 30], processes=2)
    assert next(results) == 0.0
    workers = descendants(os.getpid())
    assert workers
    started = time.monotonic()
    results.close()  # what a KeyboardInterrupt in the caller's loop leads to
    assert time.monotonic() - started < 5
    assert wait_gone(workers, 5) == []


@needs_proc
def test_a_caller_that_takes_every_result_leaves_no_workers() -> None:
    items = [0.0, 0.1]
    for _, result in zip(range(len(items)), run_parallel(_nap, items, processes=2)):
        assert result in items
    assert wait_gone(descendants(os.getpid()), 5) == []


def test_a_generator_let_go_after_its_last_result_does_not_wait_on_the_pool(monkeypatch) -> None:
    """Closing the generator (which the garbage collector may do) must not block on the pool:
    a Ctrl-C during that wait would be swallowed as "Exception ignored" and the run go on."""
    from buildds import workers

    waits: list[bool] = []
    real = workers.WorkerPool.shutdown

    def shutdown(self, wait=True, **kwargs):
        waits.append(wait)
        real(self, wait=wait, **kwargs)

    monkeypatch.setattr(workers.WorkerPool, "shutdown", shutdown)
    results = run_parallel(_nap, [0.0, 0.0], processes=2)
    assert [next(results), next(results)] == [0.0, 0.0]
    results.close()  # the last result was taken; the caller lets go (zip, break)
    assert waits == [False]
    assert list(run_parallel(_nap, [0.0, 0.0], processes=2)) == [0.0, 0.0]
    assert waits == [False, True]  # run to the end, the pool is waited for as before
