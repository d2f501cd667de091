"""Running tesseract on many pages at once: one single-threaded tesseract per core.

:func:`run_pages` hands (page, image) pairs to a :class:`concurrent.futures.ProcessPoolExecutor`
(``fork`` on POSIX) with one worker per usable core, each started by :func:`worker_init` with
``OMP_THREAD_LIMIT=1``; a serial run sets it too, for the duration of the call
(:func:`single_thread_tesseract`). The pool is a :class:`buildds.workers.WorkerPool`: its
workers ignore Ctrl-C (and so do their tesseracts) and die with their parent, and an
interrupt terminates them instead of waiting for the pages in flight. Inside a daemonic
``multiprocessing.Pool`` worker, which may not start processes, pages run serially or on
threads (see :mod:`buildds.extract.ocr`).
Part of :mod:`buildds.extract.ocr`.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
import os
from collections.abc import Callable, Iterator
from typing import Any

from buildds.errors import ExtractError
from buildds.extract.ocr.job import OcrJob, OcrPage
from buildds.extract.ocr.one_image import ocr_one_image
from buildds.workers import WorkerPool, stop_pool

__all__ = ["run_pages", "single_thread_tesseract", "worker_init"]


def worker_init() -> None:
    # Before pytesseract spawns anything: one OpenMP thread per tesseract, one tesseract
    # per worker process.
    os.environ["OMP_THREAD_LIMIT"] = "1"


@contextlib.contextmanager
def single_thread_tesseract() -> Iterator[None]:
    """OMP_THREAD_LIMIT=1 for tesseracts started from this process, restored afterwards
    (a value the user set is left alone)."""
    if "OMP_THREAD_LIMIT" in os.environ:
        yield
        return
    os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        yield
    finally:
        os.environ.pop("OMP_THREAD_LIMIT", None)


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def _worker_deaths(source: str) -> Iterator[None]:
    try:
        yield
    except cf.BrokenExecutor as exc:
        raise ExtractError(
            "an OCR worker process died (out of memory?); try fewer processes", source=source
        ) from exc


def _same(image: Any) -> Any:
    return image


def _to_bytes(image: Any) -> tuple[str, tuple[int, int], bytes]:
    return (image.mode, image.size, image.tobytes())


def run_pages(
    job: OcrJob, items: Iterator[tuple[int, Any]], count: int, processes: int | None
) -> dict[int, OcrPage]:
    """Read ``count`` (page, PIL image) pairs produced lazily by ``items``."""
    daemonic = multiprocessing.current_process().daemon
    if processes is None:
        workers = 1 if daemonic else _cpu_count()
    else:
        workers = max(1, int(processes))
    workers = min(workers, count)
    results: dict[int, OcrPage] = {}
    if workers <= 1:
        with single_thread_tesseract():
            for page, image in items:
                results[page] = ocr_one_image((job, page, image))
        return results

    executor: cf.Executor
    env: contextlib.AbstractContextManager[None]
    if daemonic:
        # A multiprocessing.Pool worker may not start processes; threads can still each
        # drive a tesseract subprocess.
        executor = cf.ThreadPoolExecutor(workers)
        pack: Callable[[Any], Any] = _same
        env = single_thread_tesseract()
    else:
        context = multiprocessing.get_context("fork" if os.name == "posix" else None)
        executor = WorkerPool(workers, mp_context=context, initializer=worker_init)
        pack = _to_bytes
        env = contextlib.nullcontext()
    with env, executor, _worker_deaths(job.source):
        pending: dict[cf.Future[OcrPage], int] = {}
        try:
            for page, image in items:
                # keep at most two images per worker in flight (a 300-dpi A4 page is ~9 MB)
                while len(pending) >= 2 * workers:
                    done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                    for fut in done:
                        results[pending.pop(fut)] = fut.result()
                pending[executor.submit(ocr_one_image, (job, page, pack(image)))] = page
            for fut in cf.as_completed(list(pending)):
                results[pending.pop(fut)] = fut.result()
        except BaseException as exc:
            for fut in pending:
                fut.cancel()
            if not isinstance(exc, Exception) and isinstance(executor, WorkerPool):
                stop_pool(executor)  # Ctrl-C: do not wait for the pages being read
            raise
    return results
