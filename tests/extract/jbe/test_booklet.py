"""Booklet parser: each format on hand-written pages, then all 30 real-content booklets."""

from __future__ import annotations

import json

import pytest

from buildds.extract.jbe.booklet import parse_booklet
from buildds.schema import SUBJECTS, PdfDocument, PdfLine, PdfPage, Source
from tests.conftest import check_golden, shared_path

MARGIN = 72.0
CHAR = 10.5


def make_doc(*pages: list[str]) -> PdfDocument:
    """Pages of lines; leading '>' characters indent a line by one character each."""
    out = []
    for number, lines in enumerate(pages, start=1):
        pls = []
        for row, raw in enumerate(lines):
            indent = len(raw) - len(raw.lstrip(">"))
            text = raw.lstrip(">")
            x0 = MARGIN + indent * CHAR
            top = 60.0 + row * 16.4
            pls.append(PdfLine(text=text, bbox=(x0, top, x0 + CHAR * len(text), top + CHAR),
                               font_size=CHAR, page=number))
        out.append(PdfPage(number=number, width=595.3, height=841.9, lines=tuple(pls)))
    return PdfDocument(source=Source(path="test/minpo-mondai.pdf", sha256="0" * 64),
                       pages=tuple(out))


def parse(*pages: list[str], subject: str = "minpo"):
    return parse_booklet(make_doc(*pages), year=2024, era="令和6年", subject=SUBJECTS[subject])


def content_problems(booklet):
    """Problems other than numbering (the excerpts here start mid-booklet)."""
    return [p for p in booklet.problems if p.code not in ("question-numbering", "slot-numbering")]


def test_combination_question_with_options_on_one_line():
    b = parse([
        "［民法］",
        "〔第１問〕（配点：２）",
        "保証に関する次のアからオまでの各記述のうち、誤っているものを組み合わせたものは、",
        "後記１から５までのうちどれか。（解答欄は、［No.１］）",
        "ア．保証契約は、書面でしなければ、その効力を生じな",
        ">い。",
        "イ．保証人は、催告の抗弁を有する。",
        "ウ．連帯保証人は、検索の抗弁を有しない。",
        "エ．主たる債務者の意思に反しても保証人となることができる。",
        "オ．保証債務は、主たる債務と独立して消滅時効にかかる。",
        "１．ア イ ２．ア エ ３．イ ウ ４．ウ オ ５．エ オ",
    ])
    assert not b.problems
    (q,) = b.questions
    assert (q.number, q.points, q.slots, q.slot_mode) == (1, 2, (1,), "single")
    assert q.stem.endswith("（解答欄は、［No.１］）")
    assert [s.label for s in q.statements] == list("アイウエオ")
    # wrapped line re-joined without a space
    assert q.statements[0].text == "保証契約は、書面でしなければ、その効力を生じない。"
    assert [(o.number, o.text) for o in q.options] == [
        (1, "ア イ"), (2, "ア エ"), (3, "イ ウ"), (4, "ウ オ"), (5, "エ オ")]


def test_circle_cross_table_over_several_lines():
    b = parse([
        "〔第２問〕（配点：２）",
        "次のアからウまでの各記述について、正しいものには○、誤っているものには×を付した場合の",
        "組合せを、後記１から８までの中から選びなさい。（解答欄は、［No.４］）",
        "ア．記述ア。",
        "イ．記述イ。",
        "ウ．記述ウ。",
        "１．ア○ イ○ ウ○ ２．ア○ イ○ ウ× ３．ア○ イ× ウ○",
        "４．ア○ イ× ウ× ５．ア× イ○ ウ○ ６．ア× イ○ ウ×",
        "７．ア× イ× ウ○ ８．ア× イ× ウ×",
    ])
    assert content_problems(b) == []
    (q,) = b.questions
    assert q.slots == (4,)
    assert len(q.options) == 8
    assert q.options[5].text == "ア× イ○ ウ×"


