"""Segmentation by structure: documents written here (python-docx with heading styles, a TOC
and numbering definitions; reportlab PDFs with heading fonts, unbracketed ``第一条 定義``
headings and two-level numbering) read end to end, then cut into clauses and checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from buildds.extract.contracts.document import read_document
from buildds.schema.contracts import Clause
from buildds.transform.clauses import split_clauses
from buildds.validate.clause_checks import check_clauses

FONT = Path("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf")
needs_font = pytest.mark.skipif(not FONT.exists(), reason=f"{FONT} not installed (fonts-ipafont)")


def clauses_of(path: Path) -> list[Clause]:
    doc = read_document(path, ocr=False)
    return split_clauses(doc.blocks, source=path.name)


def numbered(clauses: list[Clause]) -> list[tuple[int | None, str | None]]:
    return [(c.number, c.heading) for c in clauses if c.kind in ("article", "section")]


# --------------------------------------------------------------------------- Word
def _numbered_heading(doc, text: str, num_id: int):  # type: ignore[no-untyped-def]
    """A Heading 1 paragraph numbered by a numbering definition (the number is not text)."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    p = doc.add_paragraph(text, style="Heading 1")
    num_pr = OxmlElement("w:numPr")
    for tag, val in (("w:ilvl", 0), ("w:numId", num_id)):
        el = OxmlElement(tag)
        el.set(qn("w:val"), str(val))
        num_pr.append(el)
    p._p.get_or_add_pPr().append(num_pr)
    return p


def english_agreement_docx(path: Path, *, dot_leaders: bool = False) -> Path:
    """Cover page, a TOC (``toc 1`` style, tab + page numbers or dot leaders), recitals,
    four clauses whose numbers come from numbering.xml, 1.1 / (a) sub-clauses, an execution
    line and two Schedules with their own 1. 2. numbering."""
    from docx import Document
    from docx.enum.style import WD_STYLE_TYPE

    d = Document()
    d.styles.add_style("toc 1", WD_STYLE_TYPE.PARAGRAPH)
    num_id = int(d.styles["List Number"].element.pPr.numPr.numId.val)
    titles = ["Definitions", "Term and termination", "Fees and payment", "Confidentiality"]
    d.add_paragraph("SERVICES AGREEMENT", style="Title")
    d.add_paragraph("between Acme Limited and Beta Limited")
    d.add_paragraph("Contents", style="TOC Heading")
    for n, title in enumerate(titles, 1):
        entry = f"{n}. {title} {'.' * 20} {n + 1}" if dot_leaders else f"{n}.\t{title}\t{n + 1}"
        d.add_paragraph(entry, style="toc 1")
    d.add_paragraph("Schedule 1\tThe Services\t6", style="toc 1")
    d.add_paragraph("Schedule 2\tFees\t7", style="toc 1")
    d.add_paragraph("THIS AGREEMENT is dated 1 April 2026.")
    d.add_paragraph("WHEREAS the Customer wishes to buy the Services from the Supplier.")
    bodies = {
        "Definitions": ["1.1 In this agreement the following words have these meanings:",
                        "(a) Services: the services set out in Schedule 1;",
                        "(b) Fees: the fees set out in Schedule 2.",
                        "1.2 Clause headings do not affect the interpretation."],
        "Term and termination": ["2.1 This agreement starts on the Effective Date.",
                                 "2.2 Either party may terminate it on 30 days' notice."],
        "Fees and payment": ["The Customer shall pay the Fees within 30 days of invoice."],
        "Confidentiality": [("Each party shall keep the other's Confidential Information "
                            "secret.")],
    }
    for title in titles:
        _numbered_heading(d, title, num_id)
        for text in bodies[title]:
            d.add_paragraph(text)
    d.add_paragraph("IN WITNESS WHEREOF the parties have signed this agreement.")
    d.add_paragraph("Signed by Jane Doe for and on behalf of Acme Limited")
    d.add_paragraph("Schedule 1 – The Services", style="Heading 1")
    d.add_paragraph("1. Hosting of the Customer's website.")
    d.add_paragraph("2. Support during business hours.")
    d.add_paragraph("Schedule 2 – Fees", style="Heading 1")
    d.add_paragraph("1. A monthly fee of 100 euros.")
    d.save(str(path))
    return path


