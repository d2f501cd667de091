"""Where a clause's items (号: ``一``, ``①``, ``（１）``, ``(a)`` …) are in the document's text.

The clause splitter gives each clause its character span (``Clause.char_span``) in
:func:`~buildds.transform.clauses.document_text` — the body blocks of the view, normalised,
one per line — and its items as text, wrapped lines re-joined
(:func:`~buildds.text.join_wrapped`: no space between Japanese characters, one between Latin
words, hyphenated words re-joined). :func:`item_spans` finds each item in that text, in
order, inside the clause's span, comparing without whitespace (and without a hyphen at a
line end), so a re-joined item still matches the lines it came from. An item that cannot be
found (it should not happen) gets no span (``None``) rather than a wrong one.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["item_spans"]


def _compact(text: str, start: int, end: int) -> tuple[str, list[int]]:
    """``text[start:end]`` without whitespace and line-end hyphens, and where each of its
    characters is in ``text``."""
    chars: list[str] = []
    where: list[int] = []
    for i in range(start, end):
        ch = text[i]
        if ch.isspace() or (ch == "-" and i + 1 < len(text) and text[i + 1] == "\n"):
            continue
        chars.append(ch)
        where.append(i)
    return "".join(chars), where


def item_spans(text: str, span: tuple[int, int] | None, items: Sequence[str]
               ) -> list[tuple[int, int] | None]:
    """For each item, its ``(start, end)`` in ``text`` (the document text), searched in order
    inside ``span`` (the clause's); ``None`` for an item not found."""
    if span is None:
        return [None] * len(items)
    hay, where = _compact(text, *span)
    out: list[tuple[int, int] | None] = []
    cursor = 0
    for item in items:
        needle = "".join(ch for ch in item if not ch.isspace())
        found = hay.find(needle, cursor) if needle else -1
        if found < 0:
            out.append(None)
            continue
        last = found + len(needle) - 1
        out.append((where[found], where[last] + 1))
        cursor = last + 1
    return out
