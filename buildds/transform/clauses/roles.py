"""What some clauses are, beyond their numbering: an English agreement's **cover** page and
**recitals**, and the **definitions** clause.

* :func:`cover_end` — an English preamble opening with at least two short lines (title,
  parties, date: each at most :data:`COVER_LINE_CHARS` characters, at most
  :data:`COVER_MAX_LINES` of them) that stop at a table of contents or, in a PDF, at the end of
  the first page, before more preamble text: those lines are the ``cover`` clause.

* :func:`recitals_start` — in an English preamble, the line where the recitals begin: a
  ``WHEREAS`` / ``(A) WHEREAS`` line, or a heading alone on its line (``RECITALS``,
  ``Recitals:``, ``BACKGROUND``, ``PRELIMINARY STATEMENT``) followed by more text. The
  recitals run to the first clause (``NOW, THEREFORE …`` included); the title and parties
  before them stay the ``preamble``. Japanese 前文 is left as the preamble.
* :func:`definitions_role` — ``"definitions"`` for an article/section headed
  ``Definitions`` / ``Interpretation`` / ``Definitions and Interpretation`` / ``定義``
  (``用語の定義``, ``秘密情報の定義`` …), or holding at least three
  ``"X" means …`` / 「X」とは…をいう definitions, as many as half its paragraphs and items; the clause keeps its kind and
  number (numbering checks see it as any other clause).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from buildds.schema.contracts import ClauseRole
from buildds.transform.clauses.lines import Line

__all__ = ["COVER_LINE_CHARS", "COVER_MAX_LINES", "cover_end", "definitions_role",
           "recitals_start"]

#: a cover page's lines are short, and few
COVER_LINE_CHARS = 100
COVER_MAX_LINES = 20

_WHEREAS = re.compile(r"^(?:\(?[A-Z0-9]{1,3}[.)]\s+)?(?:WHEREAS|Whereas)\b")
_RECITALS_HEADING = re.compile(
    r"^(?:RECITALS?|Recitals?|BACKGROUND|Background|PRELIMINARY\s+STATEMENTS?|"
    r"Preliminary\s+Statements?|WITNESSETH|Witnesseth|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H)"
    r"\s*[:.\-–—]?$")
_DEF_TERM = r"(?:definitions?|defined\s+terms|interpretation)"
_DEF_HEADING = re.compile(
    rf"^{_DEF_TERM}(?:\s*(?:and|&|;|,)\s*(?:{_DEF_TERM}|(?:rules\s+of\s+)?construction))?$"
    r"|^(?:[^\s。、]{1,12}の)?定義(?:等|及び解釈)?$", re.IGNORECASE)
_DEF_LINE = re.compile(
    r"[\"“][^\"”\n]{1,80}[\"”]\s*(?:shall\s+)?(?:means?|includes?|refers?|has\s+the\s+meaning)\b"
    r"|「[^」\n]{1,40}」とは[^\n。]*?(?:をいう|を意味する|のことをいう)")


def cover_end(lines: Sequence[Line], end: int, toc: set[int]) -> int | None:
    """Where the cover page of an English preamble ``lines[0:end]`` ends (the first line
    after it), or None (see the module docstring)."""
    stop = min((i for i in toc if i < end), default=None)
    page = lines[0].block.page if lines else None
    if stop is None and page is not None:
        stop = next((i for i in range(end) if lines[i].block.page != page), None)
    if stop is None or not 2 <= stop <= COVER_MAX_LINES:
        return None
    if any(len(lines[i].det) > COVER_LINE_CHARS for i in range(stop)):
        return None
    return stop


def recitals_start(lines: Sequence[Line], begin: int, end: int) -> tuple[int, bool] | None:
    """The first recitals line in ``lines[begin:end]`` (an English preamble) and whether it
    is a bare heading (``RECITALS``), or None."""
    for i in range(begin, end):
        det = lines[i].det
        if _WHEREAS.match(det):
            return i, False
        if _RECITALS_HEADING.match(det) and i + 1 < end:
            return i, True
    return None


def definitions_role(kind: str, heading: str | None, units: Sequence[str]) -> ClauseRole | None:
    """``"definitions"`` for a definitions article/section (see the module docstring)."""
    if kind not in ("article", "section"):
        return None
    if heading and _DEF_HEADING.match(heading.strip().rstrip(".:")):
        return "definitions"
    # PDF lines may glue several definitions into one unit: count definitions, not units
    hits = sum(len(_DEF_LINE.findall(u)) for u in units)
    if hits >= 3 and hits * 2 >= len(units):
        return "definitions"
    return None
