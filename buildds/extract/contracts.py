"""Read any contract file a lawyer hands over into one :class:`ContractDocument`.

:func:`read_document` dispatches on the file's extension **and** on what its bytes look like
(a ``.pdf`` that is really a zip, a ``.docx`` that is really a PDF, an HTML error page saved as
``.pdf`` … raise :class:`ExtractError` naming the file and saying what it looks like):

=========================  ===========================================================  ========
file                       how                                                          format
=========================  ===========================================================  ========
``.docx``                  :func:`buildds.extract.docx.extract_docx`                    docx
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
:class:`Problem` with the file (and page, when one page is at fault).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import statistics
import subprocess
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.errors import BuildError, ExtractError, MissingDependency
from buildds.extract.sniff import sniff
from buildds.schema import PdfDocument, PdfLine, PdfPage, Problem, Source
from buildds.schema.contracts import ContractDocument, DocBlock

if TYPE_CHECKING:
    from buildds.extract.ocr import OcrPage

__all__ = [
    "IMAGE_SUFFIXES",
    "LOW_CONFIDENCE",
    "SUPPORTED_SUFFIXES",
    "read_document",
    "read_documents",
    "sniff",
]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
SUPPORTED_SUFFIXES = (".docx", ".pdf", ".odt") + IMAGE_SUFFIXES
#: an OCR'd page whose mean word confidence is below this gets a warning Problem
LOW_CONFIDENCE = 60.0
#: a PDF page with fewer printable characters than this has no text layer (as in pdf.py)
MIN_TEXT_CHARS = 8
#: seconds LibreOffice may take to convert one .odt
ODT_TIMEOUT = 120

_ODT_HINT = ("cannot read .odt without LibreOffice: apt-get install libreoffice-writer-nogui "
             "(or convert the file to .docx)")


def _error(message: str, name: str, code: str, page: int | None = None) -> ExtractError:
    exc = ExtractError(message, source=name, page=page)
    exc.code = code  # type: ignore[attr-defined]
    return exc


_LOOKS_LIKE = {
    "pdf": "a PDF (rename it .pdf)",
    "docx": "a Word .docx (rename it .docx)",
    "odt": "an OpenDocument .odt (rename it .odt)",
    "zip": "a ZIP archive that is not a Word document (no word/document.xml)",
    "ole2": "an old binary Office file (.doc/.xls) or a password-protected Office file; "
            "save it as an unprotected .docx",
    "png": "a PNG image", "jpeg": "a JPEG image", "tiff": "a TIFF image", "gif": "a GIF image",
    "bmp": "a BMP image", "webp": "a WebP image",
    "html": "HTML/XML (an error page saved instead of the file?)",
    "text": "plain text",
    "empty": "an empty file (0 bytes)",
    "binary": "unrecognised binary data",
}
_IMAGE_KINDS = {"png", "jpeg", "tiff", "gif", "bmp", "webp"}
_EXPECTED = {".pdf": {"pdf"}, ".docx": {"docx"}, ".odt": {"odt"}}


def _check_kind(suffix: str, kind: str, name: str) -> None:
    if kind == "empty":
        raise _error("file is empty (0 bytes)", name, "empty_file")
    expected = _IMAGE_KINDS if suffix in IMAGE_SUFFIXES else _EXPECTED[suffix]
    if kind not in expected:
        what = {".pdf": "a PDF", ".docx": "a Word .docx", ".odt": "an OpenDocument .odt"}.get(
            suffix, "an image")
        raise _error(f"named {suffix} but not {what}: the file looks like {_LOOKS_LIKE[kind]}",
                     name, "wrong_file_type")


# --------------------------------------------------------------------------- readers
def _mean(values: Iterable[float]) -> float | None:
    vals = list(values)
    return round(statistics.fmean(vals), 2) if vals else None


def _low_confidence(pages: dict[int, float], lang: str, name: str) -> list[Problem]:
    return [
        Problem(stage="extract", code="ocr_low_confidence", severity="warning", source=name,
                page=page,
                message=f"OCR confidence {conf:.1f} is below {LOW_CONFIDENCE:.0f} (lang {lang}): "
                        "the text may be wrong (wrong language, rotated or poor scan)")
        for page, conf in sorted(pages.items()) if conf < LOW_CONFIDENCE
    ]


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
              pages: Sequence[int] | None) -> _PdfPlan:
    from buildds.extract.pdf import extract_pdf

    doc = extract_pdf(path, source_path=name, password=password, ocr="never")
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
    from buildds.extract.pdf import _reading_order, _split_furniture
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
              processes: int | None, pages: Sequence[int] | None) -> ContractDocument:
    plan = _plan_pdf(path, name, password=password, ocr=ocr, ocr_lang=ocr_lang, pages=pages)
    results: dict[int, OcrPage] = {}
    if plan.ocr_pages:
        from buildds.extract.ocr import ocr_pdf_pages

        results = ocr_pdf_pages(path, plan.ocr_pages, lang=ocr_lang, processes=processes,
                                password=password, source_path=name)
    return _finish_pdf(plan, results)


def _finish_image(name: str, data: bytes, results: list[OcrPage], *, ocr_lang: str,
                  pages: Sequence[int] | None) -> ContractDocument:
    """Assemble an image's document from its OCR'd frames (all of them, in frame order)."""
    problems: list[Problem] = []
    if pages:
        results = [r for n, r in enumerate(results, start=1) if n in set(pages)]
        problems.append(Problem(stage="extract", code="pages_subset", severity="warning",
                                source=name, message=f"only frame(s) {sorted(set(pages))} read"))
    blocks: list[DocBlock] = []
    confidences: dict[int, float] = {}
    for frame in results:
        confidences[frame.page] = frame.confidence
        for line in frame.lines:
            blocks.append(DocBlock(index=len(blocks), text=line.text, page=frame.page,
                                   bbox=line.bbox, source_index=len(blocks)))
    if not blocks:
        raise _error(f"no text found (OCR with {ocr_lang} read no text in the image)", name,
                     "no_text")
    problems += _low_confidence(confidences, ocr_lang, name)
    read_conf = [c for r in results if r.lines for c in [r.confidence]]
    return ContractDocument(source=Source(path=name, sha256=hashlib.sha256(data).hexdigest()),
                            format="image", blocks=tuple(blocks), pages=len(confidences),
                            ocr_confidence=_mean(read_conf),
                            ocr_page_confidence={n: round(c, 1) for n, c in
                                                 sorted(confidences.items())},
                            problems=tuple(problems))


def _read_image(path: Path, name: str, data: bytes, *, ocr_lang: str, processes: int | None,
                pages: Sequence[int] | None) -> ContractDocument:
    from buildds.extract.ocr import ocr_image_pages

    results = ocr_image_pages(path, lang=ocr_lang, processes=processes, source_path=name,
                              detect_orientation=True)
    return _finish_image(name, data, results, ocr_lang=ocr_lang, pages=pages)


def _soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def _read_odt(path: Path, name: str, data: bytes) -> ContractDocument:
    from buildds.extract.docx import extract_docx

    exe = _soffice()
    if exe is None:
        raise _error(_ODT_HINT, name, "missing_dependency")
    with tempfile.TemporaryDirectory(prefix="buildds-odt-") as tmp:
        src = Path(tmp) / "in.odt"  # an ASCII name: soffice mishandles some paths
        src.write_bytes(data)
        out = Path(tmp) / "out"
        env = dict(os.environ, HOME=tmp)  # its own profile: no clash with a running soffice
        cmd = [exe, "--headless", "--norestore", f"-env:UserInstallation=file://{tmp}/profile",
               "--convert-to", "docx", "--outdir", str(out), str(src)]
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=ODT_TIMEOUT, env=env,
                                  check=False)
        except subprocess.TimeoutExpired as exc:
            raise _error(f"LibreOffice took more than {ODT_TIMEOUT} s to convert the .odt", name,
                         "odt_conversion") from exc
        converted = out / "in.docx"
        if proc.returncode != 0 or not converted.exists():
            detail = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip()[-300:]
            raise _error(f"LibreOffice could not convert the .odt to .docx "
                         f"(exit {proc.returncode}: {detail or 'no output'})", name,
                         "odt_conversion")
        doc = extract_docx(converted, source_path=name)
    return doc.model_copy(update={
        "format": "odt", "source": Source(path=name, sha256=hashlib.sha256(data).hexdigest())})


def _load(path: Path, name: str) -> tuple[str, bytes]:
    """The file's (normalised) suffix and bytes, after checking they agree."""
    suffix = path.suffix.lower().rstrip()
    if suffix not in SUPPORTED_SUFFIXES:
        shown = f"'{suffix}'" if suffix else "(no extension)"
        raise _error(f"unsupported file type {shown} (supported: "
                     f"{', '.join(SUPPORTED_SUFFIXES)})", name, "unsupported_type")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _error(f"cannot read file ({exc.strerror or exc})", name, "unreadable") from exc
    _check_kind(suffix, sniff(data), name)
    return suffix, data


