"""E1's target charges, balanced so the injected charge names are no cue (issue 13).

The LegalAttack table is one-sided (盗窃 lists 抢夺, 诈骗 …; few list 盗窃), so drawing a
confusable charge per judgment gives E1 rows whose charge names follow another distribution
than the charges of untouched judgments — a text classifier learns "this charge name is
rare in real judgments". Here the E1 injections of a corpus are planned together:

* the table is used **both ways** (confusion is mutual: when A lists B, a judgment of B may
  become A), between charges the profile knows;
* a **circulation** is found at the level of judgments: each single-charge judgment of the
  corpus may become one of its charge's confusable charges (one whose tiers allow its term,
  unless a similar case will replace the sentence: :func:`sentence_fits`), each is used at
  most once, and every charge is left by as many judgments as arrive at it — so as many E1
  rows carry a charge as the injected name as carry it as the original, and hence as among
  their untouched rows; the largest such circulation; the judgments it does not use are
  skipped (``charge_unbalanced``: 盗窃 has more judgments than its confusable charges can
  take in);
* the circulation is solved on **classes**, not judgments (:func:`circulation`): judgments of
  one charge with the same sentence kind, term, 缓刑 and factor kinds (:func:`plan_key`) may
  become the same charges, so the linear programme has one node per (charge, charges it may
  become) whatever the corpus's size; each class's flow is then handed to its judgments in
  the order of a seeded hash of their ids (:class:`ChargePlan`). A corpus is summarised for
  the plan by 8 bytes a judgment (:class:`PlanMembers`) and the plan itself is a few numbers
  per class, so a sharded build (:mod:`buildds.inject_errors.corpus_summary`) gives every
  shard the plan, not the corpus;
* a charge none of whose confusable charges has a judgment in the corpus has nothing to
  balance with: its judgments draw a confusable charge as without a corpus (a small corpus of
  one charge still gets E1 rows; on a large one these rows are few).

The paper (AR-Bench A.3) says only that the charge becomes an easily confused one; how many
judgments of each charge are used and which confusable charge each gets is this choice,
written in the dataset card.
"""

from __future__ import annotations

import hashlib
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from buildds.inject_errors.base import InjectionContext, SkipInjection
from buildds.inject_errors.tiers import charge_profile, kind_range
from buildds.schema.judgments import Judgment
from buildds.schema.statutes import StatuteProfile

__all__ = ["ChargePlan", "PlanClass", "PlanKey", "PlanMembers", "build_plan", "circulation",
           "factor_key", "fits", "mutual_edges", "plan_key", "plan_rank", "planned_target",
           "sentence_fits"]


def mutual_edges(charges: Sequence[str], targets: Callable[[str], list[str]]
                 ) -> dict[str, list[str]]:
    """charge → the charges it may become, the table's entries used both ways, only among
    ``charges`` (those with judgments): a charge no judgment carries cannot balance."""
    have = set(charges)
    out: dict[str, set[str]] = {c: set() for c in charges}
    for c in charges:
        for t in targets(c):
            if t in have and t != c:
                out[c].add(t)
                out[t].add(c)
    return {c: sorted(ts) for c, ts in sorted(out.items()) if ts}


#: a class of the plan: (charge, sentence kind, term months, factor key)
PlanKey = tuple[str, str, int | None, tuple[str, ...]]
#: the circulation's unit: (charge, the charges its judgments may become)
PlanClass = tuple[str, tuple[str, ...]]


def factor_key(judgment: Any) -> tuple[str, ...]:
    """The sentencing factors E1 matches a judgment and its donor on: the factor kinds, plus
    缓刑 (a suspended sentence shapes the reasoning as much as a factor does), sorted."""
    kinds = {str(f.kind) for f in judgment.factors}
    if judgment.sentence.probation_months:
        kinds.add("缓刑")
    return tuple(sorted(kinds))


def plan_key(judgment: Any) -> PlanKey:
    """What decides where a single-charge judgment may go: its charge, and what
    :func:`sentence_fits` and E1's similar-donor test read (kind, term, :func:`factor_key`)."""
    s = judgment.sentence
    return judgment.charges[0], s.kind, s.months, factor_key(judgment)


def plan_rank(seed: int, judgment_id: str) -> int:
    """A judgment's place in its class (the first 64 bits of a seeded hash of its id): the
    plan uses judgments in this order, so which ones does not depend on the input order."""
    return int.from_bytes(hashlib.sha256(f"{seed}:e1:{judgment_id}".encode()).digest()[:8], "big")


