"""OCR of PDF pages: render each page with pypdfium2 in greyscale, read it with tesseract.

Pages are rendered in the calling process (pdfium is not thread-safe) and read by the worker
pool of :mod:`buildds.extract.ocr_worker_pool`. Part of :mod:`buildds.extract.ocr`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from buildds.errors import PdfError
from buildds.extract.ocr_job import DEFAULT_DPI, DEFAULT_PSM, OcrPage, make_job
from buildds.extract.ocr_worker_pool import run_pages
from buildds.extract.pdf import open_pdf

__all__ = ["ocr_pdf_pages", "render_page"]


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
) -> dict[int, OcrPage]:
    """OCR the listed pages (1-based) of a PDF; returns ``{page: OcrPage}``.

    Pages are rendered here (pdfium is not thread-safe and stays in this process) and read
    by ``processes`` workers (default: one per core; see the module docstring of
    :mod:`buildds.extract.ocr` for what happens inside a pool worker). ``timeout`` (seconds,
    0 = none) bounds each tesseract run.
    Raises :class:`MissingDependency` when tesseract or the language data is missing,
    :class:`PdfError` for an unreadable PDF or a page out of range and :class:`ExtractError`
    when tesseract fails on a page."""
    path = Path(path)
    name = source_path or str(path)
    wanted = list(dict.fromkeys(int(p) for p in pages))
    if not wanted:
        return {}
    job = make_job(lang, psm, dpi, detect_orientation, name, timeout)
    doc, _ = open_pdf(path, password=password, display_name=name)
    try:
        for number in wanted:
            if not 1 <= number <= len(doc):
                raise PdfError(f"no such page (the PDF has {len(doc)})", source=name, page=number)

        def rendered() -> Iterator[tuple[int, Any]]:
            for number in wanted:
                yield number, render_page(doc, number, dpi, name)

        results = run_pages(job, rendered(), len(wanted), processes)
    finally:
        doc.close()
    return {number: results[number] for number in wanted}
