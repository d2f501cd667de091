"""Tesseract's word table (``image_to_data``) as an :class:`~buildds.extract.ocr.job.OcrPage`.

Words are grouped into lines by (block_num, par_num, line_num), tidied for Japanese
(:func:`~buildds.extract.ocr.text.tidy_japanese`), given a box in PDF points and a font size,
and scanner dust read as a character is dropped; the page confidence is the mean word
confidence. Part of :mod:`buildds.extract.ocr`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator
from typing import Any

from buildds.extract.ocr.job import OcrJob, OcrPage, is_japanese
from buildds.extract.ocr.text import tidy_japanese
from buildds.schema import BBox, PdfLine
from buildds.text import normalise_spaces

__all__ = ["build_page", "merge_split_glyphs"]

# Ink height of a line of Japanese text is about 0.9 em (kanji fill ~90% of the body).
_INK_TO_EM = 0.9
# Lines this short whose every word is below this confidence are scanner dust, not text.
_DUST_MAX_CHARS = 2
_DUST_MAX_CONF = 40.0


def _words(
    data: dict[str, list[Any]],
) -> Iterator[tuple[tuple[int, int, int], str, float, tuple[int, int, int, int]]]:
    for i, text in enumerate(data.get("text", [])):
        if data["level"][i] != 5 or not str(text).strip():
            continue
        try:
            conf = float(data["conf"][i])
        except (TypeError, ValueError):
            conf = -1.0
        key = (int(data["block_num"][i]), int(data["par_num"][i]), int(data["line_num"][i]))
        box = (
            int(data["left"][i]),
            int(data["top"][i]),
            int(data["width"][i]),
            int(data["height"][i]),
        )
        yield key, str(text), conf, box


def merge_split_glyphs(
    words: list[tuple[str, float, tuple[int, int, int, int]]], pitch: float
) -> list[tuple[str, float, tuple[int, int, int, int]]]:
    """One glyph read twice, as tesseract's Japanese model sometimes does on a noisy scan,
    read once: a word of two equal characters (``エエ``) no wider than one character
    ``pitch``, or two one-character words of the same character whose boxes together are no
    wider than one character (``有`` ``有``). The boxes decide, never the text alone: ``々``-less
    doubles such as ``ここ`` take two characters' width and stay."""
    limit = 1.2 * pitch
    out: list[tuple[str, float, tuple[int, int, int, int]]] = []
    for text, conf, box in words:
        if len(text) == 2 and text[0] == text[1] and box[2] <= limit:
            text = text[0]
        if out:
            prev_text, prev_conf, prev_box = out[-1]
            right = max(prev_box[0] + prev_box[2], box[0] + box[2])
            if (len(text) == 1 and prev_text == text and right - prev_box[0] <= limit):
                top = min(prev_box[1], box[1])
                bottom = max(prev_box[1] + prev_box[3], box[1] + box[3])
                out[-1] = (text, min(prev_conf, conf),
                           (prev_box[0], top, right - prev_box[0], bottom - top))
                continue
        out.append((text, conf, box))
    return out


def _pitch(data: dict[str, list[Any]], scale: float) -> float:
    """The width of one full-width character in pixels: the page's confident words' total
    width over their characters (10.5 pt when the page has too few)."""
    width = chars = 0
    for _, text, conf, box in _words(data):
        if conf >= 90 and len(text) >= 2 and all(_is_wide(c) for c in text):
            width += box[2]
            chars += len(text)
    return width / chars if chars >= 20 else 10.5 * scale


def _is_wide(ch: str) -> bool:
    import unicodedata

    return unicodedata.east_asian_width(ch) in ("W", "F")


def build_page(data: dict[str, list[Any]], job: OcrJob, page: int, rotation: int) -> OcrPage:
    scale = job.dpi / 72.0
    japanese = is_japanese(job.lang)
    grouped: dict[tuple[int, int, int], list[tuple[str, float, tuple[int, int, int, int]]]] = {}
    for key, text, conf, box in _words(data):
        grouped.setdefault(key, []).append((text, conf, box))
    lines: list[PdfLine] = []
    confidences: list[float] = []
    pitch = _pitch(data, scale)
    for words in grouped.values():
        if japanese:
            words = merge_split_glyphs(words, pitch)
        text = normalise_spaces(" ".join(w[0] for w in words))
        if japanese:
            text = tidy_japanese(text)
        confs = [w[1] for w in words if w[1] >= 0]
        if not text:
            continue
        if len(text.replace(" ", "")) <= _DUST_MAX_CHARS and all(c < _DUST_MAX_CONF for c in confs):
            continue  # a speck of dust read as a character
        confidences.extend(confs)
        heights = [w[2][3] for w in words]
        typical = statistics.median(heights)
        # tesseract's LSTM gives some glyphs a box as tall as the whole text row; leave them
        # out of the line box when the others agree
        boxes = [w[2] for w in words if w[2][3] <= typical * 1.5] or [w[2] for w in words]
        x0 = min(b[0] for b in boxes)
        top = min(b[1] for b in boxes)
        x1 = max(b[0] + b[2] for b in boxes)
        bottom = max(b[1] + b[3] for b in boxes)
        bbox: BBox = (
            round(x0 / scale, 2),
            round(top / scale, 2),
            round(x1 / scale, 2),
            round(bottom / scale, 2),
        )
        heights = sorted(b[3] for b in boxes)
        ink = heights[math.ceil(0.75 * (len(heights) - 1))]  # small kana and 、 pull a median down
        font_size = round(ink / scale / _INK_TO_EM, 1)
        lines.append(PdfLine(text=text, bbox=bbox, font_size=font_size, page=page,
                             confidence=round(sum(confs) / len(confs), 2) if confs else None,
                             min_confidence=min(confs) if confs else None))
    confidence = round(sum(confidences) / len(confidences), 2) if confidences else 0.0
    return OcrPage(lines=tuple(lines), confidence=confidence, page=page, rotation=rotation)
