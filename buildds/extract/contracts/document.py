"""Read one contract file (any format a lawyer hands over) into a :class:`ContractDocument`.

:func:`read_document` dispatches on the file's extension **and** on what its bytes look like
(a ``.pdf`` that is really a zip, a ``.docx`` that is really a PDF, an HTML error page saved as
``.pdf`` … raise :class:`ExtractError` naming the file and saying what it looks like):

=========================  ===========================================================  ========
file                       how                                                          format
=========================  ===========================================================  ========
``.docx``                  :func:`buildds.extract.docx.reader.extract_docx`             docx
``.pdf`` with text         :func:`extract_pdf` (``ocr="never"``) → :func:`blocks_from_pdf`  pdf
``.pdf`` without text      every page under 8 characters: pages OCR'd (``ocr_lang``)    scan
``.png .jpg .tif`` …       :func:`ocr_image_pages` (orientation detection on),          image
                           one block per OCR line, ``page`` = frame number
``.odt``                   converted to .docx by LibreOffice (``soffice --headless``)   odt
=========================  ===========================================================  ========

A text PDF with a few pages lacking a text layer (a scanned signature page) keeps format
``pdf``; those pages are OCR'd and the document's ``ocr_confidence`` covers them.

OCR confidence: ``ContractDocument.ocr_confidence`` is the mean of the page confidences
(pages where OCR found text); every OCR'd page below :data:`LOW_CONFIDENCE` (60) adds a
``warning`` Problem ``ocr_low_confidence`` with its page and confidence (an upright page in
the right language reads at 85–95; a wrong language or a bad scan reads far lower).

A document with no text at all (a blank page, an image without text) raises
``ExtractError("no text found (…)")`` naming the file.

:func:`read_one` is one file of a batch (its failure becomes an error :class:`Problem`) and
:func:`file_options` the batch options for one file; both serve
:mod:`~buildds.extract.contracts.reader` and :mod:`~buildds.extract.contracts.ocr_pool`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from buildds.extract.contracts.errors import contract_error, failure_problem
from buildds.extract.contracts.filetype import load_file
from buildds.extract.contracts.image import read_image
from buildds.extract.contracts.odt import read_odt
from buildds.extract.contracts.pdf import read_pdf
from buildds.extract.page_limit import MAX_PAGES
from buildds.schema import Problem
from buildds.schema.contracts import ContractDocument

__all__ = ["file_options", "read_document", "read_one"]


def read_document(
    path: str | Path,
    *,
    source_path: str | None = None,
    password: str | None = None,
    ocr_lang: str = "auto",
    processes: int | None = None,
    ocr: bool = True,
    pages: Sequence[int] | None = None,
    max_pages: int | None = MAX_PAGES,
) -> ContractDocument:
    """Read a contract file (.docx, .pdf, scanned .pdf, image, .odt) into a
    :class:`ContractDocument` (see the module docstring for the dispatch).

    ``source_path`` is the name recorded in provenance and errors (defaults to ``path``);
    ``password`` opens an encrypted PDF; ``ocr_lang`` is tesseract's language (``jpn``,
    ``jpn+eng``, ``chi_tra`` …), by default ``auto``: chosen per page by a quick probe
    (:mod:`buildds.extract.ocr.language`; ``ocr_page_lang`` records each page's), and ``processes`` its worker count (default one per core);
    ``ocr=False`` never OCRs (a scanned PDF then raises "no text found"); ``pages`` (1-based)
    reads only those pages of a PDF (or frames of an image) — e.g. to OCR one page of a long
    scan; a PDF of more than ``max_pages`` pages (or an image of more frames) is refused
    (:class:`~buildds.errors.LimitExceeded` naming ``--max-pages``; ``None``: no limit).

    Raises :class:`ExtractError` (or its :class:`~buildds.errors.PdfError`) naming the file for
    an unsupported or mislabelled file, an unreadable one, an encrypted PDF without the right
    password, or one without any text; :class:`MissingDependency` when tesseract is needed
    but missing."""
    path = Path(path)
    name = source_path or str(path)
    suffix, data = load_file(path, name)
    if suffix == ".docx":
        from buildds.extract.docx.reader import extract_docx

        doc = extract_docx(path, source_path=name)
    elif suffix == ".odt":
        doc = read_odt(path, name, data)
    elif suffix == ".pdf":
        return read_pdf(path, name, password=password, ocr=ocr, ocr_lang=ocr_lang,
                        processes=processes, pages=pages, max_pages=max_pages)
    else:
        if not ocr:
            raise contract_error("no text found (an image needs OCR and OCR is off)", name,
                                 "no_text")
        return read_image(path, name, data, ocr_lang=ocr_lang, processes=processes,
                          pages=pages, max_pages=max_pages)
    if not any((b.text or "").strip() or (b.original or "").strip() for b in doc.blocks):
        raise contract_error("no text found (the document has no paragraph with text)", name,
                             "no_text")
    return doc


def read_one(path: Path, name: str, kwargs: dict[str, object]
             ) -> tuple[ContractDocument | None, list[Problem]]:
    """Read one file of a batch: its document and warnings, or None and the error Problem."""
    try:
        doc = read_document(path, source_path=name, **kwargs)  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001 - one bad file (or a bug) must not stop the batch
        return None, [failure_problem(exc, name)]
    return doc, list(doc.problems)


def file_options(kwargs: dict[str, object], name: str) -> dict[str, object]:
    """The options for one file: a callable ``ocr_lang`` is asked with the file's name."""
    lang = kwargs.get("ocr_lang")
    return dict(kwargs, ocr_lang=lang(name)) if callable(lang) else kwargs
