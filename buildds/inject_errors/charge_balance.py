"""E1's target charges, balanced so the injected charge names are no cue (issue 13).

The LegalAttack table is one-sided (盗窃 lists 抢夺, 诈骗 …; few list 盗窃), so drawing a
confusable charge per judgment gives E1 rows whose charge names follow another distribution
than the charges of untouched judgments — a text classifier learns "this charge name is
rare in real judgments". Here the E1 injections of a corpus are planned together:

* the table is used **both ways** (confusion is mutual: when A lists B, a judgment of B may
  become A), between charges the profile knows;
* a **circulation** is found on that graph: f(a→b) judgments of charge a become b, with
  Σ_b f(a→b) = Σ_b f(b→a) for every charge (as many E1 rows carry a charge as the injected
  name as carry it as the original) and at most the corpus's single-charge judgments of a
  leaving a; the largest such circulation (a linear programme whose optimum is integral: a
  network with node capacities) — so every charge's share among the injected names equals its
  share among the originals of the E1 rows, and hence among their untouched rows;
* each charge's judgments, in an order seeded by their ids, take the targets in name order,
  f(a→b) each; the judgments left over are skipped (``charge_unbalanced``: a charge the table
  cannot balance — 盗窃 has more judgments than its confusable charges can take in);
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

__all__ = ["assign_targets", "circulation", "mutual_edges", "planned_target", "sentence_fits"]


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


def circulation(supply: Mapping[str, int], edges: Mapping[str, Sequence[str]]
                ) -> dict[tuple[str, str], int]:
    """The largest integral circulation: flow f(a, b) ≥ 0 on the edges, outflow = inflow at
    every charge, outflow ≤ ``supply``. A linear programme (HiGHS, deterministic) whose
    constraint matrix is a network's (node capacities split into arcs), so its optimal vertex
    is integral; rounded, then checked."""
    import numpy as np
    from scipy.optimize import linprog

    arcs = [(a, b) for a in sorted(edges) for b in edges[a]]
    if not arcs:
        return {}
    nodes = sorted({a for a, _ in arcs} | {b for _, b in arcs})
    at = {n: i for i, n in enumerate(nodes)}
    balance = np.zeros((len(nodes), len(arcs)))
    capacity = np.zeros((len(nodes), len(arcs)))
    for k, (a, b) in enumerate(arcs):
        balance[at[a], k] += 1
        balance[at[b], k] -= 1
        capacity[at[a], k] = 1
    found = linprog(-np.ones(len(arcs)), A_ub=capacity,
                    b_ub=[supply.get(n, 0) for n in nodes], A_eq=balance,
                    b_eq=np.zeros(len(nodes)), bounds=(0, None), method="highs")
    if not found.success:  # pragma: no cover - the zero flow is always feasible
        return {}
    flow = {arc: int(round(x)) for arc, x in zip(arcs, found.x, strict=True) if round(x) > 0}
    net: Counter[str] = Counter()
    for (a, b), f in flow.items():
        net[a] += f
        net[b] -= f
    assert not any(net.values()), "the circulation is not balanced"
    return flow


def assign_targets(sources: Mapping[str, Sequence[str]], flow: Mapping[tuple[str, str], int],
                   seed: int) -> dict[str, str | None]:
    """judgment id → its target charge (None: left over). ``sources``: charge → the ids of
    its judgments; each charge's ids in a seeded order take the targets in name order."""
    out: dict[str, str | None] = {}
    for charge, ids in sorted(sources.items()):
        order = sorted(ids, key=lambda i: hashlib.sha256(f"{seed}:e1:{i}".encode()).hexdigest())
        slots = [t for (a, t), f in sorted(flow.items()) if a == charge for _ in range(f)]
        for k, jid in enumerate(order):
            out[jid] = slots[k] if k < len(slots) else None
    return out


def planned_target(ctx: InjectionContext, judgment_id: str, charge: str, seed: int,
                   targets: Callable[[str], list[str]]) -> str | None:
    """The target charge the corpus plan gives this judgment (``targets``: a charge's
    confusable names from the table, [] when none); skip ``charge_unbalanced`` when the plan
    leaves it over. None — nothing planned, the caller draws a confusable charge as without a
    corpus — when the judgment is not one of the corpus's single-charge judgments, or when no
    charge confusable with its own (either way) has a judgment in the corpus: there is
    nothing to balance with, and a small corpus of one charge should still get E1 rows (the
    dataset card names this case; the real build's figures include it)."""

    def build() -> tuple[dict[str, str | None], dict[str, list[str]]]:
        ids: dict[str, list[str]] = {}
        for j in ctx.corpus or ():
            if len(set(j.charges)) == 1:
                ids.setdefault(j.charges[0], []).append(j.id)
        edges = mutual_edges(sorted(ids), targets)
        flow = circulation({c: len(v) for c, v in ids.items()}, edges)
        return assign_targets({c: v for c, v in ids.items() if c in edges}, flow, seed), edges

    plan, edges = ctx.memo(("e1_balance", seed), build)
    if charge not in edges or judgment_id not in plan:
        return None
    target = plan[judgment_id]
    if target is None:
        raise SkipInjection("charge_unbalanced", f"{charge}: its confusable charges cannot take "
                            "in more judgments without making the injected names a cue")
    return target


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
