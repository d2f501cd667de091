"""Text of an OCR reading (buildds.extract.ocr.text): Japanese tidying and character accuracy.
Nothing here runs tesseract."""

from __future__ import annotations

import pytest

from buildds.extract.ocr.text import char_accuracy, tidy_japanese


@pytest.mark.parametrize(
    ("hypothesis", "reference", "expected"),
    [
        ("法人は保佐人になる", "法人は保佐人になる", 1.0),
        ("abcdefghiX", "abcdefghij", 0.9),  # one substitution in 10 characters
        ("法人は、保佐人に\nなる", "法人は、 保佐人になる", 1.0),  # whitespace ignored
        ("", "法人は保佐人になる", 0.0),
        ("完全に違う長い長い長い文字列です", "短い", 0.0),  # floored at 0
        ("", "", 1.0),
    ],
)
def test_char_accuracy(hypothesis: str, reference: str, expected: float) -> None:
    assert char_accuracy(hypothesis, reference) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("raw", "tidy"),
    [
        ("法 人 は 、 保 佐 人", "法人は、保佐人"),
        ("ア . 法人 は", "ア．法人は"),
        ("(第 1 問〕 (配点 : 2)", "（第１問〕（配点：２）"),
        ("(解答 欄 は 、 [No. 1 ] )", "（解答欄は、［No.１］）"),
        ("〔第 10 問〕", "〔第10問〕"),
        ("反しない 。 [No. 33 ]", "反しない。［No.33］"),
        ("1.ア イ 2.ア エ", "１．アイ２．アエ"),
        ("AB 間 で B が", "ＡＢ間でＢが"),
        ("a. 当該 法律", "ａ．当該法律"),
        ("ー 2 -", "- 2 -"),
        ("民法 Civil Code (Act No. 89 of 1896)", "民法 Civil Code (Act No. 89 of 1896)"),
        ("第 1.5 倍", "第1.5倍"),
        ("正しい もの に は 〇", "正しいものには○"),
        ("二〇二四 年", "二〇二四年"),
    ],
)
def test_tidy_japanese(raw: str, tidy: str) -> None:
    assert tidy_japanese(raw) == tidy
