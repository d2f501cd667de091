"""Error injectors E1–E6 on hand-written judgments and a hand-built statute profile."""

from __future__ import annotations

import collections
import itertools
import random
import re
from datetime import date

import pytest

from buildds.extract.judgments import (
    parse_amount_involved,
    parse_articles,
    parse_charges,
    parse_factors,
    parse_months,
    parse_sentence,
)
from buildds.inject_errors.base import InjectionContext
from buildds.inject_errors.cn_format import format_months_cn, format_yuan_cn
from buildds.inject_errors.edits import apply_edits, undo_edits
from buildds.inject_errors.registry import inject_all, injectors
from buildds.schema.core import Source
from buildds.schema.judgments import InjectedJudgment, InjectionSkip, Judgment, Span
from buildds.schema.statutes import (
    ChargeProfile,
    FineRule,
    PenaltyRange,
    SentencingTier,
    StatuteProfile,
    TierCondition,
)
from buildds.text import cn_number
from tests.conftest import shared_path


# --------------------------------------------------------------------------- builders
def _tier(kind: str, ranges: list[tuple[str, int | None, int | None]], *, amount: int | None = None,
          fine: FineRule | None = None) -> SentencingTier:
    return SentencingTier(
        condition=TierCondition(kind=kind, text=kind, amount_min_yuan=amount, amount_max_yuan=amount),
        penalties=tuple(PenaltyRange(kind=k, min_months=lo, max_months=hi) for k, lo, hi in ranges),  # type: ignore[arg-type]
        text=kind, fine=fine or FineRule(kind="mandatory_unspecified"))


def _charge(name: str, article: int, tiers: list[SentencingTier]) -> ChargeProfile:
    fine = next((t.fine for t in tiers if t.fine.kind in ("fixed_range", "proportional")), tiers[0].fine)
    return ChargeProfile(charge=name, article=article, tiers=tuple(tiers), fine=fine, text=name)


LOW = [("有期徒刑", 6, 36), ("拘役", 1, 6), ("管制", 3, 24)]
PROFILE = StatuteProfile(
    id="test", jurisdiction="cn", law="中华人民共和国刑法", version="t", effective_date=date(2024, 3, 1),
    charges=(
        _charge("盗窃", 264, [_tier("数额较大", LOW, amount=1000), _tier("数额巨大", [("有期徒刑", 36, 120)], amount=30000),
                              _tier("数额特别巨大", [("有期徒刑", 120, 180), ("无期徒刑", None, None)], amount=300000)]),
        _charge("抢夺", 267, [_tier("base", LOW)]),
        _charge("信用卡诈骗", 196, [_tier("base", [("有期徒刑", 6, 60), ("拘役", 1, 6)],
                                          fine=FineRule(kind="fixed_range", min_yuan=20000, max_yuan=200000))]),
        _charge("生产、销售伪劣产品", 140, [_tier("base", [("有期徒刑", 6, 24), ("拘役", 1, 6)],
                                                fine=FineRule(kind="proportional", min_ratio=0.5, max_ratio=2.0,
                                                              base="销售金额"))]),
        _charge("非法经营", 225, [_tier("base", [("有期徒刑", 6, 60), ("拘役", 1, 6)],
                                        fine=FineRule(kind="proportional", min_ratio=1.0, max_ratio=5.0,
                                                      base="违法所得"))]),
        _charge("故意伤害", 234, [_tier("base", LOW), _tier("致人重伤", [("有期徒刑", 36, 120)]),
                                  _tier("致人死亡", [("有期徒刑", 120, 180), ("死刑", None, None)])]),
    ),
    confusable={"盗窃": ("抢夺", "[盗窃、抢夺]枪支"), "抢夺": ("盗窃",), "故意伤害": ("故意杀人",)},
)
CTX = InjectionContext(profile=PROFILE)
SOURCE = Source(path="synthetic.jsonl", sha256="0" * 64)

FACTS = "经审理查明：2020年5月1日，被告人张三在某市窃取他人财物，价值共计人民币{amount}元。"
REASONING = ("本院认为，被告人张三以非法占有为目的，秘密窃取他人财物，数额较大，其行为已构成{charge}罪。"
             "{factor}依照《中华人民共和国刑法》第{article}条{extra}之规定，")
