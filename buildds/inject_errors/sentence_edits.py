"""Helpers the injectors share: the judgment's one charge and custodial term, a new term or
fine drawn at random, and the span edits that write it into the text.

Each raises :class:`~buildds.inject_errors.base.SkipInjection` with a reason code when the
judgment does not allow it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping

from buildds.inject_errors.base import SkipInjection
from buildds.inject_errors.cn_format import format_months_cn, format_yuan_cn, nice_amount
from buildds.inject_errors.corpus_prior import prior_weight
from buildds.schema.judgments import Judgment, SpanEdit

__all__ = ["FINE_REACH", "custodial_term", "fine_edit", "fine_outside", "pick_months", "single_charge",
           "term_edit"]


def pick_months(rng: random.Random, lo: int, hi: int, *, like: int | None = None,
                avoid: Iterable[int] = (), allowed: Callable[[int], bool] | None = None,
                prior: Mapping[int, int] | None = None) -> int | None:
    """A term in [lo, hi] (lo ≥ 1), not in ``avoid`` and ``allowed`` (when given); only whole
    half-years when ``like`` is one, and whole (half) years weighted up as real terms are —
    or, with a corpus ``prior`` (:func:`~buildds.inject_errors.corpus_prior.term_prior`), by
    how often the corpus's judgments carry each term. None when no term is left."""
    banned = set(avoid)
    values = [v for v in range(max(1, lo), hi + 1)
              if v not in banned and (allowed is None or allowed(v))]
    if not values:
        return None
    if like is not None and like % 6 == 0:
        round_values = [v for v in values if v % 6 == 0]
        values = round_values or values
    # terms of a year or more are mostly whole or half years in real judgments (JuDGE: 56% whole
    # years, 23% half years): weight them so, or the odd terms would mark the injected ones
    weights = [prior_weight(prior, v, 3 if v >= 12 and v % 12 == 0 else 2 if v >= 12 and v % 6 == 0
                            else 1) for v in values]
    return rng.choices(values, weights)[0]


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


#: how far outside the range a new fine lies, (above: × the maximum, below: × the minimum):
#: the default, and ``near`` (E6: a proportional fine far above the base's multiple is a
#: fine no court writes for that amount, so the nearest values outside are used)
FINE_REACH = {False: ((1.2, 3.0), (0.1, 0.8)), True: ((1.05, 1.5), (0.67, 0.95))}


def fine_outside(rng: random.Random, lo: float | None, hi: float | None,
                 prior: Mapping[int, int] | None = None, *, near: bool = False
                 ) -> tuple[int, str]:
    """A round fine strictly outside [lo, hi] (either bound may be open) and the side: above,
    1.2–3 × the maximum; below, 0.1–0.8 × the minimum (``near``: 1.05–1.5 × / 0.67–0.95 ×,
    :data:`FINE_REACH`). With a corpus ``prior``
    (:func:`~buildds.inject_errors.corpus_prior.fine_prior`), the fines the corpus carries in
    that window are drawn by their counts beside the round value (weight 1), so injected
    fines look like the fines courts write."""
    (up_lo, up_hi), (down_lo, down_hi) = FINE_REACH[near]
    sides = []
    if hi is not None:
        sides.append("above")
    if lo is not None and nice_amount(lo * down_hi, up=False) >= 1:
        sides.append("below")
    if not sides:
        raise SkipInjection("no_fine_range", "the fine rule states no bound")
    side = rng.choice(sides)
    if side == "above":
        assert hi is not None
        value = nice_amount(hi * rng.uniform(up_lo, up_hi), up=True)
        while value <= hi:
            value = nice_amount(value * 1.1 + 1, up=True)
        window = (hi, hi * up_hi)
    else:
        assert lo is not None
        value = nice_amount(lo * rng.uniform(down_lo, down_hi), up=False)
        while value >= lo and value > 1:
            value = nice_amount(value * 0.9, up=False)
        if value < 1 or value >= lo:
            raise SkipInjection("no_fine_range", "no positive amount below the minimum")
        window = (lo * down_lo, lo)
    seen = sorted(v for v in (prior or {}) if window[0] < v < window[1] and v != value and v >= 1)
    if seen:
        assert prior is not None
        value = rng.choices([*seen, value], [*(prior[v] for v in seen), 1])[0]
    return value, side
