"""The 刑期 date note of a judgment part (``即自2017年6月28日起至2018年6月27日止``), read
and rewritten for a new term.

A PRC judgment prints, after a custodial term, when it runs: from the first day of custody
to the last day of the term. The end date depends on the term, so an injector that changes
the term must move the end date with it, or the note gives the original term away.

- :func:`date_notes` — every ``自…起至…止`` note in a stretch of text, with its two dates
  (:data:`DATE_RE`: Arabic or Chinese numerals, the year's zero as courts write it);
- :func:`term_end` — the last day of a term of months (and days) begun on a given day
  (``start + months + days − 1 day``, the month end clipped);
- :func:`note_offset` — how far the printed end lies from :func:`term_end` (days of bail
  that do not count, detention counted two for one …): kept as it is when the term changes;
- :func:`format_date_like` — a date written the way another one is (Arabic or Chinese
  numerals, zero-padded or not);
- :func:`term_days` — the days a term carries after its months (``四个月十五日``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from buildds.extract.judgments.dates import add_months
from buildds.text import to_int_number
from buildds.text.numerals import int_to_cn

__all__ = ["DATE_RE", "NOTE_HINT_RE", "DateNote", "date_notes", "format_date_like", "note_offset",
           "term_days", "term_end"]

#: what courts write for the zero of a Chinese-numeral year: 〇, 零, ○ (a circle), O, Ｏ, 0
_ZEROS = "〇零○OＯ0０"
_YEAR_CN = f"[一二三四五六七八九{_ZEROS}]"
#: one date: year, month and day in Arabic (half/full width) or Chinese numerals, the year's
#: zero written any of the ways of :data:`_ZEROS` (二〇一七, 二○一七, 二O一七, 二0一七)
DATE_RE = re.compile(
    rf"(?P<y>[0-9０-９]{{4}}|{_YEAR_CN}{{4}})\s*年\s*"
    r"(?P<m>[0-9０-９]{1,2}|[〇零一二三四五六七八九十]{1,3})\s*月\s*"
    r"(?P<d>[0-9０-９]{1,2}|[〇零一二三四五六七八九十]{1,3})\s*日")
_D2 = DATE_RE.pattern.replace("?P<y>", "?P<y2>").replace("?P<m>", "?P<m2>").replace("?P<d>", "?P<d2>")
_NOTE_RE = re.compile(rf"(?P<from>{DATE_RE.pattern})\s*起?\s*(?:执行)?\s*至\s*(?P<to>{_D2})\s*止?")
#: a 刑期 note's shape, whatever its dates: one this module cannot read is a reason to skip
NOTE_HINT_RE = re.compile(r"起\s*(?:执行)?\s*至[^，。；（）()]{4,24}?止")
_CN_YEAR_DIGITS = "〇一二三四五六七八九"
_YEAR_VALUE = {**{c: 0 for c in _ZEROS}, **{c: i for i, c in enumerate(_CN_YEAR_DIGITS) if i},
               **{str(i): i for i in range(10)}, **{chr(0xFF10 + i): i for i in range(10)}}
_DAYS_RE = re.compile(r"[零又]?(?P<n>[0-9０-９零〇一二两三四五六七八九十]+)\s*[日天]")


@dataclass(frozen=True)
class DateNote:
    """One ``自A起至B止`` note: the two dates, and where the end date stands (offsets index
    the text the note was read from)."""

    start: date
    end: date
    end_at: int
    end_to: int
    end_text: str
    at: int


def _year(text: str) -> int | None:
    if len(text) != 4 or any(c not in _YEAR_VALUE for c in text):
        return None
    return int("".join(str(_YEAR_VALUE[c]) for c in text))


def _day(y: str | None, m: str | None, d: str | None) -> date | None:
    values = [_year(y) if y else None] + [to_int_number(x) if x else None for x in (m, d)]
    if any(v is None for v in values):
        return None
    try:
        return date(*values)  # type: ignore[arg-type]
    except ValueError:
        return None


def date_notes(text: str, lo: int = 0, hi: int | None = None) -> list[DateNote]:
    """The ``自…起至…止`` notes in ``text[lo:hi]`` whose two dates are calendar days."""
    out = []
    for m in _NOTE_RE.finditer(text, lo, len(text) if hi is None else hi):
        start = _day(m["y"], m["m"], m["d"])
        end = _day(m["y2"], m["m2"], m["d2"])
        if start is None or end is None:
            continue
        out.append(DateNote(start=start, end=end, end_at=m.start("to"), end_to=m.end("to"),
                            end_text=m["to"], at=m.start()))
    return out


def term_end(start: date, months: int, days: int = 0) -> date:
    """The last day of a term of ``months`` and ``days`` that begins on ``start``."""
    return add_months(start, months) + timedelta(days=days - 1)


def note_offset(note: DateNote, months: int, days: int = 0) -> int:
    """Days between the note's printed end and the end a term of ``months`` (+ ``days``)
    begun on its start date would have (0 for most notes; bail that does not count, or an
    earlier sentence run on, make it larger)."""
    return (note.end - term_end(note.start, months, days)).days


def _cn_year(year: int, zero: str) -> str:
    return "".join(_CN_YEAR_DIGITS[int(c)] for c in str(year)).replace("〇", zero)


def format_date_like(day: date, like: str) -> str:
    """``day`` written the way ``like`` (a date matched by :data:`DATE_RE`) is: Chinese
    numerals (二〇一八年六月十二日, keeping the year's zero: 〇, 零, ○, O …) or Arabic (2018年6月12日, zero-padded
    months and days when ``like`` pads them, full-width digits when it uses them)."""
    m = DATE_RE.fullmatch(like.strip())
    if m is None:
        raise ValueError(f"not a date: {like!r}")
    if any(c in _CN_YEAR_DIGITS[1:] for c in m["y"]):
        zero = next((c for c in m["y"] if c in _ZEROS), "〇")
        return f"{_cn_year(day.year, zero)}年{int_to_cn(day.month)}月{int_to_cn(day.day)}日"
    pad = len(m["m"]) == 2 and m["m"][0] in "0０" or len(m["d"]) == 2 and m["d"][0] in "0０"
    month, dd = (f"{day.month:02d}", f"{day.day:02d}") if pad else (str(day.month), str(day.day))
    out = f"{day.year}年{month}月{dd}日"
    if m["y"][0] in "０１２３４５６７８９":
        out = out.translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    return out


def term_days(text: str, term_end_at: int) -> tuple[int, int] | None:
    """The days a term written up to ``term_end_at`` carries after its months
    (``拘役四个月十五日``, ``一个月零十五天``): (days, end of the days text), else None."""
    m = _DAYS_RE.match(text, term_end_at)
    if m is None:
        return None
    n = to_int_number(m["n"])
    return (n, m.end()) if n is not None and 0 < n < 31 else None
