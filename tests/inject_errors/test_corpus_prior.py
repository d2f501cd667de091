"""Draws matched to the corpus (buildds.inject_errors.corpus_prior): deterministic, inside the
range the error type allows (never widened), and pulled toward the values real judgments carry."""

from __future__ import annotations

import collections
import random
from types import SimpleNamespace
from typing import Any

from buildds.extract.judgments import parse_sentence
from buildds.inject_errors.base import InjectionContext
from buildds.inject_errors.corpus_prior import charge_weights, fine_prior, term_prior
from buildds.inject_errors.sentence_edits import fine_outside, pick_months
from tests.inject_errors.test_injectors import PROFILE, injected, theft


def fake(charge: str, kind: str = "有期徒刑", months: int | None = 12, fine: int | None = None) -> Any:
    """What the priors read of a judgment: its charges and sentence."""
    return SimpleNamespace(charges=(charge,),
                           sentence=SimpleNamespace(kind=kind, months=months, fine_yuan=fine))


def ctx_of(corpus: list[Any]) -> InjectionContext:
    return InjectionContext(profile=PROFILE, corpus=corpus)


def test_priors_count_the_corpus_and_are_none_without_one() -> None:
    ctx = ctx_of([fake("盗窃", months=12, fine=2000), fake("盗窃", months=12, fine=2000),
                  fake("盗窃", kind="拘役", months=4, fine=1000), fake("盗窃", months=None)])
    assert term_prior(ctx, "有期徒刑") == {12: 2}
    assert term_prior(ctx, "拘役") == {4: 1}
    assert term_prior(ctx, "管制") == {}
    assert fine_prior(ctx) == {2000: 2, 1000: 1}
    bare = InjectionContext(profile=PROFILE)
    assert term_prior(bare, "有期徒刑") is None and fine_prior(bare) is None and term_prior(None, "拘役") is None


def test_pick_months_with_a_prior_stays_in_range_and_prefers_corpus_terms() -> None:
    prior = {40: 50, 38: 1}
    allowed = lambda v: v != 39
    draws = [pick_months(random.Random(seed), 37, 45, avoid=[41], allowed=allowed, prior=prior)
             for seed in range(300)]
    assert all(d is not None and 37 <= d <= 45 and d not in (39, 41) for d in draws)
    counts = collections.Counter(draws)
    assert counts.most_common(1)[0][0] == 40 and counts[40] > 200
    assert len(counts) > 2  # values the corpus never carries stay possible
    again = [pick_months(random.Random(seed), 37, 45, avoid=[41], allowed=allowed, prior=prior)
             for seed in range(300)]
    assert again == draws
    # nothing in range: None, prior or not
    assert pick_months(random.Random(0), 5, 6, allowed=lambda v: False, prior=prior) is None


def test_fine_outside_with_a_prior_stays_outside_and_prefers_corpus_fines() -> None:
    prior = {3000: 40, 25000: 40, 8000: 40, 500: 3}
    for seed in range(300):
        value, side = fine_outside(random.Random(seed), 2000, 10000, prior)
        assert (value > 10000) if side == "above" else (1 <= value < 2000)
        assert (value, side) == fine_outside(random.Random(seed), 2000, 10000, prior)
    aboves = collections.Counter(v for s in range(300)
                                 for v, side in [fine_outside(random.Random(s), 2000, 10000, prior)]
                                 if side == "above")
    assert aboves.most_common(1)[0][0] == 25000  # the corpus fine in (max, 3·max]
    assert 8000 not in aboves and 3000 not in aboves  # inside the range: never drawn
    # open lower bound: only above
    assert {fine_outside(random.Random(s), None, 5000, prior)[1] for s in range(20)} == {"above"}


def test_charge_weights_pull_e1_targets_toward_the_corpus() -> None:
    """A table where every 甲 case may become 乙 or 丙 and 乙 is rare in the corpus: the weights
    favour 丙, so the expected targets follow the corpus (丙 common, 乙 rare)."""
    corpus = [fake("甲")] * 30 + [fake("乙")] * 1 + [fake("丙")] * 20
    table = {"甲": [["乙"], ["丙"]], "乙": [["甲"]], "丙": [["甲"]]}
    weights = charge_weights(ctx_of(corpus), lambda c: table[c])
    assert weights["丙"] > 5 * weights["乙"]
    assert charge_weights(ctx_of(corpus), lambda c: table[c]) == weights  # memoised, deterministic


def test_e3_with_a_corpus_prior_is_still_outside_the_tier() -> None:
    """The corpus pulls E3 toward a term courts write (four years here), never inside the tier."""
    j = theft(factor="", extra="")
    corpus = [j] + [theft(factor="", extra="", term="四年", rid=f"d{i}") for i in range(30)]
    ctx = ctx_of(corpus)
    months = [parse_sentence(injected("E3", j, seed, ctx=ctx).judgment).months for seed in range(40)]
    assert all(m is not None and not 6 <= m <= 36 for m in months)
    assert collections.Counter(months).most_common(1)[0][0] == 48