JUDGMENT = "判决如下：被告人张三犯{charge}罪，判处{kind}{term}{fine}。"
CONFESS = "被告人张三到案后如实供述自己的罪行，依法可以从轻处罚。"
RECIDIVIST = "被告人张三曾因犯罪被判处有期徒刑，刑罚执行完毕后五年内再犯应当判处有期徒刑以上刑罚之罪，系累犯，应当从重处罚。"


def make_judgment(facts: str, reasoning: str, judgment: str, rid: str = "j1") -> Judgment:
    """A Judgment whose spans come from the real parsers."""
    full = facts + reasoning + judgment
    r0, j0 = len(facts), len(facts) + len(reasoning)
    refs = parse_charges(judgment, j0)
    arts = parse_articles(reasoning, r0)
    amount = parse_amount_involved(facts, 0)
    return Judgment(
        id=rid, source=SOURCE, dataset="judge", line=1, facts=facts, reasoning=reasoning,
        judgment=judgment, full_text=full,
        facts_span=Span(start=0, end=r0, text=facts), reasoning_span=Span(start=r0, end=j0, text=reasoning),
        judgment_span=Span(start=j0, end=len(full), text=judgment),
        charges=tuple(dict.fromkeys(c.name for c in refs)), charge_refs=tuple(refs),
        articles=tuple(dict.fromkeys(a.number for a in arts)), article_refs=tuple(arts),
        sentence=parse_sentence(judgment, j0),
        amount_involved_yuan=amount[0] if amount else None, amount_span=amount[1] if amount else None,
        factors=tuple(parse_factors(reasoning, r0)), defendants=("张三",))


def theft(*, charge: str = "盗窃", article: str = "二百六十四", amount: str = "5000", factor: str = CONFESS,
          extra: str = "、第六十七条第三款", kind: str = "有期徒刑", term: str = "八个月",
          fine: str = "，并处罚金人民币二千元", rid: str = "j1") -> Judgment:
    return make_judgment(FACTS.format(amount=amount),
                         REASONING.format(charge=charge, factor=factor, article=article, extra=extra),
                         JUDGMENT.format(charge=charge, kind=kind, term=term, fine=fine), rid)


def run(etype: str, judgment: Judgment, seed: int = 0, ctx: InjectionContext = CTX
        ) -> InjectedJudgment | InjectionSkip:
    return injectors(seed)[etype].inject(judgment, random.Random(f"{seed}:{judgment.id}:{etype}"), ctx)


def injected(etype: str, judgment: Judgment, seed: int = 0, ctx: InjectionContext = CTX) -> InjectedJudgment:
    out = run(etype, judgment, seed, ctx)
    assert isinstance(out, InjectedJudgment), out
    assert undo_edits(out.anomalous_text, out.edits) == judgment.full_text
    return out


def skipped(etype: str, judgment: Judgment, reason: str) -> None:
    out = run(etype, judgment)
    assert isinstance(out, InjectionSkip), out
    assert (out.error_type, out.reason, out.source_id) == (etype, reason, judgment.id)


# --------------------------------------------------------------------------- E1
def test_e1_replaces_charge_everywhere() -> None:
    j = theft()
    out = injected("E1", j)
    # the charge's article in the citation list follows the charge
    assert out.anomalous_text == j.full_text.replace("盗窃罪", "抢夺罪").replace("第二百六十四条", "第二百六十七条")
    assert out.rationale["article_swapped"] == ["第二百六十四条", "第二百六十七条"]
    assert out.gold_correction == {"charge": "盗窃"}
    assert out.rationale["confusable_pair"] == ["盗窃", "抢夺"]
    assert out.error_class == "charge" and out.id == "j1-E1-0"
    assert "抢夺罪" in out.reasoning and "抢夺罪" in out.judgment and out.facts == j.facts


def test_e1_takes_sentence_and_articles_from_a_similar_case() -> None:
    j = theft()
    donor = theft(charge="抢夺", article="二百六十七", term="一年", fine="，并处罚金人民币五千元", rid="d")
    out = injected("E1", j, ctx=InjectionContext(profile=PROFILE, corpus=[j, donor]))
    assert out.rationale["donor"] == "d"
    assert out.judgment == "判决如下：被告人张三犯抢夺罪，判处有期徒刑一年，并处罚金人民币五千元。"
    assert "第二百六十七条、第六十七条第三款之规定" in out.reasoning
    assert out.gold_correction == {"charge": "盗窃", "months": 8, "fine_yuan": 2000, "articles": [264, 67]}


