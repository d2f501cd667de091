"""buildds.extract.pdf.lines on PDFs typeset here with reportlab, then on the official 2024 booklets.

Every fixture is generated in ``tmp_path`` (reportlab ``invariant=1``, so the bytes do not
depend on the clock); nothing is read from ../shared except in the parity test, which skips
when that folder is absent.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from buildds.extract.pdf.lines import extract_pdf
from buildds.safeio.hashing import sha256_file
from buildds.schema import PdfDocument
from tests.conftest import shared_path

IPA_MINCHO = Path("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf")
JP = "IPAMincho"
W, H = A4


def _register_jp() -> str:
    if not IPA_MINCHO.exists():
        pytest.skip(f"{IPA_MINCHO} not installed (apt-get install fonts-ipafont-mincho)")
    if JP not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(JP, str(IPA_MINCHO)))
    return JP


def _canvas(path: Path, **kw) -> Canvas:  # type: ignore[no-untyped-def]
    return Canvas(str(path), pagesize=A4, invariant=1, **kw)


# ------------------------------------------------------------------ (a) a 3-page document
HEADER = "Confidential draft"
#: (text, font, size, baseline y from the top of the page) per page, in reading order
BODY = {
    1: [
        ("短答式試験問題集［憲法］", JP, 14.0, 120.0),
        ("第１問から第３問まで", JP, 10.5, 200.0),
        ("Body text on page one", "Helvetica", 11.0, 230.0),
    ],
    2: [
        ("〔第４問〕（配点：２）", JP, 10.5, 50.0),
        ("次のアからウまでの各記述について", JP, 10.5, 200.0),
        ("Second page, second line", "Helvetica", 11.0, 230.0),
    ],
    3: [
        ("〔第４問〕（配点：２）", JP, 10.5, 50.0),
        ("ア．正しい。", JP, 10.5, 200.0),
        ("Last page body", "Times-Roman", 12.0, 400.0),
    ],
}
HEADER_Y = 30.0  # baseline from the top: inside the top 8% band
FOOTER_Y = 30.0  # baseline from the bottom: inside the bottom 8% band


@pytest.fixture
def three_pages(tmp_path: Path) -> Path:
    _register_jp()
    path = tmp_path / "three.pdf"
    c = _canvas(path)
    for n in (1, 2, 3):
        c.setFont("Helvetica", 9)
        c.drawString(72, H - HEADER_Y, HEADER)
        for text, font, size, y in BODY[n]:
            c.setFont(font, size)
            c.drawString(72, H - y, text)
        c.setFont("Helvetica", 10)
        c.drawCentredString(W / 2, FOOTER_Y, f"- {n} -")
        c.showPage()
    c.save()
    return path


def test_body_lines_in_order_with_size_and_page(three_pages: Path) -> None:
    doc = extract_pdf(three_pages)
    assert isinstance(doc, PdfDocument)
    assert [p.number for p in doc.pages] == [1, 2, 3]
    for page in doc.pages:
        assert (page.width, page.height) == (round(W, 2), round(H, 2))
        assert not page.ocr and page.ocr_confidence is None
        expected = BODY[page.number]
        assert [ln.text for ln in page.lines] == [t for t, *_ in expected]
        for line, (_, _, size, y) in zip(page.lines, expected):
            assert line.page == page.number
            assert line.font_size == pytest.approx(size, abs=0.01)
            x0, top, x1, bottom = line.bbox
            assert 0 <= x0 < x1 <= page.width and 0 <= top < bottom <= page.height
            assert x0 == pytest.approx(72, abs=1.5)
            # the baseline lies inside the box, near its bottom (descenders below it)
            assert top < y <= bottom + 0.5
    assert [ln.text for ln in doc.lines] == [t for n in (1, 2, 3) for t, *_ in BODY[n]]


def test_header_and_footer_are_furniture_not_deleted(three_pages: Path) -> None:
    doc = extract_pdf(three_pages)
    for page in doc.pages:
        texts = [ln.text for ln in page.furniture]
        assert texts == [HEADER, f"- {page.number} -"], texts
        header, footer = page.furniture
        assert header.page == footer.page == page.number
        assert header.font_size == 9.0 and footer.font_size == 10.0
        assert header.bbox[3] <= page.height * 0.08
        assert footer.bbox[1] >= page.height * 0.92
        # centred footer: its middle is the page's middle
        assert (footer.bbox[0] + footer.bbox[2]) / 2 == pytest.approx(page.width / 2, abs=1.0)
        assert all(0 <= v <= page.width for v in (footer.bbox[0], footer.bbox[2]))
        assert not any(ln.text in (HEADER, f"- {page.number} -") for ln in page.lines)


def test_question_heading_on_two_pages_is_not_furniture(three_pages: Path) -> None:
    """The same 〔第４問〕 line at the top of pages 2 and 3 (inside the header band) is body
    text: two occurrences in three pages do not make a running header."""
    doc = extract_pdf(three_pages)
    for number in (2, 3):
        page = doc.pages[number - 1]
        assert page.lines[0].text == "〔第４問〕（配点：２）"
        assert page.lines[0].bbox[3] <= page.height * 0.08  # it is in the band
        assert "〔第４問〕（配点：２）" not in [ln.text for ln in page.furniture]


def test_source_and_sha256(three_pages: Path) -> None:
    doc = extract_pdf(three_pages, source_path="2025/kenpo-mondai.pdf")
    assert doc.source.path == "2025/kenpo-mondai.pdf"
    assert doc.source.sha256 == sha256_file(three_pages)
    assert extract_pdf(three_pages).source.path == str(three_pages)


def test_deterministic(three_pages: Path, tmp_path: Path) -> None:
    a = extract_pdf(three_pages)
    b = extract_pdf(three_pages)
    assert a.model_dump_json() == b.model_dump_json()


def test_two_page_document_has_no_running_header(tmp_path: Path) -> None:
    """Running headers need three or more pages; page numbers are furniture regardless."""
    path = tmp_path / "two.pdf"
    c = _canvas(path)
    for n in (1, 2):
        c.setFont("Helvetica", 9)
        c.drawString(72, H - HEADER_Y, HEADER)
        c.setFont("Helvetica", 11)
        c.drawString(72, H - 300, f"body of page {n}")
        c.drawCentredString(W / 2, FOOTER_Y, str(n))
        c.showPage()
    c.save()
    doc = extract_pdf(path)
    for page in doc.pages:
        assert [ln.text for ln in page.lines] == [HEADER, f"body of page {page.number}"]
        assert [ln.text for ln in page.furniture] == [str(page.number)]


def test_running_footer_with_page_number_in_it(tmp_path: Path) -> None:
    path = tmp_path / "footer.pdf"
    c = _canvas(path)
    for n in (1, 2, 3, 4):
        c.setFont("Helvetica", 11)
        c.drawString(72, H - 300, f"Clause {n + 10} applies")
        c.setFont("Helvetica", 8)
        c.drawString(72, FOOTER_Y, f"Master agreement v2 - page {n} of 4")
        c.showPage()
    c.save()
    doc = extract_pdf(path)
    for page in doc.pages:
        assert [ln.text for ln in page.lines] == [f"Clause {page.number + 10} applies"]
        assert [ln.text for ln in page.furniture] == [f"Master agreement v2 - page {page.number} of 4"]


# ------------------------------------------------------------------ (b) reading order
def test_lines_drawn_out_of_order_come_out_in_reading_order(tmp_path: Path) -> None:
    _register_jp()
    path = tmp_path / "order.pdf"
    c = _canvas(path)
    # content-stream order: bottom, middle-right, middle-left, top, Japanese in between
    c.setFont("Helvetica", 11)
    c.drawString(72, H - 700, "Fourth: the bottom line, drawn first")
    c.drawString(330, H - 300, "right")
    c.drawString(72, H - 300, "Second: left")
    c.drawString(72, H - 100, "First: the top line, drawn last but one")
    c.setFont(JP, 10.5)
    c.drawString(72, H - 500, "三行目：日本語の行")
    c.showPage()
    c.save()

    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    raw = pdf[0].get_textpage().get_text_range()
    pdf.close()
    assert raw.index("Fourth") < raw.index("First")  # the stream really is out of order

    page = extract_pdf(path).pages[0]
    texts = [ln.text for ln in page.lines]
    assert texts[0] == "First: the top line, drawn last but one"
    assert texts[1].startswith("Second: left")  # same row: left part first
    assert texts[1].index("Second") < texts[1].index("right")
    assert texts[2:] == ["三行目：日本語の行", "Fourth: the bottom line, drawn first"]
    tops = [ln.bbox[1] for ln in page.lines]
    assert tops == sorted(tops)


def test_two_columns_on_one_row_left_then_right(tmp_path: Path) -> None:
    path = tmp_path / "cols.pdf"
    c = _canvas(path)
    c.setFont("Helvetica", 11)
    c.drawString(400, H - 200, "RIGHT")
    c.drawString(72, H - 200, "LEFT")
    c.showPage()
    c.save()
    (line,) = extract_pdf(path).pages[0].lines
    assert line.text.index("LEFT") < line.text.index("RIGHT")


# ------------------------------------------------------------------ (d) words
def test_words_have_boxes(tmp_path: Path) -> None:
    _register_jp()
    path = tmp_path / "table.pdf"
    c = _canvas(path)
    c.setFont(JP, 10.5)
    for x, text in ((60, "問"), (100, "No"), (140, "解答"), (200, "配点")):
        c.drawString(x, H - 120, text)
    for x, text in ((60, "1"), (100, "1"), (140, "3"), (200, "2")):
        c.drawString(x, H - 140, text)
    c.showPage()
    c.save()

    page = extract_pdf(path, words=True).pages[0]
    assert page.words, "words=True must return segments"
    texts = [w.text for w in page.words]
    for t in ("問", "No", "解答", "配点"):
        assert t in texts
    for word in page.words:
        x0, top, x1, bottom = word.bbox
        assert 0 <= x0 < x1 <= page.width and 0 <= top < bottom <= page.height
    by_text = {w.text: w for w in page.words}
    assert by_text["問"].bbox[0] == pytest.approx(60, abs=2)
    assert by_text["解答"].bbox[0] == pytest.approx(140, abs=2)
    assert by_text["配点"].bbox[1] < 120 < by_text["配点"].bbox[3] + 1
    # header row above the value row
    header_bottoms = [by_text[t].bbox[3] for t in ("問", "No", "解答", "配点")]
    assert max(header_bottoms) - min(header_bottoms) < 3  # one row
    values = [w for w in page.words if w.text in ("1", "2", "3")]
    assert values and all(w.bbox[1] > max(header_bottoms) for w in values)
    # without words=True no segments are returned, and the lines are the same
    plain = extract_pdf(path).pages[0]
    assert plain.words == ()
    assert plain.lines == page.lines


# ------------------------------------------------------------------ (e) parity with pdfplumber text
SUBJECT_JP = {"kenpo": "憲法", "minpo": "民法", "keiho": "刑法"}
_PAGE_MARK = re.compile(r"^--- Page (\d+) ---$", re.MULTILINE)


def _ws(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _reference_pages(path: Path) -> dict[int, list[str]]:
    parts = _PAGE_MARK.split(path.read_text("utf-8"))
    return {int(parts[i]): [_ws(ln) for ln in parts[i + 1].splitlines() if _ws(ln)]
            for i in range(1, len(parts), 2)}


@pytest.mark.shared
def test_parity_with_reference_text_2024() -> None:
    pdf_dir = shared_path("jbe", "pdf", "2024")
    text_dir = shared_path("jbe", "real-text", "reiwa_06", "mondai")
    total = matched = 0
    mismatches: list[str] = []
    for code, jp in SUBJECT_JP.items():
        pdf = pdf_dir / f"{code}-mondai.pdf"
        refs = sorted(text_dir.glob(f"{jp}_*.txt"))
        assert pdf.exists() and len(refs) == 1, (pdf, refs)
        reference = _reference_pages(refs[0])
        doc = extract_pdf(pdf, ocr="never")
        assert sorted(reference) == [p.number for p in doc.pages], code
        for page in doc.pages:
            assert page.furniture and page.furniture[-1].text == f"- {page.number} -"
            ours = [ln.text for ln in page.lines] + [ln.text for ln in page.furniture]
            theirs = reference[page.number]
            total += max(len(ours), len(theirs))
            for i in range(max(len(ours), len(theirs))):
                a = ours[i] if i < len(ours) else None
                b = theirs[i] if i < len(theirs) else None
                if a is not None and a == b:
                    matched += 1
                else:
                    mismatches.append(f"{code} p{page.number} l{i + 1}: {a!r} != {b!r}")
    print(f"parity: {matched}/{total} lines")
    assert total == 1499
    assert matched == total, "\n".join(mismatches[:20])
