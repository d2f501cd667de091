"""Table-driven tests of the judgment free-text parsers (short sentences, several quoted
from JuDGE / CAIL2018 judgments)."""

from __future__ import annotations

import pytest

from buildds.extract.judgments import (
    parse_amount_involved,
    parse_articles,
    parse_charges,
    parse_factors,
    parse_money,
    parse_months,
    parse_sentence,
)


@pytest.mark.parametrize("text, months", [
    ("三年六个月", 42), ("一年零六个月", 18), ("十一个月", 11), ("二年", 24), ("1年6个月", 18),
    ("拘役五个月", 5), ("管制一年", 12), ("有期徒刑三年，缓刑四年", 36), ("六个月", 6),
    ("一年十个月", 22), ("十五年", 180), ("8个月", 8), ("无", None),
])
def test_parse_months(text: str, months: int | None) -> None:
    assert parse_months(text) == months


@pytest.mark.parametrize("text, yuan", [
    ("人民币五千元", 5000), ("1.5万元", 15000), ("二万元", 20000), ("人民币3,000元", 3000),
    ("罚金人民币一万二千元", 12000), ("十万零五百元", 100500), ("人民币15万元", 150000),
    ("5000.00元", 5000), ("九万元人民币", 90000), ("5万余元", 50000), ("123962.40元", 123962),
    ("人民币贰万元", 20000), ("没有金额", None),
])
def test_parse_money(text: str, yuan: int | None) -> None:
    assert parse_money(text) == yuan


SENTENCES = [
    # (judgment part, kind, months, probation, fine)
    ("判决如下： 被告人张3犯诈骗罪，判处有期徒刑七个月，并处罚金人民币三万元。 （刑期从判决执行之日起计算。）",
     "有期徒刑", 7, None, 30000),
    ("判决如下： 被告人李军犯危险驾驶罪，判处拘役一个月，并处罚金人民币11000元。",
     "拘役", 1, None, 11000),
    ("判决如下： 被告人王璐安犯拒不执行判决、裁定罪，判处有期徒刑一年，缓刑二年。",
     "有期徒刑", 12, 24, None),
    ("判决如下： 一、被告人熊某犯寻衅滋事罪，判处拘役六个月，宣告缓刑八个月。",
     "拘役", 6, 8, None),
    ("判决如下： 被告人贾某犯信用卡诈骗罪，判处有期徒刑一年六个月，缓刑二年，并处罚金人民币三万元。",
     "有期徒刑", 18, 24, 30000),
    (("二、被告人李正旺犯寻衅滋事罪，判处有期徒刑一年，与前罪所判有期徒刑一年，并处罚金人民币二万元并罚，"
      "决定执行有期徒刑一年十个月，并处罚金人民币二万元（已缴纳）。"), "有期徒刑", 22, None, 20000),
    ("一、撤销原判，即被告人黄某甲犯非法持有枪支罪，判处有期徒刑六个月； 二、上诉人黄某甲犯非法持有枪支罪，判处拘役五个月。",
     "拘役", 5, None, None),
    ("判决如下： 一、被告人王加学犯运输毒品罪，判处有期徒刑十五年，剥夺政治权利二年，并处没收个人财产30000元。",
     "有期徒刑", 180, None, None),
    ("判决如下： 被告人X犯故意杀人罪，判处死刑，缓期二年执行，剥夺政治权利终身。", "死刑", None, None, None),
    ("判决如下： 被告人X犯抢劫罪，判处无期徒刑，剥夺政治权利终身，并处没收个人全部财产。",
     "无期徒刑", None, None, None),
    ("判决如下： 被告人X犯非法经营罪，判处罚金人民币五千元。", "单处罚金", None, None, 5000),
    ("判决如下： 被告人X犯贪污罪，免予刑事处罚。", "免予刑事处罚", None, None, None),
    ("判决如下： 被告人X犯侮辱罪，判处管制一年。", "管制", 12, None, None),
    # the fine after a parenthesised note, and after a full stop
    (("判决如下： 被告人X犯贩卖毒品罪，判处有期徒刑七个月（刑期从判决执行之日起计算，即自2016年7月26日起至2017年2月25日止），"
      "并处罚金人民币二千元（罚金在本判决发生法律效力之次日内一次性向本院缴纳）。"), "有期徒刑", 7, None, 2000),
    ("判决如下： 一、被告人王道君犯受贿罪，判处有期徒刑二年六个月，缓刑三年。并处罚金人民币200000元。",
     "有期徒刑", 30, 36, 200000),
    # 判处 inside a note is not the penalty
    ("判决如下： 被告人段卜侠犯盗窃罪，判处有期徒刑七个月，缓刑一年，并处罚金人民币三千元。 （判处的罚金，限判决生效后缴纳）",
     "有期徒刑", 7, 12, 3000),
    ("判决如下： 本案无刑罚。", "none", None, None, None),
]


