"""E1's target charges planned over the corpus (buildds.inject_errors.charge_balance): the
confusable table used both ways, a balanced circulation, a seeded assignment, and the E1
injector following it (issue 13: the injected charge names follow the originals)."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import pytest

from buildds.inject_errors.base import InjectionContext
from buildds.inject_errors.base import SkipInjection
from buildds.inject_errors.charge_balance import (
    ChargePlan,
    PlanMembers,
    build_plan,
    circulation,
    mutual_edges,
    plan_rank,
)
from buildds.schema.judgments import InjectedJudgment, InjectionSkip
from tests.inject_errors.test_injectors import PROFILE, donor_case, run, theft

TABLE = {"盗窃": ["抢夺", "诈骗"], "诈骗": ["合同诈骗"], "抢夺": [], "合同诈骗": [], "抢劫": ["敲诈勒索"]}


def test_edges_are_mutual_and_only_between_charges_with_judgments() -> None:
    edges = mutual_edges(["盗窃", "诈骗", "抢夺", "抢劫"], lambda c: TABLE.get(c, []))
    assert edges == {"盗窃": ["抢夺", "诈骗"], "抢夺": ["盗窃"], "诈骗": ["盗窃"]}


def _single(jid: str, charge: str, months: int = 12, factors: tuple[str, ...] = ()) -> SimpleNamespace:
    """A single-charge judgment as the plan reads it."""
    return SimpleNamespace(id=jid, charges=(charge,), factors=[SimpleNamespace(kind=k) for k in factors],
                           sentence=SimpleNamespace(kind="有期徒刑", months=months, probation_months=None))


def _targets(c: str) -> list[str]:
    return TABLE.get(c, [])


def test_the_circulation_balances_every_charge_and_is_the_largest() -> None:
    """10 thefts, 3 frauds, 2 snatchings; one fraud may not become 盗窃 (its term does not
    fit): 盗窃 can send only as many as come back."""
    classes = {("盗窃", ("抢夺", "诈骗")): 10, ("诈骗", ("盗窃",)): 2, ("诈骗", ()): 1,
               ("抢夺", ("盗窃",)): 2}
    flows = circulation(classes, seed=0)
    out, into = Counter(), Counter()
    for (charge, allowed), sent in flows.items():
        assert set(sent) <= set(allowed)  # only a target the class may take
        assert sum(sent.values()) <= classes[(charge, allowed)]
        for target, n in sent.items():
            out[charge] += n
            into[target] += n
    assert out == into  # as many rows carry each charge as the injected name as the original
    assert sum(out.values()) == 8  # 诈骗 2 + 抢夺 2 each way
    assert flows[("诈骗", ())] == {} and sum(flows[("盗窃", ("抢夺", "诈骗"))].values()) == 4
    assert circulation({}, seed=0) == {}


def test_the_plan_hands_each_class_its_flow_by_seeded_rank() -> None:
    """Judgments of one class share its flow in the order of their seeded hashes; the plan
    is the same whatever the order the corpus is read in, and another seed picks others."""
    corpus = [_single(f"t{i}", "盗窃") for i in range(10)] + [_single(f"f{i}", "诈骗") for i in range(3)]

    def targets(seed: int, judgments: list[SimpleNamespace]) -> dict[str, str | None]:
        plan = build_plan(PlanMembers.of(judgments, seed), _targets, lambda j, t: True)
        out: dict[str, str | None] = {}
        for j in corpus:
            try:
                out[j.id] = plan.target(j)
            except SkipInjection as why:
                assert why.reason == "charge_unbalanced"
                out[j.id] = None
        return out

    plan = targets(0, corpus)
    assert Counter(plan[f"t{i}"] for i in range(10)) == {"诈骗": 3, None: 7}
    assert all(plan[f"f{i}"] == "盗窃" for i in range(3))
    assert targets(0, corpus[::-1]) == plan
    assert any(targets(s, corpus) != plan for s in range(1, 6))  # other seeds, other thefts
    ranked = sorted((plan_rank(0, f"t{i}"), f"t{i}") for i in range(10))
    assert {jid for _, jid in ranked[:3]} == {k for k, v in plan.items() if k[0] == "t" and v}


def test_judgments_a_target_does_not_allow_form_their_own_class() -> None:
    """A theft of 60 months may not become 诈骗 here: it is never sent there, and the flow
    stays balanced with what the others can do."""
    corpus = [_single("t0", "盗窃", 60), _single("t1", "盗窃"), _single("f0", "诈骗")]
    plan = build_plan(PlanMembers.of(corpus, 0), _targets,
                      lambda j, t: j.sentence.months < 48)
    assert plan.target(corpus[1]) == "诈骗" and plan.target(corpus[2]) == "盗窃"
    with pytest.raises(SkipInjection):
        plan.target(corpus[0])


def test_the_plan_does_not_grow_with_the_corpus() -> None:
    """What a shard receives (the plan's JSON) has a size set by the classes, not by the
    number of judgments; the JSON round trip gives the same targets."""
    import json

    def plan_for(n: int) -> ChargePlan:
        corpus = [_single(f"t{i}", "盗窃", 6 + i % 7) for i in range(n)]
        corpus += [_single(f"f{i}", "诈骗", 6 + i % 7) for i in range(n // 3)]
        return build_plan(PlanMembers.of(corpus, 0), _targets, lambda j, t: True)

    small, large = plan_for(300), plan_for(30_000)
    assert len(large.key_class) == len(small.key_class) == 14  # 7 terms x 2 charges
    assert len(large.bounds) == len(small.bounds) == 2  # one class per (charge, targets)
    size = len(json.dumps(large.to_json()))
    assert size < 4_000 and abs(size - len(json.dumps(small.to_json()))) < 200
    back = ChargePlan.from_json(json.loads(json.dumps(large.to_json())))
    for j in [_single(f"t{i}", "盗窃", 6 + i % 7) for i in range(0, 30_000, 997)]:
        try:
            expected = large.target(j)
        except SkipInjection:
            expected = None
        try:
            got = back.target(j)
        except SkipInjection:
            got = None
        assert got == expected


def test_the_e1_injector_follows_the_corpus_plan() -> None:
    """Two thefts and one 抢夺 judgment: one theft becomes 抢夺 and the 抢夺 judgment becomes
    盗窃; the other theft is left over (charge_unbalanced)."""
    thefts = [theft(rid=f"t{i}") for i in range(2)]
    grab = donor_case(name="李四", rid="g0")
    ctx = InjectionContext(profile=PROFILE, corpus=[*thefts, grab])
    outs = {j.id: run("E1", j, ctx=ctx) for j in [*thefts, grab]}
    done = {k: o for k, o in outs.items() if isinstance(o, InjectedJudgment)}
    left = [o for o in outs.values() if isinstance(o, InjectionSkip)]
    assert [o.reason for o in left] == ["charge_unbalanced"]
    assert sorted(o.rationale["confusable_pair"][1] for o in done.values()) == ["抢夺", "盗窃"]
    assert done["g0"].rationale["confusable_pair"] == ["抢夺", "盗窃"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_plan_does_not_depend_on_the_order_of_the_corpus(seed: int) -> None:
    corpus = [theft(rid=f"t{i}") for i in range(3)] + [donor_case(name="李四", rid="g0")]
    shuffled = corpus[:]
    random.Random(seed).shuffle(shuffled)
    a = {j.id: run("E1", j, ctx=InjectionContext(profile=PROFILE, corpus=corpus)) for j in corpus}
    b = {j.id: run("E1", j, ctx=InjectionContext(profile=PROFILE, corpus=shuffled)) for j in corpus}
    assert {k: type(v).__name__ for k, v in a.items()} == {k: type(v).__name__ for k, v in b.items()}


def test_a_charge_with_no_confusable_judgment_in_the_corpus_still_gets_e1() -> None:
    """Nothing to balance with (no 抢夺 judgment): the confusable charge is drawn as without a
    corpus, so a small corpus of one charge still has E1 rows."""
    thefts = [theft(rid=f"t{i}") for i in range(3)]
    ctx = InjectionContext(profile=PROFILE, corpus=thefts)
    outs = [run("E1", j, ctx=ctx) for j in thefts]
    assert all(isinstance(o, InjectedJudgment) for o in outs), outs
    assert {o.rationale["confusable_pair"][1] for o in outs} == {"抢夺"}  # type: ignore[union-attr]


def test_an_old_sentence_the_new_charge_cannot_carry_is_a_skip() -> None:
    """抢夺's one tier (LOW) stops at three years: a theft of five years cannot keep its term
    under 抢夺 when only the name changes."""
    from buildds.inject_errors.charge_balance import sentence_fits

    sentence_fits(theft(term="二年"), "抢夺", PROFILE)  # inside: no skip
    sentence_fits(theft(term="五年"), "故意杀人", PROFILE)  # no tiers known: no skip
    with pytest.raises(SkipInjection) as why:
        sentence_fits(theft(term="五年"), "抢夺", PROFILE)
    assert why.value.reason == "sentence_outside_target"
    out = run("E1", theft(term="五年"))
    assert isinstance(out, InjectionSkip) and out.reason == "sentence_outside_target"
