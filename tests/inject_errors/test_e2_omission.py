"""E2 omission of charges: hand-written judgments in several layouts, generated ones
(hypothesis), and the real JuDGE multi-charge judgments — every injection must leave a
coherent judgment (no omitted charge, no combined sentence, the 刑期 note for the kept term,
the omitted articles uncited) whose undo is the original."""

from __future__ import annotations

import collections
import random
import re
from datetime import date, timedelta
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buildds.extract.judgments import parse_articles, parse_sentence
from buildds.extract.judgments.dates import DATE_RE, add_months
from buildds.inject_errors.base import InjectionContext
from buildds.inject_errors.cn_format import format_months_cn, format_yuan_cn
from buildds.inject_errors.combined_sentence import parse_block
from buildds.inject_errors.edits import undo_edits
from buildds.inject_errors.omission_reasoning import mentions
from buildds.inject_errors.registry import injectors
from buildds.inject_errors.tiers import charge_profile
from buildds.schema.judgments import InjectedJudgment, Judgment
from buildds.schema.statutes import StatuteProfile
from buildds.text import to_int_number
from tests.conftest import shared_path
from tests.inject_errors.test_injectors import CTX, FACTS, PROFILE, injected, make_judgment, skipped

_NOTE = re.compile(r"自(?P<s>[^，。；至]{6,20}?)起?至(?P<e>[^，。；至]{4,20}?)止")
_COMBINE = re.compile(r"数罪并罚|决定执行|合并执行|并罚")


def _date(text: str) -> date:
    m = DATE_RE.fullmatch(text.strip())
    assert m is not None, text
    return date(*(to_int_number(m[k]) for k in ("y", "m", "d")))  # type: ignore[arg-type, misc]


def assert_coherent(out: InjectedJudgment, profile: StatuteProfile) -> None:
    """The properties every E2 injection must have."""
    j = out.original
    assert undo_edits(out.anomalous_text, out.edits) == j.full_text
    assert out.facts == j.facts
    kept = cast(str, out.rationale["kept"])
    omitted = cast(list[str], out.gold_correction["omitted"])
    assert set(cast(list[str], out.gold_correction["charges"])) == {kept, *omitted}
    for name in omitted:
        assert not mentions(out.judgment, name, [kept]), (name, out.judgment)
        assert not mentions(out.reasoning, name, [kept]), (name, out.reasoning)
    assert not _COMBINE.search(out.judgment), out.judgment
    assert f"犯{kept}罪" in out.judgment
    # the sentence is the kept charge's own
    sentence = parse_sentence(out.judgment)
    assert sentence.months == out.rationale["kept_months"], out.judgment
    assert sentence.fine_yuan == out.rationale["kept_fine_yuan"], out.judgment
    if out.rationale["kept_fine_yuan"] is None:
        assert "罚金" not in out.judgment, out.judgment
    # the 刑期 note spans the kept term, with the original note's start and credited days
    old, new = _NOTE.search(j.judgment), _NOTE.search(out.judgment)
    assert (old is None) == (new is None)
    if old is not None and new is not None:
        start = _date(old["s"])
        assert _date(new["s"]) == start
        combined = cast(int, out.rationale["combined_months"])
        kept_months = cast(int, out.rationale["kept_months"])
        offset = add_months(start, combined) - timedelta(days=1) - _date(old["e"])
        assert _date(new["e"]) == add_months(start, kept_months) - timedelta(days=1) - offset
    # the citation list lacks art. 69 and the omitted charges' articles
    cited = {a.number for a in parse_articles(out.reasoning)}
    kept_article = charge_profile(profile, kept).article
    assert 69 not in cited
    for name in omitted:
        article = charge_profile(profile, name).article
        assert article == kept_article or article not in cited


def e2(j: Judgment, ctx: InjectionContext = CTX) -> InjectedJudgment:
    out = injected("E2", j, 0, ctx)
    assert_coherent(out, ctx.profile)
    return out


