"""Segmentation by structure on the real contracts in ../shared/realdata/contracts (skipped
when absent): a Word agreement with a TOC and Schedules, CUAD PDFs, Japanese PDFs whose
article headings carry no bracketed title."""

from __future__ import annotations

import pytest

from buildds.extract.contracts.document import read_document
from buildds.schema.contracts import Clause
from buildds.transform.clauses import split_clauses
from buildds.transform.rikai import view_blocks
from buildds.validate.clause_checks import check_clauses
from tests.conftest import shared_path

ROOT = ("realdata", "contracts")


def clauses_of(*parts: str) -> list[Clause]:
    path = shared_path(*ROOT, *parts)
    doc = read_document(path, ocr=False)
    return split_clauses(view_blocks(doc.blocks, "accepted"), source=path.name)


def test_word_agreement_with_toc_and_schedules() -> None:
    """SG.docx: a 37-clause agreement behind a Word TOC (130 PAGEREF entries) with 16
    Schedules — the TOC became 37 empty clauses and the agreement one 220,000-character
    clause before."""
    clauses = clauses_of("en_superdoc-redlines", "SG.docx")
    sections = [c for c in clauses if c.kind == "section"]
    assert [c.number for c in sections] == list(range(1, 38))
    assert sections[0].heading == "Interpretation"
    assert sections[-1].heading == "Governing law and jurisdiction"
    assert all("\t" not in (c.heading or "") for c in sections)  # no "Costs\t37" headings
    schedules = [c.heading for c in clauses if c.kind == "appendix"]
    assert [h.split()[:2] for h in schedules[:16]] == [["Schedule", str(n)] for n in range(1, 17)]
    assert schedules[0] == "Schedule 1 Pre-completion obligations"
    signature = next(k for k, c in enumerate(clauses) if c.kind == "signature")
    assert clauses[signature - 1].number == 37 and clauses[signature + 1].kind == "appendix"
    # the execution block after the schedules is a signature too, not part of Schedule 16
    execution = [c for c in clauses if c.kind == "signature" and "Signed by" in c.text]
    assert len(execution) == 1
    assert not any("Signed by" in c.text for c in clauses if c.kind == "appendix")
    codes = {f.code for f in check_clauses(clauses)}
    assert not codes & {"toc_like", "numbering_gap", "numbering_duplicate"}


@pytest.mark.parametrize(("name", "count", "last"), [
    ("N2KINC_10_16_1997-EX-10.16-SPONSORSHIP AGREEMENT.PDF", 16, "GENERAL"),
    ("TELKOMSALTD_01_30_2003-EX-10-LICENCE AND MAINTENANCE AGREEMENT.PDF", 24, None),
])
def test_cuad_sections(name: str, count: int, last: str | None) -> None:
    """TELKOM: sections 11–15 have no heading line in the text layer, only their
    paragraphs ``11. 1 …``; they start there instead of swelling section 10 to 60,000
    characters."""
    clauses = clauses_of("en_cuad", name)
    sections = [c for c in clauses if c.kind == "section"]
    assert [c.number for c in sections] == list(range(1, count + 1))
    assert sections[-1].heading == last
    assert not [f for f in check_clauses(clauses) if f.code.startswith("numbering")]


def test_cuad_annexures_after_the_signature() -> None:
    """TELKOM: ``ANNEXURE 1``–``3`` (alone on their lines) are appendices, not the tail of
    the signature."""
    clauses = clauses_of("en_cuad", "TELKOMSALTD_01_30_2003-EX-10-LICENCE AND MAINTENANCE "
                         "AGREEMENT.PDF")
    assert [c.heading for c in clauses if c.kind == "appendix"] == [
        "ANNEXURE 1", "ANNEXURE 2", "ANNEXURE 3"]
    signature = next(c for c in clauses if c.kind == "signature")
    assert signature.text.startswith("AS WITNESSES") and len(signature.text) < 500
    assert check_clauses(clauses) == []


def test_cuad_appendix_after_last_section() -> None:
    """The list of restricted trademark terms after §23 is an appendix, not part of §23."""
    clauses = clauses_of("en_cuad", "CreditcardscomInc_20070810_S-1_EX-10.33_362297_EX-10.33_"
                         "Affiliate Agreement.pdf")
    last = [c for c in clauses if c.kind == "section"][-1]
    assert (last.number, last.heading) == (23, "Governing Law") and len(last.text) < 500
    assert clauses[-1].kind == "appendix" and clauses[-1].heading == "Appendix"


@pytest.mark.parametrize(("parts", "headings"), [
    (("jp_decrypt-pdf", "契約書.pdf"), [None] * 6),
    (("jp_izutalk", "利用規約.pdf"),
     ["本規約", "本アプリの利用", "本アプリの内容", "サービス料金等", "本アプリの停止等",
      "権利の帰属", "その他免責事項", "反社会的勢力排除", "本アプリ、本規約の変更",
      "個人情報の取扱い", "準拠法及び管轄合意"]),
])
def test_japanese_pdfs(parts: tuple[str, ...], headings: list[str | None]) -> None:
    """``第１条`` alone on its line (body on the next) and ``第１条 (本規約)``: numbers,
    headings, bodies not glued to the heading, the closing lines in the signature."""
    clauses = clauses_of(*parts)
    articles = [c for c in clauses if c.kind == "article"]
    assert [c.number for c in articles] == list(range(1, len(headings) + 1))
    assert [c.heading for c in articles] == headings
    assert clauses[-1].kind == "signature"
    assert check_clauses(clauses) == []


def test_japanese_pdf_items_keep_their_lines() -> None:
    """jp_decrypt-pdf 第４条: the （１）（２） items are items, each on its own line."""
    art4 = next(c for c in clauses_of("jp_decrypt-pdf", "契約書.pdf") if c.number == 4)
    assert len(art4.items) >= 2 and all(i.startswith("（") for i in art4.items)
    assert art4.text.count("\n") >= len(art4.items)
