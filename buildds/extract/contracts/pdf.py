"""Contract PDFs → blocks: the text layer first, OCR only for the pages without one.

:func:`plan_pdf` reads the PDF's text layer (:func:`~buildds.extract.pdf.lines.extract_pdf` with
``ocr="never"``) and lists the pages to OCR (those under :data:`MIN_TEXT_CHARS`);
:func:`finish_pdf` assembles the :class:`ContractDocument` from the text pass and the OCR'd
pages (format ``scan`` when no page had text, else ``pdf``, one block per body line —
:func:`blocks_from_pdf`); :func:`read_pdf` does both for one file. The parallel batch
(:mod:`buildds.extract.contracts.ocr_pool`) OCRs the planned pages in its pool between the
two steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from buildds.extract.contracts.confidence import (
    low_confidence_problems,
    mean_confidence,
    page_languages,
)
from buildds.extract.contracts.errors import contract_error
from buildds.extract.contracts.outline import mark_outline_headings
from buildds.schema import PdfDocument, PdfLine, PdfPage, Problem
from buildds.schema.contracts import ContractDocument, DocBlock

if TYPE_CHECKING:
    from buildds.extract.ocr import OcrPage

#: a PDF page with fewer printable characters than this has no text layer (as in pdf.py)
MIN_TEXT_CHARS = 8


@dataclass
class PdfPlan:
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


def blocks_from_pdf(doc: PdfDocument) -> list[DocBlock]:
    """One :class:`DocBlock` per body line of a :class:`PdfDocument` (furniture excluded),
    with page, bbox and ``source_index`` = the line's number in the document (0-based)."""
    blocks = []
    for n, line in enumerate(doc.lines):
        blocks.append(
            DocBlock(index=n, text=line.text, page=line.page, bbox=line.bbox, source_index=n)
        )
    return blocks


def plan_pdf(path: Path, name: str, *, password: str | None, ocr: bool, ocr_lang: str,
              pages: Sequence[int] | None, max_pages: int | None) -> PdfPlan:
    from buildds.extract.pdf.lines import extract_pdf

    doc = extract_pdf(path, source_path=name, password=password, ocr="never",
                      max_pages=max_pages)
    total = len(doc.pages)
    wanted = sorted(set(pages)) if pages else list(range(1, total + 1))
    for p in wanted:
        if not 1 <= p <= total:
            raise contract_error(f"no such page (the PDF has {total})", name, "bad_page", page=p)
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
            raise contract_error("no text found (the PDF has no text layer and OCR is off)",
                                 name, "no_text")
        problems.append(Problem(stage="extract", code="page_without_text", severity="warning",
                                source=name, message=f"page(s) {to_ocr} have no text layer and "
                                "were not OCR'd"))
    return PdfPlan(path=path, name=name, password=password, ocr_lang=ocr_lang, doc=doc,
                    wanted=wanted, raw=raw, scan=scan, to_ocr=to_ocr,
                    ocr_pages=to_ocr if ocr else [], problems=problems)


def finish_pdf(plan: PdfPlan, results: dict[int, OcrPage]) -> ContractDocument:
    """Assemble the document from the text pass and the OCR'd pages (``{page: OcrPage}`` in
    the order of ``plan.ocr_pages``)."""
    from buildds.extract.pdf.lines import reading_order, split_furniture

    doc, name, ocr_lang = plan.doc, plan.name, plan.ocr_lang
    raw = dict(plan.raw)
    confidences: dict[int, float] = {}
    for n, page in results.items():
        raw[n] = list(page.lines)
        confidences[n] = page.confidence
    kept = [pg for pg in doc.pages if pg.number in plan.wanted]
    split = split_furniture([reading_order(raw[pg.number]) for pg in kept],
                            [pg.height for pg in kept])
    new_pages = tuple(
        PdfPage(number=pg.number, width=pg.width, height=pg.height, lines=tuple(body),
                furniture=tuple(furniture), ocr=pg.number in confidences,
                ocr_confidence=confidences.get(pg.number))
        for pg, (body, furniture) in zip(kept, split, strict=True)
    )
    pdf = PdfDocument(source=doc.source, pages=new_pages)
    blocks = mark_outline_headings(blocks_from_pdf(pdf), plan.path, plan.password)
    if not blocks:
        why = (f"the PDF has no text layer and OCR ({ocr_lang}) found no text on "
               f"{len(plan.to_ocr)} page(s)" if plan.scan else "the PDF's pages have no body text")
        raise contract_error(f"no text found ({why})", name, "no_text")
    langs = page_languages(results.values(), ocr_lang)
    problems = plan.problems + low_confidence_problems(confidences, langs, name)
    read_conf = {n: c for n, c in confidences.items() if raw[n]}
    return ContractDocument(source=doc.source, format="scan" if plan.scan else "pdf",
                            blocks=tuple(blocks), pages=len(doc.pages),
                            ocr_confidence=mean_confidence(read_conf.values()),
                            ocr_page_confidence={n: round(c, 1) for n, c in
                                                 sorted(confidences.items())},
                            ocr_page_lang=langs, problems=tuple(problems))


def read_pdf(path: Path, name: str, *, password: str | None, ocr: bool, ocr_lang: str,
              processes: int | None, pages: Sequence[int] | None, max_pages: int | None
              ) -> ContractDocument:
    plan = plan_pdf(path, name, password=password, ocr=ocr, ocr_lang=ocr_lang, pages=pages,
                     max_pages=max_pages)
    results: dict[int, OcrPage] = {}
    if plan.ocr_pages:
        from buildds.extract.pdf.ocr_pages import ocr_pdf_pages

        results = ocr_pdf_pages(path, plan.ocr_pages, lang=ocr_lang, processes=processes,
                                password=password, source_path=name)
    return finish_pdf(plan, results)

