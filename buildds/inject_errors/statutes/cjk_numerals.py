"""Chinese and Japanese kanji numerals and durations: 十五 → 15, 一年六个月 → 18 months.

Shared by the PRC and Japanese penal-code readers; :data:`NUMERAL` is the regex character class
of a numeral for building the penalty and amount patterns.
"""

from __future__ import annotations

import re

from buildds.transform.judgment_parse import cn_number

__all__ = ["NUMERAL", "cn_duration_months", "cn_numeral"]


NUMERAL = "[零〇一二两三四五六七八九十百千万亿0-9]+"


def cn_numeral(text: str) -> int:
    """A Chinese (or Japanese kanji) numeral as int: 十五 → 15, 二百万 → 2,000,000; read by
    :func:`~buildds.transform.judgment_parse.cn_number` (the judgments' numeral parser),
    ``ValueError`` when ``text`` is not a numeral."""
    value = cn_number(text)
    if value is None:
        raise ValueError(f"not a numeral: {text!r}")
    return int(value)


def cn_duration_months(text: str) -> int:
    """三年 → 36, 六个月 → 6, 一年六个月 → 18 (also Japanese 三月 → 3)."""
    m = re.fullmatch(rf"(?:({NUMERAL})年)?(?:({NUMERAL})个?月)?", text)
    if not m or not (m.group(1) or m.group(2)):
        raise ValueError(f"not a duration: {text!r}")
    return cn_numeral(m.group(1) or "0") * 12 + cn_numeral(m.group(2) or "0")