# --------------------------------------------------------------------------- layouts
def test_one_clause_per_charge_chinese_numerals_with_note_and_fines() -> None:
    j = make_judgment(
        FACTS.format(amount=5000),
        "本院认为，被告人张三秘密窃取他人财物，其行为已构成盗窃罪；被告人张三趁人不备抢夺他人财物，"
        "其行为已构成抢夺罪，应数罪并罚。被告人张三在抢夺过程中未得逞，系未遂。"
        "依照《中华人民共和国刑法》第二百六十四条、第二百六十七条第一款、第二十三条、第六十九条和第五十二条之规定，",
        "判决如下：被告人张三犯盗窃罪，判处有期徒刑一年，并处罚金人民币五千元；被告人张三犯抢夺罪，"
        "判处有期徒刑八个月，并处罚金人民币三千元；数罪并罚，决定执行有期徒刑一年六个月，并处罚金人民币八千元。"
        "（刑期自判决执行之日起计算。判决执行以前先行羁押的，羁押一日折抵刑期一日，即自2020年5月3日起至2021年11月2日止。"
        "罚金限于本判决生效后十日内缴纳。）")
    out = e2(j)
    assert out.rationale["kept"] == "盗窃" and out.gold_correction == {"charges": ["盗窃", "抢夺"], "omitted": ["抢夺"]}
    assert out.judgment == (
        "判决如下：被告人张三犯盗窃罪，判处有期徒刑一年，并处罚金人民币五千元。"
        "（刑期自判决执行之日起计算。判决执行以前先行羁押的，羁押一日折抵刑期一日，即自2020年5月3日起至2021年5月2日止。"
        "罚金限于本判决生效后十日内缴纳。）")
    assert out.reasoning == ("本院认为，被告人张三秘密窃取他人财物，其行为已构成盗窃罪。"
                             "依照《中华人民共和国刑法》第二百六十四条和第五十二条之规定，")


def test_items_renumbered_and_probation_moved_arabic_numerals() -> None:
    j = make_judgment(
        FACTS.format(amount=5000),
        "本院认为，被告人张三构成故意伤害罪、盗窃罪，依法应当数罪并罚。"
        "依照《中华人民共和国刑法》第二百三十四条第一款、第二百六十四条、第六十九条、第七十二条之规定，",
        "判决如下：一、被告人张三犯盗窃罪，判处有期徒刑6个月，犯故意伤害罪，判处有期徒刑1年2个月，"
        "按数罪并罚原则，决定执行有期徒刑1年6个月，缓刑2年（缓刑考验期限，从判决确定之日起计算）；"
        "二、作案工具枪支一支予以没收；三、责令被告人张三退赔被害人损失500元。")
    out = e2(j)
    assert out.rationale["kept"] == "故意伤害"
    assert out.judgment == ("判决如下：一、被告人张三犯故意伤害罪，判处有期徒刑1年2个月，缓刑2年"
                            "（缓刑考验期限，从判决确定之日起计算）；二、作案工具枪支一支予以没收；"
                            "三、责令被告人张三退赔被害人损失500元。")
    assert out.reasoning == ("本院认为，被告人张三构成故意伤害罪。"
                             "依照《中华人民共和国刑法》第二百三十四条第一款、第七十二条之规定，")


def test_item_only_about_the_omitted_offence_goes() -> None:
    j = make_judgment(
        FACTS.format(amount=5000),
        "本院认为，被告人张三构成盗窃罪、非法持有枪支罪。依照《中华人民共和国刑法》第二百六十四条、第一百二十八条第一款、第六十九条之规定，",
        "判决如下： 一、被告人张三犯盗窃罪，判处有期徒刑二年，犯非法持有枪支罪，判处有期徒刑一年，"
        "决定执行有期徒刑二年六个月； 二、本案所涉枪支，依法予以没收。 ")
    profile = PROFILE.model_copy(update={"charges": PROFILE.charges + (
        PROFILE.charges[1].model_copy(update={"charge": "非法持有枪支", "article": 128, "paragraph": 1}),)})
    out = e2(j, InjectionContext(profile=profile))
    assert out.judgment == "判决如下： 被告人张三犯盗窃罪，判处有期徒刑二年。 "


def test_middle_item_goes_and_later_items_are_renumbered() -> None:
    j = make_judgment(
        FACTS.format(amount=5000),
        "本院认为，被告人张三构成盗窃罪和非法持有枪支罪，二罪并罚。依照《中华人民共和国刑法》第二百六十四条、第一百二十八条第一款、第六十九条之规定，",
        "判决如下：一、被告人张三犯非法持有枪支罪，判处有期徒刑一年；犯盗窃罪，判处有期徒刑二年，并处罚金人民币一万元；"
        "决定执行有期徒刑二年六个月，并处罚金人民币一万元。二、扣押的枪支、子弹予以没收。三、责令被告人张三退赔被害人损失五千元。")
    profile = PROFILE.model_copy(update={"charges": PROFILE.charges + (
        PROFILE.charges[1].model_copy(update={"charge": "非法持有枪支", "article": 128, "paragraph": 1}),)})
    out = e2(j, InjectionContext(profile=profile))
    assert out.judgment == ("判决如下：一、被告人张三犯盗窃罪，判处有期徒刑二年，并处罚金人民币一万元。"
                            "二、责令被告人张三退赔被害人损失五千元。")
    assert out.reasoning == "本院认为，被告人张三构成盗窃罪。依照《中华人民共和国刑法》第二百六十四条之规定，"