@pytest.mark.parametrize("dot_leaders", [False, True])
def test_english_docx_toc_numbering_schedules(tmp_path: Path, dot_leaders: bool) -> None:
    clauses = clauses_of(english_agreement_docx(tmp_path / "a.docx", dot_leaders=dot_leaders))
    kinds = [c.kind for c in clauses]
    assert kinds == ["cover", "preamble", "recitals", "section", "section", "section",
                     "section", "signature", "appendix", "appendix"]
    assert numbered(clauses) == [(1, "Definitions"), (2, "Term and termination"),
                                 (3, "Fees and payment"), (4, "Confidentiality")]
    cover = clauses.pop(0)
    assert cover.text == "SERVICES AGREEMENT\nbetween Acme Limited and Beta Limited"
    pre, recitals = clauses[0], clauses.pop(1)
    assert pre.text.startswith("Contents") and "WHEREAS" not in pre.text  # TOC: preamble
    assert recitals.text == "WHEREAS the Customer wishes to buy the Services from the Supplier."
    assert [c.role for c in clauses] == [None, "definitions", None, None, None, None, None, None]
    definitions = clauses[1]
    assert definitions.paragraphs[0].startswith("1.1 ")
    assert definitions.items == ("(a) Services: the services set out in Schedule 1;",
                                 "(b) Fees: the fees set out in Schedule 2.")
    assert "Signed by Jane Doe" in clauses[5].text and "Signed by" not in clauses[4].text
    assert [c.heading for c in clauses[6:]] == ["Schedule 1 – The Services", "Schedule 2 – Fees"]
    assert "Hosting" in clauses[6].text and "monthly fee" in clauses[7].text
    assert check_clauses(clauses) == []


def test_word_heading_styles_without_numbers(tmp_path: Path) -> None:
    """No number anywhere: the Heading 1 paragraphs are the clauses."""
    from docx import Document

    d = Document()
    d.add_paragraph("Letter agreement", style="Title")
    d.add_paragraph("The parties agree as follows.")
    for title, body in [("Scope", "The Supplier provides the Services."),
                        ("Price", "The price is fixed for one year."),
                        ("Governing law", "English law governs this letter.")]:
        d.add_paragraph(title, style="Heading 1")
        d.add_paragraph(body)
    d.save(str(tmp_path / "l.docx"))
    clauses = clauses_of(tmp_path / "l.docx")
    assert [c.kind for c in clauses] == ["preamble", "section", "section", "section"]
    assert [c.heading for c in clauses[1:]] == ["Scope", "Price", "Governing law"]
    assert clauses[2].text == "The price is fixed for one year."


def test_japanese_docx_unbracketed_headings_items_appendix(tmp_path: Path) -> None:
    from docx import Document

    d = Document()
    d.add_paragraph("業務委託契約書", style="Title")
    d.add_paragraph("甲と乙は、次のとおり契約を締結する。")
    d.add_paragraph("第一条 定義", style="Heading 2")
    d.add_paragraph("本契約において、次の用語の意味は以下のとおりとする。")
    d.add_paragraph("一 本業務　別紙に定める業務")
    d.add_paragraph("二 成果物　本業務により作成されるもの")
    d.add_paragraph("第二条 委託料")
    d.add_paragraph("１ 甲は乙に委託料を支払う。")
    d.add_paragraph("２ 支払方法は次のとおりとする。")
    d.add_paragraph("（１） 銀行振込")
    d.add_paragraph("（２） 現金")
    d.add_paragraph("第三条 協議")
    d.add_paragraph("本契約に定めのない事項は協議する。")
    d.add_paragraph("2026年4月1日")
    d.add_paragraph("甲：株式会社エー")
    d.add_paragraph("別紙")
    d.add_paragraph("業務内容：ウェブサイトの保守")
    d.save(str(tmp_path / "j.docx"))
    clauses = clauses_of(tmp_path / "j.docx")
    assert [c.kind for c in clauses] == ["preamble", "article", "article", "article",
                                         "signature", "appendix"]
    assert numbered(clauses) == [(1, "定義"), (2, "委託料"), (3, "協議")]
    first = clauses[1]
    assert first.text.startswith("本契約において")  # heading not glued to the body
    assert first.items == ("一 本業務　別紙に定める業務", "二 成果物　本業務により作成されるもの")
    second = clauses[2]
    assert second.paragraphs == ("１ 甲は乙に委託料を支払う。", "２ 支払方法は次のとおりとする。")
    assert second.items == ("（１） 銀行振込", "（２） 現金")
    assert "2026年4月1日" not in clauses[3].text and "2026年4月1日" in clauses[4].text
    assert clauses[5].text == "業務内容：ウェブサイトの保守"
    assert check_clauses(clauses) == []


