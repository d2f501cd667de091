"""Original vs injected text as a reviewer reads it: only the changed regions, each with some
context (:func:`diff_hunks`), as Markdown (:func:`hunk_markdown`) or as data an HTML
template renders with ``<del>``/``<ins>`` (the :class:`Hunk` segments).

The diff is per character (:class:`difflib.SequenceMatcher`, no junk heuristic): Chinese and
Japanese text has no spaces to split words on.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

__all__ = ["Hunk", "Segment", "diff_hunks", "fence", "hunk_markdown"]

CONTEXT = 40


@dataclass(frozen=True)
class Segment:
    """A stretch of one side of a hunk; ``changed``: deleted (left) or inserted (right)."""

    text: str
    changed: bool


@dataclass(frozen=True)
class Hunk:
    """One changed region: the original side (``left``) and the injected side (``right``),
    each with its context; ``cut_before`` / ``cut_after``: text was left out around it."""

    left: tuple[Segment, ...]
    right: tuple[Segment, ...]
    cut_before: bool
    cut_after: bool


def _segments(text: str, start: int, end: int, changes: list[tuple[int, int]]) -> tuple[Segment, ...]:
    out: list[Segment] = []
    pos = start
    for s, e in changes:
        if e <= start or s >= end:
            continue
        if s > pos:
            out.append(Segment(text[pos:s], False))
        if e > s:
            out.append(Segment(text[s:e], True))
        pos = max(pos, e)
    if pos < end:
        out.append(Segment(text[pos:end], False))
    return tuple(out)


def diff_hunks(original: str, injected: str, *, context: int = CONTEXT) -> list[Hunk]:
    """The changed regions of ``original`` → ``injected`` with ``context`` characters around
    each; regions whose context would touch are merged. Empty when the texts are equal."""
    ops = [op for op in difflib.SequenceMatcher(None, original, injected, autojunk=False)
           .get_opcodes() if op[0] != "equal"]
    groups: list[list[tuple[str, int, int, int, int]]] = []
    for op in ops:
        if groups and op[1] - groups[-1][-1][2] <= 2 * context:
            groups[-1].append(op)
        else:
            groups.append([op])
    hunks: list[Hunk] = []
    for group in groups:
        a0, b0 = group[0][1], group[0][3]
        a1, b1 = group[-1][2], group[-1][4]
        before = min(context, a0, b0)
        after = min(context, len(original) - a1, len(injected) - b1)
        left = _segments(original, a0 - before, a1 + after, [(op[1], op[2]) for op in group])
        right = _segments(injected, b0 - before, b1 + after, [(op[3], op[4]) for op in group])
        hunks.append(Hunk(left, right, cut_before=a0 - before > 0,
                          cut_after=a1 + after < len(original)))
    return hunks


def fence(text: str) -> str:
    """A backtick fence longer than any backtick run in ``text`` (so the text cannot close
    the code block it is put in)."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def _side(segments: tuple[Segment, ...], opening: str, closing: str) -> str:
    body = "".join(f"{opening}{s.text}{closing}" if s.changed else s.text for s in segments)
    return " ".join(body.split())  # one line: line breaks and runs of spaces become one space


def hunk_markdown(hunks: list[Hunk]) -> str:
    """The hunks as a fenced ``diff`` block: a ``-`` line (original, ``[-deleted-]``) and a
    ``+`` line (injected, ``{+inserted+}``) per hunk, ``…`` where text was left out."""
    lines: list[str] = []
    for h in hunks:
        pre, post = ("…" if h.cut_before else ""), ("…" if h.cut_after else "")
        lines.append(f"- {pre}{_side(h.left, '[-', '-]')}{post}")
        lines.append(f"+ {pre}{_side(h.right, '{+', '+}')}{post}")
    body = "\n".join(lines)
    mark = fence(body)
    return f"{mark}diff\n{body}\n{mark}"
