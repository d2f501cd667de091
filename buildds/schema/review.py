"""A reviewer's verdicts on sampled AR-Bench rows (``buildds judgments --review-sample`` /
``--review-verdicts``): one :class:`ReviewVerdict` per line of the verdicts CSV, and the
validity rate they give per error type (:class:`ValidityRate`).

A verdict says whether an injected row is a real, detectable error of its type (``valid``
yes/no); a row left blank in the CSV is not judged and is not counted.
"""

from __future__ import annotations

from buildds.schema.core import Frozen

__all__ = ["ReviewVerdict", "ValidityRate"]


class ReviewVerdict(Frozen):
    """One judged row: its id, the verdict, the reviewer's note and where it was read
    (``source`` file name, 1-based ``line`` of the CSV)."""

    id: str
    valid: bool
    note: str = ""
    source: str
    line: int


class ValidityRate(Frozen):
    """Valid / judged rows of one error type (or ``all``), with the Wilson 95% interval."""

    error_type: str
    valid: int
    judged: int
    rate: float
    low: float
    high: float

    def as_text(self) -> str:
        """``7/8 = 87.5% (95% CI 52.9–97.8%)``."""
        return (f"{self.valid}/{self.judged} = {100 * self.rate:.1f}% "
                f"(95% CI {100 * self.low:.1f}–{100 * self.high:.1f}%)")