# --------------------------------------------------------------------------- PDF
def _pdf(path: Path, rows: list[tuple[str, float, float, str]]) -> Path:
    """One A4 page per 40 rows; a row is (font, size, x, text)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    if FONT.exists():
        pdfmetrics.registerFont(TTFont("IPAMincho", str(FONT)))
    c = Canvas(str(path), pagesize=A4, invariant=1)
    y = 780.0
    for font, size, x, text in rows:
        if y < 80:
            c.showPage()
            y = 780.0
        c.setFont(font, size)
        c.drawString(x, y, text)
        y -= size * 1.7
    c.save()
    return path


def _ja_paragraph(text: str, size: float = 10.5, x: float = 72.0, per_line: int = 40
                  ) -> list[tuple[str, float, float, str]]:
    """A Japanese paragraph wrapped at ``per_line`` characters (the full lines reach the
    right edge; the last line is short)."""
    return [("IPAMincho", size, x, text[i:i + per_line]) for i in range(0, len(text), per_line)]


@needs_font
def test_japanese_pdf_unbracketed_headings_two_levels(tmp_path: Path) -> None:
    long_body = "甲は、乙に対し、本契約に定める条件に従い、本業務を委託し、乙はこれを受託する。" * 2
    rows: list[tuple[str, float, float, str]] = [("IPAMincho", 16, 200, "業務委託契約書")]
    rows += _ja_paragraph("株式会社エー（以下「甲」という。）と株式会社ビー（以下「乙」という。）は、"
                          "次のとおり契約を締結する。")
    rows += [("IPAMincho", 12, 72, "第一条 定義")]
    rows += _ja_paragraph("本契約において使用する用語の定義は、次の各号に定めるとおりとする。")
    rows += [("IPAMincho", 10.5, 82, "（１） 本業務 別紙に定める業務"),
             ("IPAMincho", 10.5, 82, "（２） 成果物 本業務の結果物")]
    rows += [("IPAMincho", 12, 72, "第二条 委託")]
    rows += _ja_paragraph("１ " + long_body)
    rows += _ja_paragraph("２ 乙は、本業務を第三者に再委託してはならない。")
    rows += [("IPAMincho", 10.5, 82, "① 甲の書面による承諾がある場合を除く。"),
             ("IPAMincho", 10.5, 82, "・ 再委託先の責任は乙が負う。")]
    rows += [("IPAMincho", 12, 72, "第三条 有効期間")]
    rows += _ja_paragraph("本契約の有効期間は、締結日から一年間とする。")
    rows += [("IPAMincho", 10.5, 72, "以上"), ("IPAMincho", 10.5, 72, "2026年4月1日"),
             ("IPAMincho", 10.5, 72, "甲：株式会社エー"), ("IPAMincho", 12, 72, "別紙"),
             ("IPAMincho", 10.5, 72, "業務内容 ウェブサイトの保守")]
    clauses = clauses_of(_pdf(tmp_path / "ja.pdf", rows))
    assert [c.kind for c in clauses] == ["preamble", "article", "article", "article",
                                         "signature", "appendix"]
    assert numbered(clauses) == [(1, "定義"), (2, "委託"), (3, "有効期間")]
    definitions = clauses[1]
    assert definitions.text.startswith("本契約において")  # not "定義本契約において…"
    assert definitions.items == ("（１） 本業務 別紙に定める業務", "（２） 成果物 本業務の結果物")
    entrust = clauses[2]
    assert entrust.paragraphs[0] == "１ " + long_body  # the wrapped lines are re-joined
    assert entrust.paragraphs[1] == "２ 乙は、本業務を第三者に再委託してはならない。"
    assert entrust.items == ("① 甲の書面による承諾がある場合を除く。", "・ 再委託先の責任は乙が負う。")
    assert clauses[3].text == "本契約の有効期間は、締結日から一年間とする。"
    assert "2026年4月1日" in clauses[4].text
    assert clauses[5].text == "業務内容 ウェブサイトの保守"
    assert check_clauses(clauses) == []


def test_english_pdf_bold_headings_and_dot_leader_toc(tmp_path: Path) -> None:
    """Headings set in a larger bold font with no number; a TOC page with dot leaders."""
    body = "Helvetica", 10.0, 72.0
    rows = [("Helvetica-Bold", 16, 72, "Consulting Agreement"),
            ("Helvetica-Bold", 12, 72, "Contents")]
    for n, title in enumerate(["Services", "Payment", "Liability"], 1):
        rows.append(("Helvetica", 10, 72, f"{title} {'.' * 40} {n + 1}"))
    rows.append((*body, "This agreement is made between Acme Ltd and Beta Ltd."))
    for title, text in [("Services", ("The Consultant shall provide the services described "
                         "below.")), ("Payment", ("The Client shall pay each invoice within "
                                     "30 days.")),
                        ("Liability", "Neither party excludes liability for fraud.")]:
        rows.append(("Helvetica-Bold", 12, 72, title))
        rows.append((*body, text))
    rows.append((*body, "IN WITNESS WHEREOF the parties have signed this agreement."))
    clauses = clauses_of(_pdf(tmp_path / "en.pdf", rows))
    assert [c.kind for c in clauses] == ["preamble", "section", "section", "section",
                                         "signature"]
    assert [c.heading for c in clauses[1:4]] == ["Services", "Payment", "Liability"]
    assert clauses[2].text == "The Client shall pay each invoice within 30 days."
    assert all("...." not in c.text for c in clauses[1:])
    assert check_clauses(clauses) == []


def test_english_pdf_two_level_numbering_articles(tmp_path: Path) -> None:
    """``Article I`` … with ``Section 1.1`` paragraphs and ``(a)`` items."""
    body = "Helvetica", 10.0
    rows = [("Helvetica-Bold", 14, 72, "LOAN AGREEMENT"),
            ("Helvetica", 10, 72, "This Loan Agreement is entered into by the parties below.")]
    for roman, title, paras in [
        ("I", "DEFINITIONS", ["Section 1.1 Loan means the loan made under this agreement.",
                              "Section 1.2 Business Day means a day banks are open."]),
        ("II", "THE LOAN", ["Section 2.1 The Lender shall lend the Borrower 1,000 euros.",
                            "(a) in one amount;", "(b) on the Closing Date.",
                            "Section 2.2 The Borrower shall repay the Loan in one year."]),
        ("III", "MISCELLANEOUS", ["Section 3.1 This agreement is governed by French law."]),
    ]:
        rows.append(("Helvetica-Bold", 11, 72, f"ARTICLE {roman}"))
        rows.append(("Helvetica-Bold", 11, 72, title))
        rows += [(*body, 90.0 if p.startswith("(") else 72.0, p) for p in paras]
    clauses = clauses_of(_pdf(tmp_path / "loan.pdf", rows))
    assert numbered(clauses) == [(1, "DEFINITIONS"), (2, "THE LOAN"), (3, "MISCELLANEOUS")]
    loan = clauses[2]
    assert loan.paragraphs == ("Section 2.1 The Lender shall lend the Borrower 1,000 euros.",
                               "Section 2.2 The Borrower shall repay the Loan in one year.")
    assert loan.items == ("(a) in one amount;", "(b) on the Closing Date.")
    assert check_clauses(clauses) == []


def test_english_pdf_outline_gives_the_clauses(tmp_path: Path) -> None:
    """Headings in the body font, no numbers, not capitals: only the PDF's outline
    (bookmarks) says where the clauses start."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    def write(path: Path, outline: bool) -> Path:
        c = Canvas(str(path), pagesize=A4, invariant=1)
        c.setFont("Helvetica", 10)
        y = 780.0
        c.drawString(72, y, "This agreement is made between Acme Ltd and Beta Ltd.")
        for k, (title, text) in enumerate([("Services", "Acme provides the services."),
                                           ("Payment", "Beta pays within 30 days."),
                                           ("Governing law", "English law governs it.")]):
            y -= 30
            c.drawString(72, y, title)
            if outline:
                c.bookmarkHorizontal(f"c{k}", 72, y + 12)
                c.addOutlineEntry(title, f"c{k}", level=0)
            y -= 15
            c.drawString(72, y, text)
        c.save()
        return path

    plain = clauses_of(write(tmp_path / "plain.pdf", outline=False))
    assert [c.kind for c in plain] == ["other"]
    marked = clauses_of(write(tmp_path / "outlined.pdf", outline=True))
    assert [(c.kind, c.heading) for c in marked] == [
        ("preamble", None), ("section", "Services"), ("section", "Payment"),
        ("section", "Governing law")]
    assert marked[2].text == "Beta pays within 30 days."


