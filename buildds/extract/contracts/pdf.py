"""Contract PDFs → blocks: the text layer first, OCR only for the pages without one.

:func:`_plan_pdf` reads the PDF's text layer (:func:`~buildds.extract.pdf.lines.extract_pdf` with
``ocr="never"``) and lists the pages to OCR (those under :data:`MIN_TEXT_CHARS`);
:func:`_finish_pdf` assembles the :class:`ContractDocument` from the text pass and the OCR'd
pages (format ``scan`` when no page had text, else ``pdf``); :func:`_read_pdf` does both for one
file. The parallel batch (:mod:`buildds.extract.contracts.ocr_pool`) OCRs the planned pages in
its pool between the two steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from buildds.extract.contracts.confidence import _low_confidence, _mean
from buildds.extract.contracts.errors import _error
from buildds.schema import PdfDocument, PdfLine, PdfPage, Problem
from buildds.schema.contracts import ContractDocument

if TYPE_CHECKING:
    from buildds.extract.ocr import OcrPage

#: a PDF page with fewer printable characters than this has no text layer (as in pdf.py)
MIN_TEXT_CHARS = 8


@dataclass
class _PdfPlan:
    """A PDF after its text pass: what is left is OCRing ``ocr_pages`` and assembling."""

    path: Path
    name: str
    password: str | None
    ocr_lang: str
    doc: PdfDocument
    wanted: list[int]
    raw: dict[int, list[PdfLine]]
    scan: bool
    to_ocr: list[int]
    ocr_pages: list[int]
    problems: list[Problem]


def _plan_pdf(path: Path, name: str, *, password: str | None, ocr: bool, ocr_lang: str,
              pages: Sequence[int] | None, max_pages: int | None) -> _PdfPlan:
    from buildds.extract.pdf.lines import extract_pdf

    doc = extract_pdf(path, source_path=name, password=password, ocr="never",
                      max_pages=max_pages)
    total = len(doc.pages)
    wanted = sorted(set(pages)) if pages else list(range(1, total + 1))
    for p in wanted:
        if not 1 <= p <= total:
            raise _error(f"no such page (the PDF has {total})", name, "bad_page", page=p)
    raw = {pg.number: list(pg.lines) + list(pg.furniture) for pg in doc.pages}
    textless = [n for n, lines in raw.items() if sum(len(ln.text) for ln in lines) < MIN_TEXT_CHARS]
    scan = len(textless) == total
    problems: list[Problem] = []
    if pages:
        problems.append(Problem(stage="extract", code="pages_subset", severity="warning",
                                source=name, message=f"only page(s) {wanted} of {total} read"))
    to_ocr = [n for n in wanted if n in textless]
    if to_ocr and not ocr:
        if scan:
            raise _error("no text found (the PDF has no text layer and OCR is off)", name,
                         "no_text")
        problems.append(Problem(stage="extract", code="page_without_text", severity="warning",
                                source=name, message=f"page(s) {to_ocr} have no text layer and "
                                "were not OCR'd"))
    return _PdfPlan(path=path, name=name, password=password, ocr_lang=ocr_lang, doc=doc,
                    wanted=wanted, raw=raw, scan=scan, to_ocr=to_ocr,
                    ocr_pages=to_ocr if ocr else [], problems=problems)


def _finish_pdf(plan: _PdfPlan, results: dict[int, OcrPage]) -> ContractDocument:
    """Assemble the document from the text pass and the OCR'd pages (``{page: OcrPage}`` in
    the order of ``plan.ocr_pages``)."""
    from buildds.extract.pdf.lines import _reading_order, _split_furniture
    from buildds.transform.clauses import blocks_from_pdf

    doc, name, ocr_lang = plan.doc, plan.name, plan.ocr_lang
    raw = dict(plan.raw)
    confidences: dict[int, float] = {}
    for n, page in results.items():
        raw[n] = list(page.lines)
        confidences[n] = page.confidence
    kept = [pg for pg in doc.pages if pg.number in plan.wanted]
    split = _split_furniture([_reading_order(raw[pg.number]) for pg in kept],
                             [pg.height for pg in kept])
    new_pages = tuple(
        PdfPage(number=pg.number, width=pg.width, height=pg.height, lines=tuple(body),
                furniture=tuple(furniture), ocr=pg.number in confidences,
                ocr_confidence=confidences.get(pg.number))
        for pg, (body, furniture) in zip(kept, split, strict=True)
    )
    pdf = PdfDocument(source=doc.source, pages=new_pages)
    blocks = blocks_from_pdf(pdf)
    if not blocks:
        why = (f"the PDF has no text layer and OCR ({ocr_lang}) found no text on "
               f"{len(plan.to_ocr)} page(s)" if plan.scan else "the PDF's pages have no body text")
        raise _error(f"no text found ({why})", name, "no_text")
    problems = plan.problems + _low_confidence(confidences, ocr_lang, name)
    read_conf = {n: c for n, c in confidences.items() if raw[n]}
    return ContractDocument(source=doc.source, format="scan" if plan.scan else "pdf",
                            blocks=tuple(blocks), pages=len(doc.pages),
                            ocr_confidence=_mean(read_conf.values()),
                            ocr_page_confidence={n: round(c, 1) for n, c in
                                                 sorted(confidences.items())},
                            problems=tuple(problems))


def _read_pdf(path: Path, name: str, *, password: str | None, ocr: bool, ocr_lang: str,
              processes: int | None, pages: Sequence[int] | None, max_pages: int | None
              ) -> ContractDocument:
    plan = _plan_pdf(path, name, password=password, ocr=ocr, ocr_lang=ocr_lang, pages=pages,
                     max_pages=max_pages)
    results: dict[int, OcrPage] = {}
    if plan.ocr_pages:
        from buildds.extract.ocr import ocr_pdf_pages

        results = ocr_pdf_pages(path, plan.ocr_pages, lang=ocr_lang, processes=processes,
                                password=password, source_path=name)
    return _finish_pdf(plan, results)

