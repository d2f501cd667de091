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
  their untouched rows; the largest such circulation (:func:`circulation`, a linear programme
  on a network: integral); the judgments it does not use are skipped (``charge_unbalanced``:
  盗窃 has more judgments than its confusable charges can take in);
* a charge none of whose confusable charges has a judgment in the corpus has nothing to
  balance with: its judgments draw a confusable charge as without a corpus (a small corpus of
  one charge still gets E1 rows; on a large one these rows are few).

The paper (AR-Bench A.3) says only that the charge becomes an easily confused one; how many
judgments of each charge are used and which confusable charge each gets is this choice,
written in the dataset card.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from buildds.inject_errors.base import InjectionContext, SkipInjection
from buildds.inject_errors.tiers import charge_profile, kind_range
from buildds.schema.judgments import Judgment
from buildds.schema.statutes import StatuteProfile

__all__ = ["circulation", "fits", "mutual_edges", "planned_target", "sentence_fits"]


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


def circulation(candidates: Mapping[str, tuple[str, Sequence[str]]], seed: int
                ) -> dict[str, str | None]:
    """judgment id → its target charge (None: left over), from ``candidates``: judgment id →
    (its charge, the charges it may become). The largest circulation at the level of
    judgments: each judgment used at most once, towards one of its own targets, and for every
    charge as many judgments leave it as arrive at it. A linear programme (HiGHS) on a network
    (charge → judgment → charge, a judgment a unit node), so its optimal vertex is integral;
    the variables are ordered by a hash of the seed and the ids, so which of equally good
    judgments are used depends on the seed, not on the input order."""
    import numpy as np
    from scipy.optimize import linprog
    from scipy.sparse import coo_matrix

    order = sorted(candidates, key=lambda i: (hashlib.sha256(f"{seed}:e1:{i}".encode())
                                              .hexdigest(), i))
    arcs = [(jid, candidates[jid][0], b) for jid in order for b in sorted(candidates[jid][1])]
    out: dict[str, str | None] = dict.fromkeys(order)
    if not arcs:
        return out
    charges = sorted({a for _, a, _ in arcs} | {b for _, _, b in arcs})
    at = {c: i for i, c in enumerate(charges)}
    row = {jid: i for i, jid in enumerate(order)}
    cols = range(len(arcs))
    once = coo_matrix(([1.0] * len(arcs), ([row[j] for j, _, _ in arcs], cols)),
                      shape=(len(order), len(arcs)))
    balance = coo_matrix(([1.0] * len(arcs) + [-1.0] * len(arcs),
                          ([at[a] for _, a, _ in arcs] + [at[b] for _, _, b in arcs],
                           [*cols, *cols])), shape=(len(charges), len(arcs)))
    found = linprog(-np.ones(len(arcs)), A_ub=once.tocsr(), b_ub=np.ones(len(order)),
                    A_eq=balance.tocsr(), b_eq=np.zeros(len(charges)), bounds=(0, 1),
                    method="highs")
    if not found.success:  # pragma: no cover - the zero flow is always feasible
        return out
    net: Counter[str] = Counter()
    for (jid, a, b), x in zip(arcs, found.x, strict=True):
        if x > 0.5:
            out[jid] = b
            net[a] += 1
            net[b] -= 1
    assert not any(net.values()), "the circulation is not balanced"
    return out


def planned_target(ctx: InjectionContext, judgment_id: str, charge: str, seed: int,
                   targets: Callable[[str], list[str]],
                   allowed: Callable[[Judgment, str], bool] = lambda j, t: True) -> str | None:
    """The target charge the corpus plan gives this judgment (``targets``: a charge's
    confusable names from the table, [] when none; ``allowed``: whether a judgment may become
    a charge — E1 passes :func:`sentence_fits` unless a similar case will replace the
    sentence); skip ``charge_unbalanced`` when the plan leaves it over. None — nothing
    planned, the caller draws a confusable charge as without a corpus — when the judgment is
    not one of the corpus's single-charge judgments, or when no charge confusable with its own
    (either way) has a judgment in the corpus: there is nothing to balance with, and a small
    corpus of one charge should still get E1 rows (the dataset card names this case)."""

    def build() -> tuple[dict[str, str | None], dict[str, list[str]]]:
        single = [j for j in ctx.corpus or () if len(set(j.charges)) == 1]
        edges = mutual_edges(sorted({j.charges[0] for j in single}), targets)
        candidates = {j.id: (j.charges[0], [t for t in edges[j.charges[0]] if allowed(j, t)])
                      for j in single if j.charges[0] in edges}
        return circulation(candidates, seed), edges

    plan, edges = ctx.memo(("e1_balance", seed), build)
    if charge not in edges or judgment_id not in plan:
        return None
    target = plan[judgment_id]
    if target is None:
        raise SkipInjection("charge_unbalanced", f"{charge}: its confusable charges cannot take "
                            "in more judgments without making the injected names a cue")
    return target


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