class PlanMembers:
    """The single-charge judgments of a corpus as the plan needs them: their ranks per
    :func:`plan_key` (8 bytes a judgment, in an ``array``)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.ranks: dict[PlanKey, array[int]] = {}

    @classmethod
    def of(cls, corpus: Iterable[Any], seed: int) -> PlanMembers:
        out = cls(seed)
        for j in corpus:
            out.add(j)
        return out

    def add(self, judgment: Any) -> None:
        if len(set(judgment.charges)) == 1:
            self.ranks.setdefault(plan_key(judgment), array("Q")).append(
                plan_rank(self.seed, judgment.id))

    def merge(self, other: PlanMembers) -> None:
        for key, ranks in other.ranks.items():
            self.ranks.setdefault(key, array("Q")).extend(ranks)


def circulation(classes: Mapping[PlanClass, int], seed: int) -> dict[PlanClass, dict[str, int]]:
    """class → {target charge: judgments sent there}, from ``classes``: class → its number of
    judgments. The largest flow in which each class sends at most its judgments, only to its
    own targets, and every charge is left by as many judgments as arrive at it. A linear
    programme (HiGHS dual simplex, so a vertex) whose matrix is a network's once the
    capacity slacks are counted, hence integral; the classes are ordered by a hash of the
    seed, so which of equally good classes are used may change with the seed."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    order = sorted(classes, key=lambda c: (hashlib.sha256(f"{seed}:e1:{c}".encode()).hexdigest(), c))
    arcs = [(c, b) for c in order if classes[c] > 0 for b in c[1]]
    out: dict[PlanClass, dict[str, int]] = {c: {} for c in order}
    if not arcs:
        return out
    charges = sorted({c[0] for c, _ in arcs} | {b for _, b in arcs})
    at, row = {c: i for i, c in enumerate(charges)}, {c: i for i, c in enumerate(order)}
    cols = range(len(arcs))
    cap = coo_matrix(([1.0] * len(arcs), ([row[c] for c, _ in arcs], cols)),
                     shape=(len(order), len(arcs)))
    balance = coo_matrix(([1.0] * len(arcs) + [-1.0] * len(arcs),
                          ([at[c[0]] for c, _ in arcs] + [at[b] for _, b in arcs], [*cols, *cols])),
                         shape=(len(charges), len(arcs)))
    found = linprog(-np.ones(len(arcs)), A_ub=cap.tocsr(),
                    b_ub=np.array([float(classes[c]) for c in order]),
                    A_eq=balance.tocsr(), b_eq=np.zeros(len(charges)), bounds=(0, None),
                    method="highs-ds")
    if not found.success:  # pragma: no cover - the zero flow is always feasible
        return out
    net: Counter[str] = Counter()
    for (c, b), x in zip(arcs, found.x, strict=True):
        if (n := round(x)) > 0:
            out[c][b] = n
            net[c[0]] += n
            net[b] -= n
    assert not any(net.values()), "the circulation is not balanced"
    return out


@dataclass
class ChargePlan:
    """The corpus's E1 plan: for each :func:`plan_key` its class, and for each class its
    targets with the rank of the last judgment that goes to each (judgments in rank order:
    the first ``n₁`` to the first target, the next ``n₂`` to the second …; the rest left over).
    Exact unless two judgments of a class share the 64 bits of :func:`plan_rank` at a
    boundary (both then go to the first of the two targets: a chance near n²/2⁶⁵)."""

    seed: int
    key_class: dict[PlanKey, int] = field(default_factory=dict)
    bounds: list[list[tuple[int, str]]] = field(default_factory=list)

    def target(self, judgment: Any) -> str | None:
        """The judgment's planned target; skip ``charge_unbalanced`` when left over; None
        when the plan has nothing for it (see :func:`planned_target`)."""
        if len(set(judgment.charges)) != 1:
            return None
        klass = self.key_class.get(plan_key(judgment))  # none: no confusable charge with
        if klass is None:  # a judgment in the corpus, or not one of the corpus's judgments
            return None
        rank = plan_rank(self.seed, judgment.id)
        for bound, target in self.bounds[klass]:
            if rank <= bound:
                return target
        raise SkipInjection("charge_unbalanced", f"{judgment.charges[0]}: its confusable charges cannot take "
                            "in more judgments without making the injected names a cue")

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed,
                "classes": [[list(k), i] for k, i in sorted(self.key_class.items(), key=_key_order)],
                "bounds": [[[str(b), t] for b, t in cls] for cls in self.bounds]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ChargePlan:
        return cls(seed=data["seed"],
                   key_class={(k[0], k[1], k[2], tuple(k[3])): i for k, i in data["classes"]},
                   bounds=[[(int(b), t) for b, t in cls] for cls in data["bounds"]])


