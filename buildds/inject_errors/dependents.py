"""What depends on an edited value, edited with it — or the injection skipped.

An injected error must not be given away by text computed for the original value (issue 13):

- :func:`term_change` — a new custodial term (and kind) written in the judgment's own style
  (Chinese or Arabic numerals, 个月 or 月, 年零), the days after the months kept
  (``四个月十五日``), the 刑期 date note's end date moved with it (its offset from the term
  kept: bail or detention credit), and the 缓刑 rules held (arts. 72–73: 缓刑 only for 拘役 or
  有期徒刑 up to three years, a probation no shorter than the term, 2 months–1 year for 拘役
  and 1–5 years for 有期徒刑) — else :class:`SkipInjection`;
- :func:`term_allowed` — whether a term keeps those rules and the kind's general range
  (arts. 38, 42, 45: 管制 3–24 months, 拘役 1–6, 有期徒刑 6–180), so an injector can draw
  only terms that do;
- :func:`fine_change` — a new fine written at every mention of the same fine in the judgment
  part (the 决定执行 fine, 罚金…已缴纳 notes), amounts in the style of each mention; a
  judgment with several charges (per-charge fines summed into a combined one) is skipped;
- a term the prosecution's stated 量刑建议 holds (:func:`recommended_ranges`) is not moved out
  of it, nor a fine it names changed (``recommendation_stated``): the recommendation would
  show the original value;
- a term or fine combined with other sentences (决定执行, 合并执行: :func:`combined_sentence`)
  is not edited alone (``combined_sentence`` / ``multi_charge_fine``).

Every edit indexes the original full text, so undoing them gives the original back exactly.
"""

from __future__ import annotations

import re
from datetime import timedelta

from buildds.extract.judgments.amounts import TERM_RE, money_matches, money_value, term_months
from buildds.inject_errors.base import SkipInjection
from buildds.inject_errors.charge_articles import kind_article_swap
from buildds.inject_errors.cn_format import format_months_cn, format_yuan_cn
from buildds.inject_errors.date_notes import (
    NOTE_HINT_RE,
    date_notes,
    format_date_like,
    note_offset,
    term_days,
    term_end,
)
from buildds.schema.judgments import Judgment, SpanEdit

__all__ = ["COMBINED_RE", "KIND_LIMITS", "combined_sentence", "fine_change", "recommended_fines", "recommended_ranges", "term_allowed", "term_change", "term_days_of"]

#: the general range of each custodial kind in months (arts. 38, 42, 45)
KIND_LIMITS: dict[str, tuple[int, int]] = {"管制": (3, 24), "拘役": (1, 6), "有期徒刑": (6, 180)}
_NEXT_ITEM = re.compile(r"[\s。；][一二三四五六七八九十]+、")
#: a sentence combined with others (数罪并罚, a prior sentence, a revoked 缓刑): its term
#: and fine are computed from several, so one of them cannot be edited alone
COMBINED_RE = re.compile(r"决定执行|合并执行|数罪并罚|并罚")


def combined_sentence(judgment: Judgment) -> bool:
    """Whether the judgment part combines sentences (决定执行, 合并执行 …)."""
    return COMBINED_RE.search(judgment.judgment) is not None


_RECOMMENDATION = re.compile(r"建议[^。；]{0,60}")
_KIND_WORD = re.compile(r"有期徒刑|拘役|管制")


def recommended_ranges(text: str) -> list[tuple[int, int]]:
    """The term ranges in months the prosecution's 量刑建议 states in ``text`` (建议判处有期徒刑
    六个月至一年 → (6, 12); 一年以上二年以下 → (12, 24); 七年以上 → (84, 10**6); 有期徒刑一年
    → (12, 12))."""
    out = []
    for m in _RECOMMENDATION.finditer(text):
        window = m.group()
        if not _KIND_WORD.search(window):
            continue
        terms = [(t, v) for t in TERM_RE.finditer(window) if (v := term_months(t))]
        if not terms:
            continue
        values = [v for _, v in terms]
        if len(values) > 1:
            out.append((min(values), max(values)))
            continue
        after = window[terms[0][0].end():terms[0][0].end() + 2]
        v = values[0]
        out.append((v, 10**6) if after.startswith("以上") else (0, v) if after.startswith("以下") else (v, v))
    return out


def recommended_fines(text: str) -> list[int]:
    """The fine amounts a 量刑建议 in ``text`` states (建议…并处罚金人民币二千元 → 2000)."""
    out = []
    for m in _RECOMMENDATION.finditer(text):
        window = m.group()
        at = window.find("罚金")
        if at < 0:
            continue
        for money in money_matches(window[at:at + 16]):
            value = money_value(money["num"])
            if value:
                out.append(value)
                break
    return out


def term_days_of(judgment: Judgment) -> int:
    """The days the judgment's term carries after its months (0 without any)."""
    span = judgment.sentence.term_span
    if span is None:
        return 0
    found = term_days(judgment.full_text, span.end)
    return found[0] if found else 0


def term_allowed(judgment: Judgment, months: int, kind: str | None = None,
                 probation: int | None = None) -> bool:
    """Whether a term of ``months`` (plus the judgment's days) of ``kind`` (the judgment's
    own by default) keeps the kind's general range and the judgment's 缓刑 (or ``probation``
    months instead) consistent; a term with days is never a whole number of years (一年十五日
    is not written)."""
    kind = kind or judgment.sentence.kind
    days = term_days_of(judgment)
    lo, hi = KIND_LIMITS.get(kind, (1, 10**6))
    if months < lo or months + (1 if days else 0) > hi:
        return False
    if days and months >= 12 and months % 12 == 0:
        return False
    probation = probation or judgment.sentence.probation_months
    if probation:
        if kind == "有期徒刑" and not (months + (1 if days else 0) <= 36
                                       and max(12, months + (1 if days else 0)) <= probation <= 60):
            return False
        if kind == "拘役" and not (max(2, months + (1 if days else 0)) <= probation <= 12):
            return False
        if kind == "管制":
            return False
    return True


