"""Charge and tier lookups: the memoised profile lookups answer what the profile does."""

from __future__ import annotations

import pytest

from buildds.inject_errors import tiers
from buildds.inject_errors.base import SkipInjection
from buildds.inject_errors.statutes import resolve_charge
from buildds.inject_errors.tiers import charge_profile, resolve_tier
from tests.inject_errors.test_injectors import PROFILE, theft


@pytest.mark.parametrize("name", ["盗窃", "盗窃罪", "抢夺", "故意伤害"])
def test_charge_profile_memo_answers_like_the_profile(name: str) -> None:
    first = charge_profile(PROFILE, name)
    assert first == resolve_charge(PROFILE, name)
    assert charge_profile(PROFILE, name) is first


def test_charge_profile_memo_keeps_skipping_unknown_charges() -> None:
    for _ in range(2):
        with pytest.raises(SkipInjection) as info:
            charge_profile(PROFILE, "不存在的罪名")
        assert info.value.reason == "unknown_charge"


def test_tier_memo_answers_like_tier_for() -> None:
    for amount in (500, 1000, 5000, 30000, 299999, 300000, 10**7):
        assert (tiers._tier_by_amount(PROFILE, "盗窃", amount)
                == PROFILE.tier_for("盗窃", amount_yuan=amount))
    judgment = theft(amount="50000")
    assert resolve_tier(judgment, PROFILE, "盗窃").tier.condition.kind == "数额巨大"


def test_memo_is_per_profile_object() -> None:
    other = PROFILE.model_copy(update={"charges": PROFILE.charges[1:]})
    assert charge_profile(PROFILE, "盗窃").charge == "盗窃"
    with pytest.raises(SkipInjection):
        charge_profile(other, "盗窃")
