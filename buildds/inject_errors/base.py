"""Common machinery of the error injectors (AR-Bench, seed 003, Figure 2 / Appendix A.3).

An injector turns one :class:`~buildds.schema.judgments.Judgment` into an
:class:`~buildds.schema.judgments.InjectedJudgment` (span edits on ``full_text`` plus the gold
correction) or an :class:`~buildds.schema.judgments.InjectionSkip` with a reason code when the
error cannot be made validly — it is never forced.

- :func:`apply_edits` / :func:`undo_edits`: apply span edits (offsets in the ORIGINAL text) and
  their exact inverse;
- :func:`format_months_cn` / :func:`format_yuan_cn` / :func:`int_to_cn`: render terms and
  amounts in the style of the text they replace (Chinese numerals or digits);
- :func:`resolve_tier`: the sentencing tier a judgment falls in (by amount, by the condition
  words of the reasoning, or the only tier), or why it cannot be told;
- :class:`BaseInjector` and :func:`inject_all`.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, runtime_checkable

from buildds.schema.judgments import (
    ERROR_CLASS,
    InjectedJudgment,
    InjectionSkip,
    Judgment,
    SpanEdit,
)
from buildds.schema.statutes import ChargeProfile, PenaltyRange, SentencingTier, StatuteProfile

__all__ = [
    "ALL_ERRORS",
    "BaseInjector",
    "InjectionContext",
    "InjectionError",
    "Injector",
    "SkipInjection",
    "TierChoice",
    "apply_edits",
    "charge_profile",
    "delete_ranges",
    "format_months_cn",
    "format_yuan_cn",
    "inject_all",
    "injectors",
    "int_to_cn",
    "kind_range",
    "lazy_random",
    "nice_amount",
    "profile_memo",
    "resolve_tier",
    "undo_edits",
]

ALL_ERRORS: tuple[str, ...] = ("E1", "E2", "E3", "E4", "E5", "E6")


class InjectionError(ValueError):
    """Edits that do not fit the text (overlap, or ``old`` is not what the text holds)."""


class SkipInjection(Exception):
    """Raised inside an injector: the injection cannot be made validly."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason)
        self.reason = reason
        self.message = message or reason


# --------------------------------------------------------------------------- edits
def _check(text: str, edits: Sequence[SpanEdit]) -> list[SpanEdit]:
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    prev_end = -1
    for e in ordered:
        if e.start < prev_end or (e.start == prev_end and e.start == e.end):
            raise InjectionError(f"edit [{e.start}, {e.end}) overlaps the previous one")
        if not 0 <= e.start <= e.end <= len(text):
            raise InjectionError(f"edit [{e.start}, {e.end}) is outside the text")
        if text[e.start:e.end] != e.old:
            raise InjectionError(f"text[{e.start}:{e.end}] is {text[e.start:e.end]!r}, not {e.old!r}")
        prev_end = e.end
    return ordered


def apply_edits(text: str, edits: Sequence[SpanEdit]) -> str:
    """``text`` with every edit applied; offsets index ``text`` (the original). Raises
    :class:`InjectionError` on overlapping edits or when ``text[start:end] != old``."""
    out: list[str] = []
    pos = 0
    for e in _check(text, edits):
        out.append(text[pos:e.start])
        out.append(e.new)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def undo_edits(anomalous: str, edits: Sequence[SpanEdit]) -> str:
    """The original text back from ``apply_edits(original, edits)`` (exact inverse)."""
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    out: list[str] = []
    pos = 0  # in the anomalous text
    shift = 0  # anomalous offset - original offset
    for e in ordered:
        a_start = e.start + shift
        out.append(anomalous[pos:a_start])
        if anomalous[a_start:a_start + len(e.new)] != e.new:
            raise InjectionError(f"anomalous text at {a_start} is not {e.new!r}")
        out.append(e.old)
        pos = a_start + len(e.new)
        shift += len(e.new) - (e.end - e.start)
    out.append(anomalous[pos:])
    return "".join(out)


def delete_ranges(text: str, ranges: Iterable[tuple[int, int]]) -> list[SpanEdit]:
    """Deletion edits for ``ranges`` of ``text``, overlapping or touching ranges merged."""
    merged: list[list[int]] = []
    for s, e in sorted(ranges):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [SpanEdit(start=s, end=e, old=text[s:e], new="") for s, e in merged if e > s]