def read_document(
    path: str | Path,
    *,
    source_path: str | None = None,
    password: str | None = None,
    ocr_lang: str = "jpn+eng",
    processes: int | None = None,
    ocr: bool = True,
    pages: Sequence[int] | None = None,
) -> ContractDocument:
    """Read a contract file (.docx, .pdf, scanned .pdf, image, .odt) into a
    :class:`ContractDocument` (see the module docstring for the dispatch).

    ``source_path`` is the name recorded in provenance and errors (defaults to ``path``);
    ``password`` opens an encrypted PDF; ``ocr_lang`` is tesseract's language (``jpn+eng``,
    ``chi_tra+eng`` …) and ``processes`` its worker count (default one per core);
    ``ocr=False`` never OCRs (a scanned PDF then raises "no text found"); ``pages`` (1-based)
    reads only those pages of a PDF (or frames of an image) — e.g. to OCR one page of a long
    scan.

    Raises :class:`ExtractError` (or its :class:`~buildds.errors.PdfError`) naming the file for
    an unsupported or mislabelled file, an unreadable one, an encrypted PDF without the right
    password, or one without any text; :class:`MissingDependency` when tesseract is needed
    but missing."""
    path = Path(path)
    name = source_path or str(path)
    suffix, data = _load(path, name)
    if suffix == ".docx":
        from buildds.extract.docx import extract_docx

        doc = extract_docx(path, source_path=name)
    elif suffix == ".odt":
        doc = _read_odt(path, name, data)
    elif suffix == ".pdf":
        return _read_pdf(path, name, password=password, ocr=ocr, ocr_lang=ocr_lang,
                         processes=processes, pages=pages)
    else:
        if not ocr:
            raise _error("no text found (an image needs OCR and OCR is off)", name, "no_text")
        return _read_image(path, name, data, ocr_lang=ocr_lang, processes=processes,
                           pages=pages)
    if not any((b.text or "").strip() or (b.original or "").strip() for b in doc.blocks):
        raise _error("no text found (the document has no paragraph with text)", name, "no_text")
    return doc


