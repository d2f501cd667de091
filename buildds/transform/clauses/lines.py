"""Blocks → the lines the clause rules read, and the text ``Clause.char_span`` indexes.

A :class:`Line` is one line of a body block in the accepted view (a ``\\n`` inside a docx
paragraph starts a new one), normalised, with a half-width-digit copy (``det``) the patterns
match; a :class:`ClauseStart` is where a clause begins (found by :mod:`.japanese` or
:mod:`.english`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from buildds.schema.contracts import ClauseKind, DocBlock
from buildds.text import normalize_text

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


@dataclass
class Line:
    pos: int  # position in the body block list
    block: DocBlock
    text: str  # normalised accepted text of this sub-line
    det: str  # same with half-width digits, stripped
    is_line: bool  # a PDF/OCR line (joined with neighbours) rather than a paragraph
    first: bool  # first sub-line of its block


@dataclass
class ClauseStart:
    line: int  # index into the line list
    kind: ClauseKind
    number: int | None = None
    number_text: str | None = None
    heading: str | None = None
    body: str = ""  # inline body after the number/heading on the start line
    heading_line: int | None = None  # a bare heading line before the number
    branch: bool = False
    extra: dict[str, object] = field(default_factory=dict)


def body_blocks(blocks: Sequence[DocBlock]) -> list[DocBlock]:
    return [b for b in blocks if b.part == "body"]


def block_spans(body: Sequence[DocBlock]) -> tuple[str, list[tuple[int, int]]]:
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    for b in body:
        t = b.in_view("accepted")
        if t is None:
            spans.append((pos, pos))
            continue
        t = normalize_text(t)
        if parts:
            pos += 1
        spans.append((pos, pos + len(t)))
        parts.append(t)
        pos += len(t)
    return "\n".join(parts), spans


def document_text(blocks: Sequence[DocBlock]) -> str:
    """The text ``Clause.char_span`` indexes: the body blocks' accepted-view texts,
    normalised, joined with ``\\n`` (blocks deleted in the accepted view contribute nothing)."""
    return block_spans(body_blocks(blocks))[0]


def detect_language(lines: Sequence[Line]) -> Literal["ja", "en"]:
    text = "".join(ln.det for ln in lines)
    cjk = len(_CJK.findall(text))
    return "ja" if text and cjk / len(text) > 0.1 else "en"


def make_lines(body: Sequence[DocBlock]) -> list[Line]:
    lines = []
    for pos, b in enumerate(body):
        t = b.in_view("accepted")
        if t is None:
            continue
        for k, sub in enumerate(normalize_text(t).split("\n")):
            if not sub.strip() and k > 0:
                continue
            det = normalize_text(sub, digits="halfwidth").strip()
            lines.append(Line(pos, b, sub.strip(), det, b.bbox is not None, k == 0))
    return lines


def shown_prefix(ln: Line, det_prefix: str) -> str:
    """The printed form of a prefix found in the half-width copy (same length)."""
    lead = len(ln.text) - len(ln.text.lstrip())
    return ln.text[lead : lead + len(det_prefix)] if det_prefix else det_prefix