# --------------------------------------------------------------------------- numerals
_CN_DIGITS = "零一二三四五六七八九"
_CN_RE = re.compile(r"[零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟]")


def _cn_below_10000(n: int, *, leading: bool) -> str:
    out = ""
    zero = False
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = n // value % 10
        if digit == 0:
            if out:
                zero = True
            continue
        if zero:
            out += "零"
            zero = False
        if value == 10 and digit == 1 and not out and leading:
            out += "十"
        else:
            out += _CN_DIGITS[digit] + unit
    return out


def int_to_cn(n: int) -> str:
    """12 → 十二, 1500 → 一千五百, 15000 → 一万五千, 100500 → 十万零五百, 0 → 零."""
    if n < 0:
        raise ValueError(f"negative: {n}")
    if n == 0:
        return "零"
    groups: list[int] = []
    while n:
        groups.append(n % 10_000)
        n //= 10_000
    units = ["", "万", "亿", "万亿"]
    out = ""
    for i in range(len(groups) - 1, -1, -1):
        g = groups[i]
        if g == 0:
            continue
        if out and (g < 1000 or groups[i + 1] == 0):
            out += "零"
        out += _cn_below_10000(g, leading=not out) + units[i]
    return out.replace("零零", "零")


def _is_cn(like: str) -> bool:
    return bool(_CN_RE.search(like)) and not re.search(r"[0-9０-９]", like)


def format_months_cn(months: int, like: str = "") -> str:
    """A term in the style of ``like``: 42 → 三年六个月 (or 3年6个月 when ``like`` uses digits);
    ``like`` with 零/又 between years and months (一年零六个月) keeps it."""
    if months <= 0:
        raise ValueError(f"not a term: {months}")
    cn = _is_cn(like) or not like
    num = int_to_cn if cn else str
    years, rest = divmod(months, 12)
    month_word = "个月" if ("个月" in like or not like or "月" not in like) else "月"
    out = ""
    if years:
        out += f"{num(years)}年"
        if rest and re.search(r"年[零又]", like):
            out += like[like.index("年") + 1]
    if rest:
        out += f"{num(rest)}{month_word}"
    return out


def format_yuan_cn(yuan: int, like: str = "") -> str:
    """An amount in the style of ``like`` (a money span such as 五千元, 5000元, 5,000元, 1.5万元,
    人民币五千元): Chinese numerals if ``like`` uses them, digits otherwise; 人民币 kept."""
    prefix = "人民币" if like.startswith("人民币") else ""
    body = like.removeprefix("人民币")
    if not body or _is_cn(body):
        return f"{prefix}{int_to_cn(yuan)}元"
    if "万" in body and yuan % 100 == 0:
        wan = yuan / 10_000
        return f"{prefix}{wan:g}万元" if wan >= 1 else f"{prefix}{yuan}元"
    if re.search(r"[0-9][,，][0-9]{3}", body):
        sep = "，" if "，" in body else ","
        return f"{prefix}{yuan:,}元".replace(",", sep)
    return f"{prefix}{yuan}元"


def nice_amount(value: float, *, up: bool) -> int:
    """``value`` rounded to two significant digits, away from the limit (up: ceil, else floor)."""
    if value <= 0:
        return 0
    mag = 10 ** max(0, math.floor(math.log10(value)) - 1)
    return int((math.ceil if up else math.floor)(value / mag) * mag)


# --------------------------------------------------------------------------- tiers
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


