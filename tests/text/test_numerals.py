"""buildds.text.numerals: Chinese and kanji numerals read and written, article numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buildds.text import (
    NUMERAL,
    cn_duration_months,
    cn_number,
    cn_numeral,
    int_to_cn,
    int_to_ja,
    to_int_number,
)


# ------------------------------------------------------------------ cn_number (judgments)
@pytest.mark.parametrize("text, value", [
    ("三", 3), ("十", 10), ("十一", 11), ("二十", 20), ("一百零五", 105), ("三万", 30000),
    ("一万二千", 12000), ("十万零五百", 100500), ("两千", 2000), ("1.5万", 15000),
    ("3,000", 3000), ("２０００", 2000), ("贰万", 20000), ("二百六十六", 266), ("一亿", 10**8),
])
def test_cn_number(text: str, value: int) -> None:
    assert cn_number(text) == value


@pytest.mark.parametrize("text", ["", "元", "abc"])
def test_cn_number_none(text: str) -> None:
    assert cn_number(text) is None


@given(st.integers(min_value=0, max_value=99_999_999))
def test_cn_number_arabic_roundtrip(n: int) -> None:
    assert cn_number(str(n)) == n
    assert cn_number(f"{n:,}") == n


@pytest.mark.parametrize("text, value", [
    ("十五", 15), ("二百万", 2_000_000), ("三千", 3000), ("0", 0), ("１２", 12),
    # moved from tests/inject_errors/test_statutes.py with cn_numeral
    ("三", 3), ("十", 10), ("二十", 20), ("一百五十", 150), ("一千", 1000),
    ("三万", 30000), ("五十万", 500000), ("两", 2), ("123", 123),
])
def test_cn_numeral(text: str, value: int) -> None:
    assert cn_numeral(text) == value
    assert isinstance(cn_numeral(text), int)


def test_cn_numeral_refuses_what_is_not_a_numeral() -> None:
    with pytest.raises(ValueError, match="not a numeral: '元'"):
        cn_numeral("元")


@pytest.mark.parametrize("text, months", [
    ("三年", 36), ("六个月", 6), ("一年六个月", 18), ("三月", 3), ("十年", 120), ("十五年", 180),
])
def test_cn_duration_months(text: str, months: int) -> None:
    assert cn_duration_months(text) == months


@pytest.mark.parametrize("text", ["", "三天", "年"])
def test_cn_duration_months_refuses_other_text(text: str) -> None:
    with pytest.raises(ValueError, match="not a duration"):
        cn_duration_months(text)


def test_numeral_pattern_matches_a_whole_numeral() -> None:
    import re

    assert re.fullmatch(NUMERAL, "二百万")
    assert re.fullmatch(NUMERAL, "1500")
    assert not re.fullmatch(NUMERAL, "二百万元")


def test_positional_kanji_differs_on_purpose() -> None:
    # the article reader is positional, the judgments' reader is not (see the module docstring)
    assert to_int_number("二〇") == 20
    assert cn_number("二〇") == 0


# ------------------------------------------------------------------ int_to_cn
@pytest.mark.parametrize("n, text", [
    (0, "零"), (12, "十二"), (105, "一百零五"), (1500, "一千五百"), (15000, "一万五千"),
    (100500, "十万零五百"), (2_000_000, "二百万"), (10**8, "一亿"),
])
def test_int_to_cn(n: int, text: str) -> None:
    assert int_to_cn(n) == text


def test_int_to_cn_refuses_negative() -> None:
    with pytest.raises(ValueError, match="negative: -1"):
        int_to_cn(-1)


@given(st.integers(min_value=0, max_value=10**8 - 1))
def test_int_to_cn_round_trips_through_cn_number(n: int) -> None:
    assert cn_number(int_to_cn(n)) == n


@pytest.mark.parametrize(("text", "value"), [
    ("一亿零一万", 100_010_000),       # 万 after 亿 adds to it (it once multiplied the total)
    ("三亿五千万", 350_000_000),
    ("一万亿", 1_000_000_000_000),     # 亿 after 万 counts the whole in 亿
    ("两亿三千四百五十六万七千八百九十", 234_567_890),
    ("1.2亿", 120_000_000),
    ("5万", 50_000),
])
def test_cn_number_reads_wan_and_yi_in_either_order(text: str, value: int) -> None:
    assert cn_number(text) == value


def test_cn_number_reads_back_what_int_to_cn_writes_across_wan_and_yi() -> None:
    for value in (100_010_000, 100_500_000, 2_000_000_001, 999_999_999_999, 1_000_000_000):
        assert cn_number(int_to_cn(value)) == value, value


# ------------------------------------------------------------------ to_int_number (articles)
NUMBER_CASES = [
    ("1", 1), ("１", 1), ("１２", 12), ("一", 1), ("十", 10), ("十二", 12), ("二十", 20),
    ("二十三", 23), ("百", 100), ("百二", 102), ("三百五十", 350), ("二〇", 20),
    ("II", 2), ("IV", 4), ("XII", 12), ("xii", 12), ("Ⅳ", 4), ("第１条", 1), ("第 10 条", 10),
    ("第二十三条", 23), ("3.", 3),
    ("", None), ("abc", None), ("十十", None), ("IIII", None), ("第条", None), ("1a", None),
]


@pytest.mark.parametrize("text,expected", NUMBER_CASES)
def test_to_int_number(text: str, expected: int | None) -> None:
    assert to_int_number(text) == expected


def _kanji(n: int) -> str:
    digits = "〇一二三四五六七八九"
    out = ""
    for value, unit in ((100, "百"), (10, "十")):
        q, n = divmod(n, value)
        if q:
            out += ("" if q == 1 else digits[q]) + unit
    return out + (digits[n] if n else "")


@given(st.integers(min_value=1, max_value=999))
def test_to_int_number_round_trips_kanji_and_fullwidth(n: int) -> None:
    assert to_int_number(_kanji(n)) == n
    assert to_int_number(str(n).translate({ord(c): 0xFF10 + int(c) for c in "0123456789"})) == n


@pytest.mark.parametrize(("value", "text"), [
    (0, "〇"), (1, "一"), (10, "十"), (166, "百六十六"), (1044, "千四十四"), (11000, "一万千"),
    (100500, "十万五百"), (398, "三百九十八")])
def test_int_to_ja_writes_numbers_as_statutes_do(value: int, text: str) -> None:
    assert int_to_ja(value) == text
    if value < 10_000:  # article numbers: the article-number reader reads it back
        assert to_int_number(text) == value
