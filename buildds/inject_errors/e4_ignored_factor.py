"""E4 failure to consider sentencing factors: a factor is dropped from the reasoning (its
clauses and its 刑法 article citation) and the term moved against it.

AR-Bench A.3 (seed 003): a mitigating factor with the term in the first 50% of the tier's
range puts the new term in [0.9·max, max]; an aggravating one (累犯, 毒品再犯) with the term in the
latter 50% puts it in [min, 1.1·min]; the factor's description leaves the reasoning and its
article the citation list. Where the paper is silent (written in the dataset card):

- the factor kinds are tried in a seeded order, statutory ones (with an article: 自首, 坦白,
  累犯, 从犯 …) before discretionary ones (谅解, 退赃退赔 …), and the first that the term
  reflects and that can be removed cleanly is taken — so aggravating factors are reached
  whenever the term reflects them;
- a clause is removed only when it holds no other factor, no citation and no court order
  (缓刑, 没收, 责令 …: :data:`KEEP_RE`); a clause inside the defence's or the prosecution's
  argument takes its whole sentence with it, or the factor is not used (``factor_entangled``);
- the article goes only when no other factor of the reasoning rests on it;
- the new term keeps the days, the date note and the 缓刑 rules
  (:func:`~buildds.inject_errors.dependents.term_change`);
- with a corpus, the new term is one real judgments use within the band, each such term
  equally likely (:func:`corpus_term`: of the same charge first, else of the same penalty
  kind), or the factor is skipped (``no_corpus_term_in_band``) — a term courts never write
  marks the row."""

from __future__ import annotations

import math
import random
import re

from buildds.inject_errors.base import BaseInjector, InjectionContext, Plan, SkipInjection
from buildds.inject_errors.corpus_prior import term_prior
from buildds.inject_errors.dependents import term_allowed, term_change, term_days_of
from buildds.inject_errors.edits import delete_ranges
from buildds.inject_errors.sentence_edits import custodial_term, pick_months, single_charge
from buildds.inject_errors.tiers import kind_range, resolve_tier
from buildds.schema.judgments import ArticleRef, Judgment, SentencingFactor, SpanEdit

__all__ = ["FACTOR_ARTICLES", "KEEP_RE", "IgnoredFactor", "article_deletions", "corpus_term",
           "factor_deletions", "factor_label"]

#: the General-part article each factor rests on
FACTOR_ARTICLES: dict[str, int] = {"自首": 67, "坦白": 67, "累犯": 65, "毒品再犯": 356, "立功": 68, "从犯": 27,
                                   "胁从犯": 28, "未遂": 23, "中止": 24, "预备": 22, "未成年": 17}
_CONSEQUENCE = re.compile(r"^(?:依法|可以|应当|予以|酌情|均可|故|对其|本院|亦|并|且)[^。；]*?"
                          r"(?:从轻|减轻|从重|免除|处罚|考虑|采纳)[^，。；]*$"
                          r"|^(?:根据|依照|依据|按照)[^，。；]*?规定$")
#: what a deleted clause must not hold: a citation or a court order
KEEP_RE = re.compile(r"之规定|判决如下|缓刑|没收|追缴|责令|判处|构成")
_ARGUMENT = re.compile(r"辩护|采纳|公诉机关|指控|建议|意见")
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


def factor_label(factor: SentencingFactor) -> str:
    """The factor's kind, with 毒品再犯 (art. 356: 从重处罚) told apart from the other 其他
    mentions the parser finds (前科, 自愿认罪 …), which are no statutory factor."""
    if factor.kind == "其他" and factor.span.text == "毒品再犯":
        return "毒品再犯"
    return factor.kind


