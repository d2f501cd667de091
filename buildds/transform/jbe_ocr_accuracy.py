"""How close the items built from a scanned booklet are to the items of its text-layer PDF.

Where a booklet exists both as a scan and as a PDF with a text layer, the text layer is the
reference: :func:`compare_items` aligns the two item lists by id and reports, per item, the
character accuracy of the statement (``1 − CER``: :func:`buildds.extract.ocr.char_accuracy`,
Levenshtein distance over the reference length, whitespace ignored) and whether the label is
the same, then overall figures: items and questions on both sides, labels identical, the
character accuracy over all statements together (total edits over total reference
characters) and the number of items whose text is identical. Used by
``benchmarks/bench_jbe_ocr.py`` and the scanned-booklet tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from buildds.extract.ocr import char_accuracy
from buildds.schema import JbeItem

__all__ = ["ItemAccuracy", "OcrAccuracy", "compare_items"]


@dataclass(frozen=True)
class ItemAccuracy:
    id: str
    accuracy: float
    same_label: bool
    ocr_confidence: float | None
    #: reference statement length (characters, whitespace excluded)
    chars: int


@dataclass
class OcrAccuracy:
    """The comparison of one OCR item list with its text-layer reference."""

    items: list[ItemAccuracy] = field(default_factory=list)
    reference_items: int = 0
    ocr_items: int = 0
    #: ids only the reference has (missed through OCR) / only the OCR side has
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    reference_questions: int = 0
    ocr_questions: int = 0
    #: questions whose item ids and labels are all identical on both sides
    identical_questions: int = 0

    @property
    def labels_identical(self) -> int:
        return sum(i.same_label for i in self.items)

    @property
    def texts_identical(self) -> int:
        return sum(i.accuracy == 1.0 for i in self.items)

    @property
    def overall(self) -> float:
        """Character accuracy over all aligned statements together (length-weighted)."""
        chars = sum(i.chars for i in self.items)
        return sum(i.accuracy * i.chars for i in self.items) / chars if chars else 1.0

    def summary(self) -> dict[str, Any]:
        return {
            "reference_items": self.reference_items, "ocr_items": self.ocr_items,
            "aligned": len(self.items), "missing": len(self.missing), "extra": len(self.extra),
            "labels_identical": self.labels_identical, "texts_identical": self.texts_identical,
            "reference_questions": self.reference_questions,
            "ocr_questions": self.ocr_questions,
            "identical_questions": self.identical_questions,
            "char_accuracy": round(self.overall, 5),
            "worst": [(i.id, round(i.accuracy, 4)) for i in
                      sorted(self.items, key=lambda i: (i.accuracy, i.id))[:5]],
        }


def _question(item_id: str) -> str:
    return item_id.rsplit("-", 1)[0]


def compare_items(ocr: Sequence[JbeItem], reference: Sequence[JbeItem]) -> OcrAccuracy:
    """Align ``ocr`` with ``reference`` by item id (see the module docstring)."""
    mine = {it.id: it for it in ocr}
    ref = {it.id: it for it in reference}
    out = OcrAccuracy(reference_items=len(ref), ocr_items=len(mine),
                      missing=[i for i in ref if i not in mine],
                      extra=[i for i in mine if i not in ref])
    for item_id, want in ref.items():
        got = mine.get(item_id)
        if got is None:
            continue
        out.items.append(ItemAccuracy(
            id=item_id, accuracy=char_accuracy(got.question, want.question),
            same_label=got.label == want.label, ocr_confidence=got.ocr_confidence,
            chars=len("".join(want.question.split()))))
    ref_q = {_question(i) for i in ref}
    ocr_q = {_question(i) for i in mine}
    out.reference_questions, out.ocr_questions = len(ref_q), len(ocr_q)
    labels = {i.id: i.same_label for i in out.items}
    for q in ref_q:
        ids = {i for i in ref if _question(i) == q}
        if ids == {i for i in mine if _question(i) == q} and all(labels[i] for i in ids):
            out.identical_questions += 1
    return out
