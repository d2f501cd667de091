"""The criterion of a question: clause → positive property + polarity + form
(buildds.transform.jbe_criterion). The phrasings are written for these tests, in the styles
of the booklets (both comma styles, full-width digits, remarks after the question)."""

from __future__ import annotations

import pytest

from buildds.transform.jbe_criterion import (
    TRUTH,
    parse_criterion,
    positive_form,
    question_sentence,
)

MARKER = "（解答欄は、［No.１］）"


@pytest.mark.parametrize(("clause", "prop", "positive"), [
    ("正しい", TRUTH, True),
    ("誤っている", TRUTH, False),
    ("誤り", TRUTH, False),
    ("誤りである", TRUTH, False),
    ("明らかに誤っている", TRUTH, False),
    ("正しくない", TRUTH, False),
    ("甲に殺人罪が成立する", "甲に殺人罪が成立する", True),
    ("甲に殺人罪が成立しない", "甲に殺人罪が成立する", False),
    ("契約が成立していない", "契約が成立している", False),
    ("使用貸借にのみ当てはまる", "使用貸借にのみ当てはまる", True),
    ("賃貸借に当てはまらない", "賃貸借に当てはまる", False),
    ("論拠となり得ない", "論拠となり得る", False),
    ("違法性が認められない", "違法性が認められる", False),
    ("相殺することができない", "相殺することができる", False),
    ("不法行為に当たらない", "不法行為に当たる", False),
    ("共同正犯とはならない", "共同正犯となる", False),
    ("根拠とはなり得ない", "根拠となり得る", False),
    ("論拠として適切な", "論拠として適切", True),
    ("論拠として不適切な", "論拠として適切", False),
    ("論拠として適切でない", "論拠として適切", False),
    ("結論として妥当でない", "結論として妥当", False),
    ("消費寄託ではない", "消費寄託である", False),
    ("請求の理由がない", "請求の理由がある", False),
    ("正当防衛が成立するとはいえない", "正当防衛が成立するといえる", False),
    ("学生Aの発言であると考えられる", "学生Aの発言であると考えられる", True),
    ("主権の概念を用いた", "主権の概念を用いた", True),
])
def test_positive_form(clause: str, prop: str, positive: bool) -> None:
    assert positive_form(clause) == (prop, positive)


def test_negation_is_read_at_the_end_of_the_clause_only() -> None:
    # ない inside the clause does not negate it
    assert positive_form("成年に達しない子が締結した契約を取り消すことができる") == (
        "成年に達しない子が締結した契約を取り消すことができる", True)
    assert positive_form("誤っている記述を含む判決に従う") == ("誤っている記述を含む判決に従う", True)


