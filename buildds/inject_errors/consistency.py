"""Text-only consistency checks of a judgment part: what a reader can find wrong without the
law or the facts (:func:`check_consistency`).

The injectors must not leave such contradictions behind (issue 13: "self-contradictions give
the answer away"); the property tests run this checker on every injected text and require
that it finds nothing the original did not already have. Checks, each an issue string
``"<code>: <detail>"``:

- ``date_note`` — a 刑期 note (即自A起至B止) whose span is not the term it follows (more
  than ``tolerance_days`` apart, either way: bail that does not count stretches real notes);
- ``kind_range`` — a 拘役 over six months, a 有期徒刑 under six or over 25 years, a 管制
  outside 3–24 months (arts. 38, 42, 45, 69);
- ``probation`` — a 缓刑 that breaks arts. 72–73 (only for 拘役 or 有期徒刑 up to three
  years, no shorter than the term, 2 months–1 year for 拘役, 1–5 years for 有期徒刑);
- ``combined_term`` — a 决定执行 term shorter than the longest term it combines or longer
  than their sum (art. 69);
- ``fine_mentions`` — a judgment with one 犯…罪 naming different fine amounts (the 决定执行 or
  a 罚金…已缴纳 note beside an edited fine);
- ``combined_fine`` — a 决定执行 fine that is not the sum of the per-charge fines (art. 69:
  fines of the same kind add up).

This module is independent of the shortcut audit's detectors (``buildds.validate``), which
are written separately on purpose.
"""

from __future__ import annotations

import re

from buildds.extract.judgments.amounts import MONEY_RE, TERM_RE, money_value, term_months
from buildds.inject_errors.date_notes import date_notes, term_days, term_end

__all__ = ["check_consistency", "judgment_part"]

_JUDGMENT_START = "判决如下"
_JUDGMENT_END = re.compile(r"如不服本判决|审\s*判\s*长|审\s*判\s*员|人民陪审员|附[:：]?\s*(?:本案)?相关")
_PENALTY = re.compile(r"(?P<kind>有期徒刑|拘役|管制)(?=[0-9０-９零〇一二两三四五六七八九十])")
_PROBATION = re.compile(r"缓刑(?:考验期(?:限)?为?)?(?=[0-9０-９零〇一二两三四五六七八九十])")
_COMBINED = re.compile(r"决定执行|合并执行|数罪并罚")
_FINE = re.compile(r"罚金(?:人民币|￥)?\s*")
_CHARGE = re.compile(r"犯(?!罪)[^\s，。；;：:（）()]{2,40}?罪")
_KIND_LIMITS = {"管制": (3, 24), "拘役": (1, 6), "有期徒刑": (6, 300)}


def judgment_part(text: str) -> tuple[int, int] | None:
    """The [start, end) of the last 判决如下 part of ``text`` (None without one)."""
    start = text.rfind(_JUDGMENT_START)
    if start < 0:
        return None
    end = _JUDGMENT_END.search(text, start)
    return start, end.start() if end else len(text)


def _terms(text: str, lo: int, hi: int) -> list[tuple[int, str, int, int, int]]:
    """(offset, kind, months, days, end) of every custodial term in text[lo:hi]."""
    out = []
    for m in _PENALTY.finditer(text, lo, hi):
        t = TERM_RE.match(text, m.end())
        if t is None:
            continue
        months = term_months(t)
        if months is None:
            continue
        days = term_days(text, t.end())
        out.append((m.start(), m["kind"], months, days[0] if days else 0, days[1] if days else t.end()))
    return out


def _check_terms(text: str, lo: int, hi: int, tolerance_days: int) -> list[str]:
    issues = []
    terms = _terms(text, lo, hi)
    for at, kind, months, days, end in terms:
        k_lo, k_hi = _KIND_LIMITS[kind]
        if not k_lo <= months + (1 if days else 0) <= k_hi and not (months == k_hi and not days):
            issues.append(f"kind_range: {kind} of {months} months")
        prob = _PROBATION.match(text, end + 1) or _PROBATION.match(text, end)
        if prob is not None and (pt := TERM_RE.match(text, prob.end())) is not None:
            p = term_months(pt) or 0
            need = months + (1 if days else 0)
            ok = (max(12, need) <= p <= 60 and need <= 36) if kind == "有期徒刑" else \
                (max(2, need) <= p <= 12) if kind == "拘役" else False
            if not ok:
                issues.append(f"probation: {kind} {months} months with 缓刑 {p} months")
    for note in date_notes(text, lo, hi):
        before = [t for t in terms if t[0] < note.at]
        if not before:
            continue
        _, kind, months, days, _ = before[-1]
        delta = (note.end - term_end(note.start, months, days)).days
        if not -tolerance_days <= delta <= tolerance_days:
            issues.append(f"date_note: {note.start}–{note.end} for {months} months ({delta:+d} days)")
    combined = [m.start() for m in _COMBINED.finditer(text, lo, hi)]
    if combined and len(terms) > 1:
        final = [t for t in terms if t[0] > combined[-1]]
        parts = [t for t in terms if t[0] < combined[0] and t[1] == (final[0][1] if final else "")]
        if final and parts:
            total = final[0][2]
            if total < max(t[2] for t in parts) or total > sum(t[2] for t in parts):
                issues.append(f"combined_term: {total} months for {[t[2] for t in parts]}")
    return issues


def _fines(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """(offset, yuan) of every fine amount (罚金…元) in text[lo:hi], prepaid sums left out."""
    out = []
    for m in _FINE.finditer(text, lo, hi):
        money = MONEY_RE.match(text, m.end())
        if money is None or "预" in text[max(lo, m.start() - 4):m.start()]:
            continue
        value = money_value(money["num"])
        if value is not None:
            out.append((m.start(), value))
    return out


def _check_fines(text: str, lo: int, hi: int) -> list[str]:
    fines = _fines(text, lo, hi)
    if not fines:
        return []
    charges = {m.group() for m in _CHARGE.finditer(text, lo, hi)}
    combined = [m.start() for m in _COMBINED.finditer(text, lo, hi)]
    if len(charges) <= 1 and not combined:
        values = sorted({v for _, v in fines})
        return [f"fine_mentions: fines of {values} yuan for one charge"] if len(values) > 1 else []
    if combined:
        final = [v for at, v in fines if at > combined[-1]]
        parts = [v for at, v in fines if at < combined[0]]
        if final and len(parts) > 1 and final[0] != sum(parts):
            return [f"combined_fine: {final[0]} yuan for {parts}"]
    return []


def check_consistency(text: str, *, tolerance_days: int = 31) -> list[str]:
    """The contradictions a reader can see in the judgment part of ``text`` (a full judgment
    or its 判决如下 part), one ``"<code>: <detail>"`` string each; [] when there are none."""
    part = judgment_part(text)
    lo, hi = part if part is not None else (0, len(text))
    return _check_terms(text, lo, hi, tolerance_days) + _check_fines(text, lo, hi)
