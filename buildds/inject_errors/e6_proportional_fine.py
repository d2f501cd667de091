"""E6 proportional fine outside limits: the fine moved outside [min_ratio, max_ratio] × the
amount involved (销售金额 …); needs the amount."""

from __future__ import annotations

from buildds.inject_errors.base import SkipInjection
from buildds.inject_errors.e5_fixed_fine import FineOutsideLimits
from buildds.schema.judgments import Judgment
from buildds.schema.statutes import FineRule

__all__ = ["ProportionalFineOutsideLimits"]


class ProportionalFineOutsideLimits(FineOutsideLimits):
    error_type = "E6"
    rule_kind = "proportional"
    wrong_kind = "fine_not_proportional"

    def bounds(self, judgment: Judgment, rule: FineRule
               ) -> tuple[float | None, float | None, dict[str, object]]:
        amount = judgment.amount_involved_yuan
        if amount is None:
            raise SkipInjection("no_amount", "no amount involved found in the facts")
        lo, hi = rule.allowed_range(amount)
        return lo, hi, {"amount_yuan": amount, "ratio": [rule.min_ratio, rule.max_ratio]}
