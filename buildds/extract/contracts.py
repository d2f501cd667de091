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
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from buildds.errors import BuildError, ExtractError, MissingDependency
from buildds.schema import PdfDocument, PdfPage, Problem, Source
from buildds.schema.contracts import ContractDocument, DocBlock

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


# --------------------------------------------------------------------------- sniffing
def sniff(data: bytes) -> str:
    """What the bytes look like: ``pdf``, ``docx``, ``odt``, ``zip``, ``ole2``, ``png``,
    ``jpeg``, ``tiff``, ``gif``, ``bmp``, ``webp``, ``html``, ``text``, ``empty`` or
    ``binary``."""
    if not data:
        return "empty"
    if b"%PDF-" in data[:1024]:
        return "pdf"
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return _zip_kind(data)
    if data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "ole2"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data.startswith(b"BM"):
        return "bmp"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if head.startswith((b"<!doctype html", b"<html", b"<?xml", b"<")):
        return "html"
    try:
        data[:4096].decode("utf-8")
        return "text"
    except UnicodeDecodeError as exc:
        # a multi-byte character cut at the end of the sample is still text
        if exc.start >= 4090:
            return "text"
    return "binary"


def _zip_kind(data: bytes) -> str:
    import io

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = set(zf.namelist())
            if "word/document.xml" in names:
                return "docx"
            if "mimetype" in names:
                mime = zf.read("mimetype")[:100]
                if b"opendocument.text" in mime:
                    return "odt"
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, KeyError):
        pass
    return "zip"


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


def _read_pdf(path: Path, name: str, *, password: str | None, ocr: bool, ocr_lang: str,
              processes: int | None, pages: Sequence[int] | None) -> ContractDocument:
    from buildds.extract.pdf import _reading_order, _split_furniture, extract_pdf
    from buildds.transform.clauses import blocks_from_pdf

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
    confidences: dict[int, float] = {}
    if to_ocr and not ocr:
        if scan:
            raise _error("no text found (the PDF has no text layer and OCR is off)", name,
                         "no_text")
        problems.append(Problem(stage="extract", code="page_without_text", severity="warning",
                                source=name, message=f"page(s) {to_ocr} have no text layer and "
                                "were not OCR'd"))
    elif to_ocr:
        from buildds.extract.ocr import ocr_pdf_pages

        results = ocr_pdf_pages(path, to_ocr, lang=ocr_lang, processes=processes,
                                password=password, source_path=name)
        for n, page in results.items():
            raw[n] = list(page.lines)
            confidences[n] = page.confidence
    kept = [pg for pg in doc.pages if pg.number in wanted]
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
               f"{len(to_ocr)} page(s)" if scan else "the PDF's pages have no body text")
        raise _error(f"no text found ({why})", name, "no_text")
    problems += _low_confidence(confidences, ocr_lang, name)
    read_conf = {n: c for n, c in confidences.items() if raw[n]}
    return ContractDocument(source=doc.source, format="scan" if scan else "pdf",
                            blocks=tuple(blocks), pages=total,
                            ocr_confidence=_mean(read_conf.values()),
                            ocr_page_confidence={n: round(c, 1) for n, c in
                                                 sorted(confidences.items())},
                            problems=tuple(problems))


def _read_image(path: Path, name: str, data: bytes, *, ocr_lang: str, processes: int | None,
                pages: Sequence[int] | None) -> ContractDocument:
    from buildds.extract.ocr import ocr_image_pages

    results = ocr_image_pages(path, lang=ocr_lang, processes=processes, source_path=name,
                              detect_orientation=True)
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
        if isinstance(exc, BuildError):
            message, code = exc.message, _code(exc)
        else:
            message, code = f"unexpected {type(exc).__name__}: {exc}", "internal_error"
        source = getattr(exc, "source", None) or name
        return None, [Problem(stage="extract", code=code, message=message, source=source,
                              page=getattr(exc, "page", None))]
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
    set per file).

    ``jobs > 1`` reads that many files at once in worker processes (``fork``), each OCRing
    with ``processes=1`` unless given: for many single-page scans or images this is what
    uses the cores (OCR parallelism inside :func:`read_document` is per page)."""
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
            yield (path, *_read_one(path, name, kwargs))
        return

    import concurrent.futures as cf
    import multiprocessing

    kwargs.setdefault("processes", 1)
    items = [named(item) for item in paths]
    context = multiprocessing.get_context("fork" if os.name == "posix" else None)
    with cf.ProcessPoolExecutor(jobs, mp_context=context) as pool:
        futures = [pool.submit(_read_one, path, name, kwargs) for path, name in items]
        for (path, name), future in zip(items, futures, strict=True):
            try:
                doc, problems = future.result()
            except Exception as exc:  # noqa: BLE001 - a worker died (killed, out of memory)
                doc, problems = None, [Problem(
                    stage="extract", code="internal_error", source=name,
                    message=f"worker failed: {type(exc).__name__}: {exc}")]
            yield path, doc, problems
