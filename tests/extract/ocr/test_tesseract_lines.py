"""Tesseract's word table → lines: a glyph read twice is read once (boxes decide), and every
line carries its mean and least word confidence."""

from __future__ import annotations

from buildds.extract.ocr.job import OcrJob
from buildds.extract.ocr.tesseract_lines import build_page, merge_split_glyphs

PITCH = 44.0  # 10.5 pt at 300 dpi


def test_a_doubled_label_in_one_glyph_box_is_read_once() -> None:
    words = [("エエ", 26.0, (306, 892, 41, 63)), (".", 59.0, (353, 926, 8, 7))]
    assert [w[0] for w in merge_split_glyphs(words, PITCH)] == ["エ", "."]


def test_one_glyph_split_in_two_boxes_is_read_once() -> None:
    words = [("を", 93.0, (552, 2806, 22, 63)), ("有", 72.0, (573, 2812, 21, 40)),
             ("有", 55.0, (594, 2806, 22, 63)), ("し", 92.0, (615, 2814, 19, 36))]
    merged = merge_split_glyphs(words, PITCH)
    assert [w[0] for w in merged] == ["を", "有", "し"]
    assert merged[1][1] == 55.0  # the lower confidence is kept


def test_two_real_characters_stay() -> None:
    words = [("ここ", 95.0, (100, 10, 88, 40)), ("人", 96.0, (200, 10, 40, 40)),
             ("人", 96.0, (244, 10, 40, 40))]
    assert [w[0] for w in merge_split_glyphs(words, PITCH)] == ["ここ", "人", "人"]


def _data(words: list[tuple[str, float, int]]) -> dict[str, list]:
    keys = ("level", "text", "conf", "block_num", "par_num", "line_num", "left", "top",
            "width", "height")
    data: dict[str, list] = {k: [] for k in keys}
    for i, (text, conf, line) in enumerate(words):
        for k, v in zip(keys, (5, text, conf, 1, 1, line, 100 + 50 * i, 100 * line, 44, 44)):
            data[k].append(v)
    return data


def test_lines_carry_mean_and_least_confidence() -> None:
    job = OcrJob(lang="jpn", psm=6, dpi=300.0, detect_orientation=False, osd_available=False,
                 source="x.pdf")
    page = build_page(_data([("民法", 96.0, 1), ("の", 80.0, 1), ("規定", 35.0, 2),
                             ("による", 95.0, 2)]), job, 1, 0)
    assert [(ln.text, ln.confidence, ln.min_confidence) for ln in page.lines] == [
        ("民法の", 88.0, 80.0), ("規定による", 65.0, 35.0)]