def test_e1_skips() -> None:
    skipped("E1", theft(charge="信用卡诈骗"), "no_confusable_charge")
    two = make_judgment(FACTS.format(amount=5000), "本院认为，构成盗窃罪、抢夺罪。",
                        "判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月；犯抢夺罪，判处有期徒刑六个月，决定执行有期徒刑一年。")
    skipped("E1", two, "multi_charge")


def donor_case(*, name: str = "李四", term: str = "一年", factor: str = CONFESS, fine: str = "，并处罚金人民币五千元",
               rid: str = "d") -> Judgment:
    """A single-charge 抢夺 judgment of defendant ``name`` (a donor for E1 on theft)."""
    j = theft(charge="抢夺", article="二百六十七", term=term, factor=factor, fine=fine, rid=rid)
    renamed = {part: getattr(j, part).replace("张三", name) for part in ("facts", "reasoning", "judgment")}
    if name == "张三":
        return j
    return make_judgment(renamed["facts"], renamed["reasoning"], renamed["judgment"], rid).model_copy(
        update={"defendants": (name,)})


def test_e1_takes_the_donors_reasoning_with_our_defendant() -> None:
    j = theft()
    donor = donor_case(name="李四")
    out = injected("E1", j, ctx=InjectionContext(profile=PROFILE, corpus=[j, donor]))
    assert out.reasoning == donor.reasoning.replace("李四", "张三")
    assert "李四" not in out.anomalous_text
    assert out.judgment == "判决如下：被告人张三犯抢夺罪，判处有期徒刑一年，并处罚金人民币五千元。"
    assert out.facts == j.facts
    assert (out.rationale["donor"], out.rationale["donor_status"], out.rationale["donor_defendant"]) == (
        "d", "reasoning_replaced", "李四")
    assert out.rationale["donor_match"] == {"same_factors": True, "factor_diff": [], "term_diff_months": 4}
    assert apply_edits(j.full_text, out.edits) == out.anomalous_text
    # every edit is local: the reasoning edit is trimmed to what differs (本院认为，被告人张三… kept)
    rs = j.reasoning_span
    assert rs is not None
    assert all(rs.start < e.start and e.end <= rs.end for e in out.edits if e.start < rs.end)


@pytest.mark.parametrize(("donors", "chosen"), [
    # same sentencing factors beat a closer term
    ([("a", "八个月", RECIDIVIST), ("b", "二年", CONFESS)], "b"),
    # among the same factors, the closest term
    ([("a", "二年", CONFESS), ("b", "十个月", CONFESS), ("c", "三年", CONFESS)], "b"),
    # no donor shares the factors: none is used (its reasoning would weigh other factors)
    ([("a", "九个月", RECIDIVIST + CONFESS), ("b", "二年", RECIDIVIST)], None),
])
def test_e1_donor_preference(donors: list[tuple[str, str, str]], chosen: str | None) -> None:
    j = theft()
    corpus = [j] + [donor_case(name=f"王{rid}", term=term, factor=factor, rid=rid) for rid, term, factor in donors]
    for seed in range(4):
        out = injected("E1", j, seed, ctx=InjectionContext(profile=PROFILE, corpus=corpus))
        assert out.rationale["donor"] == chosen
        if chosen is None:
            assert out.rationale["donor_status"] == "no_donor_same_factors"
            assert apply_edits(j.full_text, out.edits) == out.anomalous_text


@pytest.mark.parametrize(("corpus", "status"), [
    (None, "no_corpus"),
    ([], "no_donor"),
    # a donor naming its defendant by surname alone (王等二人) would leak: not used
    (["surname"], "no_donor"),
])
def test_e1_without_donor_records_why(corpus: list[str] | None, status: str) -> None:
    j = theft()
    docs: list[Judgment] | None = None
    if corpus is not None:
        docs = [j]
        if corpus:
            d = donor_case(name="王五", factor="被告人王五到案后如实供述，王等二人均认罪。")
            docs.append(d)
    out = injected("E1", j, ctx=InjectionContext(profile=PROFILE, corpus=docs))
    assert out.anomalous_text == j.full_text.replace("盗窃罪", "抢夺罪").replace("第二百六十四条", "第二百六十七条")
    assert out.rationale["donor"] is None and out.rationale["donor_status"] == status
    assert out.rationale["donor_message"]


