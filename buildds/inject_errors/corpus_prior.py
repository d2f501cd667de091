"""Draws matched to the corpus: injected values that look like the values courts write.

The shortcut audit (:mod:`buildds.validate.shortcut_classifier`) showed that a text-only
classifier found injected rows by *where their values fall*, not by any legal reasoning: E1
targets that are rare as real charges (侮辱罪, 交通肇事罪), E3/E4 terms courts seldom write,
fines of another distribution. So among the values an injection may take (the range its error
type allows — never widened here), the draw prefers values by how often real judgments of the
same corpus carry them:

- :func:`term_prior` — terms in months per sentence kind (有期徒刑 / 拘役 / 管制);
- :func:`fine_prior` — fines in yuan;
- :func:`charge_weights` — E1 target weights balanced (a few Sinkhorn-style rounds) so the
  charges of the E1 rows, taken together, follow the charges of the corpus's single-charge
  judgments as closely as the confusable table allows.

Each prior is built once per :class:`~buildds.inject_errors.base.InjectionContext` from its
corpus (``ctx.memo``), is deterministic (counts, sorted keys), and is ``None`` without a
corpus (the draws then fall back to their corpus-free weights).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping

from buildds.inject_errors.base import InjectionContext, SkipInjection

__all__ = ["BALANCE_ROUNDS", "charge_weights", "fine_prior", "prior_weight", "term_prior"]

#: rounds of the E1 target balancing (the weights settle well before)
BALANCE_ROUNDS = 25


def term_prior(ctx: InjectionContext | None, kind: str, charge: str | None = None
               ) -> Mapping[int, int] | None:
    """How many corpus judgments carry each term (months) of sentence ``kind`` — of
    single-charge judgments of ``charge`` only, when it is given."""
    if ctx is None or ctx.corpus is None:
        return None

    def build() -> dict[tuple[str, str | None], Counter[int]]:
        out: dict[tuple[str, str | None], Counter[int]] = {}
        for j in ctx.corpus or ():
            if j.sentence.months is not None:
                out.setdefault((j.sentence.kind, None), Counter())[j.sentence.months] += 1
                if len(set(j.charges)) == 1:
                    key = (j.sentence.kind, j.charges[0])
                    out.setdefault(key, Counter())[j.sentence.months] += 1
        return out

    table: dict[tuple[str, str | None], Counter[int]] = ctx.memo(("prior", "terms"), build)
    return table.get((kind, charge), Counter())


def fine_prior(ctx: InjectionContext | None) -> Mapping[int, int] | None:
    """How many corpus judgments carry each fine (yuan)."""
    if ctx is None or ctx.corpus is None:
        return None

    def build() -> Counter[int]:
        return Counter(j.sentence.fine_yuan for j in ctx.corpus or () if j.sentence.fine_yuan)

    fines: Counter[int] = ctx.memo(("prior", "fines"), build)
    return fines


def prior_weight(prior: Mapping[int, int] | None, value: int, base: float) -> float:
    """The draw weight of ``value``: its corpus count, plus the corpus-free ``base`` weight
    scaled down so a value no judgment carries stays possible (the range is never narrowed)."""
    if prior is None:
        return base
    return prior.get(value, 0) + 0.25 * base


def charge_weights(ctx: InjectionContext, groups: Callable[[str], list[list[str]]]
                   ) -> Mapping[str, float]:
    """Per target charge, the weight E1 multiplies its table share by (a group drawn
    uniformly, a name uniformly in it), chosen so that the expected charges of the E1 rows
    follow the corpus's single-charge counts: each round scales a charge's weight by
    (corpus count) / (expected E1 rows with that charge). Charges the table cannot reach keep
    weight 1; an empty corpus gives no weights (every weight 1)."""

    def build() -> dict[str, float]:
        sources: Counter[str] = Counter(j.charges[0] for j in ctx.corpus or ()
                                        if len(set(j.charges)) == 1)
        options: dict[str, dict[str, float]] = {}
        for charge in sorted(sources):
            try:
                found = groups(charge)
            except SkipInjection:
                continue
            share: dict[str, float] = {}
            for g in found:
                for name in g:
                    share[name] = share.get(name, 0.0) + 1.0 / len(found) / len(g)
            options[charge] = share
        weight = {t: 1.0 for share in options.values() for t in share}
        total = sum(sources[s] for s in options)
        for _ in range(BALANCE_ROUNDS):
            demand = dict.fromkeys(weight, 0.0)
            for s, share in options.items():
                norm = sum(p * weight[t] for t, p in share.items())
                for t, p in share.items():
                    demand[t] += sources[s] * p * weight[t] / norm
            for t in sorted(weight):  # the corpus share each target should reach (0.5 floor)
                want = max(sources.get(t, 0), 0.5) / sum(sources.values()) * total
                weight[t] *= want / max(demand[t], 1e-9)
            # only ratios matter: centre on the geometric mean; bound them far out (a target the
            # table cannot feed enough would otherwise grow without end)
            centre = sum(math.log(w) for w in weight.values()) / max(len(weight), 1)
            weight = {t: math.exp(min(max(math.log(w) - centre, -40.0), 40.0))
                      for t, w in weight.items()}
        return weight

    weights: dict[str, float] = ctx.memo(("prior", "e1_targets"), build)
    return weights