def test_zero_padded_note_no_fine_for_the_kept_charge_and_list_in_reasoning() -> None:
    j = make_judgment(
        FACTS.format(amount=5000),
        "本院认为，被告人张三的行为已分别构成盗窃罪、信用卡诈骗罪。被告人张三一人犯数罪，应数罪并罚。"
        "依照《中华人民共和国刑法》第一百九十六条，第二百六十四条，第六十九条之规定，",
        "判决如下：被告人张三犯盗窃罪，判处拘役五个月；犯信用卡诈骗罪，判处有期徒刑十个月，并处罚金人民币二万元。"
        "决定执行有期徒刑十个月，并处罚金人民币二万元（已缴纳）。"
        "（刑期从判决执行之日起计算。判决执行以前先行羁押的，羁押一日折抵刑期一日，即自2019年01月05日起至2019年10月04日止。）")
    out = e2(j)
    assert out.rationale["kept"] == "信用卡诈骗"
    # same term: the note stays; the fine (the kept charge's own) and its note stay
    assert out.judgment == ("判决如下：被告人张三犯信用卡诈骗罪，判处有期徒刑十个月，并处罚金人民币二万元（已缴纳）。"
                            "（刑期从判决执行之日起计算。判决执行以前先行羁押的，羁押一日折抵刑期一日，即自2019年01月05日起至2019年10月04日止。）")
    assert out.reasoning == ("本院认为，被告人张三的行为已构成信用卡诈骗罪。"
                             "依照《中华人民共和国刑法》第一百九十六条之规定，")


def test_ties_keep_the_first_and_the_old_two_clause_case() -> None:
    j = make_judgment(FACTS.format(amount=5000), "本院认为，被告人张三构成盗窃罪、抢夺罪，应数罪并罚。",
                      "判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月；犯抢夺罪，判处有期徒刑八个月，决定执行有期徒刑一年。")
    outs = {e2(j).rationale["kept"] for _ in range(3)}
    assert outs == {"盗窃"}
    out = e2(j)
    assert out.judgment == "判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月。"
    assert out.reasoning == "本院认为，被告人张三构成盗窃罪。"


def test_three_charges_keep_the_heaviest() -> None:
    j = make_judgment(
        FACTS.format(amount=5000),
        "本院认为，被告人张三构成盗窃罪、抢夺罪和故意伤害罪，依法应予数罪并罚。"
        "依照《中华人民共和国刑法》第二百六十四条、第二百六十七条、第二百三十四条第一款、第六十九条第一款、第三款、第六十七条第三款之规定，",
        "判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月；犯抢夺罪，判处有期徒刑一年；犯故意伤害罪，判处拘役六个月；"
        "数罪并罚，决定执行有期徒刑一年十个月。（即自2020年1月31日起至2021年11月29日止）")
    out = e2(j)
    assert out.rationale["kept"] == "抢夺" and out.gold_correction["omitted"] == ["盗窃", "故意伤害"]
    assert out.judgment == "判决如下：被告人张三犯抢夺罪，判处有期徒刑一年。（即自2020年1月31日起至2021年1月30日止）"
    assert out.reasoning == ("本院认为，被告人张三构成抢夺罪。"
                             "依照《中华人民共和国刑法》第二百六十七条、第六十七条第三款之规定，")


