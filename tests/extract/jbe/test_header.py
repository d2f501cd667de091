"""What a booklet or answer key prints about itself (subject, exam year), read from title
lines only, and checked against its path: hand-made pages for layouts and OCR noise, the
bundled sample, the 60 PDFs in ../shared and (OCR) the first pages of the scans."""

from __future__ import annotations

from pathlib import Path

import pytest

from buildds.extract.jbe.header import (
    PrintedHeader,
    check_printed,
    read_booklet_header,
    read_key_header,
)
from buildds.extract.pdf.lines import extract_pdf
from buildds.schema import SUBJECTS, PdfDocument, PdfLine, PdfPage, Source
from tests.conftest import REPO, shared_path


def _doc(*pages: list[str], furniture: tuple[str, ...] = ()) -> PdfDocument:
    out = []
    for number, texts in enumerate(pages, start=1):
        lines = tuple(PdfLine(text=t, bbox=(72, 60 + 16 * i, 500, 70 + 16 * i), font_size=10.5,
                              page=number) for i, t in enumerate(texts))
        furn = tuple(PdfLine(text=t, bbox=(280, 800, 310, 810), font_size=10.5, page=number)
                     for t in furniture)
        out.append(PdfPage(number=number, width=595, height=842, lines=lines, furniture=furn))
    return PdfDocument(source=Source(path="2019/minpo-mondai.pdf", sha256="0" * 64),
                       pages=tuple(out))


QUESTION = "〔第１問〕（配点：２）"


@pytest.mark.parametrize(("cover", "subjects", "years"), [
    ("短答式試験問題集［民法］", ("民法",), ()),                       # the official cover
    ("令和元年司法試験短答式試験問題集［民法］", ("民法",), (2019,)),
    ("令和1年 司法試験 短答式試験問題集［民法］", ("民法",), (2019,)),
    ("令和 6 年司法試験　短答式試験問題集［民 法］", ("民法",), (2024,)),   # OCR spacing
    ("令和６年度司法試験問題集（民法）", ("民法",), (2024,)),            # full-width digits
    ("平成２７年司法試験短答式試験問題集［刑法］", ("刑法",), (2015,)),
    ("2024年 司法試験 短答式 憲法 試験問題", ("憲法",), (2024,)),
    ("短答式試験問題集［民法", ("民法",), ()),                          # OCR lost the bracket
    ("短答式試験問題集［憲法」", ("憲法",), ()),                        # OCR: 」 for ］
    ("民 法", ("民法",), ()),                                          # the subject alone
])
def test_booklet_cover_layouts(cover: str, subjects: tuple[str, ...],
                               years: tuple[int, ...]) -> None:
    printed = read_booklet_header(_doc([cover], [f"［{subjects[0]}］", QUESTION, "本文"]))
    assert (printed.subjects, printed.years, printed.page) == (subjects, years, 1)


def test_dates_and_body_text_are_not_the_header() -> None:
    # a date is not the exam year; nothing after the first question is read
    doc = _doc(["短答式試験問題集［民法］", "令和６年５月１２日実施"],
               [QUESTION, "ＡとＢは，平成３１年４月１日，刑法の規定により…", "［刑法］"])
    printed = read_booklet_header(doc)
    assert (printed.subjects, printed.years) == (("民法",), ())


def test_long_cover_lines_are_instructions_not_a_title() -> None:
    long = "注意事項：この問題集は憲法、民法及び刑法の三科目について、試験時間内に解答すること。"
    printed = read_booklet_header(_doc([long], ["［民法］", QUESTION]))
    assert printed.subjects == ("民法",)


def test_header_on_the_first_question_page_and_furniture() -> None:
    printed = read_booklet_header(_doc(["［刑法］", QUESTION], furniture=("令和２年司法試験",)))
    assert (printed.subjects, printed.years) == (("刑法",), (2020,))


