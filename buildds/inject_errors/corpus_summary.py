"""What the injectors need of a whole corpus, kept as small per-key summaries so that a
sharded build (:mod:`buildds.jobs.judgments_sharded`) injects each shard with no other
judgment in memory, and injects exactly as a whole-corpus run does:

- the corpus priors of :mod:`.corpus_prior` — terms per sentence kind, fines, single-charge
  counts — as counters (bounded by the values courts write, not by the corpus);
- E1's charge plan (:mod:`.charge_balance`): the single-charge judgments' ranks per plan
  class while the corpus is read (8 bytes a judgment, :class:`~.charge_balance.PlanMembers`),
  turned into the plan — a few numbers per class — by :meth:`CorpusSummary.settle` once the
  donors are known, so the shards receive the plan, not the judgments;
- the E1 donors (:mod:`.e1_erroneous_charge`): the single-charge judgments with a term, at
  most :data:`DONORS_PER_GROUP` per (charge, term, sentencing-factor key), chosen by a
  seeded hash of their id (never by order). Below the cap the donor pool is the corpus's,
  so the output equals a whole-corpus run; above it (a corpus of thousands of judgments of
  one charge, term and factors) the pool stops growing and E1 picks among the kept ones.

:meth:`CorpusSummary.context` gives the
:class:`~buildds.inject_errors.base.InjectionContext` with those indexes set (its
``corpus`` a stand-in that yields one stub per single-charge judgment with its charge, for
the priors' charge counts; the E1 plan set). The summary is written and read as JSON (:meth:`to_json`, :meth:`from_json`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

from buildds.inject_errors.base import InjectionContext
from buildds.inject_errors.charge_balance import ChargePlan, PlanMembers, factor_key
from buildds.safeio.hashing import sha256_bytes
from buildds.schema.judgments import Judgment
from buildds.schema.statutes import StatuteProfile

__all__ = ["DONORS_PER_GROUP", "CorpusSummary", "donor_group", "slim_donor"]

#: E1 donors kept per (charge, term, factor key): the largest group of the real corpora
#: (JuDGE + LeCaRD + Caseformer: 662 donors in 584 groups, at most 5 in one)
DONORS_PER_GROUP = 5


def donor_group(judgment: Judgment) -> tuple[str, int, str]:
    """(charge, term in months, factor key) of a single-charge judgment with a term: the
    factor kinds and 缓刑, as E1 matches donors (:func:`~.charge_balance.factor_key`)."""
    return judgment.charges[0], judgment.sentence.months or 0, "|".join(factor_key(judgment))


def slim_donor(j: Judgment) -> Judgment:
    """A donor as E1 reads it: without the facts and the judgment part (E1 takes a donor's
    reasoning, defendant, sentence, factors and cited articles, never those), so a kept
    donor costs about its full text."""
    return j.model_copy(update={"facts": "", "facts_span": None, "judgment": "",
                                "judgment_span": None})


@dataclass
class CorpusSummary:
    """Counts and capped donors of a corpus (see the module docstring)."""

    seed: int = 0
    #: (sentence kind, single charge or None for all) → term months counted
    terms: dict[tuple[str, str | None], Counter[int]] = field(default_factory=dict)
    fines: Counter[int] = field(default_factory=Counter)
    single_charges: Counter[str] = field(default_factory=Counter)
    #: group → [(rank hash, judgment)], at most DONORS_PER_GROUP, smallest ranks kept
    donors: dict[tuple[str, int, str], list[tuple[str, Judgment]]] = field(default_factory=dict)
    judgments: int = 0
    #: donors left out by the cap (0: the pool is the corpus's, as a whole-corpus run has it)
    donors_dropped: int = 0
    #: the single-charge judgments' ranks per E1 plan class, until :meth:`settle`
    e1_members: PlanMembers | None = None
    #: E1's charge plan (:meth:`settle`)
    e1_plan: ChargePlan | None = None

    def __post_init__(self) -> None:
        if self.e1_members is None and self.e1_plan is None:
            self.e1_members = PlanMembers(self.seed)

    def add(self, j: Judgment) -> None:
        """Count one judgment of the corpus (in any order: the result does not depend on it)."""
        self.judgments += 1
        if j.sentence.months is not None:  # keyed as corpus_prior.term_prior reads them
            self.terms.setdefault((j.sentence.kind, None), Counter())[j.sentence.months] += 1
            if len(set(j.charges)) == 1:
                key = (j.sentence.kind, j.charges[0])
                self.terms.setdefault(key, Counter())[j.sentence.months] += 1
        if j.sentence.fine_yuan:
            self.fines[j.sentence.fine_yuan] += 1
        if len(set(j.charges)) == 1:
            self.single_charges[j.charges[0]] += 1
            self._members().add(j)
        if len(j.charges) == 1 and j.sentence.months is not None:
            self._add_donor(sha256_bytes(f"{self.seed}:donor:{j.id}".encode()), slim_donor(j))

    def _add_donor(self, rank: str, j: Judgment) -> None:
        kept = self.donors.setdefault(donor_group(j), [])
        kept.append((rank, j))
        if len(kept) > DONORS_PER_GROUP:
            kept.sort(key=lambda x: (x[0], x[1].id))
            self.donors_dropped += len(kept) - DONORS_PER_GROUP
            del kept[DONORS_PER_GROUP:]

    def merge(self, other: CorpusSummary) -> None:
        """Add ``other``'s counts and donors (an input read in full joins the run's)."""
        self.judgments += other.judgments
        self.donors_dropped += other.donors_dropped
        for kind, counts in other.terms.items():
            self.terms.setdefault(kind, Counter()).update(counts)
        self.fines.update(other.fines)
        self.single_charges.update(other.single_charges)
        self._members().merge(other._members())
        for group in other.donors.values():
            for rank, j in group:
                self._add_donor(rank, j)

    def _members(self) -> PlanMembers:
        if self.e1_members is None:
            raise ValueError("the corpus summary is settled: no judgment can be added")
        return self.e1_members

    def settle(self, profile: StatuteProfile) -> None:
        """Make E1's charge plan from the members and the donors (the corpus is read in full),
        and drop the members."""
        from buildds.inject_errors.charge_balance import build_plan
        from buildds.inject_errors.e1_erroneous_charge import ErroneousCharge

        if self.e1_plan is None:
            ctx = self.context(profile)
            self.e1_plan = build_plan(self._members(), *ErroneousCharge(self.seed).plan_rules(ctx))
            self.e1_members = None

    def context(self, profile: StatuteProfile) -> InjectionContext:
        """The injection context of the summarised corpus (see the module docstring)."""
        ctx = InjectionContext(profile=profile,  # a stand-in: iterated, never indexed
                               corpus=cast(Any, _SingleChargeStubs(self.single_charges)))
        if self.e1_plan is not None:
            ctx._memo[("e1_balance", self.e1_plan.seed)] = self.e1_plan
        ctx._memo[("prior", "terms")] = {k: Counter(v) for k, v in self.terms.items()}
        ctx._memo[("prior", "fines")] = Counter(self.fines)
        by_charge: dict[str, list[Judgment]] = {}
        for (charge, _, _), group in sorted(self.donors.items()):
            by_charge.setdefault(charge, []).extend(j for _, j in group)
        ctx._by_charge = by_charge
        return ctx

    # ----------------------------------------------------------------- JSON
    def to_json(self) -> str:
        """The settled summary as JSON (:meth:`settle` first)."""
        if self.e1_plan is None:
            raise ValueError("settle the corpus summary before writing it")
        return json.dumps({
            "seed": self.seed, "judgments": self.judgments,
            "terms": [[kind, charge, _pairs(v)] for (kind, charge), v
                      in sorted(self.terms.items(), key=lambda kv: (kv[0][0], kv[0][1] or ""))],
            "fines": _pairs(self.fines), "single_charges": dict(sorted(self.single_charges.items())),
            "e1_plan": self.e1_plan.to_json(),
            "donors": [[rank, j.model_dump(mode="json")] for _, group in sorted(self.donors.items())
                       for rank, j in sorted(group, key=lambda x: (x[0], x[1].id))],
        }, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> CorpusSummary:
        data = json.loads(text)
        out = cls(seed=data["seed"], judgments=data["judgments"],
                  terms={(kind, charge): Counter({int(m): n for m, n in v})
                         for kind, charge, v in data["terms"]},
                  fines=Counter({int(m): n for m, n in data["fines"]}),
                  single_charges=Counter(data["single_charges"]),
                  e1_plan=ChargePlan.from_json(data["e1_plan"]))
        for rank, raw in data["donors"]:
            out._add_donor(rank, Judgment.model_validate(raw))
        return out


def _pairs(counts: Counter[int]) -> list[list[int]]:
    return [[k, n] for k, n in sorted(counts.items())]


class _SingleChargeStubs:
    """``ctx.corpus`` of a summary: a stub with its charge per single-charge judgment (what
    the priors' charge counts read); the E1 plan, the other priors and the donors are set on
    the context already. In charge order: nothing reads it in any other order."""

    def __init__(self, counts: Counter[str]) -> None:
        self._counts = counts

    def __iter__(self) -> Iterator[Any]:
        for charge, n in sorted(self._counts.items()):
            stub = SimpleNamespace(charges=(charge,))
            for _ in range(n):
                yield stub

    def __len__(self) -> int:
        return sum(self._counts.values())

    def __getitem__(self, i: int) -> Any:
        raise TypeError("a summarised corpus is only iterated")
