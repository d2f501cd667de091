"""Text lines as PDFs and OCR give them: whitespace runs collapsed, page numbers told apart,
wrapped lines re-joined.

* :func:`normalise_spaces` — runs of ASCII and full-width spaces and tabs become one ASCII
  space, as pdfplumber prints them;
* :func:`is_page_number` — ``- 3 -``, ``3``, ``3/10``, ``Page 3``, ``（3）``, ``第3頁``;
* :func:`join_wrapped` — no space between Japanese characters (the line break is not a word
  break in Japanese), one space between Latin words, hyphenated English words re-joined.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["is_page_number", "join_wrapped", "normalise_spaces"]

_SPACES = re.compile(r"[ \t\u3000\u00a0\u2002-\u200a]+")
_PAGE_NUMBER = re.compile(
    r"^(?:[-－‐─―–—]\s*\d+\s*[-－‐─―–—]|\d+|\d+\s*/\s*\d+|(?:page|Page|PAGE)\s*\d+(?:\s*of\s*\d+)?"
    r"|[（(]\s*\d+\s*[)）]|第\s*\d+\s*頁)$"
)


def normalise_spaces(text: str) -> str:
    """Collapse runs of spaces (ASCII, full-width, tabs) to one ASCII space and strip."""
    return _SPACES.sub(" ", text).strip()


def is_page_number(text: str) -> bool:
    return bool(_PAGE_NUMBER.match(text.strip()))


def _is_ascii_word_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch in ",.;:)]%")


def join_wrapped(parts: Iterable[str]) -> str:
    """Join wrapped lines: no space between Japanese characters (the line break is not a
    word break in Japanese), one space between Latin words, and hyphenated English words
    re-joined."""
    out = ""
    for part in parts:
        part = part.strip()
        if not part:
            continue
        if not out:
            out = part
        elif out.endswith("-") and len(out) > 1 and out[-2].isalpha() and part[0].islower():
            out = out[:-1] + part
        elif _is_ascii_word_char(out[-1]) and part[0].isascii() and part[0].isalnum():
            out += " " + part
        else:
            out += part
    return out
