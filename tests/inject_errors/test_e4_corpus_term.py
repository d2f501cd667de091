"""E4's new term (buildds.inject_errors.e4_ignored_factor.corpus_term): within the paper's
band, one real judgments use — of the same charge first, else of the penalty kind — or a skip
with its reason (issue 13: a term courts never write marks the row)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from buildds.inject_errors.base import InjectionContext, SkipInjection
from buildds.inject_errors.e4_ignored_factor import corpus_term
from tests.inject_errors.test_injectors import PROFILE, theft


def fake(charge: str, months: int, kind: str = "有期徒刑") -> Any:
    return SimpleNamespace(charges=(charge,), sentence=SimpleNamespace(kind=kind, months=months,
                                                                       fine_yuan=None))


def test_the_charges_own_terms_in_the_band_first() -> None:
    corpus = [fake("盗窃", 36)] * 3 + [fake("盗窃", 12)] * 50 + [fake("诈骗", 34)] * 40
    ctx = InjectionContext(profile=PROFILE, corpus=corpus)
    draws = {corpus_term(theft(), random.Random(i), ctx, "盗窃", (33, 36), 8) for i in range(30)}
    assert draws == {36}


def test_the_kinds_terms_when_the_charge_has_none_in_the_band() -> None:
    corpus = [fake("盗窃", 12)] * 50 + [fake("诈骗", 34)] * 4 + [fake("诈骗", 35)]
    ctx = InjectionContext(profile=PROFILE, corpus=corpus)
    draws = {corpus_term(theft(), random.Random(i), ctx, "盗窃", (33, 36), 8) for i in range(40)}
    assert draws == {34, 35}


def test_no_term_the_corpus_uses_in_the_band_is_a_skip() -> None:
    ctx = InjectionContext(profile=PROFILE, corpus=[fake("盗窃", 12)] * 5)
    with pytest.raises(SkipInjection) as why:
        corpus_term(theft(), random.Random(0), ctx, "盗窃", (33, 36), 8)
    assert why.value.reason == "no_corpus_term_in_band"
