"""Terms and amounts written the way the text they replace writes them (Chinese or Arabic
numerals, full-width digits kept).

:func:`format_months_cn` (42 → 三年六个月 or 3年6个月), :func:`format_yuan_cn` (五千元, 5000元,
5,000元, 1.5万元, 人民币…) and :func:`nice_amount` (an amount a court would write, away from a limit).
"""

from __future__ import annotations

import math
import re

from buildds.text.numerals import int_to_cn

__all__ = ["FINE_MANTISSAS", "format_months_cn", "format_yuan_cn", "nice_amount"]

_CN_RE = re.compile(r"[零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟]")


def _is_cn(like: str) -> bool:
    return bool(_CN_RE.search(like)) and not re.search(r"[0-9０-９]", like)


_FULL_WIDTH = str.maketrans("0123456789,", "０１２３４５６７８９，")


def _width_like(out: str, like: str) -> str:
    """``out`` with full-width digits when ``like`` writes its digits full width (３年)."""
    return out.translate(_FULL_WIDTH) if re.search(r"[０-９]", like) and not re.search(r"[0-9]", like) else out


def format_months_cn(months: int, like: str = "") -> str:
    """A term in the style of ``like``: 42 → 三年六个月 (or 3年6个月 when ``like`` uses digits);
    ``like`` with 零/又 between years and months (一年零六个月) keeps it."""
    if months <= 0:
        raise ValueError(f"not a term: {months}")
    cn = _is_cn(like) or not like
    num = int_to_cn if cn else str
    years, rest = divmod(months, 12)
    month_word = "个月" if ("个月" in like or not like or "月" not in like) else "月"
    out = ""
    if years:
        out += f"{num(years)}年"
        if rest and re.search(r"年[零又]", like):
            out += like[like.index("年") + 1]
    if rest:
        out += f"{num(rest)}{month_word}"
    return _width_like(out, like)


def format_yuan_cn(yuan: int, like: str = "") -> str:
    """An amount in the style of ``like`` (a money span such as 五千元, 5000元, 5,000元, 1.5万元,
    人民币五千元): Chinese numerals if ``like`` uses them, digits otherwise; 人民币 kept."""
    prefix = "人民币" if like.startswith("人民币") else ""
    body = like.removeprefix("人民币")
    if not body or _is_cn(body):
        return f"{prefix}{int_to_cn(yuan)}元"
    if re.search(r"[０-９]", body) and not re.search(r"[0-9]", body):
        return prefix + _width_like(format_yuan_cn(yuan, body.translate(
            str.maketrans("０１２３４５６７８９，", "0123456789,"))), body)
    if "万" in body and yuan % 100 == 0:
        wan = yuan / 10_000
        return f"{prefix}{wan:g}万元" if wan >= 1 else f"{prefix}{yuan}元"
    if re.search(r"[0-9][,，][0-9]{3}", body):
        sep = "，" if "，" in body else ","
        return f"{prefix}{yuan:,}元".replace(",", sep)
    return f"{prefix}{yuan}元"


#: the leading figures of the fines courts impose (JuDGE: 2, 1, 3, 5, 4, 6, 1.5, 8, 2.5 × a power
#: of ten make 98% of them): an injected fine drawn from these reads like a real one
FINE_MANTISSAS: tuple[float, ...] = (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8)


def nice_amount(value: float, *, up: bool) -> int:
    """``value`` rounded to an amount a court would write (:data:`FINE_MANTISSAS` × 10^k),
    away from the limit: the smallest such amount ≥ ``value`` (``up``) or the largest ≤ it
    (0 below one yuan)."""
    if value < 1:
        return 1 if up and value > 0 else 0
    k = math.floor(math.log10(value))
    candidates = sorted({int(m * 10 ** e) for e in (k - 1, k, k + 1) if e >= 0 for m in FINE_MANTISSAS
                         if m * 10 ** e == int(m * 10 ** e)})
    if up:
        return next(c for c in candidates if c >= value)
    return max(c for c in candidates if c <= value)
