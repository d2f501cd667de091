"""Limits on the work a document can multiply, reader by reader: bytes inflated from zip
members, list numbering values, pixels per rendered page, pages per document, blank pages not
OCR'd, and only regular files read. Every hostile input is generated here (see
:mod:`tests.hostile_inputs`); the memory-hungry ones run in a bounded subprocess."""

from __future__ import annotations

import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from buildds.errors import ExtractError, LimitExceeded, PdfError
from buildds.extract.contracts import read_document
from buildds.extract.docx.reader import extract_docx
from buildds.extract.ocr.images import image_frames
from buildds.extract.ocr.job import MAX_PAGE_PIXELS, MIN_OCR_DPI, blank_page, is_blank
from buildds.extract.pdf.lines import extract_pdf
from buildds.extract.pdf.ocr_pages import page_dpi
from buildds.safeio import LIMITS
from buildds.safeio.archive import open_ooxml
from buildds.safeio.sniff import sniff
from tests.conftest import simple_pdf_bytes
from tests.hostile_inputs import (
    CONTENT_TYPES,
    LINE,
    blank_pages_pdf,
    bomb_zip,
    dev_zero_link,
    fifo,
    good_docx,
    huge_page_pdf,
    make_pdf,
    numbered_docx,
    run_bounded,
)

MINIMAL_DOC = (b'<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/'
               b'wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>x</w:t></w:r></w:p>'
               b"</w:body></w:document>")


# --------------------------------------------------------------------------- archive members
def test_sniffer_reads_only_the_start_of_a_mimetype_bomb(tmp_path: Path) -> None:
    """A `mimetype` member of 300 MB of zeros (300 KB on disk) used to be inflated whole."""
    bomb = bomb_zip(tmp_path / "bomb.odt", mimetype_zeros=300_000_000)
    assert bomb.stat().st_size < 1_000_000
    run = run_bounded(f"""
        from buildds.safeio.sniff import sniff
        result = sniff(open({str(bomb)!r}, "rb").read())
    """, memory_mb=1_500)
    assert run["error"] is None
    assert run["result"] == "zip"  # zeros are not the ODF mime type
    assert run["delta_mb"] < 50, run
    # a real ODF mimetype (stored, first member) is still recognised
    odt = bomb_zip(tmp_path / "ok.odt", odt=True, members={"content.xml": b"<x/>"})
    assert sniff(odt.read_bytes()) == "odt"


