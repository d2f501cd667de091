"""Read any contract file a lawyer hands over into one :class:`ContractDocument`.

:func:`read_document` dispatches on the file's extension **and** on what its bytes look like
(a ``.pdf`` that is really a zip, a ``.docx`` that is really a PDF, an HTML error page saved as
``.pdf`` … raise :class:`ExtractError` naming the file and saying what it looks like):

=========================  ===========================================================  ========
file                       how                                                          format
=========================  ===========================================================  ========
``.docx``                  :func:`buildds.extract.docx.reader.extract_docx`                    docx
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

:func:`read_documents` reads many files and never stops on a bad one: each failure becomes a

The reader is split by input kind: :mod:`~buildds.extract.contracts.filetype` (supported
suffixes, bytes checked against the name), :mod:`~buildds.extract.contracts.pdf` (text and
scanned PDFs), :mod:`~buildds.extract.contracts.image` (images → OCR blocks),
:mod:`~buildds.extract.contracts.odt` (LibreOffice conversion),
:mod:`~buildds.extract.contracts.ocr_pool` (the pool of ``read_documents(jobs > 1)``),
:mod:`~buildds.extract.contracts.confidence` and :mod:`~buildds.extract.contracts.errors`.
The public names (and ``_soffice``) stay importable from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

# the noqa'd names are re-exported: callers knew them from here before the split
from buildds.extract.contracts.confidence import LOW_CONFIDENCE
from buildds.extract.contracts.errors import _error, _failure
from buildds.extract.contracts.filetype import IMAGE_SUFFIXES, SUPPORTED_SUFFIXES, _load
from buildds.extract.contracts.image import _read_image
from buildds.extract.contracts.ocr_pool import _read_batch
from buildds.extract.contracts.odt import ODT_TIMEOUT, _read_odt, _soffice  # noqa: F401
from buildds.extract.contracts.pdf import MIN_TEXT_CHARS, _read_pdf  # noqa: F401
from buildds.extract.pdf.lines import MAX_PAGES
from buildds.extract.sniff import sniff
from buildds.schema import Problem
from buildds.schema.contracts import ContractDocument

__all__ = [
    "IMAGE_SUFFIXES",
    "LOW_CONFIDENCE",
    "SUPPORTED_SUFFIXES",
    "read_document",
    "read_documents",
    "sniff",
]


def read_document(
    path: str | Path,
    *,
    source_path: str | None = None,
    password: str | None = None,
    ocr_lang: str = "jpn+eng",
    processes: int | None = None,
    ocr: bool = True,
    pages: Sequence[int] | None = None,
    max_pages: int | None = MAX_PAGES,
) -> ContractDocument:
    """Read a contract file (.docx, .pdf, scanned .pdf, image, .odt) into a
    :class:`ContractDocument` (see the module docstring for the dispatch).

    ``source_path`` is the name recorded in provenance and errors (defaults to ``path``);
    ``password`` opens an encrypted PDF; ``ocr_lang`` is tesseract's language (``jpn+eng``,
    ``chi_tra+eng`` …) and ``processes`` its worker count (default one per core);
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
    suffix, data = _load(path, name)
    if suffix == ".docx":
        from buildds.extract.docx.reader import extract_docx

        doc = extract_docx(path, source_path=name)
    elif suffix == ".odt":
        doc = _read_odt(path, name, data)
    elif suffix == ".pdf":
        return _read_pdf(path, name, password=password, ocr=ocr, ocr_lang=ocr_lang,
                         processes=processes, pages=pages, max_pages=max_pages)
    else:
        if not ocr:
            raise _error("no text found (an image needs OCR and OCR is off)", name, "no_text")
        return _read_image(path, name, data, ocr_lang=ocr_lang, processes=processes,
                           pages=pages, max_pages=max_pages)
    if not any((b.text or "").strip() or (b.original or "").strip() for b in doc.blocks):
        raise _error("no text found (the document has no paragraph with text)", name, "no_text")
    return doc


def _read_one(path: Path, name: str, kwargs: dict[str, object]
              ) -> tuple[ContractDocument | None, list[Problem]]:
    try:
        doc = read_document(path, source_path=name, **kwargs)  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001 - one bad file (or a bug) must not stop the batch
        return None, [_failure(exc, name)]
    return doc, list(doc.problems)


def read_documents(
    paths: Iterable[str | Path],
    *,
    root: str | Path | None = None,
    jobs: int = 1,
    **kwargs: object,
) -> Iterator[tuple[Path, ContractDocument | None, list[Problem]]]:
    """Read many files; yield ``(path, document or None, problems)`` for each, in order.

    Never stops on a bad file: an :class:`ExtractError` (or a missing OCR dependency, or an
    unexpected exception — a bug — reported as ``internal_error``) becomes one error
    :class:`Problem` with the file and page, and the batch goes on. For a file that was read,
    ``problems`` are the document's own warnings. ``root`` makes the recorded source paths
    relative to it; other keyword arguments go to :func:`read_document` (``source_path`` is
    set per file); ``ocr_lang`` may also be a function of the recorded name returning the
    language for that file (a batch of Japanese and Chinese scans).

    ``jobs > 1`` uses one pool of that many worker processes (``fork``) for the whole batch:
    the pages to OCR of all the scans and images (and of text PDFs' textless pages) are read
    one page per task, largest first, so the workers stay busy however unevenly the pages are
    spread over the files; .docx/.odt files are read whole by a worker; text-layer PDFs are
    read in this process (``processes`` is not used). The documents are the same as with
    ``jobs=1``. An option :func:`read_document` does not know raises ``TypeError``."""
    kwargs.pop("source_path", None)

    def named(item: str | Path) -> tuple[Path, str]:
        path = Path(item)
        if root is not None:
            try:
                return path, path.relative_to(root).as_posix()
            except ValueError:
                pass
        return path, str(path)

    if jobs <= 1:
        for item in paths:
            path, name = named(item)
            yield (path, *_read_one(path, name, _file_options(kwargs, name)))
        return

    yield from _read_batch([named(item) for item in paths], jobs, kwargs)


def _file_options(kwargs: dict[str, object], name: str) -> dict[str, object]:
    """The options for one file: a callable ``ocr_lang`` is asked with the file's name."""
    lang = kwargs.get("ocr_lang")
    return dict(kwargs, ocr_lang=lang(name)) if callable(lang) else kwargs
