"""Span edits on a judgment's full text: apply them, undo them exactly, make deletions.

Offsets of a :class:`~buildds.schema.judgments.SpanEdit` index the ORIGINAL text; edits that
do not fit it raise :class:`SpanEditError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from buildds.schema.judgments import SpanEdit

__all__ = ["SpanEditError", "apply_edits", "delete_ranges", "undo_edits"]


class SpanEditError(ValueError):
    """Edits that do not fit the text (overlap, or ``old`` is not what the text holds)."""


def _check(text: str, edits: Sequence[SpanEdit]) -> list[SpanEdit]:
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    prev_end = -1
    for e in ordered:
        if e.start < prev_end or (e.start == prev_end and e.start == e.end):
            raise SpanEditError(f"edit [{e.start}, {e.end}) overlaps the previous one")
        if not 0 <= e.start <= e.end <= len(text):
            raise SpanEditError(f"edit [{e.start}, {e.end}) is outside the text")
        if text[e.start:e.end] != e.old:
            raise SpanEditError(f"text[{e.start}:{e.end}] is {text[e.start:e.end]!r}, not {e.old!r}")
        prev_end = e.end
    return ordered


def apply_edits(text: str, edits: Sequence[SpanEdit]) -> str:
    """``text`` with every edit applied; offsets index ``text`` (the original). Raises
    :class:`SpanEditError` on overlapping edits or when ``text[start:end] != old``."""
    out: list[str] = []
    pos = 0
    for e in _check(text, edits):
        out.append(text[pos:e.start])
        out.append(e.new)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def undo_edits(anomalous: str, edits: Sequence[SpanEdit]) -> str:
    """The original text back from ``apply_edits(original, edits)`` (exact inverse)."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    out: list[str] = []
    pos = 0  # in the anomalous text
    shift = 0  # anomalous offset - original offset
    for e in ordered:
        a_start = e.start + shift
        out.append(anomalous[pos:a_start])
        if anomalous[a_start:a_start + len(e.new)] != e.new:
            raise SpanEditError(f"anomalous text at {a_start} is not {e.new!r}")
        out.append(e.old)
        pos = a_start + len(e.new)
        shift += len(e.new) - (e.end - e.start)
    out.append(anomalous[pos:])
    return "".join(out)


def delete_ranges(text: str, ranges: Iterable[tuple[int, int]]) -> list[SpanEdit]:
    """Deletion edits for ``ranges`` of ``text``, overlapping or touching ranges merged."""
    merged: list[list[int]] = []
    for s, e in sorted(ranges):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [SpanEdit(start=s, end=e, old=text[s:e], new="") for s, e in merged if e > s]
