"""E4 failure to consider sentencing factors: a factor is dropped from the reasoning (its
clauses and its 刑法 article citation) and the term moved against it — a mitigating factor
puts the term into the top 10% of the tier range, an aggravating one into the bottom 10%
(AR-Bench A.3: only when the real term reflects the factor, i.e. lies in the lenient /
harsh half of the range)."""

from __future__ import annotations

import math
import random
import re

from buildds.inject_errors.base import BaseInjector, InjectionContext, Plan, SkipInjection
from buildds.inject_errors.edits import delete_ranges
from buildds.inject_errors.sentence_edits import (
    custodial_term,
    pick_months,
    single_charge,
    term_edit,
)
from buildds.inject_errors.tiers import kind_range, resolve_tier
from buildds.schema.judgments import ArticleRef, Judgment, SpanEdit

__all__ = ["FACTOR_ARTICLES", "IgnoredFactor", "article_deletions", "factor_deletions"]

#: the General-part article each factor rests on
FACTOR_ARTICLES: dict[str, int] = {"自首": 67, "坦白": 67, "累犯": 65, "立功": 68, "从犯": 27,
                                   "胁从犯": 28, "未遂": 23, "中止": 24, "预备": 22, "未成年": 17}
_CONSEQUENCE = re.compile(r"^(?:依法|可以|应当|予以|酌情|均可|故|对其|本院|亦|并|且)[^。；]*?"
                          r"(?:从轻|减轻|从重|免除|处罚|考虑|采纳)[^，。；]*$")
_SEP = "，,"
_END = "。；;"
_LIST_SEP = re.compile(r"^\s*(?:[、，,和及]|以及)\s*$")
_CONTINUATION = re.compile(r"(?:[、，,和及]|以及)第?[一二三四五六七八九十0-9]+款(?:第?[（(]?[一二三四五六七八九十0-9]+[)）]?项)?")


def factor_deletions(text: str, clauses: list[tuple[int, int]], lo: int, hi: int) -> list[tuple[int, int]]:
    """Ranges deleting each clause with the consequence clauses that follow it (依法可以从轻
    处罚 …) and one separator, so the sentence stays well formed; ``lo``/``hi`` bound the part."""
    raw: list[list[int]] = []
    for s, e in sorted(set(clauses)):
        while e < hi and text[e] in _SEP:
            nxt = min([i for i in (text.find(c, e + 1, hi) for c in _SEP + _END) if i >= 0] or [hi])
            if not _CONSEQUENCE.match(text[e + 1:nxt]):
                break
            e = nxt
        raw.append([s, e])
    merged: list[list[int]] = []
    for s, e in raw:  # clauses one separator apart belong together
        if merged and s <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    out = []
    for s, e in merged:
        at_start = s == lo or text[s - 1] in _END
        if e < hi and text[e] in _SEP or at_start and e < hi and text[e] in _END:
            e += 1
        elif s > lo and text[s - 1] in _SEP:
            s -= 1
        out.append((s, e))
    return out


def _extended_end(text: str, ref: ArticleRef) -> int:
    end = ref.span.end
    while m := _CONTINUATION.match(text, end):
        end = m.end()
    return end


def article_deletions(text: str, refs: tuple[ArticleRef, ...], drop: set[int]) -> list[tuple[int, int]]:
    """Ranges deleting the cited articles numbered ``drop`` with their list separator."""
    out = []
    ends = [_extended_end(text, r) for r in refs]
    for i, ref in enumerate(refs):
        if ref.number not in drop:
            continue
        prev = next((k for k in range(i - 1, -1, -1) if refs[k].number not in drop), None)
        nxt = next((k for k in range(i + 1, len(refs)) if refs[k].number not in drop), None)
        if prev is not None and all(_LIST_SEP.match(text[ends[k]:refs[k + 1].span.start])
                                    for k in range(prev, i)):
            out.append((ends[prev], ends[i]))
        elif nxt is not None and all(_LIST_SEP.match(text[ends[k]:refs[k + 1].span.start])
                                     for k in range(i, nxt)):
            out.append((ref.span.start, refs[nxt].span.start))
        else:
            out.append((ref.span.start, ends[i]))
    return out


class IgnoredFactor(BaseInjector):
    error_type = "E4"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        months = custodial_term(judgment)
        charge = single_charge(judgment)
        factors = [f for f in judgment.factors if f.clause is not None and f.kind != "其他"]
        if not factors or judgment.reasoning_span is None:
            raise SkipInjection("no_factor", "no sentencing factor with a clause in the reasoning")
        kind = rng.choice(list(dict.fromkeys(f.kind for f in factors)))
        chosen = [f for f in factors if f.kind == kind]
        mitigating = chosen[0].mitigating
        choice = resolve_tier(judgment, ctx.profile, charge)
        r = kind_range(choice.tier, judgment.sentence.kind)
        if r is None or r.min_months is None or r.max_months is None or r.max_months <= r.min_months:
            raise SkipInjection("kind_not_in_tier", f"tier has no {judgment.sentence.kind} range")
        lo, hi = r.min_months, r.max_months
        width = hi - lo
        if mitigating:
            if months > lo + width / 2:
                raise SkipInjection("factor_not_reflected", f"{kind}: term already in the harsh half")
            new = pick_months(rng, math.ceil(hi - 0.1 * width), hi, like=months, avoid=[months])
        else:
            if months < lo + width / 2:
                raise SkipInjection("factor_not_reflected", f"{kind}: term already in the lenient half")
            new = pick_months(rng, lo, math.floor(lo + 0.1 * width), like=months, avoid=[months])
        if new is None:
            raise SkipInjection("factor_not_reflected", "no term in the target 10% band")
        text = judgment.full_text
        rs = judgment.reasoning_span
        ranges = factor_deletions(text, [(f.clause.start, f.clause.end) for f in chosen if f.clause],
                                  rs.start, rs.end)
        article = FACTOR_ARTICLES.get(kind)
        still_needed = {FACTOR_ARTICLES.get(f.kind) for f in judgment.factors if f.kind != kind}
        dropped = article if article is not None and article not in still_needed and any(
            a.number == article for a in judgment.article_refs) else None
        if dropped is not None:
            art_ranges = article_deletions(text, judgment.article_refs, {dropped})
            if any(s < e2 and s2 < e for s, e in art_ranges for s2, e2 in ranges):
                dropped = None  # the citation sits inside a deleted clause: already gone
            else:
                ranges += art_ranges
        edits: list[SpanEdit] = delete_ranges(text, ranges)
        edits.append(term_edit(judgment, new))
        removed = [text[e.start:e.end] for e in edits if e.new == ""]
        return Plan(edits, {"months": months, "factor": kind, "article": dropped},
                    {"charge": charge, "factor": kind, "mitigating": mitigating,
                     "tier": choice.tier.condition.kind, "tier_by": choice.how, "range_months": [lo, hi],
                     "band_months": ([math.ceil(hi - 0.1 * width), hi] if mitigating
                                     else [lo, math.floor(lo + 0.1 * width)]),
                     "removed": removed})
