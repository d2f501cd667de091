"""JBE stage 2: booklet XML → JBE-QA true/false items (buildds.transform.jbe_items)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from buildds.errors import ExportError
from buildds.export.xml import parse_exam_xml
from buildds.schema import JbeExclusion as Exclusion
from buildds.schema import JbeItem
from buildds.transform.jbe_items import decompose
from buildds.transform.jbe_summary import SEED_COUNTS, summarize
from tests.conftest import shared_path

SHA = "0" * 64


def exam_xml(*questions: str, subject: str = "民法", subject_en: str = "Civil Code",
             era: str = "令和６年") -> bytes:
    body = "\n".join(questions)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<exam year="2024" era="{era}" subject="{subject}" subject_en="{subject_en}" '
            f'source="2024/minpo-mondai.pdf" sha256="{SHA}" key_source="2024/minpo-seito.pdf" '
            f'key_sha256="{SHA}" generator="test">\n{body}\n</exam>').encode()


def statements(labels: str, *, slots: list[int] | None = None) -> str:
    out = []
    for i, lab in enumerate(labels):
        slot = f' slot="{slots[i]}"' if slots else ""
        out.append(f'<statement label="{lab}"{slot} page="3">記述{lab}の本文。</statement>')
    return "\n".join(out)


def options(*texts: str) -> str:
    return "\n".join(f'<option number="{i}">{t}</option>' for i, t in enumerate(texts, 1))


def question(number: int, stem: str, inner: str, slots: str, *, mode: str = "single") -> str:
    return (f'<question number="{number}" points="2" pages="3" slot_mode="{mode}">'
            f"<stem>{stem}</stem>{inner}{slots}</question>")


def run(*qs: str, **kw: str) -> tuple[list[JbeItem], list[Exclusion]]:
    return decompose(*parse_exam_xml(exam_xml(*qs, **kw), source="test.xml"))


def labels(items: list[JbeItem]) -> dict[str, str]:
    return {i.id: i.label for i in items}


COMBO_WRONG = ("成年後見制度に関する次のアからオまでの各記述のうち、誤っているものを組み合わせたものは、"
               "後記１から５までのうちどれか。（解答欄は、［No.１］）")
COMBO_RIGHT = ("法人に関する次のアからオまでの各記述のうち，判例の趣旨に照らし正しいものを組み合わせたものは，"
               "後記１から５までのうちどれか。（解答欄は，［No.２］）")
COMBO_OPTS = options("ア イ", "ア エ", "イ ウ", "ウ オ", "エ オ")


# --------------------------------------------------------------------------- question types
def test_combination_wrong_statements() -> None:
    items, excl = run(question(18, COMBO_WRONG, statements("アイウエオ") + COMBO_OPTS,
                               '<slot no="1" answer="2" points="2"/>'))
    assert excl == []
    assert labels(items) == {"令和６年-民法-18-1": "N", "令和６年-民法-18-2": "Y",
                             "令和６年-民法-18-3": "Y", "令和６年-民法-18-4": "N",
                             "令和６年-民法-18-5": "Y"}
    first = items[0]
    assert first.answer is False and first.year == "令和６年" and first.subject == "Civil Code"
    assert first.subject_jp == "民法" and first.question == "記述アの本文。"
    assert first.theme == "成年後見制度" and first.instruction == "正しいか"
    assert first.question_type == "combination" and first.points == 2 and first.page == 3
    assert first.source == "2024/minpo-mondai.pdf" and first.sha256 == SHA


def test_combination_correct_statements_and_full_width_answer() -> None:
    items, excl = run(question(2, COMBO_RIGHT, statements("アイウエオ") + COMBO_OPTS,
                               '<slot no="2" answer="４" points="2"/>'))
    assert excl == []
    assert [i.label for i in items] == ["N", "N", "Y", "N", "Y"]
    assert items[0].instruction == "判例の趣旨に照らし記述が正しいか"
    assert items[0].theme == "法人"


def test_combination_with_to_separator() -> None:
    stem = ("表現の自由に関する次のアからエまでの各記述について，誤っているもの二つの組合せを，"
            "後記１から６までの中から選びなさい。（解答欄は，［No.３］）")
    items, _ = run(question(3, stem, statements("アイウエ") + options("アとイ", "アとウ"),
                            '<slot no="3" answer="2"/>'), subject="憲法", subject_en="Constitution")
    assert [i.label for i in items] == ["N", "Y", "N", "Y"]
    assert items[0].id == "令和６年-憲法-3-1"


TT_STEM = ("国会に関する次のアからウまでの各記述について，最高裁判所の判例の趣旨に照らして，"
           "正しいものには○，誤っているものには×を付した場合の組合せを，後記１から８までの中から"
           "選びなさい。（解答欄は，［No.５］）")


def test_truth_table_options() -> None:
    opts = options("ア○ イ○ ウ○", "ア○ イ○ ウ×", "ア〇 イ× ウ〇")
    items, excl = run(question(5, TT_STEM, statements("アイウ") + opts, '<slot no="5" answer="3"/>'),
                      subject="憲法", subject_en="Constitution")
    assert excl == []
    assert labels(items) == {"令和６年-憲法-5-1": "Y", "令和６年-憲法-5-2": "N",
                             "令和６年-憲法-5-3": "Y"}
    assert items[0].question_type == "truth_table"
    assert items[0].instruction == "最高裁判所の判例の趣旨に照らし記述が正しいか"
    assert items[0].theme == "国会"


def test_per_statement_slots() -> None:
    stem = ("次のアからウまでの各記述について，それぞれ正しい場合には１を，誤っている場合には２を"
            "選びなさい。（解答欄は，アからウの順に［No.６］から［No.８］）")
    slots = '<slot no="6" answer="1"/><slot no="7" answer="2"/><slot no="8" answer="１"/>'
    items, excl = run(question(4, stem, statements("アイウ", slots=[6, 7, 8]), slots,
                               mode="per_statement"))
    assert excl == []
    assert [i.label for i in items] == ["Y", "N", "Y"]
    assert items[0].question_type == "per_statement"


def test_per_statement_jirei_instruction_and_lead_in() -> None:
    stem = ("次の【事例】に関する後記アからイまでの各【記述】を判例の立場に従って検討し、正しい場合には"
            "１を、誤っている場合には２を選びなさい。（解答欄は、アからイの順に［No.１］から［No.２］）")
    inner = ('<lead_in kind="事例">甲は乙を殴った。</lead_in>'
             '<lead_in kind="" before="イ">教授．質問です。</lead_in>' + statements("アイ", slots=[1, 2]))
    items, _ = run(question(1, stem, inner, '<slot no="1" answer="2"/><slot no="2" answer="1"/>',
                            mode="per_statement"), subject="刑法", subject_en="Penal Code")
    assert [i.label for i in items] == ["N", "Y"]
    assert items[0].instruction == "【事例】に対して判例の立場に従って検討し記述が正しいか"
    assert items[0].lead_in == "【事例】\n甲は乙を殴った。"
    assert items[1].lead_in == "【事例】\n甲は乙を殴った。\n教授．質問です。"


@pytest.mark.parametrize("relation", ["批判", "根拠"])
def test_view_relation_ab(relation: str) -> None:
    stem = (f"人権の享有主体に関する次のアからイまでの各記述について、ｂの見解がａの見解の{relation}"
            "となっている場合には１を、そうでない場合には２を選びなさい。"
            "（解答欄は、アからイの順に［No.１］から［No.２］）")
    inner = "".join(
        f'<statement label="{lab}" slot="{n}" page="2">'
        f'<statement label="ａ" page="2">{lab}の見解ａ。</statement>'
        f'<statement label="ｂ" page="2">{lab}の見解ｂ。</statement></statement>'
        for n, lab in ((1, "ア"), (2, "イ")))
    items, excl = run(question(1, stem, inner, '<slot no="1" answer="2"/><slot no="2" answer="1"/>',
                               mode="per_statement"), subject="憲法", subject_en="Constitution")
    assert excl == []
    assert labels(items) == {"令和６年-憲法-1-1": "N", "令和６年-憲法-1-2": "Y"}
    assert items[0].instruction == f"bの見解がaの見解の{relation}となっているか"
    assert items[0].question == "ａ．アの見解ａ。\nｂ．アの見解ｂ。"
    assert items[0].question_type == "view_relation"


@pytest.mark.parametrize(("polarity", "expected"), [("正しい", "NYNYN"), ("誤っている", "YNYNY")])
def test_choose_two_unordered(polarity: str, expected: str) -> None:
    stem = (f"次の１から５までの各記述を判例の立場に従って検討した場合，{polarity}ものを２個選びなさい。"
            "（解答欄は，［No.３］，［No.４］順不同）")
    slots = ('<slot no="3" answer="4" note="順不同（部分点なし）" unordered="true"/>'
             '<slot no="4" answer="2" note="順不同（部分点なし）" unordered="true"/>')
    items, excl = run(question(3, stem, statements("12345"), slots, mode="unordered"),
                      subject="刑法", subject_en="Penal Code")
    assert excl == []
    assert "".join(i.label for i in items) == expected
    assert items[0].id == "令和６年-刑法-3-1"
    assert items[0].question_type == "choose_two"
    assert items[0].instruction == "判例の立場に従って検討し記述が正しいか"


@pytest.mark.parametrize(("polarity", "expected"), [("正しい", "NNYNN"), ("誤っている", "YYNYY")])
def test_single_choice_numbered(polarity: str, expected: str) -> None:
    stem = (f"次の１から５までの各記述のうち，判例の趣旨に照らし{polarity}ものはどれか。"
            "（解答欄は，［No.９］）")
    items, excl = run(question(9, stem, statements("12345"), '<slot no="9" answer="3"/>'),
                      subject="刑法", subject_en="Penal Code")
    assert excl == []
    assert "".join(i.label for i in items) == expected
    assert items[2].id == "令和６年-刑法-9-3"
    assert items[0].question_type == "single_choice"


def test_numbered_kijutsu_single_choice() -> None:
    """後記１から３までの各【記述】: stage 1 makes the numbered 記述 statements."""
    stem = ("次の【見解】に関する後記１から３までの各【記述】のうち，誤っているものはどれか。"
            "（解答欄は，［No.１］）")
    texts = ["【見解】は結果無価値論と矛盾しない。", "【見解】に対しては批判がある。",
             "【見解】は行為無価値論と矛盾しない。"]
    inner = ('<lead_in kind="見解">ある見解。</lead_in>'
             + "".join(f'<statement label="{i}" page="3">{t}</statement>'
                       for i, t in enumerate(texts, 1)))
    items, excl = run(question(1, stem, inner, '<slot no="1" answer="2"/>'),
                      subject="刑法", subject_en="Penal Code")
    assert excl == []
    assert [i.label for i in items] == ["Y", "N", "Y"]
    assert items[1].question == "【見解】に対しては批判がある。"
    assert items[0].lead_in == "【見解】\nある見解。"


def test_remark_is_carried() -> None:
    inner = "<remark>なお，利息は考慮しない。</remark>" + statements("アイウエオ") + COMBO_OPTS
    items, _ = run(question(1, COMBO_WRONG, inner, '<slot no="1" answer="1"/>'))
    assert {i.remark for i in items} == {"なお，利息は考慮しない。"}


# --------------------------------------------------------------------------- exclusions
def excluded(q: str, **kw: str) -> Exclusion:
    items, excl = run(q, **kw)
    assert items == []
    assert len(excl) == 1
    return excl[0]


@pytest.mark.parametrize(("stem", "reason"), [
    (("次の【会話】中の①から⑤までの（ ）内から適切な語句を選んだ場合，正しいものの組合せは，"
     "後記１から５までのうちどれか。（解答欄は，［No.１］）"), "fill_in"),
    (("次の【記述】の中の①から⑥までの（ ）内に，後記アからスまでの【語句群】から適切な語句を入れた場合，"
     "（ ）内に入るものの組合せとして正しいものは，後記１から５までのうちどれか。"), "fill_in"),
    (("次のアからオまでの各記述を判例の立場に従って検討した場合，正しいものの個数を後記１から６までの"
     "中から選びなさい。（解答欄は，［No.１］）"), "counting"),
    ("次のアからオまでの各記述のうち，正しいものはいくつあるか。（解答欄は，［No.１］）", "counting"),
    (("次のアからオまでの各手続を時間的に先に行われるものから順に並べた場合の順序として正しいものは，"
     "後記１から５までのうちどれか。（解答欄は，［No.１］）"), "ordering"),
    (("次のアからオまでの各記述について，正しいものの数を答えなさい。"
     "（解答欄は，［No.１］）"), "ambiguous"),
])
def test_stem_exclusions(stem: str, reason: str) -> None:
    ex = excluded(question(7, stem, statements("アイウエオ") + COMBO_OPTS,
                           '<slot no="1" answer="1"/>'))
    assert ex.id == "令和６年-民法-7"
    assert ex.reason == reason and ex.message


def test_all_correct_excluded() -> None:
    slot = ('<slot no="1" note="※ 第６問の採点に当たっては、受験者全員を正答として取り扱うこととします。"'
            ' all_correct="true"/>')
    ex = excluded(question(6, COMBO_WRONG, statements("アイウエオ") + COMBO_OPTS, slot))
    assert (ex.id, ex.reason) == ("令和６年-民法-6", "all_correct")


def test_missing_answer_excluded() -> None:
    ex = excluded(question(6, COMBO_WRONG, statements("アイウエオ") + COMBO_OPTS,
                           '<slot no="1" points="2"/>'))
    assert ex.reason == "missing_answer"


def test_option_naming_missing_statement_excluded() -> None:
    ex = excluded(question(8, COMBO_WRONG, statements("アイウエ") + COMBO_OPTS,
                           '<slot no="1" answer="4"/>'))  # ウ オ, and there is no オ
    assert (ex.id, ex.reason) == ("令和６年-民法-8", "unknown_statement")
    assert "オ" in ex.message


def test_answer_not_in_options_excluded() -> None:
    ex = excluded(question(8, COMBO_WRONG, statements("アイウエオ") + COMBO_OPTS,
                           '<slot no="1" answer="9"/>'))
    assert ex.reason == "answer_not_in_options"


def test_three_way_per_statement_excluded() -> None:
    stem = ("次のアからイまでの各記述における甲の罪責について，判例の立場に従って検討し，（ ）内の犯罪が"
            "既遂になる場合には１を，未遂にとどまる場合には２を，既遂にも未遂にもならない場合には３を"
            "選びなさい。（解答欄は，アからイの順に［No.１］から［No.２］）")
    ex = excluded(question(2, stem, statements("アイ", slots=[1, 2]),
                           '<slot no="1" answer="3"/><slot no="2" answer="1"/>', mode="per_statement"))
    assert ex.reason == "non_binary"


def test_per_statement_answer_not_binary_excluded() -> None:
    stem = ("次のアからイまでの各記述について，それぞれ正しい場合には１を，誤っている場合には２を"
            "選びなさい。（解答欄は，アからイの順に［No.１］から［No.２］）")
    ex = excluded(question(2, stem, statements("アイ", slots=[1, 2]),
                           '<slot no="1" answer="3"/><slot no="2" answer="1"/>', mode="per_statement"))
    assert ex.reason == "non_binary"


def test_truth_table_other_meaning_states_its_property() -> None:
    stem = ("「公の支配」の意義に関し，「法令等により一定の監督をしていることで足りる」とする見解が"
            "あるが，次のアからウまでの各記述について，かかる見解の根拠となる記述には○を，根拠とは"
            "ならない記述には×を付した場合の組合せを，後記１から８までの中から選びなさい。"
            "（解答欄は，［No.１］）")
    items, excl = run(question(1, stem, statements("アイウ") + options("ア○ イ○ ウ○",
                                                                        "ア○ イ× ウ○"),
                               '<slot no="1" answer="2"/>'))
    assert excl == []
    assert [i.label for i in items] == ["Y", "N", "Y"]
    assert {i.instruction for i in items} == {"かかる見解の根拠となる記述か"}
    assert {i.question_type for i in items} == {"truth_table"}
    # the view the instruction refers to travels with the item
    assert {i.lead_in for i in items} == {
        "「公の支配」の意義に関し，「法令等により一定の監督をしていることで足りる」とする見解がある。"}


def test_truth_table_whose_circle_marks_wrong_statements() -> None:
    stem = ("次のアからウまでの各記述について，誤っているものには○を，正しいものには×を付した場合の"
            "組合せを，後記１から８までの中から選びなさい。（解答欄は，［No.１］）")
    items, _ = run(question(1, stem, statements("アイウ") + options("ア○ イ× ウ×"),
                            '<slot no="1" answer="1"/>'))
    assert [i.label for i in items] == ["N", "Y", "Y"]
    assert {i.instruction for i in items} == {"正しいか"}


@pytest.mark.parametrize(("stem", "instruction", "expected"), [
    # …しないもの: the asked-for statements lack the property the instruction states
    (("契約の成立に関する次のアからオまでの各記述のうち，契約が成立していないものの組合せとして"
      "正しいものは，後記１から５までのうちどれか。（解答欄は，［No.１］）"),
     "契約が成立しているか", "NYNYY"),
    # 明らかに誤っている: the statements that are clearly wrong are not correct
    (("居住・移転の自由に関する次のアからオまでの各記述について，明らかに誤っているものの組合せを，"
      "後記１から６までの中から選びなさい。（解答欄は，［No.１］）"), "正しいか", "NYNYY"),
    # 適切なもの is a property, not a fill-in
    (("次の【事例】に関する後記アからオまでの各【記述】のうち，甲に殺人未遂罪の成立を認めるため"
      "の論拠として適切なものの組合せは，後記１から５までのうちどれか。（解答欄は，［No.１］）"),
     "甲に殺人未遂罪の成立を認めるための論拠として適切か", "YNYNN"),
    (("主権に関する次のアからオまでの各記述について，国政に関する最高の決定権という意味で主権の"
      "概念を用いたものの組合せを，後記１から６までの中から選びなさい。（解答欄は，［No.１］）"),
     "国政に関する最高の決定権という意味で主権の概念を用いたか", "YNYNN"),
])
def test_combination_of_any_property(stem: str, instruction: str, expected: str) -> None:
    items, excl = run(question(3, stem, statements("アイウエオ") + options("ア ウ", "イ エ"),
                               '<slot no="1" answer="1"/>'))
    assert excl == []
    assert "".join(i.label for i in items) == expected
    assert {i.instruction for i in items} == {instruction}
    assert {i.question_type for i in items} == {"combination"}


@pytest.mark.parametrize(("stem", "instruction", "expected"), [
    (("次の１から５までの各事例における甲のＶに対する罪責について，判例の立場に従って検討した場合，"
      "甲に殺人罪が成立しないものはどれか。（解答欄は，［No.１］）"),
     "判例の立場に従って検討し甲に殺人罪が成立するか", "YYNYY"),
    (("賃貸借及び使用貸借に関する次の１から５までの各記述のうち，使用貸借にのみ当てはまるものは"
      "どれか。（解答欄は，［No.１］）"), "使用貸借にのみ当てはまるか", "NNYNN"),
    (("次の【事例】に関する後記１から５までの各記述のうち，甲に窃盗罪の従犯の成立を肯定する論拠"
      "となり得ないものはどれか。（解答欄は，［No.１］）"),
     "甲に窃盗罪の従犯の成立を肯定する論拠となり得るか", "YYNYY"),
])
def test_single_choice_of_any_property(stem: str, instruction: str, expected: str) -> None:
    items, excl = run(question(2, stem, statements("12345"), '<slot no="1" answer="3"/>'),
                      subject="刑法", subject_en="Penal Code")
    assert excl == []
    assert "".join(i.label for i in items) == expected
    assert {i.instruction for i in items} == {instruction}


def test_choose_two_that_do_not_hold() -> None:
    stem = ("次の１から５までの各記述を判例の立場に従って検討し，甲に（ ）内の罪名の間接正犯が成立"
            "しないものを２個選びなさい。（解答欄は，［No.１］，［No.２］順不同）")
    items, excl = run(question(17, stem, statements("12345"),
                               '<slot no="1" answer="1"/><slot no="2" answer="3"/>',
                               mode="unordered"), subject="刑法", subject_en="Penal Code")
    assert excl == []
    assert "".join(i.label for i in items) == "NYNYY"
    assert {i.instruction for i in items} == {
        "判例の立場に従って検討し甲に( )内の罪名の間接正犯が成立するか"}


@pytest.mark.parametrize("opts", [("Ａ－アＢ－ウＣ－イ", "Ａ－イＢ－アＣ－ウ"), ("アⅠ－イⅡ", "ウⅢ－エⅢ")])
def test_matching_options_are_excluded_with_their_reason(opts: tuple[str, str]) -> None:
    stem = ("学生Ａ，Ｂ及びＣの採る見解として正しいものの組合せは，後記１から５までのうちどれか。"
            "（解答欄は，［No.１］）")
    ex = excluded(question(6, stem, statements("アイウ") + options(*opts),
                           '<slot no="1" answer="1"/>'))
    assert ex.reason == "matching" and "Ａ－ア" in ex.message


def test_no_statements_excluded() -> None:
    stem = ("次の【事例】における甲の罪責について，判例の立場に従って検討した場合，正しいものは，"
            "後記１から５までのうちどれか。（解答欄は，［No.１］）")
    ex = excluded(question(1, stem, options("窃盗罪", "詐欺罪"), '<slot no="1" answer="1"/>'))
    assert ex.reason == "no_statements"


def test_other_questions_still_decompose_next_to_an_exclusion() -> None:
    items, excl = run(
        question(1, COMBO_WRONG, statements("アイウエオ") + COMBO_OPTS, '<slot no="1" answer="1"/>'),
        question(2, COMBO_WRONG, statements("アイウエオ") + COMBO_OPTS, '<slot no="2"/>'))
    assert [e.id for e in excl] == ["令和６年-民法-2"]
    assert len(items) == 5 and all(i.id.startswith("令和６年-民法-1-") for i in items)


def test_bad_xml_raises_export_error() -> None:
    with pytest.raises(ExportError):
        parse_exam_xml(b"<exam><question>", source="bad.xml")


def test_summary() -> None:
    items, excl = run(
        question(1, COMBO_WRONG, statements("アイウエオ") + COMBO_OPTS, '<slot no="1" answer="1"/>'),
        question(2, COMBO_WRONG, statements("アイウエオ") + COMBO_OPTS, '<slot no="2"/>'))
    s = summarize(items, excl)
    assert s.total == 5 and s.per_subject == {"Civil Code": 5}
    assert s.true == 3 and s.percent_true == 60.0
    assert s.excluded_by_reason == {"missing_answer": 1}
    assert s.excluded_per_subject == {"Civil Code": 1}
    assert list(s.to_json()) == ["total", "per_subject", "per_question_type", "true",
                                 "percent_true", "excluded_total", "excluded_by_reason",
                                 "excluded_per_subject"]


# --------------------------------------------------------------------------- real booklets
@pytest.mark.shared
def test_real_booklets_2015_2024(tmp_path: Path) -> None:
    from buildds.jobs.jbe import build_jbe

    raw = shared_path("jbe", "pdf")
    build_jbe(years=list(range(2015, 2025)), raw=raw, out=tmp_path, progress=False)
    files = sorted((tmp_path / "xml").glob("*/*.xml"))
    assert len(files) == 30
    items: list[JbeItem] = []
    excl: list[Exclusion] = []
    for f in files:
        i, e = decompose(*parse_exam_xml(f.read_bytes(), source=str(f)))
        items += i
        excl += e
    assert items
    assert all(i.question.strip() and i.instruction.strip() for i in items)
    ids = [i.id for i in items]
    assert len(ids) == len(set(ids))
    assert len({e.id for e in excl}) == len(excl)
    assert not set(ids) & {e.id for e in excl}
    # what is left out truly does not decompose, each with its reason
    assert {e.reason for e in excl} <= {"fill_in", "counting", "ordering", "all_correct",
                                        "matching", "non_binary", "no_statements"}
    by_question: dict[str, list[JbeItem]] = {}
    for item in items:
        by_question.setdefault(item.id.rsplit("-", 1)[0], []).append(item)
    # the cases of issue 14: 成立しない, 当てはまる, 明らかに誤っている, numbered statements
    # after a 【事例】 (2018 刑法 17, 2015 刑法 18), 適切なもの (2021 刑法 13)
    for qid, instruction in (("平成２７年-刑法-6", "判例の立場に従って検討し甲に殺人罪が成立するか"),
                             ("平成２７年-民法-24", "使用貸借にのみ当てはまるか"),
                             ("平成３０年-憲法-8", "正しいか"),
                             ("平成３０年-刑法-17", "【事例】に対して判例の立場に従って検討し記述が正しいか"),
                             ("平成２７年-刑法-18", "判例の立場に従って検討し甲に( )内の犯罪が成立するか"),
                             ("令和３年-刑法-13", "甲に殺人未遂罪の成立を認めるための論拠として適切か")):
        assert {i.instruction for i in by_question[qid]} == {instruction}, qid
    # a single choice among numbered statements: exactly one is the asked-for one
    assert [i.label for i in by_question["平成３０年-刑法-17"]].count("Y") == 1
    assert [i.label for i in by_question["平成２７年-刑法-6"]].count("N") == 1
    summary = summarize(items, excl)
    print("\nbuildds:", json.dumps(summary.to_json(), ensure_ascii=False))
    print("JBE-QA seed:", json.dumps(SEED_COUNTS, ensure_ascii=False))


def test_binary_condition_per_statement_becomes_a_yes_no_item() -> None:
    stem = ("次のアからウまでの各記述を判例の立場に従って検討し、甲に横領罪が成立する場合には１を、"
            "成立しない場合には２を選びなさい。（解答欄は、アからウの順に［No.２］から［No.４］）")
    slots = "".join(f'<slot no="{n}" answer="{a}"/>' for n, a in ((2, "1"), (3, "2"), (4, "2")))
    items, excl = run(question(2, stem, statements("アイウ", slots=[2, 3, 4]), slots,
                               mode="per_statement"), subject="刑法", subject_en="Penal Code")
    assert excl == []
    assert [i.label for i in items] == ["Y", "N", "N"]
    assert {i.instruction for i in items} == {"判例の立場に従って検討し甲に横領罪が成立するか"}
