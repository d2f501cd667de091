"""The shortcut audit's consistency rules on self-written judgment texts: each fires on a
made-up contradiction and stays silent on the consistent text it was made from."""

from __future__ import annotations

import pytest

from buildds.validate.shortcut_rules import (
    DATE_SPAN_TOLERANCE_DAYS,
    RULES,
    AuditText,
    cited_articles_vs_charges,
    combined_vs_charges,
    date_span_vs_term,
    fine_vs_per_charge,
    numeral_style,
)

NOTE = ("（刑期从判决执行之日起计算。判决执行以前先行羁押的，羁押一日折抵刑期一日，"
        "即自2016年11月7日起至{end}止）。")


def _single(term: str, end: str = "2018年7月6日") -> str:
    return f"判决如下： 被告人李某犯过失致人死亡罪，判处有期徒刑{term}" + NOTE.format(end=end)


def test_date_span_matches_the_term() -> None:
    assert date_span_vs_term(AuditText(_single("一年八个月"))) is None
    # a few days of an earlier custody credited: within the tolerance
    assert date_span_vs_term(AuditText(_single("一年八个月", "2018年6月20日"))) is None
    # Chinese-numeral dates, as some courts write them
    text = ("判决如下： 被告人赵某犯强奸罪，判处有期徒刑四年八个月（刑期从判决执行之日起计算。"
            "即自二〇一七年五月十一日起至二〇二二年一月十日止）。")
    assert date_span_vs_term(AuditText(text)) is None


def test_date_span_fires_on_a_term_edited_without_its_note() -> None:
    evidence = date_span_vs_term(AuditText(_single("三年九个月")))
    assert evidence is not None and "三年九个月" in evidence and "days" in evidence
    # a term with days: the note must follow them too
    assert date_span_vs_term(AuditText(_single("一年八个月十五日"))) is None
    assert date_span_vs_term(AuditText(_single("一年十个月十五日"))) is not None


def test_date_span_allows_a_postponed_end_but_not_a_shorter_term() -> None:
    late = ("判决如下： 被告人罗某犯容留他人吸毒罪，判处拘役三个月。（刑期自判决执行之日起计算。"
            "羁押期间取保候审的，刑期的终止日期顺延，即自2017年5月3日起至2017年12月17日止）")
    assert date_span_vs_term(AuditText(late)) is None
    assert date_span_vs_term(AuditText(late.replace("刑期的终止日期顺延，", ""))) is not None
    assert DATE_SPAN_TOLERANCE_DAYS < 60


def test_combined_sentence_vs_charges() -> None:
    both = ("判决如下： 被告人夏某犯非法持有毒品罪，判处有期徒刑二年三个月，并处罚金人民币五千元；"
            "犯容留他人吸毒罪，判处有期徒刑八个月，并处罚金人民币五千元；决定执行有期徒刑二年十个月，"
            "并处罚金人民币一万元。")
    assert combined_vs_charges(AuditText(both)) is None
    one = both.replace("犯非法持有毒品罪，判处有期徒刑二年三个月，并处罚金人民币五千元；", "")
    assert "single charge" in (combined_vs_charges(AuditText(one)) or "")
    no_combined = both.split("决定执行")[0]
    assert "no combined sentence" in (combined_vs_charges(AuditText(no_combined)) or "")
    too_long = both.replace("决定执行有期徒刑二年十个月", "决定执行有期徒刑五年")
    assert "outside" in (combined_vs_charges(AuditText(too_long)) or "")
    # a single new charge combined with an earlier sentence is lawful
    prior = one.replace("决定执行", "与前罪尚未执行完毕的刑罚并罚，决定执行")
    assert combined_vs_charges(AuditText(prior)) is None


def test_fine_vs_per_charge_fines() -> None:
    both = ("判决如下： 被告人夏某犯非法持有毒品罪，判处有期徒刑二年三个月，并处罚金人民币五千元；"
            "犯容留他人吸毒罪，判处有期徒刑八个月，并处罚金人民币五千元；决定执行有期徒刑二年十个月，"
            "并处罚金人民币一万元。")
    assert fine_vs_per_charge(AuditText(both)) is None
    edited = both.replace("并处罚金人民币一万元", "并处罚金人民币二万元")
    assert "≠" in (fine_vs_per_charge(AuditText(edited)) or "")
    single = ("判决如下： 被告人贾某犯信用卡诈骗罪，判处有期徒刑一年六个月，并处罚金人民币三万元。"
              "（罚金人民币三万元已缴纳）")
    assert fine_vs_per_charge(AuditText(single)) is None
    twice = single.replace("并处罚金人民币三万元", "并处罚金人民币二千七百元")
    assert "written as" in (fine_vs_per_charge(AuditText(twice)) or "")


def test_numeral_style() -> None:
    text = "判决如下： 被告人王某犯盗窃罪，判处有期徒刑二年，缓刑三年，并处罚金人民币三千元。"
    assert numeral_style(AuditText(text)) is None
    # Arabic fines beside Chinese terms are how many courts write: not a contradiction
    assert numeral_style(AuditText(text.replace("三千元", "3000元"))) is None
    assert "terms" in (numeral_style(AuditText(text.replace("缓刑三年", "缓刑3年"))) or "")
    fines = text + "（罚金人民币3000元已缴纳）"
    assert "fines" in (numeral_style(AuditText(fines)) or "")


def test_cited_articles_vs_charges() -> None:
    articles = {"盗窃罪": 264, "诈骗罪": 266}.get
    reasoning = "本院认为……依照《中华人民共和国刑法》第二百六十四条、第五十二条之规定，判决如下"
    theft = "判决如下： 被告人王某犯盗窃罪，判处有期徒刑二年。"
    assert cited_articles_vs_charges(AuditText(theft, reasoning, articles)) is None
    fraud = theft.replace("盗窃罪", "诈骗罪")
    assert "art. 266" in (cited_articles_vs_charges(AuditText(fraud, reasoning, articles)) or "")
    # nothing cited, or the charge unknown: nothing to compare
    assert cited_articles_vs_charges(AuditText(fraud, "本院认为……", articles)) is None
    assert cited_articles_vs_charges(AuditText(fraud, reasoning)) is None


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_every_rule_is_silent_on_an_empty_or_plain_judgment(rule: object) -> None:
    for text in ("", "判决如下： 被告人王某无罪。"):
        assert rule.check(AuditText(text, "依照第二百六十四条", {"盗窃罪": 264}.get)) is None  # type: ignore[attr-defined]