# --------------------------------------------------------------------------- injectors
@dataclass
class InjectionContext:
    """What injectors read besides the judgment: the statute profile, and (for E1) a corpus
    of real judgments to take a similar case of the confusable charge from."""

    profile: StatuteProfile
    corpus: Sequence[Judgment] | None = None
    _by_charge: dict[str, list[Judgment]] | None = field(default=None, repr=False)
    #: indexes injectors derive from the corpus once (``memo(key, make)``)
    _memo: dict[object, Any] = field(default_factory=dict, repr=False)

    def memo(self, key: object, make: Callable[[], Any]) -> Any:
        """``make()`` the first time ``key`` is asked for, the same value afterwards (an
        index over the corpus built once per context rather than once per judgment)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def single_charge_cases(self, charge: str) -> list[Judgment]:
        """Corpus judgments whose only charge is ``charge`` and that carry a term."""
        if self.corpus is None:
            return []
        if self._by_charge is None:
            index: dict[str, list[Judgment]] = {}
            for j in self.corpus:
                if len(j.charges) == 1 and j.sentence.months is not None:
                    index.setdefault(j.charges[0], []).append(j)
            self._by_charge = index
        return self._by_charge.get(charge, [])


@runtime_checkable
class Injector(Protocol):
    error_type: str

    def inject(self, judgment: Judgment, rng: random.Random,
               ctx: InjectionContext) -> InjectedJudgment | InjectionSkip: ...


@dataclass(frozen=True)
class Plan:
    """What an injector decided: edits on the original full text, gold, rationale."""

    edits: list[SpanEdit]
    gold: dict[str, object]
    rationale: dict[str, object] = field(default_factory=dict)


class BaseInjector:
    """Owns the common work: skip handling, applying the edits, shifting the three parts
    and building the record. Subclasses implement :meth:`plan`."""

    error_type: str = ""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        raise NotImplementedError

    def skip(self, judgment: Judgment, reason: str, message: str = "") -> InjectionSkip:
        return InjectionSkip(source_id=judgment.id, error_type=self.error_type,  # type: ignore[arg-type]
                             reason=reason, message=message or reason)

    def inject(self, judgment: Judgment, rng: random.Random,
               ctx: InjectionContext) -> InjectedJudgment | InjectionSkip:
        try:
            plan = self.plan(judgment, rng, ctx)
        except SkipInjection as skip:
            return self.skip(judgment, skip.reason, skip.message)
        edits = sorted(plan.edits, key=lambda e: (e.start, e.end))
        edits = [e for e in edits if e.old != e.new]
        if not edits:
            return self.skip(judgment, "no_change", "the injection would not change the text")
        text = judgment.full_text
        anomalous = apply_edits(text, edits)
        return InjectedJudgment(
            id=f"{judgment.id}-{self.error_type}-{self.seed}",
            source_id=judgment.id,
            error_type=self.error_type,  # type: ignore[arg-type]
            error_class=ERROR_CLASS[self.error_type],  # type: ignore[arg-type]
            seed=self.seed,
            original=judgment,
            edits=tuple(edits),
            anomalous_text=anomalous,
            facts=self._part(anomalous, judgment.facts_span, judgment.facts, edits),
            reasoning=self._part(anomalous, judgment.reasoning_span, judgment.reasoning, edits),
            judgment=self._part(anomalous, judgment.judgment_span, judgment.judgment, edits),
            gold_correction=plan.gold,
            rationale=plan.rationale,
        )

    @staticmethod
    def _part(anomalous: str, span: object, fallback: str, edits: Sequence[SpanEdit]) -> str:
        from buildds.schema.judgments import Span

        if not isinstance(span, Span):
            return fallback
        start, end = span.start, span.end
        for e in edits:
            if e.start < start < e.end or e.start < end < e.end:
                raise InjectionError(f"edit [{e.start}, {e.end}) straddles a part border")
        delta_start = sum(len(e.new) - (e.end - e.start) for e in edits if e.end <= start and e.start < start)
        delta_end = sum(len(e.new) - (e.end - e.start) for e in edits if e.end <= end and e.start < end)
        return anomalous[start + delta_start:end + delta_end]


def injectors(seed: int = 0) -> dict[str, BaseInjector]:
    """One injector per error type."""
    from buildds.inject_errors.e1_erroneous_charge import ErroneousCharge
    from buildds.inject_errors.e2_omission_of_charges import OmissionOfCharges
    from buildds.inject_errors.e3_term_outside_limits import TermOutsideLimits
    from buildds.inject_errors.e4_ignored_factor import IgnoredFactor
    from buildds.inject_errors.e5_fixed_fine import FixedFineOutsideLimits
    from buildds.inject_errors.e6_proportional_fine import ProportionalFineOutsideLimits

    classes = (ErroneousCharge, OmissionOfCharges, TermOutsideLimits, IgnoredFactor,
               FixedFineOutsideLimits, ProportionalFineOutsideLimits)
    return {cls.error_type: cls(seed) for cls in classes}


class _LazyRandom:
    """``random.Random(seed)``, made on first use: seeding from a string (SHA-512) costs more
    than most injections, and most injections are skipped before they draw a number. The
    draws are exactly those of ``random.Random(seed)``."""

    __slots__ = ("_rng", "_seed")

    def __init__(self, seed: str) -> None:
        self._seed = seed
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> Any:
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return getattr(self._rng, name)


def lazy_random(seed: str) -> random.Random:
    """A :class:`random.Random` seeded with ``seed``, seeded only when first used."""
    return cast(random.Random, _LazyRandom(seed))


def inject_all(
    judgments: Iterable[Judgment], *, errors: Sequence[str] = ALL_ERRORS,
    profile: StatuteProfile, seed: int = 0, corpus: Sequence[Judgment] | None = None,
) -> tuple[list[InjectedJudgment], list[InjectionSkip]]:
    """Every (judgment, error type) injection; each gets its own
    ``random.Random(f"{seed}:{judgment.id}:{etype}")`` so results do not depend on order
    (seeded lazily: :func:`lazy_random`)."""
    ctx = InjectionContext(profile=profile, corpus=corpus)
    table = injectors(seed)
    unknown = [e for e in errors if e not in table]
    if unknown:
        raise ValueError(f"unknown error types: {unknown}")
    done: list[InjectedJudgment] = []
    skipped: list[InjectionSkip] = []
    for judgment in judgments:
        for etype in errors:
            rng = lazy_random(f"{seed}:{judgment.id}:{etype}")
            result = table[etype].inject(judgment, rng, ctx)
            (done if isinstance(result, InjectedJudgment) else skipped).append(result)  # type: ignore[arg-type]
    return done, skipped


# --------------------------------------------------------------------------- shared helpers
def pick_months(rng: random.Random, lo: int, hi: int, *, like: int | None = None,
                avoid: Iterable[int] = ()) -> int | None:
    """A term in [lo, hi] (lo ≥ 1), not in ``avoid``; whole half-years preferred when ``like``
    is one. None when the interval is empty."""
    banned = set(avoid)
    values = [v for v in range(max(1, lo), hi + 1) if v not in banned]
    if not values:
        return None
    if like is not None and like % 6 == 0:
        round_values = [v for v in values if v % 6 == 0]
        values = round_values or values
    return rng.choice(values)


def single_charge(judgment: Judgment) -> str:
    """The judgment's only charge (skip: ``no_charge`` / ``multi_charge``)."""
    charges = tuple(dict.fromkeys(judgment.charges))
    if not charges:
        raise SkipInjection("no_charge", "no charge found in the judgment part")
    if len(charges) > 1:
        raise SkipInjection("multi_charge", f"{len(charges)} charges: the sentence is combined")
    return charges[0]


