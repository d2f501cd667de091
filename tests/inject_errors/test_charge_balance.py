"""E1's target charges planned over the corpus (buildds.inject_errors.charge_balance): the
confusable table used both ways, a balanced circulation, a seeded assignment, and the E1
injector following it (issue 13: the injected charge names follow the originals)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from buildds.inject_errors.base import InjectionContext
from buildds.inject_errors.charge_balance import circulation, mutual_edges
from buildds.schema.judgments import InjectedJudgment, InjectionSkip
from tests.inject_errors.test_injectors import PROFILE, donor_case, run, theft

TABLE = {"盗窃": ["抢夺", "诈骗"], "诈骗": ["合同诈骗"], "抢夺": [], "合同诈骗": [], "抢劫": ["敲诈勒索"]}


def test_edges_are_mutual_and_only_between_charges_with_judgments() -> None:
    edges = mutual_edges(["盗窃", "诈骗", "抢夺", "抢劫"], lambda c: TABLE.get(c, []))
    assert edges == {"盗窃": ["抢夺", "诈骗"], "抢夺": ["盗窃"], "诈骗": ["盗窃"]}


def test_the_circulation_balances_every_charge_and_is_the_largest() -> None:
    """10 thefts, 3 frauds, 2 snatchings; one fraud may not become 盗窃 (its term does not
    fit): 盗窃 can send only as many as come back."""
    candidates = {f"t{i}": ("盗窃", ["抢夺", "诈骗"]) for i in range(10)}
    candidates |= {"f0": ("诈骗", ["盗窃"]), "f1": ("诈骗", ["盗窃"]), "f2": ("诈骗", [])}
    candidates |= {"g0": ("抢夺", ["盗窃"]), "g1": ("抢夺", ["盗窃"])}
    plan = circulation(candidates, seed=0)
    out, into = Counter(), Counter()
    for jid, target in plan.items():
        if target is not None:
            out[candidates[jid][0]] += 1
            into[target] += 1
            assert target in candidates[jid][1]  # only a target the judgment may take
    assert out == into  # as many rows carry each charge as the injected name as the original
    assert sum(out.values()) == 8  # 诈骗 2 + 抢夺 2 each way
    assert plan["f2"] is None and sum(1 for i in range(10) if plan[f"t{i}"]) == 4
    assert circulation({}, seed=0) == {}


def test_the_plan_is_seeded_and_independent_of_order() -> None:
    candidates = {f"t{i}": ("盗窃", ["诈骗"]) for i in range(10)}
    candidates |= {f"f{i}": ("诈骗", ["盗窃"]) for i in range(3)}
    plan = circulation(candidates, seed=0)
    assert Counter(plan[f"t{i}"] for i in range(10)) == {"诈骗": 3, None: 7}
    assert circulation(dict(reversed(list(candidates.items()))), seed=0) == plan
    assert any(circulation(candidates, seed=s) != plan for s in range(1, 6))  # other seeds


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
    from buildds.inject_errors.base import SkipInjection
    from buildds.inject_errors.charge_balance import sentence_fits

    sentence_fits(theft(term="二年"), "抢夺", PROFILE)  # inside: no skip
    sentence_fits(theft(term="五年"), "故意杀人", PROFILE)  # no tiers known: no skip
    with pytest.raises(SkipInjection) as why:
        sentence_fits(theft(term="五年"), "抢夺", PROFILE)
    assert why.value.reason == "sentence_outside_target"
    out = run("E1", theft(term="五年"))
    assert isinstance(out, InjectionSkip) and out.reason == "sentence_outside_target"
