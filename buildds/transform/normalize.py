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
:func:`to_int_number` reads an article number written in any common form.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

__all__ = ["ZERO_WIDTH", "normalize_text", "to_int_number"]

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


_TABLE: dict[int, str | None] = {**_ideograph_table(), **{ord(c): None for c in ZERO_WIDTH}}
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
    text = text.translate(_TABLE)
    text = _LETTER_SPACED.sub(_collapse, text)
    if digits == "halfwidth":
        text = text.translate(_HALFWIDTH_DIGITS)
    elif digits != "keep":
        raise ValueError(f"digits must be 'keep' or 'halfwidth', not {digits!r}")
    return text


_KANJI_DIGITS = {
    "〇": 0, "零": 0, "一": 1, "壱": 1, "二": 2, "弐": 2, "三": 3, "参": 3, "四": 4,
    "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
}
_KANJI_UNITS = {"十": 10, "拾": 10, "百": 100, "千": 1000}
_ROMAN = re.compile(r"^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_WRAPPER = re.compile(r"^第\s*(.+?)\s*[条項号章節款]$")


def _kanji_to_int(s: str) -> int | None:
    if not s or any(c not in _KANJI_DIGITS and c not in _KANJI_UNITS for c in s):
        return None
    if all(c in _KANJI_DIGITS for c in s):  # positional: 二〇 = 20, 一〇五 = 105
        return int("".join(str(_KANJI_DIGITS[c]) for c in s)) if len(s) > 1 else _KANJI_DIGITS[s]
    total, digit = 0, None
    last_unit = 10_000
    for c in s:
        if c in _KANJI_DIGITS:
            if digit is not None:
                return None
            digit = _KANJI_DIGITS[c]
        else:
            unit = _KANJI_UNITS[c]
            if unit >= last_unit:
                return None
            total += (1 if digit is None else digit) * unit
            digit, last_unit = None, unit
    return total + (digit or 0)


def _roman_to_int(s: str) -> int | None:
    s = s.upper()
    if not s or not _ROMAN.match(s):
        return None
    total = 0
    for a, b in zip(s, s[1:] + " "):
        va, vb = _ROMAN_VALUES[a], _ROMAN_VALUES.get(b, 0)
        total += -va if va < vb else va
    return total


def to_int_number(text: str) -> int | None:
    """An article number as an int: ``1``, ``１``, ``一``, ``十二``, ``二十三``, ``百``,
    ``II``, ``xii``, ``Ⅳ``; a ``第…条`` wrapper is allowed. ``None`` when unreadable."""
    s = unicodedata.normalize("NFKC", text.translate(_TABLE)).strip()
    s = re.sub(r"\s+", "", s)
    m = _WRAPPER.match(s)
    if m:
        s = m.group(1)
    s = s.rstrip(".")
    if not s:
        return None
    if s.isascii() and s.isdigit():
        return int(s)
    value = _kanji_to_int(s)
    if value is not None:
        return value
    return _roman_to_int(s) if s.isascii() and s.isalpha() else None