@pytest.mark.parametrize("text, kind, months, probation, fine", SENTENCES)
def test_parse_sentence(text: str, kind: str, months: int | None, probation: int | None,
                        fine: int | None) -> None:
    s = parse_sentence(text)
    assert (s.kind, s.months, s.probation_months, s.fine_yuan) == (kind, months, probation, fine)
    assert s.fine_kind == ("unknown" if fine is not None else None)
    for span in s.spans():
        assert text[span.start:span.end] == span.text


def test_parse_sentence_spans_and_offset() -> None:
    text = "判决如下： 被告人张3犯诈骗罪，判处有期徒刑三年六个月，缓刑四年，并处罚金人民币五千元。"
    s = parse_sentence(text, offset=100)
    assert s.kind_span is not None and s.kind_span.text == "有期徒刑"
    assert s.term_span is not None and s.term_span.text == "三年六个月"
    assert s.probation_span is not None and s.probation_span.text == "四年"
    assert s.fine_span is not None and s.fine_span.text == "五千元"
    assert s.span is not None and s.span.text == "有期徒刑三年六个月，缓刑四年，并处罚金人民币五千元"
    assert text[s.term_span.start - 100:s.term_span.end - 100] == "三年六个月"


@pytest.mark.parametrize("text, names", [
    ("被告人张3犯诈骗罪，判处有期徒刑七个月", ["诈骗"]),
    ("被告人王璐安犯拒不执行判决、裁定罪，判处有期徒刑一年", ["拒不执行判决、裁定"]),
    ("被告人X犯盗窃罪、诈骗罪，数罪并罚", ["盗窃", "诈骗"]),
    ("被告人杨某某犯生产、销售有毒、有害食品罪，判处有期徒刑六个月", ["生产、销售有毒、有害食品"]),
    ("一、撤销原判，即被告人X犯帮助毁灭证据罪； 二、上诉人X犯包庇罪，判处有期徒刑一年", ["包庇"]),
    ("犯贪污罪，免予刑事处罚；犯非国家工作人员受贿罪，判处有期徒刑六个月", ["贪污", "非国家工作人员受贿"]),
    ("犯罪后如实供述，判处拘役", []),
])
def test_parse_charges(text: str, names: list[str]) -> None:
    refs = parse_charges(text, offset=3)
    assert [r.name for r in refs] == names
    for r in refs:
        assert text[r.span.start - 3:r.span.end - 3] == r.name == r.span.text


