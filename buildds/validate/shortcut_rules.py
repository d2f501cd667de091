"""Surface-consistency rules of the shortcut audit (:mod:`buildds.validate.shortcut_audit`).

Each rule reads a row's text the way a pattern-spotter would — regexes and arithmetic, no
legal reasoning — and says whether the judgment contradicts itself (the evidence, a short
string) or not (``None``). They are written independently of the injectors (nothing of
:mod:`buildds.inject_errors` is used but the statute profile's charge → article look-up), so
they find what an injection leaves behind whichever injector made it:

* ``date_span_vs_term`` — a 刑期 note ``即自…起至…止`` whose span is not the term it follows
  (:data:`DATE_SPAN_TOLERANCE_DAYS` either way; a later end is allowed where the note says
  the end is postponed, 顺延, for time on bail);
* ``combined_vs_charges`` — 决定执行 / 数罪并罚 with a single charge, several charges each
  with its own term and no combined sentence, or a combined term outside [the largest
  term, the sum of the terms] (PRC art. 69); judgments that combine with an earlier
  sentence (前罪, 余刑, 撤销缓刑 …) are left alone;
* ``fine_vs_per_charge`` — a combined fine that is not the sum of the per-charge fines
  (art. 69: fines of one kind add up), or one charge's fine written twice with two values;
* ``numeral_style`` — terms, or fines, written partly in Chinese and partly in Arabic
  numerals within one judgment part;
* ``cited_articles_vs_charges`` — a charge whose article (from the statute profile) is
  missing from the articles the reasoning cites, when it cites any.

The rules read the *anomalous* texts a model sees (the judgment part, and the reasoning for
the cited articles). :data:`RULES` lists them in report order.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from buildds.extract.judgments.dates import add_months
from buildds.text import cn_number

__all__ = [
    "DATE_SPAN_TOLERANCE_DAYS",
    "RULES",
    "AuditText",
    "Rule",
    "cited_articles_vs_charges",
    "combined_vs_charges",
    "date_span_vs_term",
    "fine_vs_per_charge",
    "numeral_style",
]

#: a 刑期 note may end this many days off the term it follows (month-end conventions, a few
#: days of detention credited from an earlier custody) before the rule fires
DATE_SPAN_TOLERANCE_DAYS = 31

_N = "[零〇一二两三四五六七八九十百千万0-9０-９]+"
_TERM = re.compile(rf"(有期徒刑|拘役|管制|缓刑)(?:({_N})年)?(?:({_N})个?月)?(?:({_N})[日天])?")
_YEAR = "([0-9０-９〇零○Ｏ一二三四五六七八九]{4})"
_DATE = rf"{_YEAR}年({_N})月({_N})日"
_NOTE = re.compile(rf"自{_DATE}起?至{_DATE}止")
_CHARGE = re.compile(r"犯(?!罪)([^犯，,。；;：:、（）()]{1,30}?罪)")
_COMBINED = re.compile(r"决定执行|合并执行|数罪并罚")
_PRIOR = re.compile(r"前罪|余刑|尚未执行|没有执行|未执行|撤销.{0,30}缓刑|剩余刑期|漏罪|原判")
_AMOUNT = rf"(?:人民币)?([0-9０-９][0-9０-９,，.]*万?|{_N})元"
_FINE = re.compile(rf"罚金{_AMOUNT}")
_ARTICLE = re.compile(rf"第({_N})条")
_YEAR_DIGITS = str.maketrans("〇零○Ｏ一二三四五六七八九０１２３４５６７８９",
                             "00001234567890123456789")


@dataclass(frozen=True)
class AuditText:
    """What the rules read of a row: the judgment part, the reasoning (for its cited
    articles) and the charge → article look-up (``None``: charge unknown)."""

    judgment: str
    reasoning: str = ""
    charge_article: Callable[[str], int | None] = lambda charge: None


#: a rule: its name, what it checks, and the check (evidence, or ``None`` when consistent)
@dataclass(frozen=True)
class Rule:
    name: str
    description: str
    check: Callable[[AuditText], str | None]


def _int(text: str | None) -> int:
    if not text:
        return 0
    value = cn_number(text.replace("，", "").replace(",", ""))
    return int(value) if value is not None else 0


def _months(m: re.Match[str]) -> tuple[int, int]:
    """(months, days) of a :data:`_TERM` match."""
    return _int(m[2]) * 12 + _int(m[3]), _int(m[4])


def _date(year: str, month: str, day: str) -> dt.date | None:
    try:
        return dt.date(int(year.translate(_YEAR_DIGITS)), _int(month), _int(day))
    except ValueError:
        return None


def date_span_vs_term(text: AuditText) -> str | None:
    """A 刑期 note whose span is not the term before it (see the module docstring)."""
    t = text.judgment
    for note in _NOTE.finditer(t):
        terms = [m for m in _TERM.finditer(t, 0, note.start()) if m[2] or m[3] or m[4]]
        start, end = _date(*note.group(1, 2, 3)), _date(*note.group(4, 5, 6))
        if not terms or start is None or end is None:
            continue
        months, days = _months(terms[-1])
        expected = add_months(start, months) + dt.timedelta(days=days - 1)
        off = (end - expected).days
        postponed = "顺延" in t[terms[-1].end():note.end()]
        if off < -DATE_SPAN_TOLERANCE_DAYS or (off > DATE_SPAN_TOLERANCE_DAYS and not postponed):
            return f"{terms[-1][0]} vs {note[0]} ({off:+d} days)"
    return None


def _charges(judgment: str) -> list[str]:
    return list(dict.fromkeys(m[1] for m in _CHARGE.finditer(judgment)))


def _segments(judgment: str) -> tuple[list[str], str | None]:
    """The text after each ``犯…罪`` (up to the next one or the combined sentence), and the
    combined sentence (from 决定执行 / 合并执行 to the next 。), if any."""
    combined = _COMBINED.search(judgment)
    head = judgment[:combined.start()] if combined else judgment
    starts = [m.start() for m in _CHARGE.finditer(head)]
    segments = [head[a:b] for a, b in zip(starts, [*starts[1:], len(head)])]
    tail = None
    if combined:
        stop = judgment.find("。", combined.start())
        tail = judgment[combined.start():stop if stop >= 0 else len(judgment)]
    return segments, tail


def combined_vs_charges(text: AuditText) -> str | None:
    """A combined sentence that does not fit the charges (see the module docstring)."""
    t = text.judgment
    if _PRIOR.search(t):
        return None
    charges = _charges(t)
    segments, combined = _segments(t)
    if combined is not None and len(charges) == 1:
        return f"{combined[:12]}… with the single charge {charges[0]}"
    terms = [m for s in segments for m in [_TERM.search(s)] if m and m[1] == "有期徒刑"]
    if combined is None and len(charges) >= 2 and len(terms) >= 2:
        return f"{len(charges)} charges with their own terms and no combined sentence"
    whole = _TERM.search(combined) if combined else None
    if whole is not None and whole[1] == "有期徒刑" and len(terms) >= 2:
        each = [_months(m)[0] for m in terms]
        total = _months(whole)[0]
        if not max(each) <= total <= sum(each):
            return f"combined {whole[0]} outside [{max(each)}, {sum(each)}] months"
    return None


def _yuan(m: re.Match[str]) -> int:
    raw = m[1].replace(",", "").replace("，", "")
    value = cn_number(raw)
    return int(value) if value is not None else -1


def fine_vs_per_charge(text: AuditText) -> str | None:
    """A combined fine that is not the sum of the per-charge fines, or a single charge's fine
    written twice with two values (see the module docstring)."""
    t = text.judgment
    if _PRIOR.search(t):
        return None
    segments, combined = _segments(t)
    each = [_yuan(m) for s in segments for m in [_FINE.search(s)] if m]
    whole = _FINE.search(combined) if combined else None
    if whole is not None and len(each) >= 2 and _yuan(whole) != sum(each):
        return f"combined fine {_yuan(whole)} ≠ {' + '.join(map(str, each))}"
    if combined is None and len(_charges(t)) == 1:
        values = {_yuan(m) for m in _FINE.finditer(t)}
        if len(values) > 1:
            return "one fine written as " + " and ".join(map(str, sorted(values)))
    return None


def _style(numeral: str) -> str:
    return "arabic" if re.search("[0-9０-９]", numeral) else "chinese"


def numeral_style(text: AuditText) -> str | None:
    """Terms, or fines, written in both Chinese and Arabic numerals in one judgment part."""
    t = text.judgment
    term_styles = {_style(n) for m in _TERM.finditer(t) for n in m.groups()[1:] if n}
    if len(term_styles) > 1:
        return "terms in Chinese and Arabic numerals"
    fine_styles = {_style(m[1]) for m in _FINE.finditer(t)}
    if len(fine_styles) > 1:
        return "fines in Chinese and Arabic numerals"
    return None


def cited_articles_vs_charges(text: AuditText) -> str | None:
    """A charge whose article the reasoning does not cite, when it cites any."""
    cited = {_int(m[1]) for m in _ARTICLE.finditer(text.reasoning)}
    if not cited:
        return None
    for charge in _charges(text.judgment):
        article = text.charge_article(charge)
        if article is not None and article not in cited:
            return f"{charge} (art. {article}) not among the cited articles"
    return None


RULES: tuple[Rule, ...] = (
    Rule("date_span_vs_term", "刑期 note 即自…起至…止 vs the term before it", date_span_vs_term),
    Rule("combined_vs_charges", "决定执行 / 数罪并罚 vs the charges and their terms",
         combined_vs_charges),
    Rule("fine_vs_per_charge", "combined fine vs the per-charge fines; one fine written twice",
         fine_vs_per_charge),
    Rule("numeral_style", "Chinese and Arabic numerals mixed in terms or fines", numeral_style),
    Rule("cited_articles_vs_charges", "a charge's article missing from the cited articles",
         cited_articles_vs_charges),
)
