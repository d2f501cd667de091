"""OCR confidence of a contract document: the mean over pages and low-confidence warnings.

``ContractDocument.ocr_confidence`` is the mean of the page confidences (pages where OCR found
text); every OCR'd page below :data:`LOW_CONFIDENCE` adds a ``warning`` Problem
``ocr_low_confidence`` with its page, confidence and language; :func:`page_languages` is
the language each page was read with (``ContractDocument.ocr_page_lang``).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import TYPE_CHECKING

from buildds.schema import Problem

if TYPE_CHECKING:
    from buildds.extract.ocr import OcrPage

#: an OCR'd page whose mean word confidence is below this gets a warning Problem
LOW_CONFIDENCE = 60.0


def mean_confidence(values: Iterable[float]) -> float | None:
    vals = list(values)
    return round(statistics.fmean(vals), 2) if vals else None


def page_languages(results: Iterable[OcrPage], lang: str) -> dict[int, str]:
    """Page → the language it was read with (the page's own, else ``lang``), blank pages
    left out."""
    return {r.page: r.lang or lang for r in sorted(results, key=lambda r: r.page)
            if not r.blank}


def low_confidence_problems(pages: dict[int, float], lang: str | dict[int, str],
                            name: str) -> list[Problem]:
    """A warning per page below :data:`LOW_CONFIDENCE`; ``lang`` is the language, or each
    page's (:func:`page_languages`)."""
    langs = lang if isinstance(lang, dict) else {}
    default = lang if isinstance(lang, str) else "auto"
    return [
        Problem(stage="extract", code="ocr_low_confidence", severity="warning", source=name,
                page=page,
                message=f"OCR confidence {conf:.1f} is below {LOW_CONFIDENCE:.0f} "
                        f"(lang {langs.get(page, default)}): "
                        "the text may be wrong (wrong language, rotated or poor scan)")
        for page, conf in sorted(pages.items()) if conf < LOW_CONFIDENCE
    ]
