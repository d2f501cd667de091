"""OCR inside ``buildds jbe``: the reading settings and the items whose OCR text is doubtful.

A booklet without a text layer is read by tesseract (:mod:`buildds.extract.ocr`), its lines
repaired where the exam's structure expects a label, header or slot marker
(:mod:`buildds.extract.jbe.ocr_repair`), and each statement given tesseract's confidence
(:mod:`buildds.extract.jbe.ocr_confidence`). Stage 2 copies the mean onto the item
(``ocr_confidence``; ``None`` for items from a text layer), and the report lists every item
whose mean is below ``--ocr-flag-below`` (default :data:`FLAG_BELOW`) or one of whose words
tesseract read with less than :data:`WORD_FLOOR`: such an item may carry an OCR typo and
deserves a look before the dataset is used.

How the default was chosen (the two scanned booklets of ``../shared/jbe/scanned`` against
their text-layer originals, see ``benchmarks/bench_jbe_ocr.py``): the items whose text
differs from the text layer are the ones this flag is meant to find.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from buildds.extract.jbe.ocr_confidence import statement_confidences
from buildds.extract.jbe.ocr_repair import OcrRepair, repair_ocr_document
from buildds.schema import JbeItem, PdfDocument

__all__ = ["DEFAULT_OCR", "FLAG_BELOW", "WORD_FLOOR", "OcrSettings", "attach_ocr_confidence", "low_confidence",
           "repair_booklet", "statement_confidences"]

#: an item whose statement's mean word confidence is below this is flagged (0–100)
FLAG_BELOW = 90.0
#: an item with a word read below this confidence is flagged whatever its mean
WORD_FLOOR = 30.0
_DEFAULT_LANG, _DEFAULT_DPI, _DEFAULT_PSM = "jpn", 300, 6


@dataclass(frozen=True)
class OcrSettings:
    """``--ocr-lang``, ``--ocr-dpi``, ``--ocr-psm`` and ``--ocr-flag-below``."""

    lang: str = _DEFAULT_LANG
    dpi: int = _DEFAULT_DPI
    psm: int = _DEFAULT_PSM
    flag_below: float = FLAG_BELOW

    def extract_kwargs(self) -> dict[str, Any]:
        """What :func:`buildds.extract.pdf.lines.extract_pdf` takes."""
        return {"ocr_lang": self.lang, "ocr_dpi": self.dpi, "ocr_psm": self.psm}

    def cache_options(self) -> dict[str, Any]:
        """The reading settings for a cache key: nothing when they are the defaults, so a
        default build keeps its keys."""
        if (self.lang, self.dpi, self.psm) == (_DEFAULT_LANG, _DEFAULT_DPI, _DEFAULT_PSM):
            return {}
        return {"ocr": [self.lang, self.dpi, self.psm]}


#: the defaults (module-level: a frozen dataclass used as a default argument)
DEFAULT_OCR = OcrSettings()


def repair_booklet(doc: PdfDocument) -> tuple[PdfDocument, list[OcrRepair]]:
    """An OCR'd booklet with its structure repaired, and the repairs; a text-layer booklet
    as it is."""
    if not any(p.ocr for p in doc.pages):
        return doc, []
    return repair_ocr_document(doc)


def _key(item_id: str) -> str:
    """``令和６年-民法-18-5`` → ``18-5``."""
    return "-".join(item_id.rsplit("-", 2)[-2:])


def attach_ocr_confidence(items: tuple[JbeItem, ...] | list[JbeItem],
                          confidences: dict[str, tuple[float, float]] | None) -> list[JbeItem]:
    """The items with ``ocr_confidence`` (the statement's mean word confidence) set from a
    booklet's per-statement confidences; unchanged when the booklet had no OCR page."""
    if not confidences:
        return list(items)
    return [it.model_copy(update={"ocr_confidence": confidences[_key(it.id)][0]})
            if _key(it.id) in confidences else it for it in items]


def low_confidence(items: list[JbeItem], confidences: dict[str, dict[str, tuple[float, float]]],
                   flag_below: float = FLAG_BELOW) -> list[dict[str, Any]]:
    """The OCR items to look at, in item order: ``{"id", "mean", "min"}`` for each item whose
    mean confidence is below ``flag_below`` or with a word below :data:`WORD_FLOOR`.
    ``confidences``: per booklet source path, its per-statement confidences."""
    flagged = []
    for it in items:
        pair = confidences.get(it.source) or {}
        conf = pair.get(_key(it.id))
        if conf is None:
            continue
        mean, least = conf
        if mean < flag_below or least < WORD_FLOOR:
            flagged.append({"id": it.id, "mean": mean, "min": least})
    return flagged