def test_e1_with_donor_is_deterministic_and_undoable() -> None:
    j = theft()
    corpus = [j] + [donor_case(name=f"赵{i}", term=f"{t}个月", rid=f"d{i}") for i, t in enumerate("七九十")]
    ctx = InjectionContext(profile=PROFILE, corpus=corpus)
    for seed in range(5):
        a, b = injected("E1", j, seed, ctx), injected("E1", j, seed, ctx)
        assert a == b
        assert undo_edits(a.anomalous_text, a.edits) == j.full_text


# --------------------------------------------------------------------------- E2
# E2 (omission of charges): tests/inject_errors/test_e2_omission.py


# --------------------------------------------------------------------------- E3
def test_e3_term_outside_tier() -> None:
    j = theft(factor="", extra="")
    out = injected("E3", j)
    new = parse_months(out.judgment)
    assert new is not None and not 6 <= new <= 36
    expected = j.full_text.replace("有期徒刑八个月", f"有期徒刑{format_months_cn(new, '八个月')}")
    assert out.anomalous_text == expected
    assert out.gold_correction == {"months": 8}
    assert out.rationale["tier"] == "数额较大" and out.rationale["range_months"] == [6, 36]
    # a 有期徒刑 is never written below six months (art. 45): only above here
    assert {injected("E3", j, seed).rationale["direction"] for seed in range(12)} == {"above"}
    # a tier above six months is left on both sides across seeds
    big = theft(factor="", extra="", amount="50000", term="五年")
    sides = {injected("E3", big, seed).rationale["direction"] for seed in range(12)}
    assert sides == {"above", "below"}


def test_e3_ambiguous_tier_moves_into_adjacent_tier() -> None:
    j = theft(charge="故意伤害", article="二百三十四", amount="0", term="二年", fine="", factor="", extra="")
    out = injected("E3", j)
    assert out.rationale["ambiguous_tier"] is True and out.rationale["adjacent_tier"] == "致人重伤"
    new = parse_months(out.judgment)
    assert new is not None and 36 < new <= 120 and new % 6 == 0
    assert out.anomalous_text == j.full_text.replace("有期徒刑二年", f"有期徒刑{format_months_cn(new, '二年')}")


def test_e3_detention_never_past_six_months() -> None:
    """A 拘役 cannot leave its 1–6 month tier upwards as 拘役 (art. 42): it becomes a 有期徒刑
    above the tier's 有期徒刑 range."""
    j = theft(factor="", extra="", kind="拘役", term="三个月")
    for seed in range(6):
        out = injected("E3", j, seed)
        s = parse_sentence(out.judgment)
        assert s.kind == "有期徒刑" and s.months is not None and s.months > 36
        assert out.rationale["new_kind"] == "有期徒刑" and out.rationale["kind"] == "拘役"
        assert out.gold_correction == {"months": 3, "kind": "拘役"}
    # the kind's General-part articles in the citation list follow it (42/44 → 45/47)
    cited = theft(factor="", extra="、第四十二条、第四十四条、第五十二条", kind="拘役", term="三个月")
    out = injected("E3", cited)
    assert "第二百六十四条、第四十五条、第四十七条、第五十二条之规定" in out.reasoning
    both = theft(factor="", extra="、第四十二条、第四十五条", kind="拘役", term="三个月")
    assert "第二百六十四条、第四十五条之规定" in injected("E3", both).reasoning


def test_e3_skips() -> None:
    skipped("E3", theft(), "has_sentencing_factors")  # 坦白: a lawful reduction is possible
    skipped("E3", theft(factor="本院认为被告人可以减轻处罚。", extra=""), "has_sentencing_factors")
    # a factor's article cited, though the parser finds no factor word
    skipped("E3", theft(factor="被告人张三能够交代犯罪经过。", extra="、第六十七条第三款"), "has_sentencing_factors")
    skipped("E3", theft(kind="", term="免予刑事处罚", fine=""), "no_term")
    skipped("E3", theft(charge="放火", factor="", extra=""), "unknown_charge")
    skipped("E3", theft(amount="500", factor="", extra=""), "no_tier")
    skipped("E3", theft(charge="故意伤害", amount="0", kind="拘役", term="三个月", fine="", factor="", extra=""),
            "ambiguous_tier")
    skipped("E3", theft(kind="拘役", amount="50000", term="三个月", factor="", extra=""), "kind_not_in_tier")
    # a 缓刑 of one year leaves no term above three years
    skipped("E3", theft(factor="", extra="", term="八个月，缓刑一年"), "no_term_outside")


