"""Pages drawn here for the OCR tests: a few lines of Japanese legal text set in IPAMincho at
300 dpi, saved as a PNG, an image-only PDF and a two-page PDF (used by tests/extract/ocr/ and
tests/extract/pdf/test_ocr_pages.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytesseract = pytest.importorskip("pytesseract")
from PIL import Image, ImageDraw, ImageFont

FONT = Path("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf")
DPI = 300
# 10.5 pt at 300 dpi
FONT_PX = round(10.5 * DPI / 72)

LINES = [
    "〔第１問〕（配点：２）",
    "ア．法人は、保佐人になることができる。",
    "イ．未成年者が法定代理人の同意を得ないでした契約は、取り消すことができる。",
    "ウ．時効の利益は、あらかじめ放棄することができない。",
    "エ．ＡがＢに対して甲土地を売却した場合、Ｂは、登記をしなければ第三者に対抗できない。",
]

needs_tesseract = pytest.mark.skipif(
    shutil.which(pytesseract.pytesseract.tesseract_cmd) is None, reason="tesseract not installed"
)
needs_font = pytest.mark.skipif(not FONT.exists(), reason=f"{FONT} not installed (fonts-ipafont)")


def render_lines(lines: list[str], *, width: int = 2480, margin: int = 150) -> Image.Image:
    font = ImageFont.truetype(str(FONT), FONT_PX)
    pitch = round(FONT_PX * 1.7)
    img = Image.new("L", (width, 2 * margin + pitch * len(lines)), 255)
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((margin, margin + i * pitch), line, font=font, fill=0)
    return img


def draw_fixtures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The drawn pages: ``png`` and ``pdf`` (all of LINES), ``two`` (two one-line pages)."""
    if not FONT.exists():
        pytest.skip(f"{FONT} not installed")
    root = tmp_path_factory.mktemp("ocr")
    img = render_lines(LINES)
    png = root / "statements.png"
    img.save(png, dpi=(DPI, DPI))
    pdf = root / "statements.pdf"
    img.save(pdf, "PDF", resolution=DPI)
    two = root / "two-pages.pdf"
    first, second = render_lines(LINES[1:2]), render_lines(LINES[3:4])
    first.save(two, "PDF", resolution=DPI, save_all=True, append_images=[second])
    return {"png": png, "pdf": pdf, "two": two}


def joined(lines: list[str]) -> str:
    return "\n".join(lines)
