"""E6 proportional fine outside limits: the fine moved outside [min_ratio, max_ratio] × the
base the article names (AR-Bench A.3).

The base is the one the rule names (:attr:`FineRule.base
<buildds.schema.statutes.FineRule.base>`: 违法所得 for 非法经营, art. 225; 销售金额 for art.
140; 偷逃应缴税额 …), read from the judgment by :func:`~buildds.inject_errors.fine_base.base_amount`;
a judgment that does not state it is skipped (``no_fine_base``). The new fine also lies
outside the range reckoned on the amount involved (the largest amount of the facts), so it is
wrong whichever of the two a reader takes for the base; every mention of the fine changes
with it (:func:`~buildds.inject_errors.dependents.fine_change`).

The paper is silent on how far outside: the new fine lies *just* outside (``near``: 1.05–1.5 ×
the maximum, 0.67–0.95 × the minimum, the corpus's own fines in that window first —
:data:`~buildds.inject_errors.sentence_edits.FINE_REACH`). Courts fine about the base, so a
fine several times its multiple gave the row away to a detector reading the judgment part
alone (issue 13)."""

from __future__ import annotations

from buildds.inject_errors.base import SkipInjection
from buildds.inject_errors.e5_fixed_fine import FineOutsideLimits
from buildds.inject_errors.fine_base import base_amount
from buildds.schema.judgments import Judgment
from buildds.schema.statutes import FineRule

__all__ = ["ProportionalFineOutsideLimits"]


class ProportionalFineOutsideLimits(FineOutsideLimits):
    error_type = "E6"
    rule_kind = "proportional"
    wrong_kind = "fine_not_proportional"
    near = True  # issue 13: a fine far above the base's multiple marks the row (see below)

    def bounds(self, judgment: Judgment, rule: FineRule
               ) -> tuple[float | None, float | None, dict[str, object]]:
        found = base_amount(judgment, rule.base)
        if found is None:
            raise SkipInjection("no_fine_base", f"the judgment states no {rule.base or 'base amount'}")
        base, said = found
        lo, hi = rule.allowed_range(base)
        about: dict[str, object] = {"base": rule.base, "base_yuan": base, "base_text": said,
                                    "amount_yuan": judgment.amount_involved_yuan,
                                    "ratio": [rule.min_ratio, rule.max_ratio],
                                    "range_by_base_yuan": [lo, hi]}
        if judgment.amount_involved_yuan is not None and judgment.amount_involved_yuan != base:
            lo2, hi2 = rule.allowed_range(judgment.amount_involved_yuan)
            lo = None if lo is None or lo2 is None else min(lo, lo2)
            hi = None if hi is None or hi2 is None else max(hi, hi2)
        if rule.min_yuan is not None:  # a fixed minimum beside the multiple (盗窃: 1000 yuan)
            hi = None if hi is None else max(hi, rule.min_yuan)
        return lo, hi, about

    def allowed(self, judgment: Judgment, rule: FineRule, about: dict[str, object]
                ) -> tuple[float | None, float | None]:
        bounds: list[float | None] = about["range_by_base_yuan"]  # type: ignore[assignment]
        lo, hi = bounds
        if rule.min_yuan is not None:
            lo = rule.min_yuan if lo is None else max(lo, rule.min_yuan)
            hi = None if hi is None else max(hi, rule.min_yuan)
        return lo, hi
