"""E5 fixed-amount fine outside limits: the fine moved outside the tier's fixed range (AR-Bench
A.3), at every mention of the fine in the judgment part
(:func:`~buildds.inject_errors.dependents.fine_change`)."""

from __future__ import annotations

import random

from buildds.inject_errors.base import BaseInjector, InjectionContext, Plan, SkipInjection
from buildds.inject_errors.corpus_prior import fine_prior
from buildds.inject_errors.dependents import fine_change
from buildds.inject_errors.sentence_edits import fine_outside, single_charge
from buildds.inject_errors.tiers import charge_profile, resolve_tier
from buildds.schema.judgments import Judgment
from buildds.schema.statutes import FineRule, StatuteProfile

__all__ = ["FineOutsideLimits", "FixedFineOutsideLimits", "fine_amount", "fine_rule"]


def fine_rule(judgment: Judgment, profile: StatuteProfile, charge: str) -> tuple[FineRule, str]:
    """The fine rule for ``judgment``: its tier's when the tier is known and states one, the
    charge's (spanning all tiers) when the tier cannot be told; and where it came from."""
    cp = charge_profile(profile, charge)
    try:
        choice = resolve_tier(judgment, profile, charge)
    except SkipInjection:
        return cp.fine, "charge"
    if choice.ambiguous:
        return cp.fine, "charge"
    return choice.tier.fine, f"tier:{choice.tier.condition.kind}"


def fine_amount(judgment: Judgment) -> int:
    s = judgment.sentence
    if s.fine_yuan is None or s.fine_span is None:
        raise SkipInjection("no_fine", "the judgment imposes no fine")
    return s.fine_yuan


class FineOutsideLimits(BaseInjector):
    """The fine moved outside the range its rule allows (E5 and E6 differ only in the rule
    kind they take and in how the range is found: :meth:`bounds`)."""

    rule_kind = ""
    wrong_kind = ""  # the skip reason when the charge's fine rule is of another kind
    near = False  # new fines just outside the range (:data:`~.sentence_edits.FINE_REACH`)

    def bounds(self, judgment: Judgment, rule: FineRule
               ) -> tuple[float | None, float | None, dict[str, object]]:
        """The range the new fine must leave (either bound may be open) and what the rationale
        says about it besides the range."""
        raise NotImplementedError

    def allowed(self, judgment: Judgment, rule: FineRule, about: dict[str, object]
                ) -> tuple[float | None, float | None]:
        """The range the law allows this judgment's fine (to tell a fine already outside it)."""
        raise NotImplementedError

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        fine = fine_amount(judgment)
        charge = single_charge(judgment)
        rule, source = fine_rule(judgment, ctx.profile, charge)
        if rule.kind != self.rule_kind:
            raise SkipInjection(self.wrong_kind, f"{charge}: fine rule is {rule.kind}")
        lo, hi, about = self.bounds(judgment, rule)
        a_lo, a_hi = self.allowed(judgment, rule, about)
        if (a_lo is not None and fine < a_lo) or (a_hi is not None and fine > a_hi):
            raise SkipInjection("fine_already_outside", f"the fine {fine} yuan is already outside "
                                f"[{a_lo}, {a_hi}]: moving it further would not make the error")
        new, side = fine_outside(rng, lo, hi, fine_prior(ctx), near=self.near)
        return Plan(fine_change(judgment, new), {"fine_yuan": fine},
                    {"charge": charge, "rule": source, **about, "range_yuan": [lo, hi],
                     "direction": side, "law": rule.text})


class FixedFineOutsideLimits(FineOutsideLimits):
    error_type = "E5"
    rule_kind = "fixed_range"
    wrong_kind = "fine_not_fixed"

    def bounds(self, judgment: Judgment, rule: FineRule
               ) -> tuple[float | None, float | None, dict[str, object]]:
        return rule.min_yuan, rule.max_yuan, {}

    def allowed(self, judgment: Judgment, rule: FineRule, about: dict[str, object]
                ) -> tuple[float | None, float | None]:
        return rule.min_yuan, rule.max_yuan
