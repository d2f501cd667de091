"""Statute profiles as data (AR-Bench, seed 003): per article/charge, sentencing tiers with
their conditions and fine rules, versioned with the law's effective date.

Records are built by the statute-profile stage (:mod:`buildds.inject_errors.statutes`) from the
law text itself; the E3 (term outside limits), E5 (fixed fine) and E6 (proportional fine)
injectors read them.

Conventions:

* Terms are in months. A bound the article leaves open is filled from the general part
  (PRC 刑法 第三十八/四十二/四十五条: 管制 3–24, 拘役 1–6, 有期徒刑 6–180 months; 刑法(日本)
  第十二条/第十三条: 有期拘禁刑・懲役・禁錮 1–240 months). 死刑/无期徒刑 carry no months.
* Money is in the law's currency (``currency``: CNY for the PRC, JPY for Japan); the
  ``*_yuan`` field names follow the PRC profile, the first one built.
* ``TierCondition.amount_min_yuan``/``amount_max_yuan`` are the judicial interpretation's span
  for the tier's *entry* threshold (e.g. theft 数额较大: 1,000–3,000 元, local courts choose
  within it); ``None`` when the provided interpretations do not state one — never guessed.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from buildds.schema.core import Frozen

__all__ = [
    "ChargeProfile",
    "FineKind",
    "FineRule",
    "PenaltyKind",
    "PenaltyRange",
    "SentencingTier",
    "StatuteProfile",
    "TierCondition",
    "TierKind",
]

PenaltyKind = Literal[
    "有期徒刑", "拘役", "管制", "无期徒刑", "死刑",  # PRC
    "拘禁刑", "懲役", "禁錮", "罰金", "科料", "拘留", "無期拘禁刑", "無期懲役", "無期禁錮",  # Japan
]
TierKind = Literal[
    "base", "数额较大", "数额巨大", "数额特别巨大", "情节严重", "情节特别严重", "情节较轻",
    "致人重伤", "致人死亡", "other",
]
FineKind = Literal["none", "optional", "mandatory_unspecified", "fixed_range", "proportional"]


class PenaltyRange(Frozen):
    """One principal penalty a tier allows, e.g. 有期徒刑 36–120 months or 罰金 up to 500,000 円."""

    kind: PenaltyKind
    min_months: int | None = None
    max_months: int | None = None
    # Japanese 罰金/科料 are principal penalties with money bounds (in yen).
    min_amount: int | None = None
    max_amount: int | None = None

    def contains_months(self, months: int) -> bool:
        """Whether a term of ``months`` lies inside this range (bounds inclusive)."""
        if self.min_months is None and self.max_months is None:
            return False
        lo = self.min_months if self.min_months is not None else 0
        hi = self.max_months if self.max_months is not None else 10**6
        return lo <= months <= hi


class TierCondition(Frozen):
    """When a tier applies: its kind, the clause text, and any amount threshold."""

    kind: TierKind
    text: str
    amount_min_yuan: int | None = None
    amount_max_yuan: int | None = None


class FineRule(Frozen):
    """How the law fixes the fine: absent, optional, mandatory without amount, a fixed
    range (E5) or a proportion of a base amount such as 销售金额 (E6)."""

    kind: FineKind = "none"
    min_yuan: int | None = None
    max_yuan: int | None = None
    min_ratio: float | None = None
    max_ratio: float | None = None
    base: str | None = None
    text: str = ""
    currency: Literal["CNY", "JPY"] = "CNY"

    def allowed_range(self, base_amount: int | None = None) -> tuple[float | None, float | None]:
        """The fine bounds in money: the fixed range, or the ratios applied to ``base_amount``."""
        if self.kind == "fixed_range":
            return (self.min_yuan, self.max_yuan)
        if self.kind == "proportional" and base_amount is not None:
            lo = None if self.min_ratio is None else self.min_ratio * base_amount
            hi = None if self.max_ratio is None else self.max_ratio * base_amount
            return (lo, hi)
        return (None, None)


class SentencingTier(Frozen):
    """One 量刑档次: condition, the penalties it allows, its own fine rule, and the clause."""

    condition: TierCondition
    penalties: tuple[PenaltyRange, ...]
    text: str
    fine: FineRule = Field(default_factory=FineRule)
    paragraph: int | None = None  # 款 (or 項) the clause stands in, counted from 1

    @property
    def min_months(self) -> int | None:
        """The lowest custodial term in months this tier allows (None: no custodial term)."""
        lows = [p.min_months for p in self.penalties if p.min_months is not None]
        return min(lows) if lows else None

    @property
    def max_months(self) -> int | None:
        """The highest fixed-term months (life/death are not counted)."""
        highs = [p.max_months for p in self.penalties if p.max_months is not None]
        return max(highs) if highs else None


class ChargeProfile(Frozen):
    """A charge (罪名) with its article and the tiers and fine parsed from the article text.

    ``article_sub`` is the 之N of 第X条之N (PRC) or the の N of 第X条のN (Japan)."""

    charge: str
    article: int
    paragraph: int | None = None
    article_sub: int | None = None
    tiers: tuple[SentencingTier, ...]
    fine: FineRule
    text: str


class StatuteProfile(Frozen):
    """A whole law's profile: versioned by effective date, with confusable-charge sets."""

    id: str
    jurisdiction: Literal["cn", "jp"]
    law: str
    version: str
    effective_date: date
    charges: tuple[ChargeProfile, ...]
    confusable: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    coverage: dict[str, float | int] = Field(default_factory=dict)

    def charge(self, name: str) -> ChargeProfile:
        """The profile of a charge, named with or without the trailing 罪."""
        wanted = {name, name.removesuffix("罪"), name + "罪"}
        for profile in self.charges:
            if profile.charge in wanted:
                return profile
        raise KeyError(f"no charge {name!r} in statute profile {self.id!r}")

    def tier_for(
        self, charge: str, amount_yuan: int | None = None, condition: str | None = None
    ) -> SentencingTier | None:
        """The tier a case falls in: by ``condition`` kind (e.g. "情节特别严重") when given,
        else by amount against the tiers' entry thresholds (the interpretation's lower bound,
        the national minimum), else the base tier. None when nothing matches."""
        tiers = self.charge(charge).tiers
        if condition is not None:
            for tier in tiers:
                if tier.condition.kind == condition or condition in tier.condition.text:
                    return tier
            return None
        if amount_yuan is not None:
            graded = [t for t in tiers if t.condition.amount_min_yuan is not None]
            if graded:
                reached = [t for t in graded if amount_yuan >= (t.condition.amount_min_yuan or 0)]
                # below the lowest threshold: not punishable by amount alone
                return max(reached, key=lambda t: t.condition.amount_min_yuan or 0) if reached else None
        for tier in tiers:
            if tier.condition.kind in ("base", "数额较大"):
                return tier
        return tiers[0] if tiers else None

    def range_for(self, charge: str, tier: SentencingTier | str) -> tuple[PenaltyRange, ...]:
        """The penalties of ``tier`` (a tier or its condition kind) for ``charge``."""
        if isinstance(tier, SentencingTier):
            return tier.penalties
        found = self.tier_for(charge, condition=tier)
        if found is None:
            raise KeyError(f"charge {charge!r} has no tier {tier!r}")
        return found.penalties
