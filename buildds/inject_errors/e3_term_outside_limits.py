"""E3 sentencing outside statutory limits: the term moved outside the applicable tier's range.

AR-Bench A.3 (seed 003): only judgments *without sentencing factors* (a factor such as 自首
or 从犯 can lawfully take a term below the tier, arts. 63/67/27: skip ``has_sentencing_factors``,
also when the reasoning cites a factor's article or says 减轻处罚); within one tier the term is
moved outside that tier; when the tier is ambiguous (no amount or condition tells it and the
charge has several tiers), into an adjacent tier's range ("if the sentence spans multiple
tiers, we adjust the sentence to fall within the adjacent tier").

The new term keeps its kind's general range (arts. 42/45: a 拘役 is never written past six
months, a 有期徒刑 never below six): a 拘役 that cannot leave its tier upwards becomes a
有期徒刑 above the tier's 有期徒刑 range (or of 7–12 months when the tier has none). The days a
term carries (``四个月十五日``), the 刑期 date note and the 缓刑 rules follow the new term
(:func:`~buildds.inject_errors.dependents.term_change`)."""

from __future__ import annotations

import random
import re

from buildds.inject_errors.base import BaseInjector, InjectionContext, Plan, SkipInjection
from buildds.inject_errors.corpus_prior import term_prior
from buildds.inject_errors.dependents import term_allowed, term_change
from buildds.inject_errors.sentence_edits import custodial_term, pick_months, single_charge
from buildds.inject_errors.tiers import TierChoice, charge_profile, kind_range, resolve_tier
from buildds.schema.judgments import Judgment

__all__ = ["FACTOR_ARTICLE_NUMBERS", "TermOutsideLimits", "has_sentencing_factors"]

_REDUCED = re.compile(r"减轻处罚|在法定刑以下|免除处罚")
#: the General-part articles of sentencing factors (age 17–19, excess of defence 20–21,
#: preparation/attempt/abandonment 22–24, accomplices 27–29, 63 reduction, recidivism 65–66,
#: surrender/confession 67, merit 68, 毒品再犯 356): citing one means the judgment has a factor
#: even when its wording escapes the factor parser
FACTOR_ARTICLE_NUMBERS: frozenset[int] = frozenset(
    {17, 18, 19, 20, 21, 22, 23, 24, 27, 28, 29, 63, 65, 66, 67, 68, 356})


def has_sentencing_factors(judgment: Judgment) -> str | None:
    """Why the judgment counts as having sentencing factors (a factor kind other than 其他,
    a factor's article cited, a lawful reduction named), or None."""
    kinds = sorted({f.kind for f in judgment.factors if f.kind != "其他"})
    if kinds:
        return "factors: " + ", ".join(kinds)
    cited = sorted(FACTOR_ARTICLE_NUMBERS.intersection(judgment.articles))
    if cited:
        return "a sentencing factor's article is cited: " + ", ".join(map(str, cited))
    if _REDUCED.search(judgment.reasoning):
        return "the reasoning reduces the punishment (减轻处罚)"
    return None


