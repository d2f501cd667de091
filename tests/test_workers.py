"""Worker processes (buildds.workers): they ignore Ctrl-C, die with their parent (kill -9),
take the programs they started with them, and a pool can be stopped at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from buildds.workers import WorkerPool, stop_pool
from tests.procs import descendants, needs_proc, wait_gone

pytestmark = needs_proc


def _nap(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _run_sleep(seconds: int) -> int:
    """Run a program (as a worker runs tesseract) and wait for it."""
    return subprocess.run(["sleep", str(seconds)], check=False).returncode


def _family_with_sleep(pid: int) -> dict[int, int]:
    """``pid``'s descendants, once one of them is ``sleep``."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        family = descendants(pid)
        if any(Path(f"/proc/{p}/comm").read_text().strip() == "sleep" for p in family
               if Path(f"/proc/{p}/comm").exists()):
            return family
        time.sleep(0.05)
    raise AssertionError("the worker did not start its program")


def test_workers_ignore_sigint() -> None:
    pool = WorkerPool(2)
    try:
        futures = [pool.submit(_nap, 0.5) for _ in range(2)]
        time.sleep(0.2)
        workers = descendants(os.getpid())
        for pid in workers:
            os.kill(pid, signal.SIGINT)
        assert {f.result(timeout=10) for f in futures} <= set(workers)
    finally:
        pool.shutdown()


def test_stop_pool_does_not_wait_for_running_work() -> None:
    pool = WorkerPool(2)
    futures = [pool.submit(_nap, 60) for _ in range(4)]
    time.sleep(0.3)
    workers = descendants(os.getpid())
    assert len(workers) >= 2
    started = time.monotonic()
    stop_pool(pool)
    assert time.monotonic() - started < 5
    assert wait_gone(workers, 5) == []
    assert all(f.done() for f in futures)


def test_a_terminated_worker_takes_its_programs_with_it() -> None:
    pool = WorkerPool(1)
    pool.submit(_run_sleep, 60)
    family = _family_with_sleep(os.getpid())  # the worker and the program it runs
    stop_pool(pool)
    assert wait_gone(family, 5) == []


@pytest.mark.parametrize("death_signal", [True, False], ids=["pdeathsig", "watchdog"])
def test_workers_exit_when_their_parent_is_killed(death_signal: bool) -> None:
    """With Linux's parent-death signal, and with the fallback that polls getppid()."""
    parent = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import time
        from buildds import workers
        from tests.test_workers import _nap, _run_sleep
        if not {death_signal}:
            workers._die_with_parent = lambda: False  # as where prctl does not exist
        pool = workers.WorkerPool(2)
        futures = [pool.submit(_run_sleep, 60), pool.submit(_nap, 60)]
        print("ready", flush=True)
        time.sleep(60)
    """)], stdout=subprocess.PIPE, text=True, cwd=os.getcwd())
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "ready"
        family = _family_with_sleep(parent.pid)
        assert len(family) >= 3  # two workers and the program one runs
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(10)
        assert wait_gone(family, 5) == []
    finally:
        parent.kill()
        parent.wait()


def _temp_file_then_nap(seconds: float) -> str:
    import tempfile

    fd, path = tempfile.mkstemp(suffix=".png")  # as pytesseract writes a page render
    os.close(fd)
    time.sleep(seconds)
    return path


def _own_worker_folders() -> list[Path]:
    import tempfile

    return sorted(Path(tempfile.gettempdir()).glob(f"buildds-{os.getpid()}-*"))


def test_worker_temporary_files_are_removed_at_shutdown_and_at_stop() -> None:
    pool = WorkerPool(2)
    paths = list(pool.map(_temp_file_then_nap, [0.0, 0.0, 0.0]))
    assert all(Path(p).parent.name.startswith(f"buildds-{os.getpid()}-") for p in paths)
    assert _own_worker_folders()
    pool.shutdown()
    assert _own_worker_folders() == []

    pool = WorkerPool(1)
    pool.submit(_temp_file_then_nap, 30.0)
    deadline = time.monotonic() + 10
    while not _own_worker_folders() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _own_worker_folders()
    stop_pool(pool)  # SIGTERM mid-task: nothing left behind
    assert _own_worker_folders() == []


def test_work_failed_by_stop_is_not_failed_again_by_the_manager_thread(monkeypatch) -> None:
    """stop_pool fails the work the pool still holds (its manager thread can hang on some
    CPython 3.11 releases); when the manager does wake and fails the same work, that must not
    raise InvalidStateError in its thread — a traceback printed after "interrupted"."""
    import threading
    from concurrent.futures.process import BrokenProcessPool

    from buildds import workers

    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    pool = WorkerPool(1)
    future = pool.submit(_nap, 30)
    deadline = time.monotonic() + 20
    while not future.running() and time.monotonic() < deadline:
        time.sleep(0.02)
    processes = list(pool._processes.values())
    manager = pool._executor_manager_thread
    assert manager is not None and manager.is_alive()
    workers._fail_pending(pool)  # as stop_pool does while the manager thread still runs
    assert isinstance(future.exception(timeout=5), BrokenProcessPool)
    for proc in processes:  # now the manager sees its worker die and fails the pending work
        proc.kill()
    manager.join(20)
    pool.shutdown(wait=True)
    assert not manager.is_alive()
    assert raised == []
