"""Is OCR possible here? pytesseract, the tesseract binary and its language data.

:func:`check_tesseract` raises :class:`~buildds.errors.MissingDependency` (with the apt line
to install what is missing) before any OCR work starts. Part of :mod:`buildds.extract.ocr`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

from buildds.errors import MissingDependency

__all__ = ["APT_LINE", "AUTO_LANG", "check_tesseract"]

APT_LINE = "apt-get install tesseract-ocr tesseract-ocr-jpn"
#: the language "chosen per page" (:mod:`buildds.extract.ocr.language`); it needs ``jpn``
AUTO_LANG = "auto"

_CHECKED: dict[tuple[str, str], frozenset[str]] = {}
_CHECK_LOCK = threading.Lock()


def _apt_line(missing_langs: Sequence[str] = ()) -> str:
    extra = [
        f"tesseract-ocr-{lang.lower().replace('_', '-')}"
        for lang in missing_langs
        if lang not in ("jpn", "eng", "osd")
    ]
    return " ".join([APT_LINE, *extra])


def _import_pytesseract() -> Any:
    try:
        import pytesseract
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise MissingDependency("pytesseract", core=True, hint=f"and the engine: {APT_LINE}") from exc
    return pytesseract


def check_tesseract(lang: str = "jpn") -> frozenset[str]:
    """Make sure pytesseract, the tesseract binary and the language data for ``lang``
    (``"jpn"``, ``"jpn+eng"`` …; ``"auto"`` needs ``jpn``) are there; return the installed
    languages.

    Tesseract is run once per command (``pytesseract.pytesseract.tesseract_cmd``) and
    TESSDATA_PREFIX; it is asked again only when a language seems to be missing (it may have
    been installed since)."""
    pytesseract = _import_pytesseract()
    key = (str(pytesseract.pytesseract.tesseract_cmd), os.environ.get("TESSDATA_PREFIX", ""))
    wanted = ["jpn"] if lang == AUTO_LANG else [part for part in lang.split("+") if part]
    with _CHECK_LOCK:
        installed = _CHECKED.get(key)
        if installed is None or not all(part in installed for part in wanted):
            installed = _CHECKED[key] = _probe(pytesseract, key[0])
    missing = [part for part in wanted if part not in installed]
    if missing:
        raise MissingDependency(
            f"tesseract language data {'+'.join(missing)!r}",
            hint=f"install it with: {_apt_line(missing)}",
        )
    return installed


def _probe(pytesseract: Any, cmd: str) -> frozenset[str]:
    try:
        pytesseract.get_tesseract_version()
        return frozenset(pytesseract.get_languages())
    except (pytesseract.TesseractNotFoundError, OSError) as exc:
        raise MissingDependency(
            f"the tesseract OCR engine ({cmd!r})",
            hint=f"tesseract is a system package: {APT_LINE}",
        ) from exc
    except SystemExit as exc:  # pytesseract exits on a version it cannot parse
        raise MissingDependency(
            f"a usable tesseract (>= 3.05) at {cmd!r}", hint=APT_LINE
        ) from exc
