"""Worker processes that stop when they should: on Ctrl-C, and when their parent dies.

Every process pool buildds starts is a :class:`WorkerPool` (a
:class:`concurrent.futures.ProcessPoolExecutor`):

* its workers ignore SIGINT — a Ctrl-C reaches the whole foreground process group, and only
  the parent should handle it (a worker's own ``KeyboardInterrupt`` prints a traceback and
  can leave the pool waiting forever). SIGINT is blocked while the parent forks, so not even
  a just-forked worker can catch one; the tesseract processes a worker starts inherit the
  ignored SIGINT;
* its workers die with their parent: ``prctl(PR_SET_PDEATHSIG, SIGTERM)`` on Linux (the
  signal comes when the thread that forked the worker ends; pools are created and fed from
  the thread that runs the build), else a daemon thread that polls ``os.getppid()``. A
  parent killed with kill -9 therefore leaves no workers behind. A worker that gets SIGTERM
  passes it on to the programs it started (tesseract, LibreOffice) before it exits;
* :func:`stop_pool` ends a pool at once — pending work cancelled, workers sent SIGTERM
  (SIGKILL after a grace period) — instead of ``shutdown(wait=True)``, which waits for the
  running work and, at interpreter exit, for every queued item too. Pools still alive are
  tracked, so :func:`stop_all_pools` (the command line calls it on Ctrl-C) can end them
  even when the exception left them behind in a suspended generator;
* each worker keeps its temporary files (pytesseract's page images, LibreOffice's
  conversions) in a folder of its own, ``buildds-<parent pid>-<pid>-*`` under the system's
  temporary folder, removed when the worker exits or is terminated, and by the parent after
  it stopped a pool — a Ctrl-C leaves no page renders behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

__all__ = ["WorkerPool", "stop_all_pools", "stop_pool", "worker_setup"]

_PR_SET_PDEATHSIG = 1
_WATCH_SECONDS = 0.5
_LIVE: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()


def _die_with_parent() -> bool:
    """Ask Linux to send SIGTERM when the parent dies; False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)) == 0
    except (OSError, AttributeError):  # pragma: no cover - no prctl in this libc
        return False


def _watch_parent(parent: int) -> None:
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_SECONDS)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="buildds-parent-watch", daemon=True).start()


def _child_pids() -> list[int]:
    """This process's children (Linux ``/proc``; elsewhere none are known)."""
    me, found = os.getpid(), []
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    with open(f"/proc/{name}/stat", "rb") as fh:
                        stat = fh.read()
                    if int(stat[stat.rindex(b")") + 2:].split()[1]) == me:
                        found.append(int(name))
    return found


_WORKER_TMP: list[str] = []  # this worker's temporary folder, once made


def _worker_tmp_prefix(parent: int | None) -> str:
    return f"buildds-{parent if parent is not None else 0}-"


def _use_own_tmp(parent: int | None) -> None:
    """Point tempfile (pytesseract) and TMPDIR (programs started) at a folder of this
    worker's own, removed when the worker ends."""
    from multiprocessing.util import Finalize

    folder = tempfile.mkdtemp(prefix=f"{_worker_tmp_prefix(parent)}{os.getpid()}-")
    _WORKER_TMP.append(folder)
    tempfile.tempdir = folder
    os.environ["TMPDIR"] = folder
    Finalize(None, shutil.rmtree, args=(folder,), kwargs={"ignore_errors": True},
             exitpriority=0)


def _remove_worker_tmp() -> None:
    for folder in _WORKER_TMP:
        shutil.rmtree(folder, ignore_errors=True)


def _terminated(signum: int, frame: object) -> None:
    # the programs a worker started (tesseract, LibreOffice) go with it, instead of
    # running on for their page or document
    children = _child_pids()
    for pid in children:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 1.0  # they may still be writing into the folder
    waiting = set(children)
    while waiting and time.monotonic() < deadline:
        for pid in list(waiting):
            with contextlib.suppress(OSError):
                if os.waitpid(pid, os.WNOHANG)[0] == 0:
                    continue
            waiting.discard(pid)
        time.sleep(0.02)
    _remove_worker_tmp()
    os._exit(128 + signum)


