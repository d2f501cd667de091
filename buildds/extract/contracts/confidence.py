"""OCR confidence of a contract document: the mean over pages and low-confidence warnings.

``ContractDocument.ocr_confidence`` is the mean of the page confidences (pages where OCR found
text); every OCR'd page below :data:`LOW_CONFIDENCE` adds a ``warning`` Problem
``ocr_low_confidence`` with its page and confidence.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable

from buildds.schema import Problem

#: an OCR'd page whose mean word confidence is below this gets a warning Problem
LOW_CONFIDENCE = 60.0


def mean_confidence(values: Iterable[float]) -> float | None:
    vals = list(values)
    return round(statistics.fmean(vals), 2) if vals else None


def low_confidence_problems(pages: dict[int, float], lang: str, name: str) -> list[Problem]:
    return [
        Problem(stage="extract", code="ocr_low_confidence", severity="warning", source=name,
                page=page,
                message=f"OCR confidence {conf:.1f} is below {LOW_CONFIDENCE:.0f} (lang {lang}): "
                        "the text may be wrong (wrong language, rotated or poor scan)")
        for page, conf in sorted(pages.items()) if conf < LOW_CONFIDENCE
    ]