def test_odt_bomb_is_refused_before_libreoffice_sees_it(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = bomb_zip(tmp_path / "bomb.odt", odt=True, zeros={"content.xml": 300_000_000})
    import subprocess

    def no_soffice(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("LibreOffice must not be started on a zip bomb")

    monkeypatch.setattr(subprocess, "run", no_soffice)
    with pytest.raises(LimitExceeded) as info:
        read_document(bomb)
    message = str(info.value)
    assert message.startswith(f"{bomb}: zip member content.xml expands ")
    assert "300,000,000 bytes (a zip bomb?): ratio" in message
    assert message.endswith("exceeds the limit of 100 (raise it with "
                            "BUILDDS_LIMITS=archive_ratio=N)")


def test_docx_member_over_the_per_member_limit(tmp_path: Path) -> None:
    path = bomb_zip(tmp_path / "big.docx", members={"[Content_Types].xml": CONTENT_TYPES,
                                                    "word/document.xml": MINIMAL_DOC,
                                                    "word/media/blob.bin": b"\x01" * 2_000})
    with pytest.raises(LimitExceeded, match=r"zip member word/media/blob.bin \(a zip bomb\?\) "
                       r"declares 2,000 bytes exceeds the limit of 1,000 bytes"):
        open_ooxml(path, max_member=1_000)
    with open_ooxml(path) as pkg:  # the default allows it
        assert pkg.read("word/media/blob.bin") == b"\x01" * 2_000


def test_docx_member_in_bzip2_is_refused(tmp_path: Path) -> None:
    """bzip2 and LZMA inflate a whole input chunk at once (no streaming cap): Word never
    writes them, so a member using one is refused before it is read."""
    path = tmp_path / "bz.docx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("[Content_Types].xml", CONTENT_TYPES)
        zf.writestr("word/document.xml", MINIMAL_DOC, compress_type=zipfile.ZIP_BZIP2)
    with pytest.raises(ExtractError, match="part word/document.xml uses compression method 12, "
                       "which Word never writes: refusing"):
        extract_docx(path)


def test_docx_bomb_part_is_capped(tmp_path: Path) -> None:
    """document.xml of 300 MB of zeros: refused by the ratio check, in bounded memory."""
    bomb = bomb_zip(tmp_path / "bomb.docx", members={"[Content_Types].xml": CONTENT_TYPES},
                    zeros={"word/document.xml": 300_000_000})
    run = run_bounded(f"""
        from buildds.extract.docx.reader import extract_docx
        extract_docx({str(bomb)!r})
    """, memory_mb=1_500)
    assert run["error"].startswith("LimitExceeded: ")
    assert "word/document.xml expands" in run["error"] and "ratio" in run["error"]
    assert run["delta_mb"] < 50, run


# --------------------------------------------------------------------------- numbering values
NUMBERING_CASES = [
    ("520000000", "upperLetter", "520,000,000"),  # wrote 360 MB before
    ("100000000000", "upperLetter", "100,000,000,000"),  # over 6 GB in 5 s before
    ("-2000000", "decimal", "-2,000,000"),
    ("9" * 5000, "decimal", "1,000,000,000,000,000"),  # more digits than int() takes
]


def test_numbering_value_over_the_limit(tmp_path: Path) -> None:
    paths = [numbered_docx(tmp_path / f"n{i}.docx", start=start, fmt=fmt)
             for i, (start, fmt, _) in enumerate(NUMBERING_CASES)]
    started = time.perf_counter()
    run = run_bounded(f"""
        from buildds.extract.docx.reader import extract_docx
        result = []
        for path in {[str(p) for p in paths]!r}:
            try:
                extract_docx(path)
            except Exception as exc:
                result.append(f"{{type(exc).__name__}}: {{exc}}")
    """, memory_mb=1_500, timeout=60)
    assert time.perf_counter() - started < 30
    assert run["result"] == [
        f"LimitExceeded: {path}: body paragraph 1: list number value {shown} exceeds the limit "
        "of 1,000,000 (raise it with BUILDDS_LIMITS=numbering_value=N)"
        for path, (_, _, shown) in zip(paths, NUMBERING_CASES, strict=True)]
    assert run["delta_mb"] < 50, run


def test_numbering_text_and_level_over_the_limits(tmp_path: Path) -> None:
    long_text = numbered_docx(tmp_path / "t.docx", text="%1" * 60)
    with pytest.raises(LimitExceeded, match=r"t.docx: body paragraph 1: length of the list "
                       r"number text \(w:lvlText\) 120 exceeds the limit of 100"):
        extract_docx(long_text)
    level = numbered_docx(tmp_path / "l.docx", ilvl=12)
    with pytest.raises(LimitExceeded, match=r"l.docx: body paragraph 1: list level \(w:ilvl\) "
                       r"12 exceeds the limit of 8"):
        extract_docx(level)
    letters = numbered_docx(tmp_path / "a.docx", start="2700", fmt="upperLetter")
    with pytest.raises(LimitExceeded, match=r"length of the rendered list number 105 exceeds "
                       r"the limit of 100"):
        extract_docx(letters)


def test_numbering_within_the_limits_is_rendered(tmp_path: Path) -> None:
    doc = extract_docx(numbered_docx(tmp_path / "ok.docx", start="999999", fmt="decimal",
                                     paragraphs=1))
    assert doc.blocks[0].text == "999999. Clause 0 text."
    doc = extract_docx(good_docx(tmp_path / "good.docx"))
    assert [b.text for b in doc.blocks] == ["第１条Clause 0 text.", "第２条Clause 1 text."]


# --------------------------------------------------------------------------- pixels per page
def test_page_dpi_fits_the_pixel_limit() -> None:
    assert page_dpi(595, 842, 300.0, name="a.pdf", page=1) == 300.0  # A4: 8.7 Mpx
    dpi = page_dpi(2_000, 2_000, 300.0, name="a.pdf", page=2)  # 69 Mpx at 300 dpi
    assert MIN_OCR_DPI <= dpi < 300 and (2_000 * dpi / 72) ** 2 <= MAX_PAGE_PIXELS
    with pytest.raises(LimitExceeded) as info:
        page_dpi(14_400, 14_400, 300.0, name="a.pdf", page=3)
    assert str(info.value) == (
        "a.pdf, page 3: page of 14,400 × 14,400 pt rendered for OCR at 150 dpi (the least that "
        "reads well) would have 900,000,000 pixels exceeds the limit of 50,000,000 pixels "
        "(raise it with BUILDDS_LIMITS=page_pixels=N)")


@pytest.mark.ocr
def test_huge_page_is_refused_without_rendering_it(tmp_path: Path) -> None:
    """Rendered at 300 dpi the page would be 3.6 gigapixels (6 GB measured before)."""
    huge = huge_page_pdf(tmp_path / "huge.pdf")
    run = run_bounded(f"""
        from buildds.extract.pdf.ocr_pages import ocr_pdf_pages
        ocr_pdf_pages({str(huge)!r}, [1], lang="eng", processes=1)
    """, memory_mb=2_000)
    assert run["error"].startswith(f"LimitExceeded: {huge}, page 1: page of 14,400 × 14,400 pt")
    assert run["delta_mb"] < 100, run


@pytest.mark.ocr
def test_large_page_is_read_at_a_lower_resolution(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from buildds.extract.pdf import ocr_pages as ocr_pdf

    path = tmp_path / "text.pdf"
    path.write_bytes(make_pdf([(595, 842, b"BT /F1 40 Tf 72 700 Td (HELLO WORLD 2024) Tj ET")]))
    sizes: list[tuple[int, int]] = []
    render = ocr_pdf.render_page

    def recording(*args: Any) -> Any:
        image = render(*args)
        sizes.append(image.size)
        return image

    monkeypatch.setattr(ocr_pdf, "render_page", recording)
    full = ocr_pdf.ocr_pdf_pages(path, [1], lang="eng", processes=1)[1]
    small = ocr_pdf.ocr_pdf_pages(path, [1], lang="eng", processes=1, max_pixels=4_000_000)[1]
    assert sizes[0][0] * sizes[0][1] > 4_000_000 >= sizes[1][0] * sizes[1][1]
    assert full.text == small.text == "HELLO WORLD 2024"
    # boxes are in points whatever the resolution
    for a, b in zip(full.lines[0].bbox, small.lines[0].bbox, strict=True):
        assert abs(a - b) < 2
    with pytest.raises(LimitExceeded, match=r"text.pdf, page 1: page of 595 × 842 pt"):
        ocr_pdf.ocr_pdf_pages(path, [1], lang="eng", processes=1, max_pixels=1_000_000)


def test_image_frame_over_the_pixel_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.png"
    Image.new("1", (8_000, 8_000), 1).save(path)  # 64 Mpx in a few KB
    assert path.stat().st_size < 100_000
    with pytest.raises(LimitExceeded) as info:
        image_frames(path, "big.png")
    assert str(info.value) == ("big.png, page 1: image frame of 8,000 × 8,000 pixels has "
                               "64,000,000 pixels exceeds the limit of 50,000,000 pixels "
                               "(raise it with BUILDDS_LIMITS=page_pixels=N)")


# --------------------------------------------------------------------------- pages per document
def test_pdf_over_max_pages(tmp_path: Path) -> None:
    path = tmp_path / "long.pdf"
    path.write_bytes(make_pdf([(100, 100, LINE)] * 3))
    with pytest.raises(LimitExceeded) as info:
        extract_pdf(path, max_pages=2, ocr="never")
    assert str(info.value) == (f"{path}: number of pages 3 exceeds the limit of 2 (raise it "
                               "with --max-pages)")
    assert len(extract_pdf(path, max_pages=3, ocr="never").pages) == 3
    assert LIMITS["pages"].default == 1_000 and LIMITS["pages"].option == "--max-pages"


def test_image_over_max_pages(tmp_path: Path) -> None:
    path = tmp_path / "many.tif"
    frames = [Image.new("L", (20, 20), 255) for _ in range(3)]
    frames[0].save(path, save_all=True, append_images=frames[1:])
    with pytest.raises(LimitExceeded, match=r"many.tif: number of image frames 3 exceeds the "
                       r"limit of 2 \(raise it with --max-pages\)"):
        image_frames(path, "many.tif", 2)
    assert len(image_frames(path, "many.tif", 3)[0]) == 3


# --------------------------------------------------------------------------- blank pages
def test_is_blank() -> None:
    white = Image.new("L", (300, 300), 255)
    assert is_blank(white) and is_blank(Image.new("L", (10, 10), 128))
    dot = white.copy()
    dot.putpixel((150, 150), 0)
    assert not is_blank(dot)
    faint = white.copy()
    faint.putpixel((1, 1), 240)
    assert not is_blank(faint)
    assert blank_page(7).blank and blank_page(7).lines == () and blank_page(7).confidence == 0.0


@pytest.mark.ocr
def test_two_thousand_blank_pages_are_not_ocrd(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import pytesseract

    from buildds.extract.pdf.ocr_pages import ocr_pdf_pages

    def no_tesseract(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("tesseract must not read a blank page")

    monkeypatch.setattr(pytesseract, "image_to_data", no_tesseract)
    path = blank_pages_pdf(tmp_path / "blank.pdf")
    started = time.perf_counter()
    pages = ocr_pdf_pages(path, range(1, 2_001), lang="eng", processes=2)
    elapsed = time.perf_counter() - started
    assert len(pages) == 2_000 and all(p.blank and not p.lines for p in pages.values())
    assert elapsed < 60, elapsed  # about 2 s; OCR of every page took minutes
    # the page with text next to them is still read
    monkeypatch.undo()
    mixed = tmp_path / "mixed.pdf"
    mixed.write_bytes(make_pdf([(595, 842, None),
                                (595, 842, b"BT /F1 40 Tf 72 700 Td (HELLO WORLD) Tj ET")]))
    read = ocr_pdf_pages(mixed, [1, 2], lang="eng", processes=1)
    assert read[1].blank and not read[2].blank and read[2].text == "HELLO WORLD"


# --------------------------------------------------------------------------- only regular files
def test_only_regular_files_are_read(tmp_path: Path) -> None:
    """A FIFO or a link to /dev/zero named like a document: refused at once, never read."""
    cases = []
    for kind, make, what in (("fifo", fifo, "a named pipe (FIFO)"),
                             ("zero", dev_zero_link, "a character device")):
        for suffix in (".pdf", ".docx", ".odt", ".png"):
            cases.append((str(make(tmp_path / f"{kind}{suffix}")), what))
    run = run_bounded(f"""
        from buildds.extract.contracts import read_document
        result = []
        for path, _ in {cases!r}:
            try:
                read_document(path)
            except Exception as exc:
                result.append(f"{{type(exc).__name__}}: {{exc}}")
    """, memory_mb=1_500, timeout=60)
    assert run["result"] == [f"ExtractError: {path}: cannot read file (is {what}, not a regular "
                             "file; refusing to read it)" for path, what in cases]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_pdf_and_image_readers_refuse_other_files(tmp_path: Path, kind: str) -> None:
    path = (fifo if kind == "fifo" else dev_zero_link)(tmp_path / "x.pdf")
    run = run_bounded(f"""
        from buildds.extract.pdf.lines import extract_pdf
        from buildds.extract.ocr.images import image_frames
        from buildds.extract.docx.reader import extract_docx
        errors = []
        for call in (lambda: extract_pdf({str(path)!r}), lambda: image_frames(
                __import__("pathlib").Path({str(path)!r}), "x.pdf"),
                lambda: extract_docx({str(path)!r})):
            try:
                call()
            except Exception as exc:
                errors.append(type(exc).__name__ + ": " + str(exc))
        result = errors
    """, memory_mb=1_500, timeout=60)
    assert len(run["result"]) == 3
    assert run["result"][0].startswith(f"PdfError: {path}: cannot read file (is a ")
    assert all("not a regular file; refusing to read it" in e for e in run["result"])


def test_regular_file_checks_keep_good_files_readable(tmp_path: Path) -> None:
    good = tmp_path / "good.pdf"
    good.write_bytes(simple_pdf_bytes("Hello"))
    link = tmp_path / "link.pdf"
    link.symlink_to(good)  # a link to a regular file is read
    assert extract_pdf(link, ocr="never").pages[0].lines[0].text == "Hello"
    with pytest.raises(PdfError, match="cannot read file \\(no such file\\)"):
        extract_pdf(tmp_path / "missing.pdf")
