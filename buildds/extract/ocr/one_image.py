"""OCR of one greyscale image: clean it, read it with tesseract, check its orientation.

:func:`ocr_one_image` is what every OCR worker runs. A page that reads with a mean word
confidence below :data:`ORIENTATION_CHECK_BELOW` is given to tesseract's OSD; when OSD says it
is turned, it is rotated and read again and the better reading kept (see
:mod:`buildds.extract.ocr`). A job in language ``auto`` first chooses the page's language
with a quick probe (:mod:`buildds.extract.ocr.language`); the page keeps it (``OcrPage.lang``).
Part of :mod:`buildds.extract.ocr`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from buildds.errors import ExtractError
from buildds.extract.ocr.dependencies import AUTO_LANG
from buildds.extract.ocr.image_cleaning import binarise
from buildds.extract.ocr.job import OcrJob, OcrPage, blank_page, is_blank
from buildds.extract.ocr.language import choose_language
from buildds.extract.ocr.tesseract_lines import build_page

__all__ = ["ORIENTATION_CHECK_BELOW", "ocr_one_image"]

#: below this mean word confidence a page is checked for rotation (see module docstring)
ORIENTATION_CHECK_BELOW = 60.0
#: OSD's own confidence needed before a page is rotated
_MIN_OSD_CONFIDENCE = 1.0


def _read(img: Any, job: OcrJob, page: int, rotation: int = 0) -> OcrPage:
    import pytesseract

    config = f"--psm {job.psm} --dpi {round(job.dpi)}"
    data = pytesseract.image_to_data(
        img, lang=job.lang, config=config, output_type=pytesseract.Output.DICT, timeout=job.timeout
    )
    return dataclasses.replace(build_page(data, job, page, rotation), lang=job.lang)


def _page_job(clean: Any, job: OcrJob) -> OcrJob:
    """``job`` with the page's language: chosen by a probe when the job's is ``auto``
    (:func:`~buildds.extract.ocr.language.choose_language`)."""
    if job.lang != AUTO_LANG:
        return job
    choice = choose_language(clean, job.dpi, job.candidates, job.timeout)
    return dataclasses.replace(job, lang=choice.lang)


def _osd_rotation(img: Any, job: OcrJob) -> int:
    """Clockwise degrees to turn ``img`` upright according to tesseract OSD (0 when unsure)."""
    import pytesseract

    try:
        osd = pytesseract.image_to_osd(
            img,
            config=f"--dpi {round(job.dpi)}",
            output_type=pytesseract.Output.DICT,
            timeout=job.timeout,
        )
    except pytesseract.TesseractError:
        return 0  # too few characters to tell
    rotate = int(osd.get("rotate", 0)) % 360
    if rotate in (90, 180, 270) and float(osd.get("orientation_conf", 0)) >= _MIN_OSD_CONFIDENCE:
        return rotate
    return 0


def ocr_one_image(args: tuple[OcrJob, int, Any]) -> OcrPage:
    """Worker: clean one greyscale image, read it, check its orientation. A blank image is
    not read: tesseract would find nothing on it (see :func:`~.ocr_job.is_blank`)."""
    job, page, image = args
    import pytesseract
    from PIL import Image

    if isinstance(image, tuple):  # (mode, size, bytes) as sent to a process
        image = Image.frombytes(*image)
    if is_blank(image):
        return blank_page(page)
    try:
        clean = binarise(image)
        page_job = _page_job(clean, job)
        result = _read(clean, page_job, page)
        if (
            job.detect_orientation
            and job.osd_available
            and result.lines
            and result.confidence < ORIENTATION_CHECK_BELOW
        ):
            rotate = _osd_rotation(clean, job)
            if rotate:
                # PIL rotates counter-clockwise; OSD's "rotate" is clockwise
                upright = clean.rotate(-rotate, expand=True, fillcolor=255)
                # with ``auto`` the language is chosen again on the upright page: the probe
                # of a turned page reads nothing it can tell a script from
                turned = _read(upright, _page_job(upright, job), page, rotate)
                if turned.confidence > result.confidence:
                    result = turned
        return result
    except pytesseract.TesseractError as exc:
        raise ExtractError(
            f"tesseract failed: {exc.message}", source=job.source, page=page
        ) from None
    except RuntimeError as exc:  # pytesseract's timeout
        raise ExtractError(f"tesseract: {exc}", source=job.source, page=page) from None
