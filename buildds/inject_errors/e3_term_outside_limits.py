"""E3 sentencing outside statutory limits: the term moved outside the applicable tier's range.

When the tier is ambiguous (no amount or condition tells it and the charge has several
tiers), the term is moved into an adjacent tier's range instead (AR-Bench A.3: "if the
sentence spans multiple tiers, we adjust the sentence to fall within the adjacent tier")."""

from __future__ import annotations

import random

from buildds.inject_errors.base import BaseInjector, InjectionContext, Plan, SkipInjection
from buildds.inject_errors.sentence_edits import (
    custodial_term,
    pick_months,
    single_charge,
    term_edit,
)
from buildds.inject_errors.tiers import charge_profile, kind_range, resolve_tier
from buildds.schema.judgments import Judgment

__all__ = ["TermOutsideLimits"]


class TermOutsideLimits(BaseInjector):
    error_type = "E3"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        months = custodial_term(judgment)
        charge = single_charge(judgment)
        kind = judgment.sentence.kind
        choice = resolve_tier(judgment, ctx.profile, charge)
        r = kind_range(choice.tier, kind)
        if r is None or r.min_months is None or r.max_months is None:
            raise SkipInjection("kind_not_in_tier", f"tier {choice.tier.condition.kind} has no {kind}")
        lo, hi = r.min_months, r.max_months
        rationale: dict[str, object] = {
            "charge": charge, "tier": choice.tier.condition.kind, "tier_by": choice.how,
            "kind": kind, "range_months": [lo, hi]}
        if not choice.ambiguous:
            # a term already outside the range (legal 减轻处罚) is only moved further away
            sides = (["above"] if months <= hi else []) + (["below"] if lo > 1 and months >= lo else [])
            side = rng.choice(sides)
            gap = max(3, (hi - lo) // 2)
            if side == "above":
                new = pick_months(rng, hi + 1, hi + gap, like=months)
            else:
                new = pick_months(rng, lo - gap, lo - 1, like=months)
            assert new is not None
            rationale["direction"] = side
        else:
            tiers = charge_profile(ctx.profile, charge).tiers
            options = []
            for j in (choice.index - 1, choice.index + 1):
                if 0 <= j < len(tiers) and (r2 := kind_range(tiers[j], kind)) is not None:
                    assert r2.min_months is not None and r2.max_months is not None
                    if any(not lo <= v <= hi for v in range(r2.min_months, r2.max_months + 1)):
                        options.append((j, r2))
            if not options:
                raise SkipInjection("ambiguous_tier", "the tier is ambiguous and no adjacent tier "
                                    f"has a {kind} range outside it")
            j, r2 = rng.choice(options)
            assert r2.min_months is not None and r2.max_months is not None
            new = pick_months(rng, r2.min_months, r2.max_months, like=months,
                              avoid=range(lo, hi + 1))
            assert new is not None
            rationale.update(ambiguous_tier=True, adjacent_tier=tiers[j].condition.kind,
                             adjacent_range_months=[r2.min_months, r2.max_months],
                             direction="above" if j > choice.index else "below",
                             note="tier ambiguous: term moved into the adjacent tier's range")
        return Plan([term_edit(judgment, new)], {"months": months}, rationale)
