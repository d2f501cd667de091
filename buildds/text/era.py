"""Japanese era years of the bar exam: 2024 ↔ 令和6年 (令和６年 with full-width digits, as
JBE-QA writes it), 2019 ↔ 令和元年, 2015 ↔ 平成27年."""

from __future__ import annotations

import re

__all__ = ["era_fullwidth", "era_of", "era_year", "year_of_era"]

_FW = str.maketrans("0123456789", "０１２３４５６７８９")
_HW = str.maketrans("０１２３４５６７８９", "0123456789")


def era_of(year: int) -> str:
    """Japanese era name of an exam year, as the booklets print it: 2015 → 平成27年,
    2019 → 令和元年 (the exam is held in May, after the era changed), 2024 → 令和6年."""
    if year >= 2019:
        n = year - 2018
        return "令和元年" if n == 1 else f"令和{n}年"
    if year >= 1989:
        n = year - 1988
        return "平成元年" if n == 1 else f"平成{n}年"
    raise ValueError(f"no era known for {year}")


_ERA_BASE = {"平成": 1988, "令和": 2018}
_ERA_YEAR = re.compile(r"^(平成|令和)([0-9]+|元)年")


def year_of_era(text: str) -> int | None:
    """The inverse of :func:`era_of`, for full- or half-width digits: ``令和６年`` → 2024,
    ``令和元年`` → 2019, ``平成27年`` → 2015; None when ``text`` does not start with one."""
    if not isinstance(text, str):
        return None
    m = _ERA_YEAR.match(text.translate(_HW).strip())
    if not m:
        return None
    return era_year(m.group(1), m.group(2))


def era_year(era: str, number: str) -> int:
    """The Western year of ``<era><number>年``: ``era_year("令和", "元")`` → 2019."""
    return _ERA_BASE[era] + (1 if number == "元" else int(number))


def era_fullwidth(year: int) -> str:
    """The era year with full-width digits, as JBE-QA writes it: 令和６年."""
    return era_of(year).translate(_FW)
