"""buildds.text.era: exam years ↔ Japanese era years."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from buildds.text import era_fullwidth, era_of, era_year, year_of_era


@pytest.mark.parametrize("year, era, fullwidth", [
    (2015, "平成27年", "平成２７年"), (2018, "平成30年", "平成３０年"),
    (2019, "令和元年", "令和元年"), (2024, "令和6年", "令和６年"), (1989, "平成元年", "平成元年"),
])
def test_era_of_and_fullwidth(year: int, era: str, fullwidth: str) -> None:
    assert era_of(year) == era
    assert era_fullwidth(year) == fullwidth


def test_era_of_refuses_a_year_before_heisei() -> None:
    with pytest.raises(ValueError, match="no era known for 1988"):
        era_of(1988)


@pytest.mark.parametrize("text, year", [
    ("令和６年", 2024), ("令和6年", 2024), ("令和元年", 2019), ("平成27年", 2015),
    (" 令和７年-民法-1-3", 2025), ("2024年", None), ("", None), ("昭和60年", None),
])
def test_year_of_era(text: str, year: int | None) -> None:
    assert year_of_era(text) == year


def test_year_of_era_takes_only_text() -> None:
    assert year_of_era(None) is None  # type: ignore[arg-type]


def test_era_year() -> None:
    assert era_year("令和", "元") == 2019
    assert era_year("平成", "27") == 2015


@given(st.integers(min_value=1989, max_value=2100))
def test_year_round_trips_through_both_spellings(year: int) -> None:
    assert year_of_era(era_of(year)) == year
    assert year_of_era(era_fullwidth(year)) == year
