"""OCR of PDF pages: render each page with pypdfium2 in greyscale, read it with tesseract.

Pages are rendered in the calling process (pdfium is not thread-safe) and read by the worker
pool of :mod:`buildds.extract.ocr.worker_pool`; the OCR settings and their measurements are in
:mod:`buildds.extract.ocr`. A page is rendered at ``dpi`` unless that
would make more than :data:`~buildds.extract.ocr.job.MAX_PAGE_PIXELS` pixels; then at the
highest resolution that fits, and when even :data:`~buildds.extract.ocr.job.MIN_OCR_DPI`
does not fit, the page raises :class:`LimitExceeded` naming the file and page
(:func:`page_dpi`). A page with nothing on it (no page object, no annotation) is not
rendered, and a render that is blank paper is not given to tesseract: both come back as
:func:`~buildds.extract.ocr.job.blank_page` (``blank=True``), as tesseract would read them.
Part of :mod:`buildds.extract.pdf`: the PDF reader (:mod:`buildds.extract.pdf.lines`) sends
its pages without a text layer here, and this module hands their images to the OCR package,
which knows nothing of PDFs.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from buildds.errors import LimitExceeded, PdfError
from buildds.extract.ocr.job import (
    DEFAULT_DPI,
    DEFAULT_PSM,
    MAX_PAGE_PIXELS,
    MIN_OCR_DPI,
    OcrPage,
    blank_page,
    is_blank,
    make_job,
)
from buildds.extract.ocr.worker_pool import run_pages
from buildds.extract.pdf.document import open_pdf
from buildds.safeio import LIMITS

__all__ = ["ocr_pdf_pages", "page_dpi", "plan_pages", "render_page"]


def page_dpi(width: float, height: float, dpi: float, *, name: str, page: int,
             max_pixels: int = MAX_PAGE_PIXELS) -> float:
    """The resolution to render a ``width`` × ``height`` pt page at: ``dpi`` when the image
    has at most ``max_pixels`` pixels, else the highest whole dpi that fits; raises
    :class:`LimitExceeded` when that is below :data:`MIN_OCR_DPI`."""
    area = width * height  # square points
    if area <= 0 or area * (dpi / 72) ** 2 <= max_pixels:
        return dpi
    fitting = math.floor(72 * math.sqrt(max_pixels / area))
    if fitting < MIN_OCR_DPI:
        at_min = round(area * (MIN_OCR_DPI / 72) ** 2)
        raise LimitExceeded(
            f"page of {width:,.0f} × {height:,.0f} pt rendered for OCR at {MIN_OCR_DPI} dpi "
            "(the least that reads well) would have", f"{at_min:,} pixels",
            f"{max_pixels:,} pixels", option=LIMITS["page_pixels"].how_to_raise, source=name,
            page=page)
    return float(fitting)


def _is_empty(page: Any) -> bool:
    """Nothing would be drawn: no page object and no annotation."""
    import pypdfium2.raw as pdfium_c

    return bool(pdfium_c.FPDFPage_CountObjects(page.raw) == 0
                and pdfium_c.FPDFPage_GetAnnotCount(page.raw) == 0)


def plan_pages(doc: Any, pages: Sequence[int], dpi: float, name: str,
               max_pixels: int = MAX_PAGE_PIXELS) -> dict[int, float | None]:
    """For each page (1-based) of an open pdfium document: the dpi to render it at
    (:func:`page_dpi`), or ``None`` when the page is empty and needs no OCR. Raises
    :class:`PdfError` for a page out of range or unreadable, :class:`LimitExceeded` for one
    too large to render."""
    import pypdfium2 as pdfium

    plan: dict[int, float | None] = {}
    for number in pages:
        if not 1 <= number <= len(doc):
            raise PdfError(f"no such page (the PDF has {len(doc)})", source=name, page=number)
        try:
            page = doc[number - 1]
            try:
                width, height = page.get_size()
                empty = _is_empty(page)
            finally:
                page.close()
        except pdfium.PdfiumError as exc:
            raise PdfError(f"cannot read page ({exc})", source=name, page=number) from exc
        plan[number] = None if empty else page_dpi(width, height, dpi, name=name, page=number,
                                                   max_pixels=max_pixels)
    return plan


def render_page(doc: Any, number: int, dpi: float, name: str) -> Any:
    """Page ``number`` (1-based) of an open pdfium document as a greyscale PIL image."""
    import pypdfium2 as pdfium

    try:
        page = doc[number - 1]
        try:
            bitmap = page.render(scale=dpi / 72, grayscale=True)
            image = bitmap.to_pil()
        finally:
            page.close()
    except pdfium.PdfiumError as exc:
        raise PdfError(f"cannot render page ({exc})", source=name, page=number) from exc
    return image.convert("L")


def ocr_pdf_pages(
    path: str | Path,
    pages: Sequence[int],
    *,
    lang: str = "jpn",
    processes: int | None = None,
    password: str | None = None,
    source_path: str | None = None,
    dpi: int = DEFAULT_DPI,
    psm: int = DEFAULT_PSM,
    detect_orientation: bool = True,
    timeout: int = 0,
    max_pixels: int = MAX_PAGE_PIXELS,
) -> dict[int, OcrPage]:
    """OCR the listed pages (1-based) of a PDF; returns ``{page: OcrPage}``.

    Pages are rendered here (pdfium is not thread-safe and stays in this process) and read
    by ``processes`` workers (default: one per core; see the module docstring of
    :mod:`buildds.extract.ocr` for what happens inside a pool worker). ``timeout`` (seconds,
    0 = none) bounds each tesseract run. Blank pages are not read (``blank=True``); a page
    larger than ``max_pixels`` at ``dpi`` is rendered at a lower resolution (see the module
    docstring).
    Raises :class:`MissingDependency` when tesseract or the language data is missing,
    :class:`PdfError` for an unreadable PDF or a page out of range, :class:`LimitExceeded`
    for a page too large to render and :class:`ExtractError` when tesseract fails on a
    page."""
    path = Path(path)
    name = source_path or str(path)
    wanted = list(dict.fromkeys(int(p) for p in pages))
    if not wanted:
        return {}
    job = make_job(lang, psm, dpi, detect_orientation, name, timeout)
    doc, _ = open_pdf(path, password=password, display_name=name)
    results: dict[int, OcrPage] = {}
    try:
        plan = plan_pages(doc, wanted, job.dpi, name, max_pixels)
        results.update((n, blank_page(n)) for n, d in plan.items() if d is None)
        # one pool run per resolution: boxes are turned into points with the job's dpi
        for page_dpi_ in dict.fromkeys(d for d in plan.values() if d is not None):
            numbers = [n for n, d in plan.items() if d == page_dpi_]
            page_job = job if page_dpi_ == job.dpi else dataclasses.replace(job, dpi=page_dpi_)

            def rendered(numbers: list[int] = numbers, at: float = page_dpi_
                         ) -> Iterator[tuple[int, Any]]:
                for number in numbers:
                    image = render_page(doc, number, at, name)
                    if is_blank(image):  # not worth sending to a worker
                        results[number] = blank_page(number)
                        continue
                    yield number, image

            results.update(run_pages(page_job, rendered(), len(numbers), processes))
    finally:
        doc.close()
    return {number: results[number] for number in wanted}