def _key_order(item: tuple[PlanKey, Any]) -> tuple[Any, ...]:
    c, kind, months, factors = item[0]
    return (c, kind, months is None, months or 0, factors)


def build_plan(members: PlanMembers, targets: Callable[[str], list[str]],
               allowed: Callable[[Any, str], bool]) -> ChargePlan:
    """The plan of a corpus summarised as ``members`` (``targets``: a charge's confusable
    names from the table; ``allowed``: whether a judgment — here a stand-in with what
    :func:`plan_key` holds — may become a charge)."""
    import numpy as np

    edges = mutual_edges(sorted({k[0] for k in members.ranks}), targets)
    groups: dict[PlanClass, list[PlanKey]] = {}
    for key, _ in sorted(members.ranks.items(), key=_key_order):
        if key[0] in edges:
            stand_in = _stand_in(key)
            groups.setdefault((key[0], tuple(t for t in edges[key[0]] if allowed(stand_in, t))),
                              []).append(key)
    flows = circulation({c: sum(len(members.ranks[k]) for k in keys)
                         for c, keys in groups.items()}, members.seed)
    plan = ChargePlan(seed=members.seed)
    for klass, keys in sorted(groups.items()):
        ranks = np.sort(np.concatenate([np.frombuffer(members.ranks[k], dtype=np.uint64)
                                        for k in keys]))
        bounds, used = [], 0
        for target, n in sorted(flows[klass].items()):
            used += n
            bounds.append((int(ranks[used - 1]), target))
        for key in keys:
            plan.key_class[key] = len(plan.bounds)
        plan.bounds.append(bounds)
    return plan


def _stand_in(key: PlanKey) -> SimpleNamespace:
    """A judgment as :func:`sentence_fits` and E1's donor test read it, from its plan key
    (缓刑 among the factor kinds gives the same :func:`factor_key`)."""
    charge, kind, months, factors = key
    return SimpleNamespace(id="", charges=(charge,), factors=[SimpleNamespace(kind=k) for k in factors],
                           sentence=SimpleNamespace(kind=kind, months=months, probation_months=None))


def planned_target(ctx: InjectionContext, judgment: Judgment, seed: int,
                   targets: Callable[[str], list[str]],
                   allowed: Callable[[Any, str], bool] = lambda j, t: True) -> str | None:
    """The target charge the corpus plan gives this judgment (``targets``: a charge's
    confusable names from the table, [] when none; ``allowed``: whether a judgment may become
    a charge — E1 passes :func:`sentence_fits` unless a similar case will replace the
    sentence); skip ``charge_unbalanced`` when the plan leaves it over. None — nothing
    planned, the caller draws a confusable charge as without a corpus — when the judgment is
    not one of the corpus's single-charge judgments, or when no charge confusable with its own
    (either way) has a judgment in the corpus: there is nothing to balance with, and a small
    corpus of one charge should still get E1 rows (the dataset card names this case). The
    plan is built once per context (a summarised corpus brings it along)."""
    plan: ChargePlan = ctx.memo(("e1_balance", seed), lambda: build_plan(
        PlanMembers.of(ctx.corpus or (), seed), targets, allowed))
    return plan.target(judgment)


def fits(judgment: Judgment, target: str, profile: StatuteProfile) -> bool:
    """:func:`sentence_fits` as a yes/no."""
    try:
        sentence_fits(judgment, target, profile)
    except SkipInjection:
        return False
    return True


def sentence_fits(judgment: Judgment, target: str, profile: StatuteProfile) -> None:
    """Skip (``sentence_outside_target``) an E1 that would keep the judgment's custodial term
    under a charge none of whose tiers allows that kind and term (交通肇事's 有期徒刑 under
    危险驾驶, 拘役 only): only the name would change, and the impossible sentence — a surface
    cue the numeric detector read — would be a second error the row is not labelled with. A
    charge the profile has no tiers for, or a sentence without a term, passes."""
    s = judgment.sentence
    if s.kind not in ("有期徒刑", "拘役", "管制") or s.months is None:
        return
    try:
        tiers = charge_profile(profile, target).tiers
    except SkipInjection:
        return
    ranges = [r for t in tiers if (r := kind_range(t, s.kind)) is not None]
    if not tiers or any(r.min_months is not None and r.max_months is not None
                        and r.min_months <= s.months <= r.max_months for r in ranges):
        return
    raise SkipInjection("sentence_outside_target", f"no tier of {target} allows {s.kind} of "
                        f"{s.months} months: the old sentence would show the new charge wrong")
