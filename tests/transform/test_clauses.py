"""Clause splitting: hand-written Japanese and English snippets, plus the real contracts in
../shared/realdata/contracts (skipped when absent)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from buildds.extract.contracts import blocks_from_pdf
from buildds.schema.contracts import Clause, DocBlock, Revision
from buildds.transform.clauses import document_text, ja_article_heading, split_clauses
from tests.conftest import shared_path


def paras(*texts: str) -> list[DocBlock]:
    """docx-like paragraphs (no bbox)."""
    return [DocBlock(index=i, text=t, source_index=i) for i, t in enumerate(texts)]


def lines(*specs: str | tuple[float, str]) -> list[DocBlock]:
    """PDF-like lines with a bbox; a (x, text) tuple sets the indent."""
    out = []
    for i, spec in enumerate(specs):
        x, text = spec if isinstance(spec, tuple) else (72.0, spec)
        out.append(DocBlock(index=i, text=text, page=1 + i // 40, bbox=(x, 10.0 * i, 500.0, 10.0 * i + 9),
                            source_index=i))
    return out


def articles(clauses: list[Clause]) -> list[Clause]:
    return [c for c in clauses if c.kind in ("article", "section")]


# --------------------------------------------------------------------------- the trap
TRAP_CASES = [
    # (line, is heading, number, heading)
    ("第１条（目的）", True, 1, "目的"),
    ("第一条（目的）", True, 1, "目的"),
    ("第 10 条（個人情報の取扱い）", True, 10, "個人情報の取扱い"),
    ("第1条 （適用範囲）", True, 1, "適用範囲"),
    ("第５条 (本アプリの停止等)", True, 5, "本アプリの停止等"),
    ("第１条", True, 1, None),
    ("第２条　甲は乙に対し、次の業務を委託する。", True, 2, None),
    ("第1条の2（定義）", True, 1, "定義"),
    ("（目的）第1条 この契約は", True, 1, "目的"),
    ("第二十三条【準拠法】", True, 23, "準拠法"),
    ("第4条第4項、第7条第2項、第8条、第9条第2項及び第3項", False, None, None),
    ("第３条の規定により", False, None, None),
    ("第5条に基づき", False, None, None),
    ("第10条、第11条、第12条", False, None, None),
    ("第27条及び第28条の権利を含む", False, None, None),
    ("第2条 及び第3条の規定", False, None, None),
    ("第7条 (損害の賠償)に定める損害", False, None, None),
    ("第６条を準用する。", False, None, None),
    ("第条", False, None, None),
    ("本契約の第7条 (損害の賠償)", False, None, None),
]


@pytest.mark.parametrize("line,is_heading,number,heading", TRAP_CASES, ids=[c[0] for c in TRAP_CASES])
def test_article_heading_rule(line: str, is_heading: bool, number: int | None, heading: str | None) -> None:
    parsed = ja_article_heading(line)
    assert (parsed is not None) == is_heading
    if parsed is not None:
        assert (parsed.number, parsed.heading) == (number, heading)


def test_wrapped_cross_reference_does_not_start_a_clause() -> None:
    blocks = lines(
        "第21条 （存続条項）",
        "第4条第4項、第7条第2項、第8条、第9条第2項及び第3項、第10条の規定は、",
        "第３条の規定により本契約が終了したあとも効力を存続する。",
        "第22条 （誠実協議）",
        "甲乙は誠実に協議する。",
    )
    cl = articles(split_clauses(blocks, source="t"))
    assert [(c.number, c.heading) for c in cl] == [(21, "存続条項"), (22, "誠実協議")]
    assert cl[0].text.startswith("第4条第4項、第7条第2項")
    assert "第３条の規定により" in cl[0].text
    assert (cl[0].block_start, cl[0].block_end) == (0, 2)


# --------------------------------------------------------------------------- Japanese
JA_CONTRACT = paras(
    "業 務 委 託 契 約 書",
    "株式会社A（以下「甲」という。）と株式会社B（以下「乙」という。）は、次のとおり契約を締結する。",
    "第１条（目的）",
    "本契約は、甲が乙に業務を委託する条件を定める。",
    "第２条（業務内容）",
    "１　乙は、次の業務を行う。",
    "一　システムの設計",
    "二　システムの保守",
    "２　前項の業務の詳細は別紙に定める。",
    "（委託料）",
    "第 3 条",
    "甲は乙に委託料を支払う。",
    "（１）契約締結時　半額",
    "(2) 納品時　残額",
    "第四条　本契約に定めのない事項は、甲乙協議して定める。",
    "①　協議は書面で行う。",
    "ア　電子メールを含む。",
    "(a) ファクシミリを含む。",
    "第4条の2（反社会的勢力の排除）",
    "甲及び乙は、反社会的勢力でないことを表明する。",
    "附則",
    "本契約は令和６年４月１日から施行する。",
    "本契約の成立を証するため、本書２通を作成し、甲乙記名押印の上、各１通を保有する。",
    "令和６年３月１日",
    "甲　住所　東京都千代田区",
    "氏名　株式会社A　印",
    "乙　住所　大阪府大阪市",
    "別紙１（業務仕様）",
    "１　設計書を作成する。",
)


def test_japanese_contract_structure() -> None:
    cl = split_clauses(JA_CONTRACT, source="ja.docx")
    kinds = [(c.kind, c.number, c.number_text, c.heading) for c in cl]
    assert kinds == [
        ("preamble", None, None, None),
        ("article", 1, "第１条", "目的"),
        ("article", 2, "第２条", "業務内容"),
        ("article", 3, "第 3 条", "委託料"),
        ("article", 4, "第四条", None),
        ("article", 4, "第4条の2", "反社会的勢力の排除"),
        ("supplementary", None, None, "附則"),
        ("signature", None, None, None),
        ("appendix", None, None, "別紙１（業務仕様）"),
    ]
    pre, a1, a2, a3, a4, _a4b, supp, sig, app = cl
    assert pre.text.startswith("業務委託契約書\n")  # letter-spaced title collapsed
    assert a1.text == "本契約は、甲が乙に業務を委託する条件を定める。"
    assert a2.paragraphs == ("１　乙は、次の業務を行う。", "２　前項の業務の詳細は別紙に定める。")
    assert a2.items == ("一　システムの設計", "二　システムの保守")
    assert (a3.block_start, a3.block_end) == (9, 13)  # the bare heading line belongs to it
    assert a3.items == ("（１）契約締結時　半額", "(2) 納品時　残額")
    assert a4.text.startswith("本契約に定めのない事項は")
    assert a4.items == ("①　協議は書面で行う。", "ア　電子メールを含む。", "(a) ファクシミリを含む。")
    assert supp.text == "本契約は令和６年４月１日から施行する。"
    assert sig.text.splitlines()[1] == "令和６年３月１日"
    assert app.text == "１　設計書を作成する。"
    assert all(c.source == "ja.docx" and not c.changed and c.original_text is None for c in cl)


def test_char_spans_index_the_document_text() -> None:
    cl = split_clauses(JA_CONTRACT, source="ja.docx")
    doc = document_text(JA_CONTRACT)
    for c in cl:
        assert c.char_span is not None
        a, b = c.char_span
        expected = "\n".join(
            b2.text for b2 in JA_CONTRACT[c.block_start : c.block_end + 1]
        ).replace("業 務 委 託 契 約 書", "業務委託契約書")
        assert doc[a:b] == expected
    spans = [c.char_span for c in cl]
    assert all(s1[1] < s2[0] for s1, s2 in itertools.pairwise(spans))  # type: ignore[index]


def test_heading_and_body_in_one_paragraph_split_by_line_break() -> None:
    # jp_spc-jyoho-mamoru .docx: <w:br/> between heading and body
    cl = articles(split_clauses(paras(
        "第1条（契約の目的）\n本契約は、業務委託の条件を定める。",
        "第2条（業務内容）\n乙は次の業務を行う。\n（1）設計\n(2)保守",
    ), source="t"))
    assert [(c.number, c.heading) for c in cl] == [(1, "契約の目的"), (2, "業務内容")]
    assert cl[0].text == "本契約は、業務委託の条件を定める。"
    assert cl[1].items == ("（1）設計", "(2)保守")


def test_pdf_lines_are_joined_and_items_found_by_indent() -> None:
    blocks = lines(
        "第5条（秘密保持）",
        (72, "１．乙は、業務遂行のために有用な情報を甲に提供する。ただし、法令によっ"),
        (72, "て制限されている情報についてはこの限りでない。"),
        (72, "２．甲乙双方は、機密を第三者に漏洩してはならない。ただし、以下の情報は"),
        (72, "この限りでない。"),
        (108, "1.乙が甲に提供する以前に、すでに公知のもの。"),
        (108, "2.甲が第三者から知得したもの。"),
        (72, "３．前項は、本契約の終了後も効力を有する。"),
    )
    (a,) = split_clauses(blocks, source="t")
    assert a.paragraphs == (
        "１．乙は、業務遂行のために有用な情報を甲に提供する。ただし、法令によって制限されている情報についてはこの限りでない。",
        "２．甲乙双方は、機密を第三者に漏洩してはならない。ただし、以下の情報はこの限りでない。",
        "３．前項は、本契約の終了後も効力を有する。",
    )
    assert a.items == ("1.乙が甲に提供する以前に、すでに公知のもの。", "2.甲が第三者から知得したもの。")
    assert a.page == 1


def test_zero_width_spaces_and_kangxi_radicals() -> None:
    cl = articles(split_clauses(paras(
        "第\u2f00条\u200b（契約期間）", "契約期間は⼀年とする。", "第2条\u200b（業務内容）", "1.\u200b 指導業務"
    ), source="t"))
    assert [(c.number, c.number_text, c.heading) for c in cl] == [(1, "第一条", "契約期間"), (2, "第2条", "業務内容")]
    assert cl[0].text == "契約期間は一年とする。"
    assert cl[1].paragraphs == ("1. 指導業務",)


def test_numbered_headings_without_articles() -> None:
    # jp_supota 秘密保持誓約書: 「１（見出し）」 and no 第N条
    cl = split_clauses(paras(
        "秘密保持誓約書", "記", "１（秘密保持の誓約）", "秘密を保持します。", "２（秘密の報告等）",
        "（１）直ちに報告します。", "＿＿＿＿年＿＿月＿＿日", "氏名 印",
    ), source="t")
    assert [(c.kind, c.number, c.heading) for c in cl] == [
        ("preamble", None, None), ("section", 1, "秘密保持の誓約"), ("section", 2, "秘密の報告等"),
        ("signature", None, None),
    ]


def test_chapters_are_separate_clauses() -> None:
    cl = split_clauses(paras("第1章 総則", "第1条（目的）", "本規約は…", "第2章 利用", "第2条（登録）", "登録する。"),
                       source="t")
    assert [(c.kind, c.number) for c in cl] == [("other", 1), ("article", 1), ("other", 2), ("article", 2)]
    assert cl[0].heading == "総則"


def test_document_without_clauses_is_one_other_clause() -> None:
    (c,) = split_clauses(paras("見積書", "金額 100,000円"), source="t")
    assert (c.kind, c.block_start, c.block_end) == ("other", 0, 1)
    assert split_clauses([], source="t") == []


# --------------------------------------------------------------------------- tracked changes
def test_tracked_changes_give_original_text_and_changed() -> None:
    ins = Revision(kind="insertion", text="十")
    blocks = [
        DocBlock(index=0, text="第1条（目的）"),
        DocBlock(index=1, text="本契約は業務委託の条件を定める。"),
        DocBlock(index=2, text="第2条（期間）"),
        DocBlock(index=3, text="期間は十年とする。", original="期間は年とする。", revisions=(ins,)),
        DocBlock(index=4, text="", original="更新しない。", exists_in="original"),
        DocBlock(index=5, text="第3条（報酬）"),
        DocBlock(index=6, text="報酬は別途定める。", exists_in="accepted"),
    ]
    a1, a2, a3 = split_clauses(blocks, source="t")
    assert (a1.changed, a1.original_text) == (False, None)
    assert a2.changed and a2.text == "期間は十年とする。"
    assert a2.original_text == "第2条（期間）\n期間は年とする。\n更新しない。"
    assert (a2.block_start, a2.block_end) == (2, 4)  # the deleted paragraph stays with 第2条
    assert a3.changed and a3.original_text == "第3条（報酬）"
    assert a3.text == "報酬は別途定める。"


def test_header_and_footer_blocks_are_ignored() -> None:
    blocks = [
        DocBlock(index=0, text="CONFIDENTIAL", part="header"),
        DocBlock(index=1, text="第1条（目的）"),
        DocBlock(index=2, text="本文。"),
        DocBlock(index=3, text="- 1 -", part="footer"),
    ]
    (a,) = split_clauses(blocks, source="t")
    assert (a.block_start, a.block_end, a.text) == (1, 2, "本文。")


# --------------------------------------------------------------------------- English
EN_CONTRACT = lines(
    "LICENSE AGREEMENT",
    "This Agreement is made between A Inc. and B LLC.",
    "1. DEFINITIONS",
    "1.1 \u201cAffiliate\u201d means any entity controlling a party.",
    "1.2 \u201cProduct\u201d means the product in Exhibit A hereto and any",
    "improvement.",
    "2. License Grant. Licensor grants to Licensee a license:",
    "(a) to make the Product;",
    "(b) to sell the Product.",
    "1. This list item is not a section.",
    "Section 3. Term",
    "This Agreement lasts five years as set out in",
    "Section 2.7. Prices are fixed.",
    "4. Miscellaneous.",
    "4.1 Notices. Notices shall be in writing.",
    "IN WITNESS WHEREOF, the parties have signed this Agreement.",
    "By: ____________",
    "EXHIBIT A",
    "1. Product description.",
)


def test_english_sections() -> None:
    cl = split_clauses(EN_CONTRACT, source="en.pdf")
    assert [(c.kind, c.number, c.number_text, c.heading) for c in cl] == [
        ("preamble", None, None, None),
        ("section", 1, "1.", "DEFINITIONS"),
        ("section", 2, "2.", "License Grant"),
        ("section", 3, "Section 3", "Term"),
        ("section", 4, "4.", "Miscellaneous"),
        ("signature", None, None, None),
        ("appendix", None, None, "EXHIBIT A"),
    ]
    s1, s2, s3 = cl[1:4]
    assert s1.paragraphs[1] == "1.2 \u201cProduct\u201d means the product in Exhibit A hereto and any improvement."
    assert s2.text.startswith("Licensor grants to Licensee a license:")
    assert s2.items == ("(a) to make the Product;", "(b) to sell the Product. 1. This list item is not a section.")
    assert "Section 2.7. Prices are fixed." in s3.text


def test_english_articles_with_roman_and_word_numbers() -> None:
    cl = split_clauses(paras(
        "AGREEMENT", "ARTICLE I", "DEFINITIONS", "1.1 Terms.", "ARTICLE II - LICENSE", "2.1 Grant.",
        "Article 3", "3.1 Term.", "ARTICLE FOUR", "4.1 Notices.",
    ), source="t")
    assert [(c.number, c.number_text, c.heading) for c in articles(cl)] == [
        (1, "ARTICLE I", "DEFINITIONS"), (2, "ARTICLE II", "LICENSE"), (3, "Article 3", None),
        (4, "ARTICLE FOUR", None),
    ]
    assert articles(cl)[0].paragraphs == ("1.1 Terms.",)


def test_table_of_contents_lines_are_not_sections() -> None:
    cl = split_clauses(lines(
        "TABLE OF CONTENTS", "1.0 DEFINITIONS 3", "2.0 SCOPE 8", "1.0 DEFINITIONS.", "1.1. Terms.",
        "2.0 SCOPE.", "2.1. Scope.",
    ), source="t")
    assert [(c.number, c.block_start) for c in articles(cl)] == [(1, 3), (2, 5)]


# --------------------------------------------------------------------------- real documents
JP_TEXT_PDFS = {
    # file: (articles expected 1..N, headings expected, signature/以上 at the end)
    # image-only jp_hanbai-keiyakusho and the encrypted 契約書-locked.pdf are left out
    "jp_supota/業務委託契約書.pdf": (7, True, True),
    "jp_supota/秘密保持誓約書.pdf": (6, True, True),  # 「１（見出し）」 sections
    "jp_spc-jyoho-mamoru/業務委託契約書.pdf": (15, True, True),  # 「第 1 条」
    "jp_coachtech/契約書.pdf": (23, True, False),  # ends with 第23条
    "jp_flatup/契約書.pdf": (8, True, True),
    "jp_decrypt-pdf/契約書.pdf": (6, False, True),  # 「第１条」 without headings
    "jp_izutalk/利用規約.pdf": (11, True, True),  # 第１条…第９条, 第10条
    "jp_useup/利用規約.pdf": (15, True, True),
}


@pytest.mark.parametrize("name", sorted(JP_TEXT_PDFS))
def test_real_japanese_pdfs(name: str) -> None:
    from buildds.extract.pdf.lines import extract_pdf

    path = shared_path("realdata", "contracts", *name.split("/"))
    expected, has_headings, has_signature = JP_TEXT_PDFS[name]
    clauses = split_clauses(blocks_from_pdf(extract_pdf(path, ocr="never")), source=name)
    numbered = [c for c in articles(clauses) if "の" not in (c.number_text or "")]
    assert [c.number for c in numbered] == list(range(1, expected + 1))
    assert all(c.heading for c in numbered) == has_headings
    assert clauses[0].kind == "preamble"
    assert (clauses[-1].kind == "signature") == has_signature
    pages = [c.page for c in clauses]
    assert pages == sorted(pages)


def test_real_coachtech_cross_reference_stays_in_article_21() -> None:
    from buildds.extract.pdf.lines import extract_pdf

    path = shared_path("realdata", "contracts", "jp_coachtech", "契約書.pdf")
    clauses = split_clauses(blocks_from_pdf(extract_pdf(path, ocr="never")), source="coachtech")
    (a21,) = [c for c in clauses if c.number == 21]
    assert a21.text.startswith("第4条第4項、第7条第2項")


def test_real_cuad_pdfs() -> None:
    from buildds.extract.pdf.lines import extract_pdf

    folder = shared_path("realdata", "contracts", "en_cuad")
    found = {}
    for path in sorted(Path(folder).glob("*.[pP][dD][fF]")):
        clauses = split_clauses(blocks_from_pdf(extract_pdf(path, ocr="never")), source=path.name)
        numbers = [c.number for c in articles(clauses)]
        assert numbers == sorted(numbers), path.name
        found[path.name] = len(numbers)
    assert len(found) == 8
    assert sum(n > 0 for n in found.values()) >= 6, found
