"""``read_documents(..., jobs > 1)``: one OCR process pool over all the pages of a batch.

Phase 1 (this process): every file is checked and classified; text-layer PDFs are read here
(their textless pages, if any, become OCR tasks), scans and images become one task per page.
Phase 2: the pool reads .docx/.odt files whole and OCRs the pages of all documents, largest
first. Phase 3 (this process): each document is assembled as
:func:`~buildds.extract.contracts.document.read_document` does and yielded in input order.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.errors import ExtractError
from buildds.extract.contracts.document import file_options, read_one
from buildds.extract.contracts.errors import contract_error, failure_problem
from buildds.extract.contracts.filetype import IMAGE_SUFFIXES, load_file
from buildds.extract.contracts.image import finish_image
from buildds.extract.contracts.pdf import finish_pdf, plan_pdf
from buildds.schema import Problem
from buildds.schema.contracts import ContractDocument
from buildds.workers import WorkerPool, stop_pool

if TYPE_CHECKING:
    from buildds.extract.ocr import OcrPage

#: stands for a frame that was not asked for (``pages``); finish_image drops it unread
_UNREAD: Any = None


_BATCH_OPTIONS = frozenset({"password", "ocr_lang", "processes", "ocr", "pages", "max_pages"})


@dataclass
class _Entry:
    """One file of a parallel batch: read already (``doc``/``problem``), read whole by a
    worker (``whole``), or waiting for its OCR pages (``finish`` once ``ocr`` is complete)."""

    path: Path
    name: str
    doc: ContractDocument | None = None
    problem: Problem | None = None
    whole: Any = None
    finish: Callable[[dict[int, OcrPage]], ContractDocument] | None = None
    ocr: dict[int, Any] = field(default_factory=dict)  # page -> Future[OcrPage]


def _plan_entry(entry: _Entry, kwargs: dict[str, object], tasks: list[tuple[float, Any]]) -> None:
    """Phase 1 (this process): classify the file; read what needs no OCR, list the OCR page
    tasks ``(pixels, task)`` of a scan or image and set ``entry.finish``. A PDF page is
    rendered at the resolution :func:`~buildds.extract.pdf.ocr_pages.plan_pages` gives it, and
    one with nothing on it is read as blank here, without a task."""
    import concurrent.futures as cf

    from buildds.extract.ocr.dependencies import check_tesseract
    from buildds.extract.ocr.images import image_frames
    from buildds.extract.ocr.job import DEFAULT_DPI, DEFAULT_PSM, blank_page, make_job
    from buildds.extract.page_limit import MAX_PAGES
    from buildds.extract.pdf.document import open_pdf
    from buildds.extract.pdf.ocr_pages import plan_pages

    path, name = entry.path, entry.name
    ocr_lang = str(kwargs.get("ocr_lang", "auto"))
    ocr = bool(kwargs.get("ocr", True))
    password = kwargs.get("password")
    pages = kwargs.get("pages")
    max_pages: Any = kwargs.get("max_pages", MAX_PAGES)
    suffix, data = load_file(path, name)
    if suffix == ".pdf":
        plan = plan_pdf(path, name, password=password, ocr=ocr,  # type: ignore[arg-type]
                         ocr_lang=ocr_lang, pages=pages,  # type: ignore[arg-type]
                         max_pages=max_pages)
        if plan.ocr_pages:
            job = make_job(ocr_lang, DEFAULT_PSM, DEFAULT_DPI, True, name, 0)
            pdf, _ = open_pdf(path, password=password,  # type: ignore[arg-type]
                              display_name=name)
            try:
                page_dpis = plan_pages(pdf, plan.ocr_pages, job.dpi, name)
            finally:
                pdf.close()
            sizes = {pg.number: pg.width * pg.height for pg in plan.doc.pages}
            for n in plan.ocr_pages:
                dpi = page_dpis[n]
                if dpi is None:  # nothing on the page: no task
                    entry.ocr[n] = cf.Future()
                    entry.ocr[n].set_result(blank_page(n))
                    continue
                page_job = job if dpi == job.dpi else dataclasses.replace(job, dpi=dpi)
                tasks.append((sizes[n] * (dpi / 72) ** 2,
                              (entry, n, (page_job, "pdf", str(path), n, password))))
        entry.finish = lambda results: finish_pdf(
            plan, {n: results[n] for n in plan.ocr_pages})
    elif suffix in IMAGE_SUFFIXES:
        if not ocr:
            raise contract_error("no text found (an image needs OCR and OCR is off)", name,
                                 "no_text")
        check_tesseract(ocr_lang)
        frames, image_dpi = image_frames(path, name, max_pages)
        job = make_job(ocr_lang, DEFAULT_PSM, image_dpi, True, name, 0)
        wanted = set(pages) if pages else None  # type: ignore[call-overload]
        numbers = [n for n in range(1, len(frames) + 1) if wanted is None or n in wanted]
        for n in numbers:
            width, height = frames[n - 1].size
            tasks.append((width * height, (entry, n, (job, "image", str(path), n, None))))
        count = len(frames)
        del frames  # the workers load their frame themselves
        # frames not asked for are not read; finish_image drops them anyway
        entry.finish = lambda results: finish_image(
            name, data, [results.get(n, _UNREAD) for n in
                         range(1, count + 1)], ocr_lang=ocr_lang,
            pages=pages)  # type: ignore[arg-type]
    else:
        entry.whole = True  # .docx / .odt: read whole by a worker


def read_batch(items: list[tuple[Path, str]], jobs: int, kwargs: dict[str, object]
                ) -> Iterator[tuple[Path, ContractDocument | None, list[Problem]]]:
    """``read_documents(..., jobs > 1)``: one process pool for the whole batch.

    Phase 1 (here): every file is checked and classified; text-layer PDFs are read here (their
    textless pages, if any, become OCR tasks), scans and images become one task per page.
    Phase 2: a pool of ``jobs`` processes reads .docx/.odt files whole and OCRs the pages of all
    documents, largest pages first (longest-processing-time order by pixel count) so the workers
    finish together; a worker renders its PDF page itself (pdfium is not thread-safe, and never
    runs in a thread here). Phase 3 (here): each document is assembled as
    :func:`~buildds.extract.contracts.document.read_document` does, and yielded in input
    order as soon as its pages are done."""
    import multiprocessing

    from buildds.extract.ocr.worker_pool import worker_init
    from buildds.extract.pdf.page_task import ocr_page_task

    unknown = set(kwargs) - _BATCH_OPTIONS
    if unknown:
        raise TypeError(f"read_documents() got unexpected option(s) {sorted(unknown)}")
    entries = [_Entry(path, name) for path, name in items]
    tasks: list[tuple[float, Any]] = []
    for entry in entries:
        try:
            _plan_entry(entry, file_options(kwargs, entry.name), tasks)
        except Exception as exc:  # noqa: BLE001 - one bad file (or a bug) must not stop the batch
            entry.problem = failure_problem(exc, entry.name)
            entry.finish = None
    if not tasks and not any(e.whole for e in entries):
        pool = None
    else:
        context = multiprocessing.get_context("fork" if os.name == "posix" else None)
        pool = WorkerPool(jobs, mp_context=context, initializer=worker_init)
    try:
        if pool is not None:
            for entry in entries:  # LibreOffice conversions and .docx first: cost unknown
                if entry.whole:
                    options = dict(file_options(kwargs, entry.name), processes=1)
                    entry.whole = pool.submit(read_one, entry.path, entry.name, options)
            for _, (entry, n, task) in sorted(tasks, key=lambda t: -t[0]):
                entry.ocr[n] = pool.submit(ocr_page_task, task)
        for entry in entries:
            yield entry.path, *_collect(entry)
    except BaseException:
        # Ctrl-C, or the caller stopped early (GeneratorExit): end the workers now instead
        # of waiting for the pages and documents they are reading
        if pool is not None:
            stop_pool(pool)
        raise
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _collect(entry: _Entry) -> tuple[ContractDocument | None, list[Problem]]:
    """Phase 3: wait for one file's work and assemble its document."""
    import concurrent.futures as cf

    if entry.problem is not None:
        return None, [entry.problem]
    if entry.whole is not None:
        try:
            return entry.whole.result()  # type: ignore[no-any-return]
        except Exception as exc:  # noqa: BLE001 - a worker died (killed, out of memory)
            return None, [Problem(stage="extract", code="internal_error", source=entry.name,
                                  message=f"worker failed: {type(exc).__name__}: {exc}")]
    assert entry.finish is not None
    results: dict[int, OcrPage] = {}
    failed: dict[int, BaseException] = {}
    for n, future in entry.ocr.items():
        try:
            results[n] = future.result()
        except cf.BrokenExecutor:
            failed[n] = ExtractError("an OCR worker process died (out of memory?); try fewer "
                                     "processes", source=entry.name)
        except Exception as exc:  # noqa: BLE001 - reported like the serial path would
            failed[n] = exc
    return _finish_entry(entry, results, failed)


def _finish_entry(entry: _Entry, pages: dict[int, OcrPage], failed: dict[int, BaseException]
                  ) -> tuple[ContractDocument | None, list[Problem]]:
    """The document of ``entry`` from its OCR'd pages, or the failure a serial read would
    have met first (a failed page, or the assembly itself) as the file's problem."""
    assert entry.finish is not None
    try:
        if failed:
            raise failed[min(failed)]  # the page a serial read would have failed on first
        doc = entry.finish(pages)
    except Exception as exc:  # noqa: BLE001 - one bad file (or a bug) must not stop the batch
        return None, [failure_problem(exc, entry.name)]
    return doc, list(doc.problems)
