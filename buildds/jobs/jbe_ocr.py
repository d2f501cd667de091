"""OCR inside ``buildds jbe``: the reading settings and the items whose OCR text is doubtful.

A booklet without a text layer is read by tesseract (:mod:`buildds.extract.ocr`), its lines
repaired where the exam's structure expects a label, header or slot marker
(:mod:`buildds.extract.jbe.ocr_repair`), and each statement given tesseract's confidence
(:mod:`buildds.extract.jbe.ocr_confidence`). Stage 2 copies the mean onto the item
(``ocr_confidence``; ``None`` for items from a text layer), and the report lists every item
whose mean is below ``--ocr-flag-below`` (default :data:`FLAG_BELOW`) or one of whose words
tesseract read with less than ``--ocr-word-floor`` (default :data:`WORD_FLOOR`): such an
item may carry an OCR typo and deserves a look before the dataset is used.

How the defaults were chosen: the 246 items of the two scanned booklets of
``../shared/jbe/scanned`` (300 dpi, psm 6, after repair) against their text-layer originals;
79 differ from the text layer by at least one character. Flagging mean < 90 or a word < 40
flags 106 items, 66 of the 79 (recall 0.84, precision 0.62); mean < 90 alone flags 29 (23
with a typo, recall 0.29); mean < 90 or a word < 20 flags 73 (54, recall 0.68); mean < 92 or
a word < 50 flags 136 (72, recall 0.91). Tesseract's confidence does not see every misread
kanji, so a flag is a pointer for review, not a guarantee.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from buildds.extract.jbe.ocr_confidence import statement_confidences
from buildds.extract.jbe.ocr_repair import OcrRepair, repair_ocr_document
from buildds.schema import JbeItem, PdfDocument

__all__ = ["DEFAULT_OCR", "FLAG_BELOW", "WORD_FLOOR", "OcrSettings", "attach_ocr_confidence",
           "low_confidence", "ocr_flag_section", "repair_booklet", "statement_confidences"]

#: an item whose statement's mean word confidence is below this is flagged (0–100)
FLAG_BELOW = 90.0
#: an item with a word read below this confidence is flagged whatever its mean
WORD_FLOOR = 40.0
_DEFAULT_LANG, _DEFAULT_DPI, _DEFAULT_PSM = "jpn", 300, 6


@dataclass(frozen=True)
class OcrSettings:
    """``--ocr-lang``, ``--ocr-dpi``, ``--ocr-psm``, ``--ocr-flag-below``, ``--ocr-word-floor``."""

    lang: str = _DEFAULT_LANG
    dpi: int = _DEFAULT_DPI
    psm: int = _DEFAULT_PSM
    flag_below: float = FLAG_BELOW
    word_floor: float = WORD_FLOOR

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
                   settings: OcrSettings = DEFAULT_OCR) -> list[dict[str, Any]]:
    """The OCR items to look at, in item order: ``{"id", "mean", "min"}`` for each item whose
    mean confidence is below ``settings.flag_below`` or with a word below
    ``settings.word_floor``. ``confidences``: per booklet source path, its per-statement
    confidences."""
    flagged = []
    for it in items:
        pair = confidences.get(it.source) or {}
        conf = pair.get(_key(it.id))
        if conf is None:
            continue
        mean, least = conf
        if mean < settings.flag_below or least < settings.word_floor:
            flagged.append({"id": it.id, "mean": mean, "min": least})
    return flagged


def ocr_flag_section(items: list[JbeItem], flagged: list[dict[str, Any]]) -> list[str]:
    """The ``report.md`` section on OCR'd items: how many, how many flagged, and each
    flagged id with its mean and least word confidence."""
    ocr_items = sum(1 for it in items if it.ocr_confidence is not None)
    out = ["## OCR confidence", "",
           (f"{ocr_items} items were read by OCR; {len(flagged)} are flagged for review "
            "(mean word confidence below --ocr-flag-below, or a word below --ocr-word-floor):"),
           ""]
    if flagged:
        out += ["| item | mean | least word |", "|---|---:|---:|"]
        out += [f"| {f['id']} | {f['mean']:.1f} | {f['min']:.1f} |" for f in flagged]
        out.append("")
    return out
