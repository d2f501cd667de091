"""Chinese and Japanese kanji numerals and durations: 十五 → 15, 一年六个月 → 18 months.

Shared by the PRC and Japanese penal-code readers; :data:`NUMERAL` is the regex character class
of a numeral for building the penalty and amount patterns.
"""

from __future__ import annotations

import re

__all__ = ["NUMERAL", "cn_duration_months", "cn_numeral"]


_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
           "八": 8, "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_BIG = {"万": 10_000, "亿": 100_000_000}
NUMERAL = "[零〇一二两三四五六七八九十百千万亿0-9]+"


def cn_numeral(text: str) -> int:
    """A Chinese (or Japanese kanji) numeral as int: 十五 → 15, 二百万 → 2,000,000."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    total = section = number = 0
    for ch in text:
        if ch in _DIGITS:
            number = _DIGITS[ch]
        elif ch in _UNITS:
            section += (number or 1) * _UNITS[ch]
            number = 0
        elif ch in _BIG:
            total += (section + number) * _BIG[ch]
            section = number = 0
        elif ch.isdigit():
            number = number * 10 + int(ch)
        else:
            raise ValueError(f"not a numeral: {text!r}")
    return total + section + number


def cn_duration_months(text: str) -> int:
    """三年 → 36, 六个月 → 6, 一年六个月 → 18 (also Japanese 三月 → 3)."""
    m = re.fullmatch(rf"(?:({NUMERAL})年)?(?:({NUMERAL})个?月)?", text)
    if not m or not (m.group(1) or m.group(2)):
        raise ValueError(f"not a duration: {text!r}")
    return cn_numeral(m.group(1) or "0") * 12 + cn_numeral(m.group(2) or "0")