class IgnoredFactor(BaseInjector):
    error_type = "E4"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        months = custodial_term(judgment)
        charge = single_charge(judgment)
        factors = [f for f in judgment.factors if f.clause is not None and factor_label(f) != "其他"]
        if not factors or judgment.reasoning_span is None:
            raise SkipInjection("no_factor", "no sentencing factor with a clause in the reasoning")
        choice = resolve_tier(judgment, ctx.profile, charge)
        r = kind_range(choice.tier, judgment.sentence.kind)
        if r is None or r.min_months is None or r.max_months is None or r.max_months <= r.min_months:
            raise SkipInjection("kind_not_in_tier", f"tier has no {judgment.sentence.kind} range")
        lo, hi = r.min_months, r.max_months
        kinds = list(dict.fromkeys(factor_label(f) for f in factors))
        rng.shuffle(kinds)
        kinds.sort(key=lambda k: k not in FACTOR_ARTICLES)
        why: list[SkipInjection] = []
        for kind in kinds:
            try:
                return self._plan_factor(judgment, rng, ctx, kind, months, lo, hi,
                                         {"charge": charge, "tier": choice.tier.condition.kind,
                                          "tier_by": choice.how, "range_months": [lo, hi]})
            except SkipInjection as skip:
                why.append(skip)
        order = ("factor_entangled", "term_inconsistent", "factor_not_reflected")
        why.sort(key=lambda s: order.index(s.reason) if s.reason in order else -1)
        raise SkipInjection(why[0].reason, "; ".join(s.message for s in why))

    @staticmethod
    def _band(judgment: Judgment, kind: str, mitigating: bool, months: int, lo: int, hi: int
              ) -> tuple[int, int]:
        """The paper's band for the new term, or skip when the term does not reflect the factor."""
        if mitigating:
            if months > lo + (hi - lo) / 2:
                raise SkipInjection("factor_not_reflected", f"{kind}: term in the harsh half")
            band = math.ceil(0.9 * hi), hi - (1 if term_days_of(judgment) else 0)
        else:
            if months < lo + (hi - lo) / 2:
                raise SkipInjection("factor_not_reflected", f"{kind}: term in the lenient half")
            band = lo, math.floor(1.1 * lo)
        return band

    def _plan_factor(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext,
                     kind: str, months: int, lo: int, hi: int, about: dict[str, object]) -> Plan:
        chosen = [f for f in judgment.factors if factor_label(f) == kind and f.clause is not None]
        mitigating = chosen[0].mitigating
        band = self._band(judgment, kind, mitigating, months, lo, hi)
        new = pick_months(rng, band[0], band[1], like=months, avoid=[months],
                          allowed=lambda v: term_allowed(judgment, v)) if ctx.corpus is None \
            else corpus_term(judgment, rng, ctx, str(about["charge"]), band, months)
        if new is None:
            raise SkipInjection("term_inconsistent", f"{kind}: no term in {list(band)} keeps the "
                                "kind's range and the 缓刑 rules")
        text = judgment.full_text
        ranges = _clean_deletions(judgment, kind, chosen)
        article = FACTOR_ARTICLES.get(kind)
        still_needed = {FACTOR_ARTICLES.get(factor_label(f)) for f in judgment.factors
                        if factor_label(f) != kind}
        dropped = article if article is not None and article not in still_needed and any(
            a.number == article for a in judgment.article_refs) else None
        if dropped is not None:
            # a citation inside a deleted clause goes with it; the citation list's goes alone;
            # one in other prose (根据刑法第六十七条的规定，…) cannot be removed cleanly
            refs = tuple(a for a in judgment.article_refs
                         if not any(s <= a.span.start < e for s, e in ranges))
            rs = judgment.reasoning_span
            assert rs is not None
            list_start = text.rfind("。", rs.start, rs.end) + 1
            if any(a.number == dropped and a.span.start < list_start for a in refs):
                raise SkipInjection("factor_entangled", f"{kind}: art. {dropped} is cited in the "
                                    "reasoning's prose, not only in its citation list")
            ranges += article_deletions(text, refs, {dropped})
        edits: list[SpanEdit] = delete_ranges(text, ranges)
        edits += term_change(judgment, new)
        removed = [text[e.start:e.end] for e in edits if e.new == ""]
        return Plan(edits, {"months": months, "factor": kind, "article": dropped},
                    {**about, "factor": kind, "mitigating": mitigating,
                     "band_months": list(band), "removed": removed})


def corpus_term(judgment: Judgment, rng: random.Random, ctx: InjectionContext, charge: str,
                band: tuple[int, int], months: int) -> int | None:
    """A term in ``band`` that real judgments use (issue 13: a term courts never write marks
    the injected row): among the band's terms that single-charge judgments of ``charge``
    carry, by how many carry each, else (none in the band) that judgments of the kind carry;
    None when no term in the band keeps the kind's range and 缓刑 rules; skip
    ``no_corpus_term_in_band`` when the corpus carries none of the lawful terms in the band.
    By count: the untouched rows E4 is compared with are drawn from the corpus in the same
    term bins (:mod:`buildds.inject_errors.normal_matching`), so drawn by count the injected
    terms follow theirs; drawn uniformly, the rare terms of a band (二年九个月 for a 3-year
    tier) were over-represented and the numeric detector read them (real build, seeds 0/1,
    E4 vs its matched rows: uniformly 52.8%/55.6%, by count 44.4%/50.2%; against the old
    population of the judgments' own untouched versions, by count had been worse)."""
    kind = judgment.sentence.kind
    values = [v for v in range(max(1, band[0]), band[1] + 1)
              if v != months and term_allowed(judgment, v)]
    if not values:
        return None
    for prior in (term_prior(ctx, kind, charge), term_prior(ctx, kind)):
        weights = [(prior or {}).get(v, 0) for v in values]
        if any(weights):
            return rng.choices(values, weights)[0]
    raise SkipInjection("no_corpus_term_in_band", f"no judgment of the corpus carries a "
                        f"{kind} term in {list(band)} months")


def _sentence_of(text: str, s: int, e: int, lo: int, hi: int) -> tuple[int, int]:
    """The sentence (between 。；) holding [s, e), its end mark included."""
    a = max(text.rfind(c, lo, s) for c in "。；;") + 1
    b = min([i for i in (text.find(c, max(s, e - 1), hi) for c in "。；;") if i >= 0] or [hi - 1]) + 1
    return max(a, lo), min(b, hi)


def _clean_deletions(judgment: Judgment, kind: str, chosen: list) -> list[tuple[int, int]]:  # type: ignore[type-arg]
    """The ranges removing the factor's clauses; skip (``factor_entangled``) when a range would
    take another factor, a citation or a court order with it, or leave half an argument."""
    text = judgment.full_text
    rs = judgment.reasoning_span
    assert rs is not None
    ranges = factor_deletions(text, [(f.clause.start, f.clause.end) for f in chosen if f.clause],
                              rs.start, rs.end)
    others = [f.span for f in judgment.factors if factor_label(f) not in (kind, "其他")]
    out = []
    for s, e in ranges:
        sent = _sentence_of(text, s, e, rs.start, rs.end)
        if _ARGUMENT.search(text[sent[0]:sent[1]]) and (s, e) != sent:
            s, e = sent
        own = FACTOR_ARTICLES.get(kind)
        if KEEP_RE.search(text[s:e]) or any(s < o.end and o.start < e for o in others) \
                or any(s <= a.span.start < e and a.number != own for a in judgment.article_refs):
            raise SkipInjection("factor_entangled", f"{kind}: its clause holds another factor, "
                                "a citation or a court order")
        out.append((s, e))
    return out
