"""The injector base: the lazily seeded rng draws what ``random.Random(seed)`` draws, and is
not seeded until used."""

from __future__ import annotations

import random

import pytest

from buildds.inject_errors.base import lazy_random


def _draws(rng: random.Random) -> list[object]:
    return [rng.random(), rng.choice("abcdefg"), rng.randint(1, 1000), rng.uniform(0.1, 0.8),
            rng.sample(range(50), 5), rng.getrandbits(40)]


@pytest.mark.parametrize("seed", ["0:cail-12:E3", "7:abc-def:E1", ""])
def test_lazy_random_draws_like_random(seed: str) -> None:
    assert _draws(lazy_random(seed)) == _draws(random.Random(seed))


def test_lazy_random_is_not_seeded_until_used() -> None:
    rng = lazy_random("0:x:E1")
    assert rng._rng is None  # type: ignore[attr-defined]
    rng.random()
    assert rng._rng is not None  # type: ignore[attr-defined]


def test_overlapping_edits_are_a_reported_skip() -> None:
    """A layout an injector did not foresee (two edits on one stretch) skips the judgment
    with its reason instead of failing the build."""
    from buildds.inject_errors.base import BaseInjector, InjectionContext, Plan
    from buildds.schema.judgments import InjectionSkip, SpanEdit
    from tests.inject_errors.test_injectors import PROFILE, theft

    class Clumsy(BaseInjector):
        error_type = "E3"

        def plan(self, judgment, rng, ctx):  # type: ignore[no-untyped-def]
            t = judgment.full_text
            return Plan([SpanEdit(start=0, end=4, old=t[:4], new="x"),
                         SpanEdit(start=2, end=6, old=t[2:6], new="y")], {})

    out = Clumsy().inject(theft(), random.Random(0), InjectionContext(profile=PROFILE))
    assert isinstance(out, InjectionSkip) and out.reason == "overlapping_edits"
