"""Statement or option, by how the question refers to its numbered blocks
(buildds.extract.jbe.structure), on hand-written pages and on the real booklets."""

from __future__ import annotations

import pytest

from buildds.extract.jbe.booklet import parse_booklet
from buildds.extract.jbe.structure import numbered_blocks_are_statements, refers_to_labels
from buildds.schema import SUBJECTS
from tests.conftest import shared_path
from tests.extract.jbe.test_booklet import make_doc

SINGLE = "次の【事例】における甲の罪責について、正しいものは、後記１から５までのうちどれか。"


@pytest.mark.parametrize("text", ["ア イ", "ア エ", "アとウ", "ア○ イ× ウ○", "２個", "０個",
                                  "Ａ－アＢ－ウＣ－イ", "アⅠ－イⅡ", "アのみ", "①ア ③ウ"])
def test_options_that_refer_to_labels(text: str) -> None:
    assert refers_to_labels(text)


@pytest.mark.parametrize("text", ["強盗罪の共同正犯が成立する。", "甲は、乙の財布を盗んだ。（窃盗罪）"])
def test_blocks_that_say_something(text: str) -> None:
    assert not refers_to_labels(text)


def test_decision() -> None:
    sentences = ["強盗致傷罪の教唆犯が成立する。", "強盗罪の間接正犯が成立する。"]
    assert numbered_blocks_are_statements(SINGLE, 0, sentences)
    assert not numbered_blocks_are_statements(SINGLE, 3, sentences)  # options of ア–ウ
    assert not numbered_blocks_are_statements(SINGLE, 0, ["ア イ", "ウ エ"])
    assert not numbered_blocks_are_statements(SINGLE, 0, ["１００万円", "２００万円"])  # values
    combine = "各相続人の相続分の額として正しいものを組み合わせたものは、後記１から５までのうちどれか。"
    assert not numbered_blocks_are_statements(combine, 0, sentences)
    assert not numbered_blocks_are_statements(SINGLE, 0, [])


def test_numbered_statements_after_a_jirei_are_statements() -> None:
    pages = [[
        "［刑法］",
        "〔第17問〕（配点：２）",
        "次の【事例】における甲の罪責について、判例の立場に従って検討した場合、正しいものは、",
        "後記１から３までのうちどれか。（解答欄は、［No.１］）",
        "【事 例】",
        ">甲は、１２歳の長男乙に、バーの経営者Ａから現金を奪ってくるよう言い聞かせた。",
        "１．強盗致傷罪の教唆犯が成立する。",
        "２．強盗罪の間接正犯が成立する。",
        "３．強盗致傷罪の共同正犯が成立する。",
    ]]
    b = parse_booklet(make_doc(*pages), year=2018, era="平成30年", subject=SUBJECTS["keiho"])
    (q,) = b.questions
    assert q.options == ()
    assert [(s.label, s.text) for s in q.statements] == [
        ("1", "強盗致傷罪の教唆犯が成立する。"), ("2", "強盗罪の間接正犯が成立する。"),
        ("3", "強盗致傷罪の共同正犯が成立する。")]
    assert [le.kind for le in q.lead_ins] == ["事例"]


def test_options_of_labelled_statements_stay_options() -> None:
    pages = [[
        "〔第１問〕（配点：２）",
        "次のアからウまでの各記述のうち、正しいものの組合せは、後記１から３までのうちどれか。",
        "（解答欄は、［No.１］）",
        "ア．甲は正しい。",
        "イ．乙は正しい。",
        "ウ．丙は正しい。",
        "１．ア イ ２．ア ウ ３．イ ウ",
    ]]
    b = parse_booklet(make_doc(*pages), year=2018, era="平成30年", subject=SUBJECTS["keiho"])
    (q,) = b.questions
    assert [s.label for s in q.statements] == list("アイウ")
    assert [o.text for o in q.options] == ["ア イ", "ア ウ", "イ ウ"]


@pytest.mark.shared
@pytest.mark.parametrize(("year", "number", "count"), [(2015, 18, 5), (2018, 17, 5), (2024, 16, 5)])
def test_real_numbered_statements_read_as_options_before(year: int, number: int,
                                                         count: int) -> None:
    """2015 刑法 Q18 and 2018 刑法 Q17 (after a 【事例】) and 2024 刑法 Q16 (【発言】) print their
    statements as 後記１から５: the answer key names one of them, nothing refers to labels."""
    from buildds.extract.pdf.lines import extract_pdf
    from buildds.text import era_of

    pdf = shared_path("jbe", "pdf", str(year), "keiho-mondai.pdf")
    b = parse_booklet(extract_pdf(pdf), year=year, era=era_of(year), subject=SUBJECTS["keiho"])
    q = next(q for q in b.questions if q.number == number)
    assert q.options == ()
    assert [s.label for s in q.statements] == [str(n) for n in range(1, count + 1)]
    assert all(len(s.text) > 10 for s in q.statements)
