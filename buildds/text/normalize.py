"""Conservative text normalisation shared by the contract and JBE pipelines.

Only what is invisible or typographic is changed, never the legal text itself:

* Kangxi radicals (U+2F00–U+2FD5) and CJK compatibility ideographs (U+F900–U+FAFF,
  U+2F800–U+2FA1F) become the unified ideographs they stand for (NFKC on those code points
  only — PDF fonts often map 「⼀」 U+2F00 where 「一」 U+4E00 was meant);
* zero-width characters (U+200B–U+200D, U+2060, U+FEFF) are removed;
* letter-spaced titles (``業 務 委 託 契 約 書``) are collapsed;
* optionally, full-width digits become ASCII digits (``digits="halfwidth"``), for article
  numbers.

Punctuation (、，。), full-width letters, brackets and spaces are left alone.
(:func:`buildds.text.numerals.to_int_number` reads an article number written in any common
form.)
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

__all__ = ["FOLD_TABLE", "ZERO_WIDTH", "normalize_text"]

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"

_RANGES = ((0x2F00, 0x2FD5), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _ideograph_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for lo, hi in _RANGES:
        for cp in range(lo, hi + 1):
            ch = chr(cp)
            mapped = unicodedata.normalize("NFKC", ch)
            if mapped != ch and len(mapped) == 1:
                table[cp] = mapped
    return table


#: ``str.translate`` table: compatibility ideographs and Kangxi radicals folded, zero-width
#: characters removed (the first step of :func:`normalize_text`)
FOLD_TABLE: dict[int, str | None] = {**_ideograph_table(), **{ord(c): None for c in ZERO_WIDTH}}
_HALFWIDTH_DIGITS = {0xFF10 + i: str(i) for i in range(10)}

# CJK character: Han (incl. 々〆), hiragana, katakana (incl. ー).
_CJK = r"[\u3005\u3006\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
# A whole line made of at least three single CJK characters separated by one space:
# 「業 務 委 託 契 約 書」, 「記 名 押 印」. Two characters (「甲 乙」, a name 「河合 佑真」)
# are too ambiguous; a run inside a line (「2026 年 月 日」, a date left blank) is not a title.
_LETTER_SPACED = re.compile(rf"(?m)^[ \u3000]*{_CJK}(?:[ \u3000]{_CJK}){{2,}}[ \u3000]*$")
_DATE_CHARS = set("年月日 \u3000")


def _collapse(m: re.Match[str]) -> str:
    run = m.group()
    if set(run) <= _DATE_CHARS:  # 「年 月 日」: blanks to be filled in
        return run
    lead = run[: len(run) - len(run.lstrip(" \u3000"))]
    trail = run[len(run.rstrip(" \u3000")) :]
    return lead + re.sub(r"[ \u3000]", "", run.strip(" \u3000")) + trail


def normalize_text(text: str, *, digits: Literal["keep", "halfwidth"] = "keep") -> str:
    """Normalise ``text`` conservatively (see the module docstring)."""
    text = text.translate(FOLD_TABLE)
    text = _LETTER_SPACED.sub(_collapse, text)
    if digits == "halfwidth":
        text = text.translate(_HALFWIDTH_DIGITS)
    elif digits != "keep":
        raise ValueError(f"digits must be 'keep' or 'halfwidth', not {digits!r}")
    return text