def test_per_statement_slots_with_marker_broken_across_lines_and_page():
    b = parse(
        [
            "〔第３問〕（配点：３）",
            "次のアからウまでの各記述について、正しい場合には１を、誤っている場合には２を選びなさ",
            "い。（解答欄は、アからウの順に［No.12］から［No.14］）",
            "ア．記述アである。［No.12］",
            "イ．記述イは長く、次の行に続き、［No.",
            ">13］",
        ],
        [
            "ウ．記述ウである。",
            "［No.14］",
        ],
    )
    (q,) = b.questions
    assert content_problems(b) == []
    assert q.slot_mode == "per_statement"
    assert q.slots == (12, 13, 14)
    assert [s.slot for s in q.statements] == [12, 13, 14]
    assert q.statements[1].text == "記述イは長く、次の行に続き、"
    assert (q.page_first, q.page_last) == (1, 2)


def test_nested_views_a_b_are_kept_as_parts():
    b = parse([
        "〔第１問〕（配点：３）",
        "次のアとイの各記述について、ｂの見解がａの見解の批判となっている場合には１を、そうで",
        "ない場合には２を選びなさい。（解答欄は、アからイの順に［No.１］から［No.２］）",
        "ア．ａ．見解ａの一。",
        ">>ｂ．見解ｂの一は",
        ">>>続く。［No.１］",
        "イ．ａ．見解ａの二。",
        ">>ｂ．見解ｂの二。",
        "［No.２］",
    ], subject="kenpo")
    assert content_problems(b) == []
    (q,) = b.questions
    assert [s.slot for s in q.statements] == [1, 2]
    first = q.statements[0]
    assert first.text == ""
    assert [(p.label, p.text) for p in first.parts] == [("ａ", "見解ａの一。"), ("ｂ", "見解ｂの一は続く。")]


def test_choose_two_unordered():
    b = parse([
        "〔第１問〕（配点：３）",
        "次の１から５までの各記述を判例の立場に従って検討した場合、正しいものを２個選びなさい。",
        "（解答欄は、［No.１］、［No.２］順不同）",
        "１．記述一。",
        "２．記述二は",
        ">続く。",
        "３．記述三。",
        "４．記述四。",
        "５．記述五。",
    ], subject="keiho")
    assert content_problems(b) == []
    (q,) = b.questions
    assert (q.slot_mode, q.slots) == ("unordered", (1, 2))
    assert [s.label for s in q.statements] == ["1", "2", "3", "4", "5"]
    assert q.statements[1].text == "記述二は続く。"
    assert q.options == ()


def test_lead_in_blocks_word_list_and_remark():
    b = parse([
        "〔第５問〕（配点：２）",
        "次の【事例】に関する【会話】中の①から③までの（ ）内に後記【語句群】から適切なものを",
        "入れた場合、正しいものの組合せは、後記１から５までのうちどれか。なお、①から③までには",
        "それぞれ異なるものが入る。（解答欄は、［No.５］）",
        "【事 例】",
        "甲は、乙の財布を",
        ">持ち去った。",
        "【会 話】",
        "学生Ａ．（①）が問題です。",
        "学生Ｂ．私は（②）と考え",
        ">ます。",
        "【語句群】",
        "ア．窃盗罪 イ．詐欺罪",
        "ウ．占有",
        "１．①ア ②ウ ③イ",
        "２．①イ ②ウ ③ア",
    ], subject="keiho")
    assert content_problems(b) == []
    (q,) = b.questions
    assert [li.kind for li in q.lead_ins] == ["事例", "会話", "語句群"]
    assert q.lead_ins[0].text == "甲は、乙の財布を持ち去った。"
    assert q.lead_ins[1].text == "学生Ａ．（①）が問題です。\n学生Ｂ．私は（②）と考えます。"
    assert q.lead_ins[2].text == "ア．窃盗罪 イ．詐欺罪\nウ．占有"
    assert q.statements == ()  # ア． inside 【語句群】 is a word, not a statement
    assert [o.text for o in q.options] == ["①ア ②ウ ③イ", "①イ ②ウ ③ア"]
    assert q.remark == "なお、①から③までにはそれぞれ異なるものが入る。"


