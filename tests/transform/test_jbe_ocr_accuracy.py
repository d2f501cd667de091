"""OCR items against their text-layer reference, aligned by id."""

from __future__ import annotations

from buildds.transform.jbe_ocr_accuracy import compare_items
from tests.jobs.test_jbe_ocr import item


def test_compare_items_by_id() -> None:
    ref = [item(1, 1, "甲土地を売却した。"), item(1, 2, "乙は善意である。", "N"), item(2, 1)]
    ocr = [item(1, 1, "申土地を売却した。"), item(1, 2, "乙は善意である。", "N")]
    acc = compare_items(ocr, ref)
    s = acc.summary()
    assert (s["reference_items"], s["ocr_items"], s["aligned"], s["missing"]) == (3, 2, 2, 1)
    assert s["labels_identical"] == 2 and s["texts_identical"] == 1
    assert (s["reference_questions"], s["ocr_questions"], s["identical_questions"]) == (2, 1, 1)
    assert abs(acc.overall - (1 - 1 / 17)) < 1e-9  # one wrong character in 17
