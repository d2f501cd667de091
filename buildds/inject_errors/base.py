"""The injector contract (AR-Bench, seed 003, Figure 2 / Appendix A.3).

An injector turns one :class:`~buildds.schema.judgments.Judgment` into an
:class:`~buildds.schema.judgments.InjectedJudgment` (span edits on ``full_text`` plus the gold
correction) or an :class:`~buildds.schema.judgments.InjectionSkip` with a reason code when the
error cannot be made validly — it is never forced.

- :class:`Injector` (the protocol) and :class:`BaseInjector`, which owns the common work: a
  subclass returns a :class:`Plan` (or raises :class:`SkipInjection`), the base applies the
  edits and builds the record;
- :class:`InjectionContext`: what injectors read besides the judgment;
- :func:`lazy_random`: the seeded ``random.Random`` each injection draws from.

The injectors themselves (``e1_…py`` … ``e6_…py``) and :func:`inject_all` are in
:mod:`buildds.inject_errors.registry`; this module imports none of them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, runtime_checkable

from buildds.inject_errors.edits import SpanEditError, apply_edits
from buildds.schema.judgments import (
    ERROR_CLASS,
    InjectedJudgment,
    InjectionSkip,
    Judgment,
    SpanEdit,
)
from buildds.schema.statutes import StatuteProfile

__all__ = [
    "BaseInjector",
    "InjectionContext",
    "Injector",
    "Plan",
    "SkipInjection",
    "lazy_random",
]


class SkipInjection(Exception):
    """Raised inside an injector: the injection cannot be made validly."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason)
        self.reason = reason
        self.message = message or reason


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
        try:
            anomalous = apply_edits(text, edits)
        except SpanEditError as why:  # a layout the injector did not foresee: skipped, reported
            return self.skip(judgment, "overlapping_edits", str(why))
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
                raise SpanEditError(f"edit [{e.start}, {e.end}) straddles a part border")
        delta_start = sum(len(e.new) - (e.end - e.start) for e in edits if e.end <= start and e.start < start)
        delta_end = sum(len(e.new) - (e.end - e.start) for e in edits if e.end <= end and e.start < end)
        return anomalous[start + delta_start:end + delta_end]


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
