"""Terms and amounts written the way a Japanese judgment writes the one they replace:
:func:`format_ja_term` (22 → １年１０月, 1年10月 or 一年十月) and :func:`format_ja_yen`
(1,000,000 → １００万円, 100万円, 百万円; 5,000 → ５０００円).
"""

from __future__ import annotations

import re

from buildds.text.numerals import int_to_ja

__all__ = ["format_ja_term", "format_ja_yen"]

_FULL = str.maketrans("0123456789", "０１２３４５６７８９")


def _numeral(like: str):  # type: ignore[no-untyped-def]
    """How ``like`` writes numbers: full-width digits, ASCII digits, or kanji."""
    if re.search(r"[０-９]", like):
        return lambda n: str(n).translate(_FULL)
    if re.search(r"[0-9]", like):
        return str
    return int_to_ja


def format_ja_term(months: int, like: str = "１年") -> str:
    """A term in months as ``N年N月`` in the numerals of ``like`` (月 spelled as there:
    月 / か月 / 箇月)."""
    if months <= 0:
        raise ValueError(f"not a term: {months}")
    num = _numeral(like)
    unit = next((u for u in ("か月", "箇月") if u in like), "月")
    years, rest = divmod(months, 12)
    return (f"{num(years)}年" if years else "") + (f"{num(rest)}{unit}" if rest else "")


def format_ja_yen(yen: int, like: str = "１０万円") -> str:
    """An amount in yen in the numerals of ``like``; in 万 units when ``like`` uses them and
    the amount allows it (50万5000円 style for a remainder)."""
    if yen <= 0:
        raise ValueError(f"not an amount: {yen}")
    num = _numeral(like)
    man, rest = divmod(yen, 10_000)
    if man and ("万" in like or not rest):
        return f"{num(man)}万" + (f"{num(rest)}円" if rest else "円")
    return f"{num(yen)}円"