def test_key_title_above_its_table() -> None:
    doc = _doc(["令和元年司法試験 民法の正解及び配点", "満点 75", "問 No 解答 配点 備 考",
                "1 1 2 2 刑法"])
    printed = read_key_header(doc)
    assert (printed.subjects, printed.years, printed.page) == (("民法",), (2019,), 1)
    assert read_key_header(_doc([], ["憲法の正解及び配点", "問 No 解答"])).subjects == ("憲法",)


MINPO = SUBJECTS["minpo"]


def test_check_mismatch_names_what_is_printed_and_the_path() -> None:
    printed = PrintedHeader(("憲法",), (2019,), 1, "")
    (problem,) = check_printed(printed, kind="booklet", source="2019/minpo-mondai.pdf",
                               year=2019, subject=MINPO)
    assert problem.code == "header-mismatch" and problem.severity == "error"
    assert (problem.source, problem.page) == ("2019/minpo-mondai.pdf", 1)
    assert problem.message == "the booklet says 令和元年 憲法 but its path says 2019 民法"
    other = PrintedHeader(("民法",), (2020,), 1, "")
    (problem,) = check_printed(other, kind="key", source="2019/minpo-seito.pdf", year=2019,
                               subject=MINPO, other=PrintedHeader(("民法",), (2019,), 1, ""))
    assert problem.message == ("the answer key says 令和2年 民法 but its path says 2019 民法 "
                               "(its booklet says 令和元年 民法)")


def test_check_agreeing_or_yearless_header_passes() -> None:
    for printed in (PrintedHeader(("民法",), (2019,)), PrintedHeader(("民法",), ())):
        assert check_printed(printed, kind="key", source="k", year=2019, subject=MINPO) == []


def test_check_missing_or_ambiguous_subject() -> None:
    (missing,) = check_printed(PrintedHeader(), kind="booklet", source="b", year=2019,
                               subject=MINPO)
    assert missing.code == "header-not-found" and missing.severity == "error"
    assert "prints no subject (expected ［民法］" in missing.message
    (both,) = check_printed(PrintedHeader(("民法", "刑法")), kind="booklet", source="b",
                            year=2019, subject=MINPO)
    assert both.code == "header-mismatch" and "says 民法 刑法" in both.message


def test_bundled_sample_prints_its_subject_but_no_year() -> None:
    folder = REPO / "buildds" / "sample" / "pdf" / "2025"
    if not folder.is_dir():
        pytest.skip("the bundled sample is not generated")
    for code, subject in SUBJECTS.items():
        booklet = read_booklet_header(extract_pdf(folder / f"{code}-mondai.pdf"))
        key = read_key_header(extract_pdf(folder / f"{code}-seito.pdf", words=True))
        assert (booklet.subjects, booklet.years) == ((subject.jp,), ())
        assert (key.subjects, key.years) == ((subject.jp,), ())


@pytest.mark.shared
def test_the_60_shared_pdfs_print_their_own_subject() -> None:
    root = shared_path("jbe", "pdf")
    for year in range(2015, 2025):
        for code, subject in SUBJECTS.items():
            for kind in ("mondai", "seito"):
                doc = extract_pdf(root / str(year) / f"{code}-{kind}.pdf", words=kind == "seito")
                read = read_booklet_header if kind == "mondai" else read_key_header
                printed = read(doc)
                assert printed.subjects == (subject.jp,), (year, code, kind, printed)
                assert printed.years == ()  # dates in questions are not the exam year


@pytest.mark.ocr
@pytest.mark.shared
def test_scanned_covers_are_read_through_ocr(tmp_path: Path) -> None:
    pdfium = pytest.importorskip("pypdfium2")
    for name, jp in (("2024-minpo-mondai-scan.pdf", "民法"), ("2019-kenpo-mondai-scan.pdf", "憲法")):
        src = pdfium.PdfDocument(shared_path("jbe", "scanned", name))
        two = pdfium.PdfDocument.new()
        two.import_pages(src, [0, 1])  # the cover and the first question page
        two.save(tmp_path / name)
        printed = read_booklet_header(extract_pdf(tmp_path / name))
        assert printed.subjects == (jp,), printed
