"""What one OCR run is given and what it gives back.

:class:`OcrJob` holds the settings a worker needs to read an image (language, page
segmentation mode, resolution, orientation check; picklable, so it travels to worker
processes), :func:`make_job` builds one after checking tesseract, and :class:`OcrPage` is a
page as tesseract read it. Part of :mod:`buildds.extract.ocr`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

from buildds.extract.ocr.dependencies import AUTO_LANG, check_tesseract
from buildds.extract.ocr.language import auto_candidates
from buildds.safeio import LIMITS
from buildds.schema import PdfLine

__all__ = [
    "DEFAULT_DPI",
    "DEFAULT_PSM",
    "MAX_PAGE_PIXELS",
    "MIN_OCR_DPI",
    "OcrJob",
    "OcrPage",
    "blank_page",
    "is_blank",
    "is_japanese",
    "make_job",
]

DEFAULT_DPI = 300
DEFAULT_PSM = 6
#: Pixels one page may have when rendered (or loaded) for OCR. 50 Mpx is an A2 sheet at
#: 300 dpi, far above any real page (A4 is 8.7 Mpx, A3 17.4 Mpx), yet a greyscale image of it
#: (50 MB) and the few copies cleaning makes stay well under a gigabyte per worker; without it
#: one 200-inch PDF page asks pdfium for a 3.6-gigapixel bitmap.
MAX_PAGE_PIXELS = LIMITS["page_pixels"].default
#: The least resolution a page is rendered at to fit MAX_PAGE_PIXELS: below it tesseract's
#: accuracy on 10-point Japanese falls off (0.989 at 300 dpi, 0.974 at 200, see the package
#: docstring), so a page that needs less is refused rather than read badly.
MIN_OCR_DPI = 150
#: A render whose grey levels span at most this many steps is blank paper: nothing tesseract
#: could read (antialiased type spans the whole range), so it is not sent to tesseract.
_BLANK_MAX_RANGE = 4


@dataclass(frozen=True)
class OcrPage:
    """One page as tesseract read it.

    ``lines`` are in tesseract's reading order with boxes in PDF points from the top-left
    corner of the (upright) page; ``confidence`` is the mean word confidence 0–100 (0 when
    no text was found); ``rotation`` is the clockwise rotation in degrees that was applied
    before reading (0 unless orientation detection turned the page)."""

    lines: tuple[PdfLine, ...]
    confidence: float
    page: int = 1
    rotation: int = 0
    #: the page was blank (nothing drawn, or a render of one grey level): not given to tesseract
    blank: bool = False
    #: the language tesseract read the page with (chosen per page when the job's is ``auto``)
    lang: str | None = None

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


def blank_page(page: int) -> OcrPage:
    """The reading of a blank page: what tesseract returns for one, without running it."""
    return OcrPage(lines=(), confidence=0.0, page=page, blank=True)


def is_blank(image: Any) -> bool:
    """Whether a greyscale image is blank paper (one C pass over the pixels: ``getextrema``)."""
    low, high = image.getextrema()
    return bool(high - low <= _BLANK_MAX_RANGE)


def is_japanese(lang: str) -> bool:
    return any(part.split("_")[0] == "jpn" for part in lang.split("+"))


@dataclass(frozen=True)
class OcrJob:
    """What a worker needs to read one image (picklable)."""

    lang: str
    psm: int
    dpi: float
    detect_orientation: bool
    osd_available: bool
    source: str
    timeout: int = 0
    #: for ``lang="auto"``: the installed languages a page may be read with
    candidates: tuple[str, ...] = ()


def make_job(
    lang: str, psm: int, dpi: float, detect_orientation: bool, source: str, timeout: int
) -> OcrJob:
    installed = check_tesseract(lang)
    osd = "osd" in installed
    if detect_orientation and not osd:
        warnings.warn(
            "tesseract's osd.traineddata is not installed, so page orientation is not checked "
            "(apt-get install tesseract-ocr-osd)",
            RuntimeWarning,
            stacklevel=3,
        )
    candidates = auto_candidates(installed)
    return OcrJob(
        candidates=candidates if lang == AUTO_LANG else (),
        lang=lang,
        psm=psm,
        dpi=float(dpi),
        detect_orientation=detect_orientation,
        osd_available=osd,
        source=source,
        timeout=timeout,
    )