def custodial_term(judgment: Judgment) -> int:
    """The term in months of a custodial sentence with a term span (skip: ``no_term``)."""
    s = judgment.sentence
    if s.kind not in ("有期徒刑", "拘役", "管制") or s.months is None or s.term_span is None:
        raise SkipInjection("no_term", f"sentence {s.kind} has no term to change")
    return s.months


def term_edit(judgment: Judgment, months: int) -> SpanEdit:
    span = judgment.sentence.term_span
    assert span is not None
    return SpanEdit(start=span.start, end=span.end, old=span.text,
                    new=format_months_cn(months, span.text))


def fine_edit(judgment: Judgment, yuan: int) -> SpanEdit:
    span = judgment.sentence.fine_span
    assert span is not None
    return SpanEdit(start=span.start, end=span.end, old=span.text, new=format_yuan_cn(yuan, span.text))


def fine_outside(rng: random.Random, lo: float | None, hi: float | None) -> tuple[int, str]:
    """A round fine strictly outside [lo, hi] (either bound may be open) and the side."""
    sides = []
    if hi is not None:
        sides.append("above")
    if lo is not None and nice_amount(lo * 0.8, up=False) >= 1:
        sides.append("below")
    if not sides:
        raise SkipInjection("no_fine_range", "the fine rule states no bound")
    side = rng.choice(sides)
    if side == "above":
        assert hi is not None
        value = nice_amount(hi * rng.uniform(1.2, 3.0), up=True)
        while value <= hi:
            value = nice_amount(value * 1.1 + 1, up=True)
    else:
        assert lo is not None
        value = nice_amount(lo * rng.uniform(0.1, 0.8), up=False)
        while value >= lo and value > 1:
            value = nice_amount(value * 0.9, up=False)
        if value < 1 or value >= lo:
            raise SkipInjection("no_fine_range", "no positive amount below the minimum")
    return value, side
