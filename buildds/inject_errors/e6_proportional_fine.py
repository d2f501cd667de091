"""E6 proportional fine outside limits: the fine moved outside [min_ratio, max_ratio] × the
amount involved (销售金额 …); needs the amount."""

from __future__ import annotations

import random

from buildds.inject_errors.base import (
    BaseInjector,
    InjectionContext,
    Plan,
    SkipInjection,
    fine_edit,
    fine_outside,
    single_charge,
)
from buildds.inject_errors.e5_fixed_fine import fine_amount, fine_rule
from buildds.schema.judgments import Judgment

__all__ = ["ProportionalFineOutsideLimits"]


class ProportionalFineOutsideLimits(BaseInjector):
    error_type = "E6"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        fine = fine_amount(judgment)
        charge = single_charge(judgment)
        rule, source = fine_rule(judgment, ctx.profile, charge)
        if rule.kind != "proportional":
            raise SkipInjection("fine_not_proportional", f"{charge}: fine rule is {rule.kind}")
        amount = judgment.amount_involved_yuan
        if amount is None:
            raise SkipInjection("no_amount", "no amount involved found in the facts")
        lo, hi = rule.allowed_range(amount)
        new, side = fine_outside(rng, lo, hi)
        return Plan([fine_edit(judgment, new)], {"fine_yuan": fine},
                    {"charge": charge, "rule": source, "amount_yuan": amount,
                     "ratio": [rule.min_ratio, rule.max_ratio], "range_yuan": [lo, hi],
                     "direction": side, "law": rule.text})
