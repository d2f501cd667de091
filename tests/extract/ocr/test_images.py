"""OCR of image files (buildds.extract.ocr.images) and what OCR needs installed
(buildds.extract.ocr.dependencies).

The fixtures are drawn by tests/extract/ocr/drawn.py: a few lines of Japanese legal text set
in IPAMincho at 300 dpi, saved as a PNG (and as an image-only PDF, for the dependency checks
that extract_pdf makes too).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from buildds.errors import ExtractError, MissingDependency
from buildds.extract.ocr import APT_LINE, OcrPage, char_accuracy, ocr_image, ocr_image_pages
from buildds.extract.pdf.lines import extract_pdf
from tests.extract.ocr.drawn import (
    DPI,
    LINES,
    draw_fixtures,
    joined,
    needs_font,
    needs_tesseract,
    pytesseract,
    render_lines,
)


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return draw_fixtures(tmp_path_factory)


# --------------------------------------------------------------------------- generated pages
@needs_tesseract
@needs_font
def test_ocr_image_png(fixtures: dict[str, Path]) -> None:
    page = ocr_image(fixtures["png"])
    assert isinstance(page, OcrPage)
    assert page.confidence > 70 and page.rotation == 0
    assert char_accuracy(page.text, joined(LINES)) >= 0.95, page.text
    assert [ln.page for ln in page.lines] == [1] * len(page.lines)


@needs_tesseract
@needs_font
def test_upside_down_image_is_turned(fixtures: dict[str, Path], tmp_path: Path) -> None:
    upside_down = tmp_path / "rotated.png"
    Image.open(fixtures["png"]).rotate(180).save(upside_down, dpi=(DPI, DPI))
    page = ocr_image(upside_down, lang="jpn")
    assert page.rotation == 180
    assert char_accuracy(page.text, joined(LINES)) >= 0.9, page.text
    assert ocr_image(upside_down, lang="jpn", detect_orientation=False).confidence < 60


@needs_tesseract
def test_blank_image_gives_no_lines(tmp_path: Path) -> None:
    blank = tmp_path / "blank.png"
    Image.new("L", (1200, 800), 255).save(blank)
    page = ocr_image(blank)
    assert page.lines == ()
    assert page.confidence == 0


@needs_tesseract
@needs_font
def test_multi_frame_tiff(tmp_path: Path) -> None:
    tiff = tmp_path / "two.tif"
    first, second = render_lines(LINES[1:2]), render_lines(LINES[3:4])
    first.save(tiff, save_all=True, append_images=[second], dpi=(DPI, DPI))
    pages = ocr_image_pages(tiff, processes=1)
    assert [p.page for p in pages] == [1, 2]
    assert char_accuracy(pages[0].text, LINES[1]) >= 0.9
    assert char_accuracy(pages[1].text, LINES[3]) >= 0.9
    with pytest.raises(ExtractError, match="2 frames"):
        ocr_image(tiff)


@needs_tesseract
def test_not_an_image(tmp_path: Path) -> None:
    bogus = tmp_path / "scan.png"
    bogus.write_text("<html>not found</html>")
    with pytest.raises(ExtractError, match="scan.png"):
        ocr_image(bogus)


def test_missing_tesseract_names_apt_line(
    fixtures: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/bin/tesseract")
    with pytest.raises(MissingDependency) as info:
        ocr_image(fixtures["png"])
    assert APT_LINE in str(info.value)
    assert APT_LINE == "apt-get install tesseract-ocr tesseract-ocr-jpn"
    with pytest.raises(MissingDependency, match="apt-get install tesseract-ocr"):
        extract_pdf(fixtures["pdf"], ocr="auto")
    # a text-layer PDF never needs tesseract
    assert extract_pdf(fixtures["pdf"], ocr="never").pages[0].lines == ()


@needs_tesseract
def test_missing_language_data(fixtures: dict[str, Path]) -> None:
    with pytest.raises(MissingDependency, match="tesseract-ocr-xyz"):
        ocr_image(fixtures["png"], lang="jpn+xyz")