def _remove_stopped_workers_tmp() -> None:
    """The temporary folders of this process's workers (after its pools were stopped: a
    worker killed with SIGKILL could not remove its own)."""
    base = Path(tempfile.gettempdir())
    for folder in base.glob(f"{_worker_tmp_prefix(os.getpid())}*"):
        shutil.rmtree(folder, ignore_errors=True)


def worker_setup(initializer: Callable[[], None] | None = None) -> None:
    """Run first in every pool worker (see the module docstring), then ``initializer``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)
    with contextlib.suppress(AttributeError, OSError, ValueError):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent_process = multiprocessing.parent_process()
    parent = parent_process.pid if parent_process is not None else None
    if not _die_with_parent() and parent is not None:
        _watch_parent(parent)
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent died before the death signal was armed
    _use_own_tmp(parent)
    if initializer is not None:
        initializer()


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """SIGINT held back in this thread (and so in a process forked meanwhile); a Ctrl-C that
    came in the meantime is delivered when the block ends."""
    try:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    except (AttributeError, OSError, ValueError):  # pragma: no cover - no pthread_sigmask
        yield
        return
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class WorkerPool(ProcessPoolExecutor):
    """A ``ProcessPoolExecutor`` whose workers run :func:`worker_setup` before
    ``initializer``, tracked for :func:`stop_all_pools`."""

    def __init__(self, max_workers: int | None = None, *, mp_context: Any = None,
                 initializer: Callable[[], None] | None = None):
        super().__init__(max_workers, mp_context=mp_context, initializer=worker_setup,
                         initargs=(initializer,))
        _LIVE.add(self)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        # workers are forked inside submit: with SIGINT blocked they never run the default
        # handler before worker_setup ignores it
        with _sigint_blocked():
            return super().submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        _LIVE.discard(self)
        super().shutdown(wait=wait, cancel_futures=cancel_futures)


def stop_pool(pool: ProcessPoolExecutor, *, grace: float = 2.0) -> None:
    """End ``pool`` now: cancel what has not started, terminate the workers (SIGTERM, then
    SIGKILL after ``grace`` seconds) and do not wait for running work."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    with contextlib.suppress(Exception):
        pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.terminate()
    deadline = time.monotonic() + grace
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.kill()
                proc.join(1.0)
    _forget_manager_thread(pool, timeout=grace)
    _fail_pending(pool)
    _LIVE.discard(pool)
    if not _LIVE:  # another live pool's workers still use theirs
        _remove_stopped_workers_tmp()


def _fail_pending(pool: ProcessPoolExecutor) -> None:
    """Work the stopped pool still holds ends as failed. The manager thread does that when it
    sees its workers die, but on some CPython 3.11 releases it can hang instead, and whoever
    waits on those futures would wait for ever."""
    from concurrent.futures.process import BrokenProcessPool

    items = list((getattr(pool, "_pending_work_items", None) or {}).values())
    for item in items:
        future = getattr(item, "future", None)
        if future is not None and not future.done():
            # the manager thread, if it wakes after all, fails the work item's future too;
            # setting an exception twice raises InvalidStateError in that thread (a traceback
            # after "interrupted"), so it is handed a stand-in of its own
            with contextlib.suppress(Exception):
                item.future = Future()
            with contextlib.suppress(Exception):  # the manager may have just set it
                future.set_exception(BrokenProcessPool("the worker pool was stopped"))


def _forget_manager_thread(pool: ProcessPoolExecutor, *, timeout: float) -> None:
    """Let the pool's manager thread see its dead workers and end, and take it off
    concurrent.futures' exit hook: that hook wakes every manager it knows through a pipe,
    which may already be closed after a terminate — printing "Exception ignored … Bad file
    descriptor" after our one-line "interrupted"."""
    import concurrent.futures.process as cf_process

    thread = getattr(pool, "_executor_manager_thread", None)
    if thread is None:
        return
    with contextlib.suppress(Exception):
        thread.join(timeout)
    wakeups = getattr(cf_process, "_threads_wakeups", None)
    if wakeups is not None and not thread.is_alive():
        with contextlib.suppress(Exception):
            wakeups.pop(thread, None)


def stop_all_pools() -> None:
    """:func:`stop_pool` every :class:`WorkerPool` of this process still running."""
    for pool in list(_LIVE):
        stop_pool(pool)
