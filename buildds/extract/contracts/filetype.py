"""Which contract files the reader takes, and checking that a file's bytes match its name.

:func:`load_file` returns a file's normalised suffix and bytes, raising an :class:`ExtractError`
for an unsupported extension, an unreadable or empty file, one that is not a regular file (a
FIFO or a link to ``/dev/zero`` is refused, never read), or one whose bytes look like
something else (a ``.pdf`` that is really a zip, an HTML error page saved as ``.pdf`` …).
"""

from __future__ import annotations

from pathlib import Path

from buildds.errors import ExtractError
from buildds.extract.contracts.errors import contract_error
from buildds.safeio.sniff import read_regular, sniff

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
SUPPORTED_SUFFIXES = (".docx", ".pdf", ".odt") + IMAGE_SUFFIXES

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
        raise contract_error("file is empty (0 bytes)", name, "empty_file")
    expected = _IMAGE_KINDS if suffix in IMAGE_SUFFIXES else _EXPECTED[suffix]
    if kind not in expected:
        what = {".pdf": "a PDF", ".docx": "a Word .docx", ".odt": "an OpenDocument .odt"}.get(
            suffix, "an image")
        raise contract_error(
            f"named {suffix} but not {what}: the file looks like {_LOOKS_LIKE[kind]}",
            name, "wrong_file_type")


def load_file(path: Path, name: str) -> tuple[str, bytes]:
    """The file's (normalised) suffix and bytes, after checking they agree."""
    suffix = path.suffix.lower().rstrip()
    if suffix not in SUPPORTED_SUFFIXES:
        shown = f"'{suffix}'" if suffix else "(no extension)"
        raise contract_error(f"unsupported file type {shown} (supported: "
                             f"{', '.join(SUPPORTED_SUFFIXES)})", name, "unsupported_type")
    try:
        data = read_regular(path, name)
    except ExtractError as exc:
        raise contract_error(exc.message, name, "unreadable") from None
    _check_kind(suffix, sniff(data), name)
    return suffix, data