def test_dialogue_turns_are_tied_to_the_answer_they_precede():
    b = parse([
        "〔第18問〕（配点：３）",
        "次の対話について、それぞれ正しい場合には１を、誤っている場合には２を選びなさい。（解答",
        "欄は、アからイの順に［No.34］から［No.35］）",
        "教授．第一の問いは",
        ">何でしょうか。",
        "ア．答え一です。［No.34］",
        "教授．第二の問いは何でしょうか。",
        "イ．答え二です。",
        "［No.35］",
    ], subject="kenpo")
    assert content_problems(b) == []
    (q,) = b.questions
    assert [(li.before, li.text) for li in q.lead_ins] == [
        ("ア", "教授．第一の問いは何でしょうか。"), ("イ", "教授．第二の問いは何でしょうか。")]
    assert [s.text for s in q.statements] == ["答え一です。", "答え二です。"]


def test_half_width_parenthesis_and_brackets_typos():
    b = parse([
        "〔第14問〕（配点：２）",
        "次の記述のうち、正しいものはどれか。(解答欄は、[No.16])",
        "ア．記述。",
    ])
    assert b.questions[0].slots == (16,)


def test_missing_marker_and_bad_numbering_are_problems_not_exceptions():
    b = parse([
        "〔第１問〕（配点：２）",
        "解答欄の表示がない問題文。",
        "ア．記述。",
        "〔第３問〕（配点：２）",
        "次の記述のうち、正しいものはどれか。（解答欄は、［No.２］）",
        "ア．記述。",
    ])
    codes = {p.code for p in b.problems}
    assert {"no-slot-marker", "question-numbering"} <= codes
    assert all(p.source == "test/minpo-mondai.pdf" for p in b.problems)
    assert b.questions[0].other  # the unparsed text is kept, not dropped


def test_not_a_booklet():
    b = parse(["民法の正解及び配点", "満点 75"])
    codes = [p.code for p in b.problems]
    assert codes[-1] == "no-questions"
    # the lines that were not questions are reported, not silently skipped
    assert codes[:-1] == ["text-before-first-question"] * 2


def test_golden_2024_minpo_question_structure():
    """Golden file for one real booklet (its first three questions), to catch regressions."""
    from buildds.extract.pdf.lines import extract_pdf

    pdf = shared_path("jbe", "pdf", "2024", "minpo-mondai.pdf")
    doc = extract_pdf(pdf, source_path="2024/minpo-mondai.pdf", ocr="never")
    b = parse_booklet(doc, year=2024, era="令和6年", subject=SUBJECTS["minpo"])
    data = [q.model_dump(mode="json") for q in b.questions[:3]]
    check_golden("booklet/2024-minpo-q1-3.json", json.dumps(data, ensure_ascii=False, indent=1))


@pytest.mark.shared
def test_all_real_booklets_parse_and_agree_with_their_keys():
    from buildds.extract.jbe.answers import parse_answer_key
    from buildds.extract.jbe.key_checks import reconcile
    from buildds.extract.pdf.lines import extract_pdf

    root = shared_path("jbe", "pdf")
    manifest = {e["path"]: e for e in json.loads((root / "manifest.json").read_text())["files"]}
    checked = 0
    for year in range(2015, 2025):
        for subject in SUBJECTS:
            doc = extract_pdf(root / str(year) / f"{subject}-mondai.pdf", ocr="never")
            b = parse_booklet(doc, year=year, era="", subject=SUBJECTS[subject])
            assert not b.problems, (year, subject, b.problems[:3])
            key = parse_answer_key(
                extract_pdf(root / str(year) / f"{subject}-seito.pdf", words=True),
                year=year, subject=subject)
            owner = {no: q.number for q in b.questions for no in q.slots}
            assert reconcile(owner, key, booklet_name=f"{year}/{subject}") == []
            assert len(doc.pages) == manifest[f"pdf/{year}/{subject}-mondai.pdf"]["pages"]
            # per-statement questions: one statement per slot, each carrying its own slot
            for q in b.questions:
                if q.slot_mode == "per_statement":
                    assert [s.slot for s in q.statements] == list(q.slots)
            checked += 1
    assert checked == 30