# --------------------------------------------------------------------------- E4
def test_e4_ignores_mitigating_factor() -> None:
    j = theft()
    out = injected("E4", j)
    new = parse_months(out.judgment)
    assert new is not None and 33 <= new <= 36
    assert out.reasoning == ("本院认为，被告人张三以非法占有为目的，秘密窃取他人财物，数额较大，其行为已构成盗窃罪。"
                             "依照《中华人民共和国刑法》第二百六十四条之规定，")
    assert out.judgment == f"判决如下：被告人张三犯盗窃罪，判处有期徒刑{format_months_cn(new, '八个月')}，并处罚金人民币二千元。"
    assert out.gold_correction == {"months": 8, "factor": "坦白", "article": 67}


def test_e4_ignores_aggravating_factor() -> None:
    j = theft(factor=RECIDIVIST, extra="、第六十五条第一款", term="三年")
    out = injected("E4", j)
    new = parse_months(out.judgment)
    assert new == 6  # [min, 1.1·min] of the 6–36 month range
    assert "累犯" not in out.reasoning and "第六十五条" not in out.reasoning
    assert out.reasoning.endswith("再犯应当判处有期徒刑以上刑罚之罪。依照《中华人民共和国刑法》第二百六十四条之规定，")
    assert out.gold_correction == {"months": 36, "factor": "累犯", "article": 65}


def test_e4_skips() -> None:
    skipped("E4", theft(factor="", extra=""), "no_factor")
    skipped("E4", theft(term="二年六个月"), "factor_not_reflected")
    skipped("E4", theft(kind="", term="免予刑事处罚", fine=""), "no_term")


# --------------------------------------------------------------------------- E5 / E6
def test_e5_fixed_fine_outside_range() -> None:
    j = theft(charge="信用卡诈骗", article="一百九十六", fine="，并处罚金人民币五万元")
    out = injected("E5", j)
    new = cn_number(out.judgment.split("人民币")[1].removesuffix("元。"))
    assert new is not None and not 20000 <= new <= 200000
    assert out.anomalous_text == j.full_text.replace("五万元", format_yuan_cn(int(new), "五万元"))
    assert out.gold_correction == {"fine_yuan": 50000} and out.rationale["range_yuan"] == [20000, 200000]


def test_e5_skips() -> None:
    skipped("E5", theft(charge="信用卡诈骗", fine=""), "no_fine")
    skipped("E5", theft(), "fine_not_fixed")
    skipped("E5", theft(charge="放火"), "unknown_charge")


def test_e6_proportional_fine_outside_range() -> None:
    j = make_judgment("经审理查明：被告人张三销售伪劣产品，销售金额共计人民币100000元。",
                      "本院认为，被告人张三构成生产、销售伪劣产品罪。依照《中华人民共和国刑法》第一百四十条之规定，",
                      "判决如下：被告人张三犯生产、销售伪劣产品罪，判处有期徒刑八个月，并处罚金人民币100000元。")
    out = injected("E6", j)
    assert out.rationale["range_yuan"] == [50000, 200000] and out.rationale["base"] == "销售金额"
    new = int(out.judgment.split("人民币")[1].removesuffix("元。"))
    assert not 50000 <= new <= 200000
    assert out.anomalous_text == j.full_text.removesuffix("100000元。") + f"{new}元。"
    assert out.gold_correction == {"fine_yuan": 100000}


def test_e6_takes_the_base_the_article_names() -> None:
    """非法经营 (art. 225) fines are reckoned on the 违法所得, not on the 经营数额 the facts
    total: the new fine is outside 1–5 × 违法所得 (and outside the range on the larger amount)."""
    j = make_judgment("经审理查明：被告人张三非法经营卷烟，经营数额共计人民币500000元，违法所得人民币20000元。",
                      "本院认为，被告人张三构成非法经营罪。依照《中华人民共和国刑法》第二百二十五条之规定，",
                      "判决如下：被告人张三犯非法经营罪，判处有期徒刑八个月，并处罚金人民币五万元"
                      "（罚金人民币五万元已缴纳）。")
    assert j.amount_involved_yuan == 500000
    for seed in range(6):
        out = injected("E6", j, seed)
        assert out.rationale["base_yuan"] == 20000 and out.rationale["range_by_base_yuan"] == [20000, 100000]
        fines = {cn_number(m) for m in re.findall(r"罚金人民币([^元]+)元", out.judgment)}
        assert len(fines) == 1  # every mention of the fine changed together
        (new,) = fines
        assert new is not None and (new < 20000 or new > 2500000)


