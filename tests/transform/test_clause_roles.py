"""Cover pages, recitals and definitions clauses (:mod:`buildds.transform.clauses.roles`) on documents
written here: a Word agreement with a ``RECITALS`` heading and a ``Definitions`` clause, a
PDF with ``WHEREAS`` lines and an unheaded clause of ``"X" means`` lines, a Japanese
contract with 第1条（定義）, PDFs whose first page is (or is not) a cover."""

from __future__ import annotations

from pathlib import Path

from buildds.transform.clauses.roles import definitions_role
from buildds.validate.clause_checks import check_clauses
from tests.transform.test_clause_structure import _pdf, clauses_of, numbered


def test_docx_recitals_heading_and_definitions_clause(tmp_path: Path) -> None:
    from docx import Document

    d = Document()
    d.add_paragraph("DISTRIBUTION AGREEMENT", style="Title")
    d.add_paragraph("This agreement is made between Acme Inc. (Company) and Beta LLC "
                    "(Distributor) on 1 April 2026.")
    d.add_paragraph("RECITALS")
    d.add_paragraph("A. The Company makes the Products.")
    d.add_paragraph("B. The Distributor wishes to sell them.")
    d.add_paragraph("NOW, THEREFORE, the parties agree as follows:")
    d.add_paragraph("1. Definitions. In this agreement:")
    d.add_paragraph("(a) Products: the goods listed in the annex.")
    d.add_paragraph("2. Appointment. The Company appoints the Distributor.")
    d.add_paragraph("3. Interpretation and Enforcement. Headings do not bind.")
    d.save(str(tmp_path / "d.docx"))
    clauses = clauses_of(tmp_path / "d.docx")
    assert [c.kind for c in clauses] == ["preamble", "recitals", "section", "section",
                                         "section"]
    pre, rec = clauses[0], clauses[1]
    assert pre.text.startswith("DISTRIBUTION AGREEMENT") and "RECITALS" not in pre.text
    assert rec.heading == "RECITALS"
    assert rec.text.splitlines() == ["A. The Company makes the Products.",
                                     "B. The Distributor wishes to sell them.",
                                     "NOW, THEREFORE, the parties agree as follows:"]
    assert rec.number is None and rec.role is None
    assert [n for n, _ in numbered(clauses)] == [1, 2, 3]
    # "Interpretation and Enforcement" is boilerplate, not the definitions clause
    assert [c.role for c in clauses] == [None, None, "definitions", None, None]
    assert check_clauses(clauses) == []


def test_pdf_whereas_recitals_and_means_lines(tmp_path: Path) -> None:
    body = "Helvetica", 10.0, 72.0
    rows = [("Helvetica-Bold", 14, 72, "LICENSE AGREEMENT"),
            (*body, "This License Agreement is made by and between Acme and Beta."),
            (*body, "WHEREAS, Acme owns the Software;"),
            (*body, "WHEREAS, Beta wishes to use the Software;"),
            (*body, "NOW, THEREFORE, the parties agree as follows:"),
            ("Helvetica-Bold", 11, 72, "1. Terms Used"),
            (*body, '"Software" means the program named in the order.'),
            (*body, '"Licensee" means Beta and its affiliates.'),
            (*body, '"Term" means the period in clause 3.'),
            ("Helvetica-Bold", 11, 72, "2. Licence"),
            (*body, "Acme grants Beta a licence to use the Software."),
            ("Helvetica-Bold", 11, 72, "3. Term"),
            (*body, "This agreement lasts two years.")]
    clauses = clauses_of(_pdf(tmp_path / "lic.pdf", rows))
    assert [c.kind for c in clauses] == ["preamble", "recitals", "section", "section",
                                         "section"]
    assert clauses[0].text.endswith("between Acme and Beta.")
    assert clauses[1].text.startswith("WHEREAS, Acme owns the Software;")
    assert clauses[1].text.endswith("NOW, THEREFORE, the parties agree as follows:")
    assert numbered(clauses) == [(1, "Terms Used"), (2, "Licence"), (3, "Term")]
    assert [c.role for c in clauses] == [None, None, "definitions", None, None]
    assert check_clauses(clauses) == []


def test_japanese_definitions_article_and_preamble_kept(tmp_path: Path) -> None:
    from docx import Document

    d = Document()
    d.add_paragraph("業務委託契約書", style="Title")
    d.add_paragraph("甲と乙は、次のとおり契約を締結する。")
    for head, text in [("第1条（定義）", "「本業務」とは、別紙に定める業務をいう。"),
                       ("第2条（委託）", "甲は乙に本業務を委託する。")]:
        d.add_paragraph(head)
        d.add_paragraph(text)
    d.save(str(tmp_path / "j.docx"))
    clauses = clauses_of(tmp_path / "j.docx")
    assert [c.kind for c in clauses] == ["preamble", "article", "article"]
    assert [c.role for c in clauses] == [None, "definitions", None]
    assert "次のとおり" in clauses[0].text


def test_definitions_role_rules() -> None:
    assert definitions_role("section", "DEFINITIONS AND INTERPRETATION", []) == "definitions"
    assert definitions_role("article", "用語の定義", []) == "definitions"
    assert definitions_role("section", "Construction", []) is None
    assert definitions_role("preamble", "Definitions", []) is None  # only numbered clauses
    means = ['"A" means a.', '"B" means b.', '"C" shall mean c.']
    assert definitions_role("section", None, means) == "definitions"
    assert definitions_role("section", None, [*means, "x", "y", "z", "w"]) is None  # a minority
    ja = ["「甲」とは、売主をいう。", "「乙」とは、買主をいう。", "「物件」とは、別紙の物をいう。"]
    assert definitions_role("article", None, ja) == "definitions"


def _cover_pdf(path: Path, cover: list[str]) -> Path:
    """A first page holding ``cover`` (filled with blank rows to the end of the page), then the
    agreement."""
    body = "Helvetica", 10.0, 72.0
    rows = [(*body, t) for t in cover] + [(*body, "")] * (45 - len(cover))
    rows += [(*body, ("This Services Agreement is made on 1 May 2026 between Acme Ltd, a "
                      "company registered in England, and Beta Ltd.")),
             ("Helvetica-Bold", 11, 72, "1. Services"),
             (*body, "Acme shall provide the services."),
             ("Helvetica-Bold", 11, 72, "2. Fees"),
             (*body, "Beta shall pay the fees.")]
    return _pdf(path, rows)


def test_pdf_first_page_cover_and_long_first_page_no_cover(tmp_path: Path) -> None:
    clauses = clauses_of(_cover_pdf(tmp_path / "c.pdf", [
        "SERVICES AGREEMENT", "between", "ACME LTD", "and", "BETA LTD", "Dated 1 May 2026"]))
    assert [c.kind for c in clauses] == ["cover", "preamble", "section", "section"]
    assert clauses[0].text.splitlines() == ["SERVICES AGREEMENT", "between", "ACME LTD", "and",
                                            "BETA LTD", "Dated 1 May 2026"]
    assert clauses[0].page == 1 and clauses[1].page == 2
    assert clauses[1].text.startswith("This Services Agreement is made")
    assert check_clauses(clauses) == []
    # a first page with a sentence longer than a cover line is not a cover
    long_line = "This page explains at some length what the parties intend to do together " * 2
    clauses = clauses_of(_cover_pdf(tmp_path / "n.pdf", ["SERVICES AGREEMENT", long_line]))
    assert [c.kind for c in clauses] == ["preamble", "section", "section"]
