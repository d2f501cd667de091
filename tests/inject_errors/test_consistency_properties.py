"""Property tests: every successful E1/E3/E4/E5/E6 injection leaves a judgment whose dependent
values are consistent (date note, days, 缓刑, every fine mention, the charge's article), whose
new value breaks the rule of its type, and whose undo is the original — on generated
judgments (hypothesis) and on every real JuDGE judgment (skipped without ../shared)."""

from __future__ import annotations

import collections
import random
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buildds.inject_errors.base import InjectionContext
from buildds.inject_errors.cn_format import format_months_cn, format_yuan_cn
from buildds.inject_errors.consistency import check_consistency
from buildds.inject_errors.date_notes import format_date_like, term_end
from buildds.inject_errors.registry import inject_all, injectors
from buildds.schema.judgments import InjectedJudgment, Judgment
from buildds.schema.statutes import StatuteProfile
from tests.conftest import shared_path
from tests.inject_errors.consistency_checks import assert_consistent
from tests.inject_errors.test_injectors import CONFESS, PROFILE, RECIDIVIST, make_judgment

OWN = ("E1", "E3", "E4", "E5", "E6")
CHARGES = {"盗窃": "二百六十四", "抢夺": "二百六十七", "信用卡诈骗": "一百九十六", "非法经营": "二百二十五",
           "故意伤害": "二百三十四"}


def generated(rng: random.Random) -> Judgment:
    """A judgment part with a term (days sometimes), a 缓刑 or a 刑期 date note (Arabic or
    Chinese dates), a fine repeated in a 已缴纳 note, in Chinese or Arabic numerals."""
    charge = rng.choice(sorted(CHARGES))
    chinese = rng.random() < 0.5
    months = rng.randint(1, 100)
    kind = "有期徒刑" if months >= 6 else "拘役"
    days = rng.choice([0, 0, 0, 15]) if kind == "拘役" and months < 6 else 0
    style = "八个月" if chinese else "8个月"
    term = format_months_cn(months, style) + (("十五日" if chinese else "15日") if days else "")
    probation = rng.random() < 0.4 and months <= 36
    factor = rng.choice(["", "", CONFESS, RECIDIVIST])
    extra = {"": "", CONFESS: "、第六十七条第三款", RECIDIVIST: "、第六十五条第一款"}[factor]
    amount = rng.randint(1000, 400000)
    fine = rng.choice([None, rng.randint(1, 200) * 1000])
    money = "" if fine is None else format_yuan_cn(fine, "五元" if chinese else "5元")
    sentence = f"判处{kind}{term}"
    note = ""
    if probation:
        need = max(months + (1 if days else 0), 12 if kind == "有期徒刑" else 2)
        prob = min(need + rng.randint(0, 12), 60 if kind == "有期徒刑" else 12)
        sentence += f"，缓刑{format_months_cn(prob, style)}"
    else:
        start = date(2010, 1, 1) + timedelta(days=rng.randint(0, 4000))
        like = "二〇一八年六月十二日" if chinese and rng.random() < 0.5 else "2018年6月12日"
        end = term_end(start, months, days) + timedelta(days=rng.choice([0, 0, 0, -1, 20]))
        note = (f"（刑期从判决执行之日起计算。判决执行以前先行羁押的，羁押一日折抵刑期一日，即自"
                f"{format_date_like(start, like)}起至{format_date_like(end, like)}止）")
    if fine is not None:
        sentence += f"，并处罚金人民币{money}"
    paid = f"（罚金人民币{money}已缴纳）" if fine is not None and rng.random() < 0.5 else ""
    facts = (f"经审理查明：被告人张三非法经营卷烟，经营数额共计人民币{amount}元，违法所得人民币{amount // 10}元。"
             if charge == "非法经营" else f"经审理查明：2020年5月1日，被告人张三窃取他人财物，价值共计人民币{amount}元。")
    reasoning = (f"本院认为，被告人张三的行为已构成{charge}罪。{factor}"
                 f"依照《中华人民共和国刑法》第{CHARGES[charge]}条{extra}之规定，")
    judgment = f"判决如下：被告人张三犯{charge}罪，{sentence}{note}{paid}。"
    return make_judgment(facts, reasoning, judgment, f"g{rng.random():.8f}")


def _inject(j: Judgment, seed: int, etype: str) -> InjectedJudgment | None:
    out = injectors(seed)[etype].inject(j, random.Random(f"{seed}:{j.id}:{etype}"),
                                        InjectionContext(profile=PROFILE))
    return out if isinstance(out, InjectedJudgment) else None


@settings(max_examples=150, deadline=None)
@given(n=st.integers(0, 10**9), seed=st.integers(0, 50), etype=st.sampled_from(OWN))
def test_generated_injections_are_consistent(n: int, seed: int, etype: str) -> None:
    j = generated(random.Random(n))
    assert not check_consistency(j.full_text)  # the generator writes consistent judgments
    out = _inject(j, seed, etype)
    if out is not None:
        assert_consistent(j, out, PROFILE)


def test_generated_injections_reach_every_type() -> None:
    """A seeded loop: every type is injected (so the property above is not vacuous), 累犯
    removals included, and each injection is consistent."""
    reached: collections.Counter[str] = collections.Counter()
    for n in range(400):
        j = generated(random.Random(n))
        for etype in OWN:
            out = _inject(j, 0, etype)
            if out is not None:
                assert_consistent(j, out, PROFILE)
                reached[etype] += 1
                if etype == "E4" and not out.rationale["mitigating"]:
                    reached["E4-aggravating"] += 1
    assert set(reached) == {*OWN, "E4-aggravating"}, reached


# --------------------------------------------------------------------------- real judgments
@pytest.fixture(scope="module")
def real() -> tuple[list[Judgment], StatuteProfile]:
    from buildds.extract.judgments import load_judge
    from buildds.inject_errors.statutes import build_cn_profile

    root: Path = shared_path("realdata", "judgments")
    profile = build_cn_profile(root / "cn-criminal-law",
                               root / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv")
    return list(load_judge(root / "judge-benchmark" / "test.json", rejects=[])), profile


@pytest.mark.parametrize("seed", [0, 1])
def test_real_injections_are_consistent(real: tuple[list[Judgment], StatuteProfile], seed: int) -> None:
    judgments, profile = real
    done, _ = inject_all(judgments, errors=OWN, profile=profile, seed=seed, corpus=judgments)
    by_type = collections.Counter(d.error_type for d in done)
    by_id = {j.id: j for j in judgments}
    for d in done:
        assert_consistent(by_id[d.source_id], d, profile)
    assert all(by_type[e] > 0 for e in OWN), by_type
    # aggravating factors are reachable on the real data (累犯 …)
    assert any(not d.rationale["mitigating"] for d in done if d.error_type == "E4")