@pytest.mark.parametrize("text, numbers", [
    ("依照《中华人民共和国刑法》第二百六十六条、第二十三条、第六十七条第三款之规定，判决如下", [266, 23, 67]),
    ("依照《中华人民共和国刑法》第三百五十四条，第三百五十七条，第六十七条第三款，《最高人民法院关于审理毒品犯罪案件适用法律若干问题的解释》第十二条第一款之规定",
     [354, 357, 67]),
    ("依照《中华人民共和国刑法》第一百三十三条之一、第六十七条第三款、第五十二条，《中华人民共和国刑事诉讼法》第二百三十六条之规定",
     [133, 67, 52]),
    ("依据《中华人民共和国刑法》第二百四十五条（非法侵入住宅罪），第六十七条第三款（坦白）的规定", [245, 67]),
    ("依照《中华人民共和国刑法》第三百四十七条第一款、第二款第（一）项、第四十五条之规定", [347, 45]),
    ("根据《刑法》第72条、第73条的规定", [72, 73]),
    ("依照刑法第二百六十四条之规定", [264]),
    ("依照《中华人民共和国刑事诉讼法》第二百二十五条之规定", []),
])
def test_parse_articles(text: str, numbers: list[int]) -> None:
    refs = parse_articles(text)
    assert [r.number for r in refs] == numbers
    for r in refs:
        assert text[r.span.start:r.span.end] == r.span.text
        assert r.span.text.startswith("第")


@pytest.mark.parametrize("text, amount, span_text", [
    ("被告人盗窃手机一部，价值人民币2000元。", 2000, "2000元"),
    ("先后三次盗窃财物，价值分别为500元、800元、700元，共计价值人民币2000元。", 2000, "2000元"),
    ("利用职务便利共挪用集体资金123962.40元用于个人使用", 123962, "123962.40元"),
    ("欲骗取被害人刘某某、徐某某的现金人民币10万元，被当场识破未得手。", 100000, "10万元"),
    ("由张某出资人民币100元，被告人购买毒品后共同吸食。", None, None),
    ("被告人将王某打伤，致轻伤二级。", None, None),
])
def test_parse_amount_involved(text: str, amount: int | None, span_text: str | None) -> None:
    found = parse_amount_involved(text)
    if amount is None:
        assert found is None
    else:
        assert found is not None
        assert found[0] == amount and found[1].text == span_text


@pytest.mark.parametrize("text, kinds", [
    # one factor per kind per clause: 未得逞 and 犯罪未遂 sit in two clauses
    ("被告人张3已着手实施犯罪，但因意志以外的因素而未得逞，系犯罪未遂。", [("未遂", True), ("未遂", True)]),
    ("被告人到案后能如实供述自己的罪行，依法可以从轻处罚。", [("坦白", True)]),
    ("被告人犯罪后自动投案并如实供述自己的罪行，系自首，可以从轻处罚。", [("坦白", True), ("自首", True)]),
    ("被告人曾因故意犯罪被判处有期徒刑，刑满释放后五年内再犯，系累犯，应当从重处罚。", [("累犯", False)]),
    ("被告人在共同犯罪中起次要作用，系从犯，应当减轻处罚。", [("从犯", True), ("从犯", True)]),
    ("被告人自愿认罪认罚，可以从宽处理。", [("认罪认罚", True)]),
    ("被告人赔偿了被害人的经济损失，取得了被害人的谅解。", [("退赃退赔", True), ("谅解", True)]),
    ("案发后被告人退赃，系初犯、偶犯。", [("退赃退赔", True), ("初犯偶犯", True)]),
    ("被告人犯罪时已满十六周岁不满十八周岁，系未成年人。", [("未成年", True), ("未成年", True)]),
    ("被告人有前科，系毒品再犯，应当从重处罚。", [("其他", False), ("其他", False)]),
    ("被告人揭发他人犯罪行为，查证属实，有立功表现。", [("立功", True)]),
    ("被告人的行为不构成自首。", []),
    ("被告人未如实供述。", []),
    ("辩护人提出被告人系自首的辩护意见，与事实不符，本院不予采纳。", []),
    ("被害人系未成年人。", []),
])
def test_parse_factors(text: str, kinds: list[tuple[str, bool]]) -> None:
    factors = parse_factors(text, offset=7)
    assert [(f.kind, f.mitigating) for f in factors] == kinds
    for f in factors:
        assert text[f.span.start - 7:f.span.end - 7] == f.span.text
        assert f.clause is not None and f.span.text in f.clause.text
        assert f.clause.start <= f.span.start and f.span.end <= f.clause.end
