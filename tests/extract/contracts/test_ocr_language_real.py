"""OCR language chosen per page on real documents from ../shared/realdata/contracts.

There is no scanned Japanese contract there (PROVENANCE §2), so one is made the way a
scanner would: ``jp_decrypt-pdf/契約書.pdf`` (6 articles, ``第１条`` full-width) rendered at
200 dpi, slightly blurred and saved as JPEG quality 60 into an image-only PDF. Read with
``jpn+eng`` its ``第５条`` comes out as ``BOR`` and article 5 falls into article 4 — the
issue's "Bis" — while ``auto`` chooses ``jpn`` and finds all six. The Taiwanese scan is
read as ``chi_tra``, a CUAD page rendered to an image as ``eng``, and two Japanese images
(a poor form, a clean page) as ``jpn``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from buildds.extract.contracts import read_document
from buildds.transform.clauses import split_clauses
from tests.conftest import shared_path

pytestmark = [pytest.mark.shared, pytest.mark.ocr]

CUAD = "en_cuad/PAXMEDICA,INC_07_02_2020-EX-10.12-Master Service Agreement.PDF"


def scanned(src: Path, out: Path, *, dpi: int = 200, pages: int | None = None) -> Path:
    """``src`` as a scanner would give it: grey, ``dpi``, a little blur, JPEG q60."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageFilter

    pdf = pdfium.PdfDocument(str(src))
    images = []
    try:
        for i in range(len(pdf) if pages is None else pages):
            img = pdf[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L")
            buf = io.BytesIO()
            img.filter(ImageFilter.GaussianBlur(0.6)).save(buf, "JPEG", quality=60)
            images.append(Image.open(buf).convert("L"))
    finally:
        pdf.close()
    images[0].save(out, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return out


def articles(path: Path, **kw: object) -> tuple[list[int | None], dict[int, str]]:
    doc = read_document(path, processes=1, **kw)  # type: ignore[arg-type]
    assert doc.format == "scan"
    found = [c.number for c in split_clauses(doc.blocks, source=path.name)
             if c.kind == "article"]
    return found, doc.ocr_page_lang


def test_japanese_scan_is_read_in_jpn_and_keeps_every_article(tmp_path: Path) -> None:
    src = shared_path("realdata", "contracts", "jp_decrypt-pdf", "契約書.pdf")
    scan = scanned(src, tmp_path / "scan.pdf")
    found, langs = articles(scan)
    assert langs == {1: "jpn"}
    assert found == [1, 2, 3, 4, 5, 6]
    # --ocr-lang overrides: the page is read in the language given
    _, forced = articles(scan, ocr_lang="jpn+eng")
    assert forced == {1: "jpn+eng"}


def test_traditional_chinese_scan_is_read_in_chi_tra() -> None:
    src = shared_path("realdata", "contracts", "scan_zh-tw_hualien", "契約書.pdf")
    doc = read_document(src, processes=1, pages=[1])
    if "chi_tra" not in _installed():
        pytest.skip("tesseract-ocr-chi-tra not installed")
    assert doc.ocr_page_lang == {1: "chi_tra"}
    assert doc.ocr_confidence is not None and doc.ocr_confidence > 75
    assert "契約" in "".join(b.text for b in doc.blocks)


def test_english_page_image_is_read_in_eng(tmp_path: Path) -> None:
    src = shared_path("realdata", "contracts", *CUAD.split("/"))
    scan = scanned(src, tmp_path / "cuad.pdf", dpi=300, pages=1)
    doc = read_document(scan, processes=1)
    assert doc.ocr_page_lang == {1: "eng"}
    assert "Master Service Agreement" in " ".join(b.text for b in doc.blocks).title() or \
        "MASTER SERVICE" in " ".join(b.text for b in doc.blocks).upper()


@pytest.mark.parametrize("rel", ["jp_hanbai-keiyakusho/sales-contract-template.jpg",
                                 "jp_yomitoku-images/demo.jpg"])
def test_japanese_images_are_read_in_jpn(rel: str) -> None:
    """A poor scan of a Japanese form (probe confidence ~20, but 78 % kana) and a clean page."""
    doc = read_document(shared_path("realdata", "contracts", *rel.split("/")), processes=1)
    assert doc.ocr_page_lang == {1: "jpn"}


def _installed() -> frozenset[str]:
    from buildds.extract.ocr import check_tesseract

    return check_tesseract("jpn")
