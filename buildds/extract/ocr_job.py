"""What one OCR run is given and what it gives back.

:class:`OcrJob` holds the settings a worker needs to read an image (language, page
segmentation mode, resolution, orientation check; picklable, so it travels to worker
processes), :func:`make_job` builds one after checking tesseract, and :class:`OcrPage` is a
page as tesseract read it. Part of :mod:`buildds.extract.ocr`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from buildds.extract.ocr_dependencies import check_tesseract
from buildds.schema import PdfLine

__all__ = ["DEFAULT_DPI", "DEFAULT_PSM", "OcrJob", "OcrPage", "is_japanese", "make_job"]

DEFAULT_DPI = 300
DEFAULT_PSM = 6


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

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


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
    return OcrJob(
        lang=lang,
        psm=psm,
        dpi=float(dpi),
        detect_orientation=detect_orientation,
        osd_available=osd,
        source=source,
        timeout=timeout,
    )
