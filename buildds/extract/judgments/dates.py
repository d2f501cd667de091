"""Dates in a judgment: the day it was given (:func:`parse_judgment_date`) and the days of
the offence (:func:`parse_offence_dates`).

A date is ``YYYY年M月D日`` in Arabic (2017年4月28日, full-width digits too) or Chinese
numerals (二〇一七年六月二十八日, 二零一八年三月十二日); numbers are read with
:func:`buildds.text.to_int_number`. A string that is no calendar day (2月30日) is skipped.

- The judgment date is the last date written in Chinese numerals before the annex of cited
  articles (附：相关法律条文) — where a PRC judgment prints it, between the judges' and the
  clerk's names; a text without one (CAIL gives only the facts) has none.
- The offence dates are the dates of the facts, in order of appearance, from their first
  sentence on (公诉机关指控：2017年4月28日15时许 …). The facts name other days too (arrest,
  appraisal, surrender) and birth dates (出生于… / …出生, …生), which are left out; callers
  that need one day take the first one the facts name (:func:`offence_date`: the charge
  opens with the conduct, 指控：2017年4月28日15时许 …) — a heuristic, not a finding.
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from buildds.text import to_int_number

__all__ = ["DATE_RE", "add_months", "offence_date", "parse_dates", "parse_judgment_date",
           "parse_offence_dates"]

#: ○ (white circle) and Ｏ (full-width letter O) stand for 〇 in many crawled judgments
#: (二○一八年…, LeCaRD); they are read as 〇
_CN_DIGIT = "〇零○Ｏ一二三四五六七八九"
_ZERO_LOOKALIKES = str.maketrans("○Ｏ", "〇〇")
_CN = _CN_DIGIT + "十"
#: one date: year, month and day in Arabic (half/full width) or Chinese numerals
DATE_RE = re.compile(
    rf"(?P<y>[0-9０-９]{{4}}|[{_CN_DIGIT}]{{4}})\s*年\s*"
    rf"(?P<m>[0-9０-９]{{1,2}}|[{_CN}]{{1,3}})\s*月\s*"
    rf"(?P<d>[0-9０-９]{{1,2}}|[{_CN}]{{1,3}})\s*日")
_BIRTH_BEFORE_RE = re.compile(r"(?:出生于|生于|出生日期[:：为]?)\s*$")
_BIRTH_AFTER_RE = re.compile(r"^\s*(?:出生|生[，,。；;）)\s])")
_ANNEX_RE = re.compile(r"附[:：]?\s*(?:本案)?相关(?:的)?法律条文|附[:：]\s*(?:本判决)?(?:所)?(?:适用|引用)")


def _date_of(m: re.Match[str]) -> date | None:
    y, mo, d = (to_int_number(m.group(k).translate(_ZERO_LOOKALIKES)) for k in ("y", "m", "d"))
    if y is None or mo is None or d is None:
        return None
    try:
        return date(y, mo, d)
    except ValueError:
        return None


def parse_dates(text: str) -> list[tuple[date, int, bool]]:
    """Every calendar date in ``text``: (date, its offset, written in Chinese numerals)."""
    out = []
    for m in DATE_RE.finditer(text):
        day = _date_of(m)
        if day is not None:
            out.append((day, m.start(), m.group("y")[0] in _CN_DIGIT))
    return out


def parse_judgment_date(full_text: str) -> date | None:
    """The day the judgment was given: the last Chinese-numeral date before the annex of
    cited articles (None when the text has none)."""
    annex = _ANNEX_RE.search(full_text)
    body = full_text[: annex.start()] if annex else full_text
    found = [d for d, _, chinese in parse_dates(body) if chinese]
    return found[-1] if found else None


def parse_offence_dates(facts: str) -> tuple[date, ...]:
    """The dates of the facts but birth dates, in order of appearance (duplicates dropped)."""
    out = []
    for m in DATE_RE.finditer(facts):
        day = _date_of(m)
        if day is None or _BIRTH_BEFORE_RE.search(facts[max(0, m.start() - 8):m.start()]) \
                or _BIRTH_AFTER_RE.match(facts[m.end():m.end() + 3]):
            continue
        out.append(day)
    return tuple(dict.fromkeys(out))


def offence_date(facts: str, judgment_date: date | None = None) -> date | None:
    """The first date the facts name (birth dates and dates after ``judgment_date`` left
    out); None without one."""
    days = [d for d in parse_offence_dates(facts) if judgment_date is None or d <= judgment_date]
    return days[0] if days else None


def add_months(day: date, months: int) -> date:
    """``day`` plus ``months`` calendar months, the day clamped to the month's length (the
    arithmetic of a term of N months: the injectors' date notes and the shortcut audit's
    date-span rule both count this way)."""
    y, m = divmod(day.month - 1 + months, 12)
    year, month = day.year + y, m + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))
