"""AR-Bench errors in Japanese judgments (``buildds judgments --profile jp``): E3 and E5
against the 法定刑 of the applied 刑法 article, and why the other types are not made.

A judgment is injectable only when its 罰条 apply exactly one 刑法 Book II article and no
other law (:func:`applied_article`; skips ``law_not_in_profile``, ``no_applied_article``,
``multi_charge``, ``article_not_in_profile``) and it cites nothing that moves the statutory
range — 自首 (42), 未遂 (43), 併合罪 (45–48), 再犯 (56–59), 従犯 (62/63), 酌量減軽 (66) and
the other 減軽 articles: the paper keeps judgments with sentencing factors out of E3, and in
Japanese law these articles change the range itself (skip ``sentencing_factor``).

- E3 (:class:`JpTermOutsideLimits`): the 懲役/禁錮/拘禁刑 term moved just outside the
  article's range (above the maximum, or below a minimum above the general 1 month). A
  suspended sentence stays at most 3 years (刑法25条: else the suspension would be a second
  error), and a term below the credited pre-trial detention is not made.
- E5 (:class:`JpFineOutsideLimits`): the 罰金 moved above the article's maximum or below the
  general minimum of 1万円 (刑法15条).
- E1, E2, E4, E6 (:class:`JpNotApplicable`): skipped, reason ``not_applicable_jp`` — there is
  no Japanese confusable-charge table (E1), omitting a charge needs the 併合罪 sentence
  recomputed (E2), Japanese sentencing factors are not parsed (E4), and the 刑法 has no
  proportional fines (E6).

:func:`inject_jp` runs them as :func:`buildds.inject_errors.inject_all` runs the Chinese ones
(the same seeding, the same records).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from buildds.inject_errors.base import (
    BaseInjector,
    InjectionContext,
    Plan,
    SkipInjection,
    lazy_random,
)
from buildds.inject_errors.jp_format import format_ja_term, format_ja_yen
from buildds.inject_errors.tiers import kind_range
from buildds.schema.judgments import InjectedJudgment, InjectionSkip, Judgment, SpanEdit
from buildds.schema.statutes import ChargeProfile, StatuteProfile

__all__ = ["FACTOR_ARTICLES", "JP_INJECTORS", "JpFineOutsideLimits", "JpNotApplicable",
           "JpTermOutsideLimits", "applied_article", "inject_jp"]

#: 刑法 Book I articles that move the statutory range (see the module docstring)
FACTOR_ARTICLES = frozenset({36, 37, 38, 39, 42, 43, 45, 46, 47, 48, 56, 57, 58, 59, 62, 63,
                             66, 67, 68, 71, 72})
_FACTOR_WORDS = ("酌量減軽", "法律上の減軽", "再犯加重", "累犯加重", "併合罪")
_CUSTODY = ("懲役", "禁錮", "拘禁刑")
_SUSPENSION_MAX = 36  # 刑法25条: 3年以下の拘禁刑
_NOT_APPLICABLE = {
    "E1": "no confusable-charge table for the Japanese 刑法 (the paper's E1 draws the wrong "
          "charge from the PRC confusable-charge table)",
    "E2": "omitting a charge needs the 併合罪 sentence recomputed (刑法45–48条); not made for "
          "Japanese judgments",
    "E4": "Japanese sentencing factors (自首 42条, 酌量減軽 66条 …) are not parsed; E4 is not "
          "made for Japanese judgments",
    "E6": "the 刑法 has no proportional fines",
}


def _article(number: int, sub: int | None) -> str:
    return f"刑法{number}条" + (f"の{sub}" if sub else "")


def applied_article(judgment: Judgment, profile: StatuteProfile) -> ChargeProfile:
    """The one 刑法 article the judgment applies, with its profile (skips: see the module
    docstring)."""
    from buildds.inject_errors.statutes import resolve_charge

    jp = judgment.jp
    if jp is None:
        raise SkipInjection("not_jp", "not a Japanese judgment")
    if jp.other_laws:
        raise SkipInjection("law_not_in_profile", f"the judgment applies {'、'.join(jp.other_laws)}"
                            f" — the profile holds only the 刑法 ({profile.version})")
    articles = list(dict.fromkeys(jp.penal_articles))
    if not articles:
        raise SkipInjection("no_applied_article", "no 刑法 Book II article in the 罰条 "
                            "(no 法令の適用 section, or it was not read)")
    if len(articles) > 1:
        raise SkipInjection("multi_charge", "the 罰条 apply " + "、".join(
            _article(*a) for a in articles) + ": the sentence is combined")
    factors = sorted(FACTOR_ARTICLES.intersection(jp.general_articles))
    words = [w for w in _FACTOR_WORDS if w in judgment.reasoning]
    if factors or words:
        raise SkipInjection("sentencing_factor", "the range is moved by "
                            + "、".join([*(f"刑法{n}条" for n in factors), *words])
                            + " (judgments with sentencing factors are excluded)")
    number, sub = articles[0]
    cp = next((c for c in profile.charges if (c.article, c.article_sub) == (number, sub)), None)
    if cp is None:
        raise SkipInjection("article_not_in_profile", f"{_article(number, sub)} has no 法定刑 "
                            "the profile could read")
    try:
        same = resolve_charge(profile, cp.charge) is cp
    except KeyError:
        same = False
    if not same:  # validation looks the charge up by name: it must lead back here
        raise SkipInjection("ambiguous_charge_name", f"{cp.charge} names several articles")
    return cp


def _pick(rng: random.Random, lo: int, hi: int, like: int) -> int:
    values = list(range(max(1, lo), hi + 1))
    for step in (12, 6):
        if like % step == 0 and (round_values := [v for v in values if v % step == 0]):
            return rng.choice(round_values)
    return rng.choice(values)


class JpTermOutsideLimits(BaseInjector):
    error_type = "E3"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        s, jp = judgment.sentence, judgment.jp
        if s.kind not in _CUSTODY or s.months is None or s.term_span is None:
            raise SkipInjection("no_term", f"sentence {s.kind} has no term to change")
        cp = applied_article(judgment, ctx.profile)
        found = [(t, k, r) for t in cp.tiers for k in (s.kind, *_CUSTODY)
                 if (r := kind_range(t, k)) is not None]
        if not found or len({(r.min_months, r.max_months) for _, _, r in found}) > 1:
            raise SkipInjection("ambiguous_tier" if found else "kind_not_in_tier",
                                f"{cp.charge}: {len(found)} custodial ranges")
        tier, kind, r = found[0]
        lo, hi = int(r.min_months or 1), int(r.max_months or 240)
        gap = max(3, (hi - lo) // 2)
        top = min(hi + gap, _SUSPENSION_MAX) if jp is not None and jp.suspended else hi + gap
        floor = -(-(jp.detention_credit_days or 0) // 30) if jp is not None else 0
        sides = (["above"] if s.months <= hi and top > hi else []) + (
            ["below"] if lo > 1 and s.months >= lo and max(1, lo - gap, floor) <= lo - 1 else [])
        if not sides:
            raise SkipInjection("no_room_outside_range", f"{cp.charge} [{lo}, {hi}] months"
                                + (": a suspended term stays within 3 years" if top <= hi else ""))
        side = rng.choice(sides)
        new = (_pick(rng, hi + 1, top, s.months) if side == "above"
               else _pick(rng, max(1, lo - gap, floor), lo - 1, s.months))
        span = s.term_span
        edit = SpanEdit(start=span.start, end=span.end, old=span.text,
                        new=format_ja_term(new, span.text))
        return Plan([edit], {"months": s.months}, {
            "charge": cp.charge, "article": _article(cp.article, cp.article_sub),
            "tier": tier.condition.kind, "tier_by": "single", "kind": kind,
            "sentence_kind": s.kind, "range_months": [lo, hi], "direction": side,
            "law": tier.text, "profile": ctx.profile.version})


class JpFineOutsideLimits(BaseInjector):
    error_type = "E5"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        s = judgment.sentence
        if s.fine_yuan is None or s.fine_span is None:
            raise SkipInjection("no_fine", "the judgment imposes no 罰金")
        cp = applied_article(judgment, ctx.profile)
        rule = cp.fine
        if rule.kind != "fixed_range" or rule.max_yuan is None:
            raise SkipInjection("fine_not_fixed", f"{cp.charge}: the article has no 罰金")
        lo, hi = int(rule.min_yuan or 10_000), int(rule.max_yuan)
        side = rng.choice(["above", "below"])
        if side == "above":
            unit = 100_000 if hi >= 1_000_000 else 10_000
            new = -(-int(hi * rng.uniform(1.2, 3.0)) // unit) * unit
        else:
            new = rng.choice(range(1_000, lo, 1_000))
        span = s.fine_span
        edit = SpanEdit(start=span.start, end=span.end, old=span.text,
                        new=format_ja_yen(new, span.text))
        return Plan([edit], {"fine_yuan": s.fine_yuan}, {
            "charge": cp.charge, "article": _article(cp.article, cp.article_sub),
            "rule": "charge", "range_yuan": [lo, hi], "direction": side, "law": rule.text,
            "currency": "JPY", "profile": ctx.profile.version})


class JpNotApplicable(BaseInjector):
    """E1, E2, E4, E6 for Japanese judgments: always skipped, with the reason."""

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        raise SkipInjection("not_applicable_jp", _NOT_APPLICABLE[self.error_type])


def _not_applicable(etype: str) -> type[BaseInjector]:
    return type(f"JpNotApplicable{etype}", (JpNotApplicable,), {"error_type": etype})


#: the injector class per error type for the jp profile
JP_INJECTORS: dict[str, type[BaseInjector]] = {
    "E1": _not_applicable("E1"), "E2": _not_applicable("E2"), "E3": JpTermOutsideLimits,
    "E4": _not_applicable("E4"), "E5": JpFineOutsideLimits, "E6": _not_applicable("E6")}


def inject_jp(judgments: Iterable[Judgment], *, errors: Sequence[str], profile: StatuteProfile,
              seed: int = 0, corpus: Sequence[Judgment] | None = None,
              ) -> tuple[list[InjectedJudgment], list[InjectionSkip]]:
    """Every (judgment, error type) injection with the jp injectors; each draws from
    ``random.Random(f"{seed}:{judgment.id}:{etype}")``, as
    :func:`buildds.inject_errors.inject_all`."""
    ctx = InjectionContext(profile=profile, corpus=corpus)
    table = {e: JP_INJECTORS[e](seed) for e in errors}
    done: list[InjectedJudgment] = []
    skipped: list[InjectionSkip] = []
    for judgment in judgments:
        for etype in errors:
            result = table[etype].inject(judgment, lazy_random(f"{seed}:{judgment.id}:{etype}"), ctx)
            (done if isinstance(result, InjectedJudgment) else skipped).append(result)  # type: ignore[arg-type]
    return done, skipped
