"""A JBE item from a scanned page gets its highlight box from the page's OCR lines
(:mod:`buildds.review.ocr_boxes`). The sample's 憲法 booklet is rasterised here (an image-only
PDF, as a scanner gives it) and built through OCR; each statement's box must stand where the
text layer of the original puts it, and the item page shows it in the browser."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from buildds.review.ocr_boxes import OCR_CACHE, locate_loosely
from buildds.schema import PdfLine
from tests.review.conftest import JbeSample, build_sample, jbe_source, screenshot
from tests.review.test_browser_jbe import _check_highlight

SCANNED = "kenpo"


def _line(text: str, top: float, page: int = 1) -> PdfLine:
    return PdfLine(text=text, bbox=(70.0, top, 520.0, top + 12.0), font_size=12.0, page=page)


def test_a_statement_is_found_despite_ocr_differences() -> None:
    lines = [_line("第1問", 100), _line("ア.表現の自由は優越的地位を有する。", 120),
             _line("この見解は二重の基準論による。", 134), _line("イ.次の記述", 160)]
    text = "ａ．表現の自由は優越的地位を有する。この見解は二重の基準論による。"
    assert locate_loosely(lines, text) == (70.0, 120.0, 520.0, 146.0)
    # a misread at both ends: later probes find it
    misread = "表現の白由は優越的地位を有する。この見解は二重の基準論によゐ。"
    assert locate_loosely(lines, misread) == (70.0, 120.0, 520.0, 146.0)
    assert locate_loosely(lines, "まったく別の文章で見つからない") is None
    assert locate_loosely([], text) is None


def _overlap(a: list[float], b: list[float]) -> float:
    """Intersection over union of two (x0, top, x1, bottom) boxes."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(0.0, w) * max(0.0, h)
    area = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / area if area > 0 else 0.0


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> JbeSample:
    """The sample with ``2025/kenpo-mondai.pdf`` as an image-only scan, built through OCR."""
    if shutil.which("tesseract") is None:
        pytest.skip("needs tesseract")
    import pypdfium2 as pdfium

    from buildds.sample import SAMPLE_DIR

    root = tmp_path_factory.mktemp("review_scan")
    raw = root / "raw"
    shutil.copytree(SAMPLE_DIR, raw)
    (raw / "manifest.json").unlink()  # its checksums are the text-layer files'
    booklet = raw / "2025" / f"{SCANNED}-mondai.pdf"
    pdf = pdfium.PdfDocument(str(booklet))
    pages = [pdf[i].render(scale=150 / 72, grayscale=True).to_pil() for i in range(len(pdf))]
    pdf.close()
    pages[0].save(booklet, save_all=True, append_images=pages[1:], resolution=150)
    return build_sample(root)


@pytest.mark.ocr
def test_scanned_items_are_boxed_where_the_text_layer_puts_them(
        scanned: JbeSample, jbe_sample: JbeSample, tmp_path: Path) -> None:
    cache = scanned.out / OCR_CACHE
    shutil.rmtree(cache, ignore_errors=True)
    source = jbe_source(scanned, tmp_path / "c1", spot_check=100)
    text = {i.key: i for i in jbe_source(jbe_sample, tmp_path / "c2", spot_check=100).items()}
    items = [i for i in source.items() if i.evidence["source"] == f"2025/{SCANNED}-mondai.pdf"]
    # listing the queue runs no OCR: a scanned item's box is found when it is first asked for
    assert not cache.exists() and all("bbox" not in dict(i.evidence) for i in items)
    assert len(items) >= 10 and all(i.evidence["ocr_confidence"] is not None for i in items)
    for item in items:
        box, want = item.evidence["bbox"], text[item.key].evidence["bbox"]
        assert box is not None and item.evidence["box_from"] == "OCR lines", item.key
        if want is None:  # the text layer's own search missed it: the box is still sane
            assert box[2] - box[0] > 300 and box[3] > box[1], item.key
            continue
        assert _overlap(box, want) >= 0.85, (item.key, box, want)
    # the text-layer items keep their text-layer box
    other = next(i for i in source.items() if i.evidence["source"] != f"2025/{SCANNED}-mondai.pdf")
    assert other.evidence["box_from"] == "text layer"
    # tesseract ran once per page: the lines are cached under the output
    cached = sorted(cache.glob("*.json"))
    assert len(cached) == len({i.evidence["page"] for i in items})


@pytest.mark.ocr
def test_the_scanned_item_shows_its_highlight(scanned: JbeSample, tmp_path: Path,
                                              chromium: Any, review_server: Any) -> None:
    source = jbe_source(scanned, tmp_path / "c", spot_check=100)
    item = next(i for i in source.items()
                if i.evidence["source"] == f"2025/{SCANNED}-mondai.pdf")
    server = review_server(source)
    page = chromium.new_page(viewport={"width": 1360, "height": 900})
    try:
        page.goto(server.url)
        page.goto(f"{server.base_url}/item/{item.key}")
        _check_highlight(page)
        assert "OCR lines" in page.inner_text("#box-from")
        screenshot(page, "review-jbe-scan-item")
    finally:
        page.close()
