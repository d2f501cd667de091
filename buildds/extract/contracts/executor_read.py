"""``read_documents(..., executor=…)``: a batch's documents and OCR pages as executor tasks.

The same three phases as :mod:`~buildds.extract.contracts.ocr_pool`, streamed through
:meth:`buildds.executors.Executor.map` (a local process pool or Ray tasks):

1. (here, lazily, file by file as the executor asks for work) each file is checked and
   classified; a text-layer PDF is read here (its textless pages become OCR tasks), a scan or
   image becomes one task per page, a .docx/.odt file one task read whole by a worker;
2. (the executor) the tasks run with a bounded number in flight, their results in input
   order;
3. (here) a file whose tasks have all come back is assembled exactly as
   :func:`~buildds.extract.contracts.document.read_document` does and yielded, in input
   order — so the documents, their problems and the order are those of a serial read, and
   only the files being worked on are held in memory.

A task returns its failure as data (:func:`contract_task`): a page that cannot be read fails
its own file (the first failing page, as a serial read would), never the batch.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.extract.contracts.document import file_options, read_one
from buildds.extract.contracts.errors import failure_problem
from buildds.extract.contracts.ocr_pool import _BATCH_OPTIONS, _Entry, _finish_entry, _plan_entry
from buildds.schema import Problem
from buildds.schema.contracts import ContractDocument

if TYPE_CHECKING:
    from buildds.executors import Executor

__all__ = ["contract_task", "read_on_executor"]


def contract_task(task: tuple[str, Any]) -> tuple[bool, Any]:
    """One executor task: ``("whole", (path, name, options))`` reads a .docx/.odt file
    (→ ``(document or None, problems)``), ``("page", page task)`` OCRs one page
    (:func:`~buildds.extract.pdf.page_task.ocr_page_task`, one tesseract thread). Returns
    ``(True, result)`` or ``(False, the exception)``: failures are data."""
    from buildds.extract.ocr.worker_pool import single_thread_tesseract
    from buildds.extract.pdf.page_task import ocr_page_task

    kind, payload = task
    try:
        with single_thread_tesseract():  # one tesseract thread per task (restored after)
            if kind == "whole":
                path, name, options = payload
                return True, read_one(Path(path), name, options)
            return True, ocr_page_task(payload)
    except Exception as exc:  # noqa: BLE001 - the file's problem, reported by its owner
        return False, exc


def _tasks(entries: list[_Entry], kwargs: dict[str, object], owners: deque[tuple[_Entry, int]],
           planned: deque[_Entry]) -> Iterator[tuple[str, Any]]:
    """Phase 1, lazily: plan each file, note it in ``planned``, and yield its tasks (each
    task's file and page noted in ``owners``, in the order they are yielded)."""
    for entry in entries:
        tasks: list[tuple[float, Any]] = []
        try:
            _plan_entry(entry, file_options(kwargs, entry.name), tasks)
        except Exception as exc:  # noqa: BLE001 - one bad file (or a bug) must not stop the batch
            entry.problem = failure_problem(exc, entry.name)
            entry.finish = None
        entry.whole = bool(entry.whole) if entry.problem is None else None
        pages = sorted(((n, t) for _, (_, n, t) in tasks), key=lambda p: p[0])
        for n, _ in pages:  # every page known before any comes back: the file waits for all
            entry.ocr.setdefault(n, None)
        planned.append(entry)
        if entry.whole:
            owners.append((entry, 0))
            options = dict(file_options(kwargs, entry.name), processes=1)
            yield "whole", (str(entry.path), entry.name, options)
        for n, task in pages:
            owners.append((entry, n))
            yield "page", task


def read_on_executor(items: list[tuple[Path, str]], executor: Executor,
                     kwargs: dict[str, object]
                     ) -> Iterator[tuple[Path, ContractDocument | None, list[Problem]]]:
    """``(path, document or None, problems)`` for each ``(path, recorded name)``, in order
    (see the module docstring). Options as for ``read_documents(jobs > 1)``."""
    unknown = set(kwargs) - _BATCH_OPTIONS
    if unknown:
        raise TypeError(f"read_documents() got unexpected option(s) {sorted(unknown)}")
    entries = [_Entry(path, name) for path, name in items]
    owners: deque[tuple[_Entry, int]] = deque()
    planned: deque[_Entry] = deque()
    results = executor.map(contract_task, _tasks(entries, kwargs, owners, planned))
    for ok, value in results:
        entry, n = owners.popleft()
        if entry.whole:
            entry.whole = (ok, value)
        else:
            entry.ocr[n] = (ok, value)
        yield from _ready(planned)
    yield from _ready(planned)


def _done(entry: _Entry) -> bool:
    if entry.problem is not None:
        return True
    if entry.whole:
        return isinstance(entry.whole, tuple)
    return all(v is not None for v in entry.ocr.values())


def _ready(planned: deque[_Entry]
           ) -> Iterator[tuple[Path, ContractDocument | None, list[Problem]]]:
    """Phase 3: the files at the front of ``planned`` whose tasks are all back, assembled."""
    while planned and _done(planned[0]):
        entry = planned.popleft()
        yield entry.path, *_assemble(entry)


def _assemble(entry: _Entry) -> tuple[ContractDocument | None, list[Problem]]:
    """One file's document from its tasks' results (as ``ocr_pool``'s phase 3 does)."""
    import concurrent.futures as cf

    if entry.problem is not None:
        return None, [entry.problem]
    if entry.whole:
        ok, value = entry.whole
        if ok:
            return value  # type: ignore[no-any-return]
        return None, [failure_problem(value, entry.name)]
    assert entry.finish is not None
    pages: dict[int, Any] = {}
    failed: dict[int, BaseException] = {}
    for n, outcome in entry.ocr.items():
        if isinstance(outcome, cf.Future):  # a blank page, read in phase 1
            pages[n] = outcome.result()
            continue
        ok, value = outcome
        if ok:
            pages[n] = value
        else:
            failed[n] = value
    entry.ocr.clear()
    return _finish_entry(entry, pages, failed)
