"""The charge profile and sentencing tier a judgment falls under, looked up in a statute profile.

:func:`charge_profile` (through the profile's alias index), :func:`resolve_tier` (by amount, by
the condition words of the reasoning, or the only tier — or why it cannot be told) and
:func:`kind_range`; lookups are memoised per profile object (:func:`profile_memo`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from buildds.inject_errors.base import SkipInjection
from buildds.schema.judgments import Judgment
from buildds.schema.statutes import ChargeProfile, PenaltyRange, SentencingTier, StatuteProfile

__all__ = ["TierChoice", "charge_profile", "kind_range", "profile_memo", "resolve_tier"]

_MEMO_PROFILES = 8
_MEMOS: dict[int, tuple[StatuteProfile, dict[tuple[object, ...], Any]]] = {}


def profile_memo(profile: StatuteProfile) -> dict[tuple[object, ...], Any]:
    """A memo of lookups in ``profile`` (frozen, so they never go stale), kept for the last
    few profile objects: the injectors look the same charges up for every judgment, and
    each lookup scans the profile's charges."""
    hit = _MEMOS.get(id(profile))
    if hit is None or hit[0] is not profile:
        if len(_MEMOS) >= _MEMO_PROFILES:
            _MEMOS.clear()
        hit = _MEMOS[id(profile)] = (profile, {})
    return hit[1]


def charge_profile(profile: StatuteProfile, name: str) -> ChargeProfile:
    """The profile of charge ``name``, through the profile's alias index (bracketed
    alternatives, 罪, renamed charges: :func:`~buildds.inject_errors.statutes.resolve_charge`);
    memoised per profile."""
    from buildds.inject_errors.statutes import resolve_charge

    memo = profile_memo(profile)
    key = ("charge", name)
    if key not in memo:
        try:
            memo[key] = resolve_charge(profile, name)
        except KeyError:
            memo[key] = None
    found: ChargeProfile | None = memo[key]
    if found is None:
        raise SkipInjection("unknown_charge", f"{name} is not in the statute profile")
    return found


def _tier_by_amount(profile: StatuteProfile, charge: str, amount_yuan: int) -> SentencingTier | None:
    """``profile.tier_for(charge, amount_yuan=…)``, memoised per profile."""
    memo = profile_memo(profile)
    key = ("tier", charge, amount_yuan)
    if key not in memo:
        memo[key] = profile.tier_for(charge, amount_yuan=amount_yuan)
    tier: SentencingTier | None = memo[key]
    return tier


def kind_range(tier: SentencingTier, kind: str) -> PenaltyRange | None:
    """The custodial range of ``kind`` (有期徒刑/拘役/管制) in ``tier``."""
    for p in tier.penalties:
        if p.kind == kind and p.min_months is not None and p.max_months is not None:
            return p
    return None


@dataclass(frozen=True)
class TierChoice:
    """The tier a judgment falls in; ``how`` is amount / condition / single / term (the term
    picked it among several tiers: ambiguous)."""

    tier: SentencingTier
    index: int
    how: str

    @property
    def ambiguous(self) -> bool:
        return self.how == "term"


def resolve_tier(judgment: Judgment, profile: StatuteProfile, charge: str) -> TierChoice:
    """The tier of ``charge`` for ``judgment``: by the amount involved when the tiers have
    thresholds, else by a condition the reasoning names (数额巨大, 情节严重 …), else the only
    tier; else (ambiguous) the first tier whose range of the sentence kind holds the term.
    Raises :class:`SkipInjection` (``no_tier`` / ``ambiguous_tier``) otherwise."""
    cp = charge_profile(profile, charge)
    tiers = list(cp.tiers)
    if not tiers:
        raise SkipInjection("no_tier", f"{charge} has no sentencing tier")
    graded = any(t.condition.amount_min_yuan is not None for t in tiers)
    if graded and judgment.amount_involved_yuan is not None:
        tier = _tier_by_amount(profile, cp.charge, judgment.amount_involved_yuan)
        if tier is None:
            raise SkipInjection("no_tier", f"{judgment.amount_involved_yuan} yuan is below every threshold")
        return TierChoice(tier, tiers.index(tier), "amount")
    named = [i for i, t in enumerate(tiers)
             if t.condition.kind not in ("base", "other") and t.condition.kind in judgment.reasoning]
    if len(named) == 1:
        return TierChoice(tiers[named[0]], named[0], "condition")
    if len(tiers) == 1:
        return TierChoice(tiers[0], 0, "single")
    months, kind = judgment.sentence.months, judgment.sentence.kind
    if months is not None:
        for i, t in enumerate(tiers):
            r = kind_range(t, kind)
            if r is not None and r.contains_months(months):
                return TierChoice(t, i, "term")
    raise SkipInjection("ambiguous_tier", f"{charge}: {len(tiers)} tiers and nothing tells which applies")