def _code(exc: BaseException) -> str:
    code = getattr(exc, "code", None)
    if isinstance(code, str):
        return code
    if isinstance(exc, MissingDependency):
        return "missing_dependency"
    message = str(exc).lower()
    if "password" in message or "encrypted" in message:
        return "encrypted"
    if isinstance(exc, BuildError):
        return "unreadable"
    return "internal_error"


def _read_one(path: Path, name: str, kwargs: dict[str, object]
              ) -> tuple[ContractDocument | None, list[Problem]]:
    try:
        doc = read_document(path, source_path=name, **kwargs)  # type: ignore[arg-type]
    except Exception as exc:  # noqa: BLE001 - one bad file (or a bug) must not stop the batch
        return None, [_failure(exc, name)]
    return doc, list(doc.problems)


def _failure(exc: BaseException, name: str) -> Problem:
    """The error Problem for a file that could not be read."""
    if isinstance(exc, BuildError):
        message, code = exc.message, _code(exc)
    else:
        message, code = f"unexpected {type(exc).__name__}: {exc}", "internal_error"
    source = getattr(exc, "source", None) or name
    return Problem(stage="extract", code=code, message=message, source=source,
                   page=getattr(exc, "page", None))


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


#: stands for a frame that was not asked for (``pages``); _finish_image drops it unread
_UNREAD: Any = None
def _file_options(kwargs: dict[str, object], name: str) -> dict[str, object]:
    """The options for one file: a callable ``ocr_lang`` is asked with the file's name."""
    lang = kwargs.get("ocr_lang")
    return dict(kwargs, ocr_lang=lang(name)) if callable(lang) else kwargs