def test_japanese_toc_cover_and_supplementary_provisions() -> None:
    """A 目次 with dot leaders and page numbers never becomes articles; 附則 is its own unit."""
    from buildds.schema.contracts import DocBlock

    texts = ["利用規約", "目次", "第1条（目的）・・・・・・・・1", "第2条（定義）…………2",
             "第3条 変更 3", "第1条（目的）", "本規約は利用条件を定める。", "第2条（定義）",
             "本規約の用語は次のとおりとする。", "ア 会員 登録した者", "イ 当社 運営者",
             "第3条 変更", "当社は本規約を変更できる。", "附則", "本規約は2026年4月1日から施行する。"]
    blocks = [DocBlock(index=i, text=t, source_index=i) for i, t in enumerate(texts)]
    clauses = split_clauses(blocks, source="t.docx")
    assert [c.kind for c in clauses] == ["preamble", "article", "article", "article",
                                         "supplementary"]
    assert numbered(clauses) == [(1, "目的"), (2, "定義"), (3, "変更")]
    assert "・・・" in clauses[0].text  # the TOC stays in the preamble
    assert clauses[2].items == ("ア 会員 登録した者", "イ 当社 運営者")
    assert clauses[4].text == "本規約は2026年4月1日から施行する。"
    assert check_clauses(clauses) == []