class TermOutsideLimits(BaseInjector):
    error_type = "E3"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        months = custodial_term(judgment)
        charge = single_charge(judgment)
        why = has_sentencing_factors(judgment)
        if why is not None:
            raise SkipInjection("has_sentencing_factors", why)
        kind: str = judgment.sentence.kind
        choice = resolve_tier(judgment, ctx.profile, charge)
        r = kind_range(choice.tier, kind)
        if r is None or r.min_months is None or r.max_months is None:
            raise SkipInjection("kind_not_in_tier", f"{choice.tier.condition.kind} has no {kind}")
        lo, hi = r.min_months, r.max_months
        rationale: dict[str, object] = {
            "charge": charge, "tier": choice.tier.condition.kind, "tier_by": choice.how,
            "kind": kind, "range_months": [lo, hi]}
        if choice.ambiguous:
            new, new_kind = self._adjacent(judgment, rng, ctx, choice, charge, lo, hi, rationale), kind
        else:
            new, new_kind = self._outside(judgment, rng, months, lo, hi, choice, rationale, ctx)
        edits = term_change(judgment, new, new_kind)
        gold: dict[str, object] = {"months": months} if new_kind == kind else {"months": months, "kind": kind}
        return Plan(edits, gold, rationale)

    @staticmethod
    def _outside(judgment: Judgment, rng: random.Random, months: int, lo: int, hi: int,
                 choice: TierChoice, rationale: dict[str, object],
                 ctx: InjectionContext | None = None) -> tuple[int, str]:
        """A term of the judgment's kind outside [lo, hi] (a 拘役 that cannot: a 有期徒刑
        above the tier's), and the kind; drawn by the corpus's term counts
        (:func:`~buildds.inject_errors.corpus_prior.term_prior`)."""
        kind = judgment.sentence.kind
        gap = max(3, (hi - lo) // 2)
        sides = []
        if months <= hi and pick_months(random.Random(0), hi + 1, hi + gap,
                                        allowed=lambda v: term_allowed(judgment, v)):
            sides.append("above")
        if lo > 1 and months >= lo and pick_months(random.Random(0), lo - gap, lo - 1,
                                                   allowed=lambda v: term_allowed(judgment, v)):
            sides.append("below")
        if sides:
            side = rng.choice(sides)
            a, b = (hi + 1, hi + gap) if side == "above" else (lo - gap, lo - 1)
            new = pick_months(rng, a, b, like=months, allowed=lambda v: term_allowed(judgment, v),
                              prior=term_prior(ctx, kind))
            assert new is not None
            rationale["direction"] = side
            return new, kind
        if kind == "拘役" and months <= hi:
            r2 = kind_range(choice.tier, "有期徒刑")
            a, b = (r2.max_months + 1, r2.max_months + max(3, r2.max_months // 2)) if (
                r2 is not None and r2.max_months is not None) else (7, 12)
            new = pick_months(rng, a, b, like=months,
                              allowed=lambda v: term_allowed(judgment, v, "有期徒刑"),
                              prior=term_prior(ctx, "有期徒刑"))
            if new is not None:
                rationale.update(direction="above", new_kind="有期徒刑",
                                 new_kind_range_months=None if r2 is None else [r2.min_months, r2.max_months],
                                 note="拘役 cannot exceed six months (art. 42): the term "
                                      "becomes a 有期徒刑 above the tier")
                return new, "有期徒刑"
        raise SkipInjection("no_term_outside", f"no {kind} term outside [{lo}, {hi}] keeps the "
                            "kind's general range and the 缓刑 rules")

    @staticmethod
    def _adjacent(judgment: Judgment, rng: random.Random, ctx: InjectionContext, choice: TierChoice,
                  charge: str, lo: int, hi: int, rationale: dict[str, object]) -> int:
        """A term in an adjacent tier's range of the same kind, outside [lo, hi]."""
        kind = judgment.sentence.kind
        tiers = charge_profile(ctx.profile, charge).tiers
        options = []
        for j in (choice.index - 1, choice.index + 1):
            if 0 <= j < len(tiers) and (r2 := kind_range(tiers[j], kind)) is not None:
                assert r2.min_months is not None and r2.max_months is not None
                if pick_months(random.Random(0), r2.min_months, r2.max_months, avoid=range(lo, hi + 1),
                               allowed=lambda v: term_allowed(judgment, v)) is not None:
                    options.append((j, r2))
        if not options:
            raise SkipInjection("ambiguous_tier", "the tier is ambiguous and no adjacent tier "
                                f"has a {kind} term outside it")
        j, r2 = rng.choice(options)
        assert r2.min_months is not None and r2.max_months is not None
        new = pick_months(rng, r2.min_months, r2.max_months, like=judgment.sentence.months,
                          avoid=range(lo, hi + 1), allowed=lambda v: term_allowed(judgment, v),
                          prior=term_prior(ctx, kind))
        assert new is not None
        rationale.update(ambiguous_tier=True, adjacent_tier=tiers[j].condition.kind,
                         adjacent_range_months=[r2.min_months, r2.max_months],
                         direction="above" if j > choice.index else "below",
                         note="tier ambiguous: term moved into the adjacent tier's range")
        return new