@pytest.mark.parametrize("judgment_part, reason", [
    ("判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月，与之前犯抢夺罪没有执行的刑罚并罚，决定执行有期徒刑一年。",
     "prior_conviction"),
    (("判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月，并处罚金二千元；犯抢夺罪，判处有期徒刑六个月，"
      "决定执行有期徒刑一年，并处罚金五千元。"), "combined_fine_mismatch"),
    ("判决如下：被告人张三犯盗窃罪、抢夺罪，决定执行有期徒刑一年。", "per_charge_sentence_missing"),
    ("判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月；犯抢夺罪，判处有期徒刑六个月，决定执行有期徒刑一个。",
     "combined_unparsed"),
    (("判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月；犯抢夺罪，判处有期徒刑六个月，并处剥夺政治权利一年，"
      "决定执行有期徒刑一年，并处剥夺政治权利一年。"), "additional_penalty"),
    ("判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月；犯抢夺罪，判处有期徒刑六个月。", "no_combined_sentence"),
])
def test_skips(judgment_part: str, reason: str) -> None:
    j = make_judgment(FACTS.format(amount=5000), "本院认为，被告人张三构成盗窃罪、抢夺罪。", judgment_part)
    skipped("E2", j, reason)


def test_skips_single_charge_and_several_defendants() -> None:
    from tests.inject_errors.test_injectors import theft

    skipped("E2", theft(), "single_charge")
    j = make_judgment(FACTS.format(amount=5000), "本院认为，构成盗窃罪、抢夺罪。",
                      "判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月；犯抢夺罪，判处有期徒刑六个月，决定执行有期徒刑一年。")
    skipped("E2", j.model_copy(update={"defendants": ("张三", "李四")}), "multi_defendant")
    two = make_judgment(FACTS.format(amount=5000), "本院认为，构成盗窃罪、抢夺罪。",
                        "判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月；被告人李四犯抢夺罪，判处有期徒刑六个月，"
                        "决定执行有期徒刑一年。")
    skipped("E2", two, "multi_defendant")


def test_parse_block_reads_the_parts() -> None:
    text = ("判决如下：被告人甲犯A类罪，判处有期徒刑三年，缓刑四年，并处罚金人民币二万元；"
            "犯B类罪，判处拘役三个月。决定执行有期徒刑三年，缓刑四年，并处罚金人民币二万元（已缴纳）。")
    block = parse_block(text, 0, len(text))
    assert not isinstance(block, str)
    first, second = block.clauses
    assert (first.name, first.penalty.months, first.penalty.probation_months, first.penalty.fine_yuan) == \
        ("A类", 36, 48, 20000)
    assert (second.name, second.penalty.kind, second.penalty.months) == ("B类", "拘役", 3)
    assert text[slice(*block.combined.fine_notes[0])] == "（已缴纳）"


# --------------------------------------------------------------------------- generated
_CHARGES = {"盗窃": "二百六十四", "抢夺": "二百六十七", "信用卡诈骗": "一百九十六", "故意伤害": "二百三十四",
             "生产、销售伪劣产品": "一百四十"}
_FACT = {"盗窃": "秘密窃取他人财物", "抢夺": "趁人不备夺取他人财物", "信用卡诈骗": "冒用他人信用卡",
         "故意伤害": "故意伤害他人身体，致一人轻伤", "生产、销售伪劣产品": "以次充好销售伪劣产品"}


def _cn_date(day: date) -> str:
    digits = "".join("〇一二三四五六七八九"[int(c)] for c in str(day.year))
    from buildds.text import int_to_cn

    return f"{digits}年{int_to_cn(day.month)}月{int_to_cn(day.day)}日"


