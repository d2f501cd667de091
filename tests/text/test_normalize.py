"""Table-driven tests for buildds.text.normalize."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buildds.text import ZERO_WIDTH, normalize_text

NORMALIZE_CASES = [
    # (input, digits, expected, why)
    ("\u2f00\u2f49", "keep", "一月", "Kangxi radicals ⼀⽉ → unified 一月"),
    ("\uf900\u8eca", "keep", "豈車", "CJK compatibility ideograph U+F900 → 豈"),
    ("第1条\u200b（目的）", "keep", "第1条（目的）", "U+200B after a heading"),
    ("1.\u200b 選手は", "keep", "1. 選手は", "U+200B after a list number"),
    ("\ufeff本契約\u2060は\u200c\u200d", "keep", "本契約は", "BOM, word joiner, ZWNJ, ZWJ"),
    ("業 務 委 託 契 約 書", "keep", "業務委託契約書", "letter-spaced title"),
    ("　記　名　押　印", "keep", "　記名押印", "ideographic spaces, indent kept"),
    ("甲 乙", "keep", "甲 乙", "two characters are not a title"),
    ("代表取締役 河合 佑真 印", "keep", "代表取締役 河合 佑真 印", "names keep their spaces"),
    ("2026 年 月 日", "keep", "2026 年 月 日", "a blank date is not a title"),
    ("第１０条", "keep", "第１０条", "digits kept by default"),
    ("第１０条（目的）", "halfwidth", "第10条（目的）", "full-width digits → ASCII"),
    ("甲、乙，丙。", "halfwidth", "甲、乙，丙。", "punctuation untouched"),
    ("ＡＢＣ（１）", "halfwidth", "ＡＢＣ（1）", "only digits change, not letters/brackets"),
]


@pytest.mark.parametrize("text,digits,expected,why", NORMALIZE_CASES, ids=[c[3] for c in NORMALIZE_CASES])
def test_normalize_text(text: str, digits: str, expected: str, why: str) -> None:
    assert normalize_text(text, digits=digits) == expected  # type: ignore[arg-type]


def test_normalize_rejects_unknown_digits_mode() -> None:
    with pytest.raises(ValueError, match="digits"):
        normalize_text("1", digits="fullwidth")  # type: ignore[arg-type]


@given(st.text())
def test_normalize_removes_every_zero_width_and_is_idempotent(text: str) -> None:
    once = normalize_text(text)
    assert not set(once) & set(ZERO_WIDTH)
    assert normalize_text(once) == once
