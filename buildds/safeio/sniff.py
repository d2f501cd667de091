"""What a file's bytes really are, whatever its name says: every reader checks with this
before trusting the extension, and names the real kind in its error. :func:`read_regular`
is how every reader of a user's document gets its bytes: only a regular file is read (a FIFO
would block forever, a link to ``/dev/zero`` never ends)."""

from __future__ import annotations

import zipfile
import zlib
from pathlib import Path

from buildds.errors import ExtractError
from buildds.safeio.files import open_regular

__all__ = ["describe", "read_regular", "sniff"]

#: bytes of an ODF ``mimetype`` member read to tell .odt from other zips
_MIMETYPE_BYTES = 100


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
                info = zf.getinfo("mimetype")
                # Only the first bytes, streamed: a `mimetype` member can be a zip bomb, and
                # bzip2/LZMA inflate a whole 4 KiB chunk at once (ODF stores it uncompressed).
                if info.compress_type in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                    with zf.open(info) as fh:
                        mime = fh.read(_MIMETYPE_BYTES)
                    if b"opendocument.text" in mime:
                        return "odt"
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, ValueError,
            OSError, KeyError, NotImplementedError):
        pass
    return "zip"


_PHRASES = {
    "empty": "an empty file",
    "pdf": "a PDF",
    "docx": "a ZIP archive (a .docx/.xlsx?)",
    "odt": "a ZIP archive (a .docx/.xlsx?)",
    "zip": "a ZIP archive (a .docx/.xlsx?)",
    "ole2": "an old Office document",
    "html": "HTML/XML (an error page?)",
    "binary": "binary data",
}


def describe(data: bytes) -> str:
    """The kind of ``data`` as a phrase for an error message: ``a PDF``, ``an image``,
    ``HTML/XML (an error page?)``; for text, its first characters."""
    kind = sniff(data)
    if kind in ("png", "jpeg", "tiff", "gif", "bmp", "webp"):
        return "an image"
    if kind == "text":
        return repr(data[:40].decode("utf-8", errors="ignore"))
    return _PHRASES[kind]


def read_regular(path: str | Path, name: str, error: type[ExtractError] = ExtractError) -> bytes:
    """The bytes of the user's file ``path`` when it is a regular file; otherwise ``error``
    (``cannot read file (…)``) naming ``name``, the file as the user knows it."""
    try:
        fh = open_regular(path)
    except ExtractError as exc:
        raise error(f"cannot read file ({exc.message})", source=name) from None
    try:
        with fh:
            return fh.read()
    except OSError as exc:
        raise error(f"cannot read file ({exc.strerror or exc})", source=name) from exc
