"""Span edits: applied with their offsets in the original text, undone exactly, refused when they
do not fit (:class:`~buildds.inject_errors.edits.SpanEditError`)."""

from __future__ import annotations

import pytest

from buildds.inject_errors.edits import SpanEditError, apply_edits, delete_ranges, undo_edits
from buildds.schema.judgments import SpanEdit


def test_apply_and_undo_edits() -> None:
    text = "甲乙丙丁戊"
    edits = [SpanEdit(start=3, end=4, old="丁", new="四四"), SpanEdit(start=0, end=1, old="甲", new="")]
    assert apply_edits(text, edits) == "乙丙四四戊"
    assert undo_edits("乙丙四四戊", edits) == text
    with pytest.raises(SpanEditError):
        apply_edits(text, [SpanEdit(start=0, end=2, old="甲乙", new=""), SpanEdit(start=1, end=3, old="乙丙", new="")])
    with pytest.raises(SpanEditError):
        apply_edits(text, [SpanEdit(start=0, end=1, old="乙", new="")])


def test_delete_ranges_merges_overlapping_and_touching_ranges() -> None:
    text = "甲乙丙丁戊己"
    edits = delete_ranges(text, [(3, 4), (0, 1), (1, 2), (2, 2), (3, 5)])
    assert [(e.start, e.end, e.old) for e in edits] == [(0, 2, "甲乙"), (3, 5, "丁戊")]
    assert apply_edits(text, edits) == "丙己"
