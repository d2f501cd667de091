"""Chinese and Japanese numerals, read and written.

* :func:`cn_number` — a Chinese (or Japanese kanji) numeral mixed freely with Arabic digits,
  as a :class:`~decimal.Decimal`: 三万 → 30000, 十万零五百 → 100500, 1.5万 → 15000, 3,000 →
  3000 (the judgments' parser); :func:`cn_numeral` the same as an ``int`` that raises on
  anything else, :func:`cn_duration_months` a term (一年六个月 → 18), :data:`NUMERAL` the
  regex of a numeral for building patterns.
* :func:`int_to_cn` — an int written the Chinese way (100500 → 十万零五百, 0 → 零);
  :func:`int_to_ja` the Japanese way, as statutes and Word's ``japaneseCounting`` write it
  (100500 → 十万五百, 166 → 百六十六, 0 → 〇).
* :func:`to_int_number` — an article number in any common form (``１``, ``二十三``, ``二〇``,
  ``XII``, ``第十条``).

:func:`cn_number` and :func:`to_int_number` differ on purpose and are kept apart: an article
number written digit by digit (``二〇`` = 20, ``一〇五`` = 105) is positional, where the
judgments' reader takes the last digit (``二〇`` → 0, as it always has); ``to_int_number``
also refuses a malformed numeral (``十十``) and reads Roman numerals, ``cn_number`` reads
万/亿, financial digits (壹贰叁) and decimals. Likewise :func:`int_to_ja` writes 100500 as
十万五百, without the Chinese 零 that :func:`int_to_cn` inserts, and 一 only before 万.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from buildds.text.normalize import FOLD_TABLE

__all__ = ["NUMERAL", "cn_duration_months", "cn_number", "cn_numeral", "int_to_cn", "int_to_ja",
           "to_int_number"]

#: the regex of a numeral (Chinese or kanji digits and units, or Arabic digits)
NUMERAL = "[零〇一二两三四五六七八九十百千万亿0-9]+"

# --------------------------------------------------------------------------- reading
_FULLWIDTH = str.maketrans("０１２３４５６７８９．，", "0123456789.,")
_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
           "七": 7, "八": 8, "九": 9, "壹": 1, "贰": 2, "叁": 3, "肆": 4, "伍": 5, "陆": 6,
           "柒": 7, "捌": 8, "玖": 9}
_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000, "拾": 10, "佰": 100, "仟": 1000}
_BIG_UNITS = {"万": 10_000, "亿": 100_000_000}


@lru_cache(maxsize=8192)
def cn_number(text: str) -> Decimal | None:
    """``三万`` → 30000, ``十万零五百`` → 100500, ``1.5万`` → 15000, ``3,000`` → 3000.

    Arabic runs (with ``,`` thousands separators and a decimal point) and Chinese numerals
    mix freely; ``None`` when ``text`` holds no number. Memoised: judgments repeat the same
    few numerals (三年, 五千元 …) and the result is immutable."""
    s = text.translate(_FULLWIDTH).replace(",", "").strip()
    if not s:
        return None
    total = Decimal(0)
    section = Decimal(0)
    number: Decimal | None = None
    largest = 0  # the largest big unit already applied to ``total``
    seen = False
    i = 0
    while i < len(s):
        ch = s[i]
        if ch.isdigit():
            j = i
            while j < len(s) and (s[j].isdigit() or s[j] == "."):
                j += 1
            try:
                number = Decimal(s[i:j])
            except InvalidOperation:
                return None
            seen = True
            i = j
            continue
        if ch in _DIGITS:
            number = Decimal(_DIGITS[ch])
            seen = True
        elif ch in _SMALL_UNITS:
            section += (number if number is not None else Decimal(1)) * _SMALL_UNITS[ch]
            number = None
            seen = True
        elif ch in _BIG_UNITS:
            unit = _BIG_UNITS[ch]
            if unit > largest:  # 一万亿: the whole total so far is counted in 亿
                total = (total + section + (number or 0)) * unit
                largest = unit
            else:  # 一亿零一万: the 万 part adds to the 亿 part
                total += (section + (number or 0)) * unit
            section = Decimal(0)
            number = None
            seen = True
        else:
            return None
        i += 1
    if not seen:
        return None
    return total + section + (number or 0)



def cn_numeral(text: str) -> int:
    """A Chinese (or Japanese kanji) numeral as int: 十五 → 15, 二百万 → 2,000,000; read by
    :func:`cn_number`,
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


# --------------------------------------------------------------------------- writing
_CN_DIGITS = "零一二三四五六七八九"


def _cn_below_10000(n: int, *, leading: bool) -> str:
    out = ""
    zero = False
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = n // value % 10
        if digit == 0:
            if out:
                zero = True
            continue
        if zero:
            out += "零"
            zero = False
        if value == 10 and digit == 1 and not out and leading:
            out += "十"
        else:
            out += _CN_DIGITS[digit] + unit
    return out


def int_to_cn(n: int) -> str:
    """12 → 十二, 1500 → 一千五百, 15000 → 一万五千, 100500 → 十万零五百, 0 → 零."""
    if n < 0:
        raise ValueError(f"negative: {n}")
    if n == 0:
        return "零"
    groups: list[int] = []
    while n:
        groups.append(n % 10_000)
        n //= 10_000
    units = ["", "万", "亿", "万亿"]
    out = ""
    for i in range(len(groups) - 1, -1, -1):
        g = groups[i]
        if g == 0:
            continue
        if out and (g < 1000 or groups[i + 1] == 0):
            out += "零"
        out += _cn_below_10000(g, leading=not out) + units[i]
    return out.replace("零零", "零")


_JA_DIGITS = "〇一二三四五六七八九"


def int_to_ja(n: int) -> str:
    """An int in Japanese kanji: 166 → 百六十六, 1044 → 千四十四, 11000 → 一万千,
    100500 → 十万五百, 0 → 〇 (a negative number stays in Arabic digits)."""
    if n <= 0:
        return _JA_DIGITS[0] if n == 0 else str(n)
    out = ""
    if n >= 10000:
        out += int_to_ja(n // 10000) + "万"
        n %= 10000
    for value, ch in ((1000, "千"), (100, "百"), (10, "十")):
        q, n = divmod(n, value)
        if q:
            out += ("" if q == 1 else _JA_DIGITS[q]) + ch
    return out + (_JA_DIGITS[n] if n else "")


# --------------------------------------------------------------------------- article numbers
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
    s = unicodedata.normalize("NFKC", text.translate(FOLD_TABLE)).strip()
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