@pytest.mark.parametrize(("stem", "form", "prop", "positive", "basis"), [
    (("成年後見制度に関する次のアからオまでの各記述のうち、誤っているものを組み合わせたものは、"
     "後記１から５までのうちどれか。"), "combination", TRUTH, False, ""),
    (("法人に関する次のアからオまでの各記述のうち，判例の趣旨に照らし正しいものを組み合わせたもの"
     "は，後記１から５までのうちどれか。"), "combination", TRUTH, True, "判例の趣旨に照らし"),
    ("次のアからオまでの各記述のうち，正しいものの組合せは，後記１から５までのうちどれか。",
     "combination", TRUTH, True, ""),
    (("次のアからオまでの各記述のうち，誤っているもの二つの組合せを，後記１から10までの中から"
     "選びなさい。"), "combination", TRUTH, False, ""),
    (("次のアからオまでの各記述のうち、誤っているものを全て選んだ場合の組合せは、後記１から５まで"
     "のうちどれか。"), "combination", TRUTH, False, ""),
    (("居住・移転の自由に関する次のアからエまでの各記述について，明らかに誤っているものの組合せを，"
     "後記１から６までの中から選びなさい。"), "combination", TRUTH, False, ""),
    (("次の１から５までの各事例における甲のＶに対する罪責について，判例の立場に従って検討した場合，"
     "甲に殺人罪が成立しないものはどれか。"), "single", "甲に殺人罪が成立する", False,
     "判例の立場に従って検討し"),
    (("賃貸借及び使用貸借に関する次の１から４までの各記述のうち，使用貸借にのみ当てはまるものは"
     "どれか。"), "single", "使用貸借にのみ当てはまる", True, ""),
    (("次の【事例】における甲の罪責について，判例の立場に従って検討した場合，正しいものは，後記"
     "１から５までのうちどれか。"), "single", TRUTH, True, "判例の立場に従って検討し"),
    (("次の【見解】に従って後記の【事例】及び各【記述】を検討した場合，【事例】よりも因果関係を"
     "肯定する判断に結び付きやすいものは，後記１から５までの各【記述】のうちどれか。"), "single",
     "【事例】よりも因果関係を肯定する判断に結び付きやすい", True, "【見解】に従って検討し"),
    (("学生Ａ及びＢが議論を続けた場合、後記１から５までの各【発言】のうち、学生Ａの発言であると"
     "考えられるものを選びなさい。"), "single", "学生Aの発言であると考えられる", True, ""),
    (("次の１から５までの各記述を判例の立場に従って検討し，甲に（ ）内の罪名の間接正犯が成立しない"
     "ものを２個選びなさい。"), "choose_two", "甲に( )内の罪名の間接正犯が成立する", False,
     "判例の立場に従って検討し"),
    ("次のアからオまでの各記述のうち、正しいものを２個選びなさい。", "choose_two", TRUTH, True, ""),
    (("文書偽造の罪に関する次のアからオまでの各記述を判例の立場に従って検討した場合，Ｘに（ ）内の"
     "罪が成立しないものの組合せとして正しいものは，後記１から５までのうちどれか。"), "combination",
     "Xに( )内の罪が成立する", False, "判例の立場に従って検討し"),
    (("次の【事例】に関する後記アからオまでの各【記述】のうち，甲に殺人未遂罪の成立を認めるための"
     "論拠として適切なものの組合せは，後記１から５までのうちどれか。"), "combination",
     "甲に殺人未遂罪の成立を認めるための論拠として適切", True, ""),
    (("次のアからオまでの各記述のうち，論拠として適切でないものの組合せは，後記１から５までのうち"
     "どれか。"), "combination", "論拠として適切", False, ""),
    (("次のアからウまでの各記述について，正しいものには○を，誤っているものには×を付した場合の組合せ"
     "を，後記１から８までの中から選びなさい。"), "marks", TRUTH, True, ""),
    (("次のアからウまでの各記述について，誤っているものには○を，正しいものには×を付した場合の組合せ"
     "を，後記１から８までの中から選びなさい。"), "marks", TRUTH, False, ""),
    (("…と解する見解があるが，次のアからウまでの各記述について，かかる見解と同じ立場からの記述には○"
     "を，異なる立場からの記述には×を付した場合の組合せを，後記１から８までの中から選びなさい。"),
     "marks", "かかる見解と同じ立場からの記述", True, ""),
    (("…見解があるが、次のアからウまでの各記述について、かかる見解からの記述として正しいものには○を、"
     "誤っているものには×を付した場合の組合せを、後記１から８までの中から選びなさい。"), "marks",
     TRUTH, True, ""),
    (("次のアからオまでの各記述を判例の立場に従って検討した場合、誤っているものの個数を後記１から５"
     "までの中から選びなさい。"), "count", TRUTH, False, "判例の立場に従って検討し"),
])
def test_parse_criterion(stem: str, form: str, prop: str, positive: bool, basis: str) -> None:
    crit = parse_criterion(stem + MARKER)
    assert crit is not None
    assert (crit.form, crit.prop, crit.positive, crit.basis) == (form, prop, positive, basis)
    assert crit.is_truth == (prop == TRUTH)


def test_a_remark_after_the_question_is_not_the_criterion() -> None:
    stem = ("次のアからオまでの各記述のうち、誤っているものを組み合わせたものは、後記１から５までの"
            "うちどれか。なお、いずれも登記がされているものとする。" + MARKER)
    assert question_sentence(stem).startswith("次のアからオ")
    crit = parse_criterion(stem)
    assert crit is not None and (crit.prop, crit.positive) == (TRUTH, False)


def test_a_preamble_sentence_is_not_the_criterion() -> None:
    stem = ("次の文章は、最高裁判所の判決の判示を要約したものである。この判決に関する次のアからエまでの"
            "各記述について、明らかに誤っているものの組合せを、後記１から６までの中から選びなさい。"
            + MARKER)
    crit = parse_criterion(stem)
    assert crit is not None and (crit.form, crit.prop, crit.positive) == (
        "combination", TRUTH, False)


@pytest.mark.parametrize("stem", [
    # per-statement 1/2 questions ask no "which" question
    "次のアからオまでの各記述について、それぞれ正しい場合には１を、誤っている場合には２を選びなさい。",
    "（解答欄は、［No.１］）",
    "",
])
def test_no_criterion(stem: str) -> None:
    assert parse_criterion(stem) is None


def test_half_and_full_width_commas_read_alike() -> None:
    a = parse_criterion("次の各記述のうち，甲に窃盗罪が成立しないものはどれか。" + MARKER)
    b = parse_criterion("次の各記述のうち、甲に窃盗罪が成立しないものはどれか。" + MARKER)
    assert a == b and a is not None and a.prop == "甲に窃盗罪が成立する"