def test_e6_skips() -> None:
    skipped("E6", theft(), "fine_not_proportional")
    skipped("E6", theft(charge="生产、销售伪劣产品", fine=""), "no_fine")
    no_amount = make_judgment("经审理查明：被告人张三销售伪劣产品。", "本院认为，构成生产、销售伪劣产品罪。",
                              "判决如下：被告人张三犯生产、销售伪劣产品罪，判处有期徒刑八个月，并处罚金人民币五万元。")
    skipped("E6", no_amount, "no_fine_base")
    # the facts total an amount, but not the 销售金额 the article names
    skipped("E6", theft(charge="生产、销售伪劣产品", amount="100000", fine="，并处罚金人民币100000元"), "no_fine_base")


# --------------------------------------------------------------------------- real data
@pytest.fixture(scope="module")
def cn_profile() -> StatuteProfile:
    from buildds.inject_errors.statutes import build_cn_profile

    judgments = shared_path("realdata", "judgments")
    return build_cn_profile(judgments / "cn-criminal-law",
                            judgments / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv")


def test_judge_integration(cn_profile: StatuteProfile) -> None:
    from buildds.extract.judgments import load_judge
    from buildds.inject_errors.e5_fixed_fine import fine_rule
    from buildds.inject_errors.tiers import kind_range, resolve_tier

    path = shared_path("realdata", "judgments", "judge-benchmark", "test.json")
    judgments = list(itertools.islice(load_judge(path, rejects=[]), 150))
    done, skips = inject_all(judgments, profile=cn_profile, seed=0, corpus=judgments)
    table: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for d in done:
        table[d.error_type]["injected"] += 1
    for s in skips:
        table[s.error_type][s.reason] += 1
    for etype in sorted(table):
        print(etype, dict(table[etype].most_common()))
    assert len(done) + len(skips) == 6 * len(judgments)
    for d in done:
        assert undo_edits(d.anomalous_text, d.edits) == d.original.full_text
        j = d.original
        if d.error_type == "E1":
            pair = d.rationale["confusable_pair"]
            assert pair[1] in cn_profile.confusable[pair[0]]  # type: ignore[index]
            donor = d.rationale.get("donor_defendant")
            if donor:  # the donor's reasoning, with our defendant's name
                assert donor not in d.reasoning or donor in j.reasoning
        elif d.error_type == "E3":
            assert j.factors == () or all(f.kind == "其他" for f in j.factors)  # the paper's scope
            new = parse_sentence(d.judgment).months
            lo, hi = d.rationale["range_months"]  # type: ignore[misc]
            assert new is not None and not lo <= new <= hi
            if d.rationale.get("ambiguous_tier"):
                alo, ahi = d.rationale["adjacent_range_months"]  # type: ignore[misc]
                assert alo <= new <= ahi
            else:
                choice = resolve_tier(j, cn_profile, j.charges[0])
                r = kind_range(choice.tier, j.sentence.kind)
                assert r is not None and not r.contains_months(new)
        elif d.error_type in ("E5", "E6"):
            rule, _ = fine_rule(j, cn_profile, j.charges[0])
            lo, hi = rule.allowed_range(d.rationale.get("base_yuan"))  # type: ignore[arg-type]
            new = parse_sentence(d.judgment).fine_yuan
            assert new is not None
            assert (lo is not None and new < lo) or (hi is not None and new > hi)
    assert table["E1"]["injected"] > 0 and table["E3"]["injected"] > 0 and table["E4"]["injected"] > 0


def test_e4_drops_the_article_from_the_list_even_when_a_clause_cites_it() -> None:
    factor = "被告人张三到案后如实供述自己的罪行，根据刑法第六十七条第三款的规定，可以从轻处罚。"
    j = theft(factor=factor)
    out = injected("E4", j)  # the clause citing the factor's own article goes with it
    assert out.reasoning == ("本院认为，被告人张三以非法占有为目的，秘密窃取他人财物，数额较大，其行为已构成盗窃罪。"
                             "依照《中华人民共和国刑法》第二百六十四条之规定，")
    # an article cited in prose that stays cannot be removed cleanly: skip
    prose = "被告人张三到案后如实供述自己的罪行。其符合刑法第六十七条第三款的规定，可以从轻处罚。"
    skipped("E4", theft(factor=prose), "factor_entangled")
