"""The exam's alphabet as OCR misreads it: statement labels, ○×, digits.

Shared by the repairs of :mod:`buildds.extract.jbe.ocr_repair` and
:mod:`buildds.extract.jbe.ocr_option_lines`: the labels ア–コ in order, what tesseract reads
for them (工 for エ, 才 for オ, 力 for カ, small and half-width kana), the ○ and × look-alikes,
the letters it reads for digits, and how the booklets print a number (full-width 1–9,
half-width from 10).
"""

from __future__ import annotations

import unicodedata

__all__ = ["FW", "HW", "LABELS", "LABEL_CHARS", "LOOKALIKE", "MARK_O",
           "MARK_X", "canon_label", "number", "printed"]

#: statement labels in order (the booklets use ア–オ, a few questions go further)
LABELS = "アイウエオカキクケコ"
#: what tesseract reads for a label character (half-width kana are handled by NFKC)
LOOKALIKE = {"工": "エ", "ェ": "エ", "才": "オ", "ォ": "オ", "力": "カ", "ァ": "ア", "ィ": "イ",
             "ゥ": "ウ", "ヵ": "カ", "ヶ": "ケ", "ㇵ": "ハ"}
LABEL_CHARS = LABELS + "".join(LOOKALIKE) + "ｱｲｳｴｵｶｷｸｹｺ"
#: what tesseract reads for the ○ and the × of a ○× table
MARK_O = "○〇◯OoＯｏ0０"
MARK_X = "×XxＸｘ✕╳メベ<＜※ミ"
FW = str.maketrans("0123456789", "０１２３４５６７８９")
HW = str.maketrans("０１２３４５６７８９", "0123456789")
#: letters tesseract reads for digits inside a number
_DIGIT_LOOKALIKE = str.maketrans({"O": "0", "o": "0", "Ｏ": "0", "l": "1", "I": "1", "|": "1",
                                   "ｌ": "1", "Ｉ": "1", "S": "5", "B": "8", "Z": "2"})


def number(text: str) -> int | None:
    """A number as read, letters that look like digits taken for them (``l2`` → 12)."""
    digits = unicodedata.normalize("NFKC", text).translate(_DIGIT_LOOKALIKE)
    return int(digits) if digits.isdigit() else None


def printed(n: int) -> str:
    """A number as the booklets print it: full-width 1–9, half-width from 10."""
    return str(n).translate(FW) if n < 10 else str(n)


def canon_label(ch: str) -> str:
    """The label a character read at a label's place stands for (工 → エ, ｱ → ア)."""
    ch = unicodedata.normalize("NFKC", ch)
    return LOOKALIKE.get(ch, ch)
