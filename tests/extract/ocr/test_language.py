"""OCR language chosen per page (buildds.extract.ocr.language, ``lang="auto"``): the script
rules on text, and pages drawn here in Japanese (IPAMincho) and English, alone and in one
two-page PDF read as a contract (per-page language and confidence in the document, the
report and report.md; ``--ocr-lang`` overriding)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from buildds.extract.ocr import ocr_pil_image
from buildds.extract.ocr.language import (
    FALLBACK_LANG,
    auto_candidates,
    choose_language,
    kana_share,
    script_of,
)
from tests.extract.ocr.drawn import DPI, FONT, FONT_PX, needs_font, needs_tesseract, render_lines

JA_LINES = [
    "第１条（目的）",
    "本契約は、甲が乙に委託する業務の内容及び条件を定めることを目的とする。",
    "第２条（再委託の禁止）",
    "乙は、甲の書面による事前の承諾なく、本業務の全部又は一部を第三者に再委託してはならない。",
    "第３条（秘密保持）",
    "甲及び乙は、本契約に関して知り得た相手方の秘密情報を第三者に開示してはならない。",
]
EN_LINES = [
    "ARTICLE 1 - PURPOSE",
    "The Supplier shall provide the Services described in Schedule A to the Customer.",
    "ARTICLE 2 - CONFIDENTIALITY",
    "Each party shall keep the Confidential Information of the other party secret.",
    "ARTICLE 3 - TERM",
    "This Agreement shall remain in force for a period of one year from the Effective Date.",
]
LATIN_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")


def render_english(lines: list[str]) -> Image.Image:
    font = ImageFont.truetype(str(LATIN_FONT if LATIN_FONT.exists() else FONT), FONT_PX)
    pitch = round(FONT_PX * 1.7)
    img = Image.new("L", (2480, 300 + pitch * len(lines)), 255)
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((150, 150 + i * pitch), line, font=font, fill=0)
    return img


def page(lines: list[str], english: bool = False) -> Image.Image:
    """An A4-high page with the lines in its middle (the probe reads the middle half)."""
    body = render_english(lines) if english else render_lines(lines)
    sheet = Image.new("L", (2480, 3508), 255)
    sheet.paste(body, (0, (3508 - body.height) // 2))
    return sheet


# --------------------------------------------------------------------------- rules
def test_script_of() -> None:
    assert script_of("本契約は、甲が乙に委託する業務の内容を定める。")[0] == "japanese"
    assert script_of("本契約書之約定事項，甲乙雙方同意遵守下列條款辦理")[0] == "han"
    assert script_of("The Supplier shall provide the Services.")[0] == "latin"
    assert script_of("本契約は英文契約書の翻訳であり Services Agreement prevails")[0] == "mixed"
    assert script_of("第1条")[0] == "unknown"
    assert kana_share("本契約は") == 0.25 and kana_share("abc") == 0.0


def test_auto_candidates_are_the_installed_ones() -> None:
    assert auto_candidates(["eng", "osd", "jpn", "chi_tra", "kor"]) == ("jpn", "chi_tra", "eng")
    assert auto_candidates(["eng"]) == ("eng",)
    # without jpn nothing is probed: the fallback
    assert choose_language(Image.new("L", (10, 10), 255), 300, ()).lang == FALLBACK_LANG


# --------------------------------------------------------------------------- drawn pages
@pytest.mark.ocr
@needs_tesseract
@needs_font
def test_drawn_pages_get_their_language() -> None:
    ja = ocr_pil_image(page(JA_LINES), lang="auto", dpi=DPI, source="ja")
    en = ocr_pil_image(page(EN_LINES, english=True), lang="auto", dpi=DPI, source="en")
    assert (ja.lang, en.lang) == ("jpn", "eng")
    assert "再委託" in ja.text and "Confidential Information" in en.text
    assert ja.confidence > 80 and en.confidence > 80
    # an explicit language is used as given
    assert ocr_pil_image(page(JA_LINES), lang="jpn+eng", dpi=DPI).lang == "jpn+eng"


@pytest.mark.ocr
@needs_tesseract
@needs_font
def test_contract_scan_languages_per_page_in_document_and_report(tmp_path: Path) -> None:
    from buildds.extract.contracts import read_document
    from buildds.jobs.contracts import build_contracts

    scan = tmp_path / "mixed.pdf"
    page(JA_LINES).save(scan, "PDF", resolution=DPI, save_all=True,
                        append_images=[page(EN_LINES, english=True)])
    doc = read_document(scan, processes=1)
    assert doc.format == "scan" and doc.ocr_page_lang == {1: "jpn", 2: "eng"}
    assert set(doc.ocr_page_confidence) == {1, 2}
    forced = read_document(scan, ocr_lang="jpn", processes=1, pages=[2])
    assert forced.ocr_page_lang == {2: "jpn"}
    out = tmp_path / "out"
    build_contracts([scan], out=out, progress=False)
    [entry] = json.loads((out / "report.json").read_text("utf-8"))["files"]
    assert entry["ocr_page_lang"] == {"1": "jpn", "2": "eng"}
    assert set(entry["ocr_page_confidence"]) == {"1", "2"}
    report = (out / "report.md").read_text("utf-8")
    assert "## OCR pages" in report and "| mixed.pdf | 2 | eng |" in report


@pytest.mark.ocr
@needs_tesseract
@needs_font
def test_upside_down_page_gets_its_language_once_turned() -> None:
    turned = ocr_pil_image(page(JA_LINES).rotate(180), lang="auto", dpi=DPI, source="ja")
    assert turned.rotation == 180 and turned.lang == "jpn"
    assert "再委託" in turned.text