_BATCH_OPTIONS = frozenset({"password", "ocr_lang", "processes", "ocr", "pages"})


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
    tasks ``(pixels, task)`` of a scan or image and set ``entry.finish``."""
    from buildds.extract import ocr as ocr_mod

    path, name = entry.path, entry.name
    ocr_lang = str(kwargs.get("ocr_lang", "jpn+eng"))
    ocr = bool(kwargs.get("ocr", True))
    password = kwargs.get("password")
    pages = kwargs.get("pages")
    suffix, data = _load(path, name)
    if suffix == ".pdf":
        plan = _plan_pdf(path, name, password=password, ocr=ocr,  # type: ignore[arg-type]
                         ocr_lang=ocr_lang, pages=pages)  # type: ignore[arg-type]
        if plan.ocr_pages:
            dpi = ocr_mod.DEFAULT_DPI
            job = ocr_mod._make_job(ocr_lang, ocr_mod.DEFAULT_PSM, dpi, True, name, 0)
            sizes = {pg.number: pg.width * pg.height * (dpi / 72) ** 2 for pg in plan.doc.pages}
            for n in plan.ocr_pages:
                tasks.append((sizes[n], (entry, n, (job, "pdf", str(path), n, password))))
        entry.finish = lambda results: _finish_pdf(
            plan, {n: results[n] for n in plan.ocr_pages})
    elif suffix in IMAGE_SUFFIXES:
        if not ocr:
            raise _error("no text found (an image needs OCR and OCR is off)", name, "no_text")
        ocr_mod.check_tesseract(ocr_lang)
        frames, image_dpi = ocr_mod._image_frames(path, name)
        job = ocr_mod._make_job(ocr_lang, ocr_mod.DEFAULT_PSM, image_dpi, True, name, 0)
        wanted = set(pages) if pages else None  # type: ignore[call-overload]
        numbers = [n for n in range(1, len(frames) + 1) if wanted is None or n in wanted]
        for n in numbers:
            width, height = frames[n - 1].size
            tasks.append((width * height, (entry, n, (job, "image", str(path), n, None))))
        count = len(frames)
        del frames  # the workers load their frame themselves
        # frames not asked for are not read; _finish_image drops them anyway
        entry.finish = lambda results: _finish_image(
            name, data, [results.get(n, _UNREAD) for n in
                         range(1, count + 1)], ocr_lang=ocr_lang,
            pages=pages)  # type: ignore[arg-type]
    else:
        entry.whole = True  # .docx / .odt: read whole by a worker


def _read_batch(items: list[tuple[Path, str]], jobs: int, kwargs: dict[str, object]
                ) -> Iterator[tuple[Path, ContractDocument | None, list[Problem]]]:
    """``read_documents(..., jobs > 1)``: one process pool for the whole batch.

    Phase 1 (here): every file is checked and classified; text-layer PDFs are read here (their
    textless pages, if any, become OCR tasks), scans and images become one task per page.
    Phase 2: a pool of ``jobs`` processes reads .docx/.odt files whole and OCRs the pages of all
    documents, largest pages first (longest-processing-time order by pixel count) so the workers
    finish together; a worker renders its PDF page itself (pdfium is not thread-safe, and never
    runs in a thread here). Phase 3 (here): each document is assembled as
    :func:`read_document` does, and yielded in input order as soon as its pages are done."""
    import concurrent.futures as cf
    import multiprocessing

    from buildds.extract import ocr as ocr_mod

    unknown = set(kwargs) - _BATCH_OPTIONS
    if unknown:
        raise TypeError(f"read_documents() got unexpected option(s) {sorted(unknown)}")
    entries = [_Entry(path, name) for path, name in items]
    tasks: list[tuple[float, Any]] = []
    for entry in entries:
        try:
            _plan_entry(entry, _file_options(kwargs, entry.name), tasks)
        except Exception as exc:  # noqa: BLE001 - one bad file (or a bug) must not stop the batch
            entry.problem = _failure(exc, entry.name)
            entry.finish = None
    if not tasks and not any(e.whole for e in entries):
        pool = None
    else:
        context = multiprocessing.get_context("fork" if os.name == "posix" else None)
        pool = cf.ProcessPoolExecutor(jobs, mp_context=context,
                                      initializer=ocr_mod._worker_init)
    try:
        if pool is not None:
            for entry in entries:  # LibreOffice conversions and .docx first: cost unknown
                if entry.whole:
                    options = dict(_file_options(kwargs, entry.name), processes=1)
                    entry.whole = pool.submit(_read_one, entry.path, entry.name, options)
            for _, (entry, n, task) in sorted(tasks, key=lambda t: -t[0]):
                entry.ocr[n] = pool.submit(ocr_mod.ocr_page_task, task)
        for entry in entries:
            yield entry.path, *_collect(entry)
    finally:
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
    try:
        if failed:
            raise failed[min(failed)]  # the page a serial read would have failed on first
        doc = entry.finish(results)
    except Exception as exc:  # noqa: BLE001 - one bad file (or a bug) must not stop the batch
        return None, [_failure(exc, entry.name)]
    return doc, list(doc.problems)