def _note_edit(judgment: Judgment, months: int) -> list[SpanEdit]:
    """The date note's end date moved for a term of ``months`` (none without a note)."""
    s, js = judgment.sentence, judgment.judgment_span
    if js is None or s.term_span is None or judgment.sentence.months is None:
        return []
    text = judgment.full_text
    notes = date_notes(text, s.term_span.end, js.end)
    for hint in NOTE_HINT_RE.finditer(text, s.term_span.end, js.end):
        if not any(n.at <= hint.start() < n.end_to for n in notes):
            raise SkipInjection("date_note_unparsed", f"a 刑期 note this code cannot read: {hint.group()}")
    if not notes:
        return []
    # the note of this sentence: before the next numbered item of the judgment part
    nxt = _NEXT_ITEM.search(text, s.term_span.end, js.end)
    item = nxt.start() if nxt else js.end
    notes = [n for n in notes if n.at < item] or notes
    if len(notes) > 1:
        raise SkipInjection("date_note_ambiguous", f"{len(notes)} 刑期 date notes after the sentence")
    note = notes[0]
    days = term_days_of(judgment)
    offset = note_offset(note, judgment.sentence.months, days)
    new_end = term_end(note.start, months, days) + timedelta(days=offset)
    new_text = format_date_like(new_end, note.end_text)
    return [SpanEdit(start=note.end_at, end=note.end_to, old=note.end_text, new=new_text)]


def term_change(judgment: Judgment, months: int, kind: str | None = None,
                probation: int | None = None) -> list[SpanEdit]:
    """The edits that give ``judgment`` a term of ``months`` (of ``kind``, its own kind by
    default; with ``probation`` months of 缓刑 instead of its own, when it has a 缓刑) with
    everything that depends on it: the term, the kind word (with the kind's General-part
    articles in the citation list: :func:`~buildds.inject_errors.charge_articles.kind_article_swap`),
    the 缓刑 term, the date note.
    Raises :class:`SkipInjection` (``term_inconsistent``) when the term breaks the kind's
    range or the 缓刑 rules (see :func:`term_allowed`)."""
    s = judgment.sentence
    span = s.term_span
    if span is None or s.months is None:
        raise SkipInjection("no_term", f"sentence {s.kind} has no term to change")
    if combined_sentence(judgment):
        raise SkipInjection("combined_sentence", "the term is combined with other sentences")
    for lo, hi in recommended_ranges(judgment.full_text):
        if lo <= s.months <= hi and not lo <= months <= hi:
            raise SkipInjection("recommendation_stated", f"the text recommends {lo}–{hi} months, "
                                "which the original term follows: a new term outside it gives the edit away")
    kind = kind or s.kind
    probation = probation if s.probation_span is not None else None
    if not term_allowed(judgment, months, kind, probation):
        raise SkipInjection("term_inconsistent",
                            f"{kind} of {months} months breaks the kind's range or the 缓刑 rules")
    edits = [SpanEdit(start=span.start, end=span.end, old=span.text,
                      new=format_months_cn(months, span.text))]
    if kind != s.kind:
        if s.kind_span is None:
            raise SkipInjection("no_term", "no penalty word to change")
        edits.append(SpanEdit(start=s.kind_span.start, end=s.kind_span.end, old=s.kind_span.text,
                              new=kind))
        edits += kind_article_swap(judgment, s.kind, kind)
    if probation and s.probation_span is not None and probation != s.probation_months:
        p = s.probation_span
        edits.append(SpanEdit(start=p.start, end=p.end, old=p.text, new=format_months_cn(probation, p.text)))
    edits += _note_edit(judgment, months)
    return edits


def _fine_mentions(judgment: Judgment) -> list[tuple[int, int, str]]:
    """Every amount of the judgment part equal to the fine and written as a fine (罚金 within
    a few characters before it): the main one, the 决定执行 one, notes."""
    s, js = judgment.sentence, judgment.judgment_span
    assert s.fine_span is not None and s.fine_yuan is not None
    text = judgment.full_text
    found = {(s.fine_span.start, s.fine_span.end, s.fine_span.text)}
    if js is not None:
        part = text[js.start:js.end]
        for m in money_matches(part):
            if money_value(m["num"]) != s.fine_yuan:
                continue
            start, end = js.start + m.start(), js.start + m.end()
            if "罚金" in text[max(js.start, start - 8):start]:
                found.add((start, end, text[start:end]))
    return sorted(found)


def fine_change(judgment: Judgment, yuan: int) -> list[SpanEdit]:
    """The edits that make the judgment's fine ``yuan`` at every mention of it; skip
    (``multi_charge_fine``) when the judgment has several charges (the combined fine sums
    per-charge ones)."""
    s = judgment.sentence
    if s.fine_span is None or s.fine_yuan is None:
        raise SkipInjection("no_fine", "the judgment imposes no fine")
    if len(set(judgment.charges)) > 1 or combined_sentence(judgment):
        raise SkipInjection("multi_charge_fine", "the combined fine sums per-charge fines")
    if s.fine_yuan in recommended_fines(judgment.full_text) and yuan != s.fine_yuan:
        raise SkipInjection("recommendation_stated", f"the text recommends the fine of {s.fine_yuan} "
                            "yuan the judgment imposes: a new fine gives the edit away")
    return [SpanEdit(start=a, end=b, old=old, new=format_yuan_cn(yuan, old))
            for a, b, old in _fine_mentions(judgment)]