@st.composite
def multi_charge(draw: st.DrawFn) -> Judgment:  # long: one layout per draw
    names = draw(st.lists(st.sampled_from(sorted(_CHARGES)), min_size=2, max_size=3, unique=True))
    chinese = draw(st.booleans())
    like_m, like_y = ("八个月", "五元") if chinese else ("8个月", "5元")
    prefix = draw(st.booleans())
    kinds = [draw(st.sampled_from(["有期徒刑", "有期徒刑", "拘役"])) for _ in names]
    months = [draw(st.integers(6, 60)) if k == "有期徒刑" else draw(st.integers(1, 6)) for k in kinds]
    fines = [draw(st.one_of(st.none(), st.integers(1, 50).map(lambda n: n * 1000))) for _ in names]
    clauses = []
    for i, (n, k, m, f) in enumerate(zip(names, kinds, months, fines)):
        fine = "" if f is None else f"，并处罚金人民币{format_yuan_cn(f, like_y)}"
        who = "被告人张三" if i == 0 or prefix else ""
        clauses.append(f"{who}犯{n}罪，判处{k}{format_months_cn(m, like_m)}{fine}")
    fixed = [m for k, m in zip(kinds, months) if k == "有期徒刑"]
    kind = "有期徒刑" if fixed else "拘役"
    pool = fixed or months
    total = min(sum(pool), max(pool) + draw(st.integers(0, 12))) if kind == "有期徒刑" else \
        min(12, max(pool) + draw(st.integers(0, 3)))
    fine_sum = sum(f for f in fines if f is not None)
    probation = kind == "有期徒刑" and total <= 36 and draw(st.booleans())
    combined = (draw(st.sampled_from(["；数罪并罚，决定执行", "。决定执行", "，决定合并执行", "；合并执行"]))
                + f"{kind}{format_months_cn(total, like_m)}"
                + (f"，缓刑{format_months_cn(max(total, 12) + 12, like_m)}" if probation else "")
                + (f"，并处罚金人民币{format_yuan_cn(fine_sum, like_y)}" if fine_sum else "")
                + ("（已缴纳）" if fine_sum and draw(st.booleans()) else ""))
    start = date(2020, draw(st.integers(1, 12)), draw(st.integers(1, 28)))
    credit = draw(st.integers(0, 30))
    end = add_months(start, total) - timedelta(days=1 + credit)
    write = _cn_date if draw(st.booleans()) else (lambda d: f"{d.year}年{d.month}月{d.day}日")
    note_text = (f"（刑期从判决执行之日起计算，即自{write(start)}起至{write(end)}止。"
                 f"{'罚金于判决生效后十日内缴纳。' if fine_sum else ''}）"
                 if not probation and draw(st.booleans()) else "")
    body = "；".join(clauses) + combined + "。" + note_text
    items = draw(st.booleans())
    judgment = "判决如下：" + (f"一、{body} 二、责令被告人张三退赔被害人损失。" if items else body)
    arts = "、".join(f"第{_CHARGES[n]}条" for n in names)
    if draw(st.booleans()):
        listed = "、".join(n + "罪" for n in names[:-1]) + "和" + names[-1] + "罪"
        opening = f"本院认为，被告人张三的行为已分别构成{listed}，应数罪并罚。"
    else:
        opening = "本院认为，" + "；".join(f"被告人张三{_FACT[n]}，其行为已构成{n}罪" for n in names) \
            + "。被告人张三一人犯数罪，依法应当数罪并罚。"
    attempt = draw(st.sampled_from(names + [""]))
    factor = f"被告人张三在{attempt}犯罪中系未遂，可以减轻处罚。" if attempt else ""
    reasoning = (f"{opening}{factor}依照《中华人民共和国刑法》{arts}、{'第二十三条、' if attempt else ''}"
                 "第六十九条、第五十二条之规定，")
    return make_judgment(FACTS.format(amount=5000), reasoning, judgment,
                         rid=f"g-{'-'.join(names)}-{total}")


@settings(max_examples=150, deadline=None)
@given(j=multi_charge(), seed=st.integers(0, 20))
def test_generated_multi_charge_judgments(j: Judgment, seed: int) -> None:
    out = injectors(seed)["E2"].inject(j, random.Random(seed), CTX)
    assert isinstance(out, InjectedJudgment), out
    assert_coherent(out, PROFILE)
    assert out == injectors(seed)["E2"].inject(j, random.Random(seed + 1), CTX)  # no randomness
    kept = cast(str, out.rationale["kept"])
    if "未遂" in j.reasoning and "未遂" not in out.reasoning:  # the factor went with its offence
        assert 23 not in {a.number for a in parse_articles(out.reasoning)}
    assert "分别" not in out.reasoning and "一人犯数罪" not in out.reasoning
    assert f"构成{kept}罪" in out.reasoning


# --------------------------------------------------------------------------- real data
def test_real_judge_multi_charge_judgments() -> None:
    from buildds.extract.judgments import load_judge
    from buildds.inject_errors.statutes import build_cn_profile

    root = shared_path("realdata", "judgments")
    profile = build_cn_profile(root / "cn-criminal-law",
                               root / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv")
    judgments = [j for j in load_judge(root / "judge-benchmark" / "test.json", rejects=[])
                 if len(set(j.charges)) > 1]
    ctx = InjectionContext(profile=profile)
    reasons: collections.Counter[str] = collections.Counter()
    for j in judgments:
        out = injectors(0)["E2"].inject(j, random.Random(0), ctx)
        if isinstance(out, InjectedJudgment):
            assert_coherent(out, profile)
            reasons["injected"] += 1
        else:
            reasons[out.reason] += 1
    print(dict(reasons))
    assert reasons["injected"] >= len(judgments) // 2
