"""Terms and amounts of money in a judgment's text (numerals read by
:func:`buildds.text.cn_number`).

- :data:`TERM_RE` / :func:`parse_months`: ``三年六个月`` → 42;
- :data:`MONEY_RE` / :func:`money_matches` / :func:`parse_money`: ``1.5万元`` → 15000;
- :func:`parse_amount_involved`: the amount of the offence from the facts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from buildds.extract.judgments.spans import make_span
from buildds.schema.judgments import Span
from buildds.text import cn_number

__all__ = [
    "CN_NUMERALS",
    "MONEY_RE",
    "NUMERAL",
    "TERM_RE",
    "money_matches",
    "money_value",
    "parse_amount_involved",
    "parse_money",
    "parse_months",
    "term_months",
]

#: the Chinese numeral characters; :data:`NUMERAL` one digit of a numeral (Arabic, full-width
#: or Chinese)
CN_NUMERALS = "零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟"
NUMERAL = f"[0-9０-９{CN_NUMERALS}]"


TERM_RE = re.compile(
    rf"(?:(?P<y>{NUMERAL}+)年(?:零|又)?(?:(?P<m>{NUMERAL}+)个?月)?|(?P<m2>{NUMERAL}+)个?月)")


def parse_months(text: str) -> int | None:
    """``三年六个月`` → 42, ``一年零六个月`` → 18, ``十一个月`` → 11, ``1年6个月`` → 18;
    the first term found in ``text`` (``拘役五个月`` → 5), ``None`` without one."""
    m = TERM_RE.search(text)
    return term_months(m) if m else None


def term_months(m: re.Match[str]) -> int | None:
    years = cn_number(m["y"]) if m["y"] else Decimal(0)
    months_text = m["m"] or m["m2"]
    months = cn_number(months_text) if months_text else Decimal(0)
    if years is None or months is None:
        return None
    return int(years * 12 + months)


MONEY_RE = re.compile(
    r"(?P<amount>(?P<num>[0-9０-９][0-9０-９,，.．]*(?:[万千百亿]+[0-9０-９零〇一二两三四五六七八九十百千]*)*"
    rf"|[{CN_NUMERALS}]+)\s*(?:余|多)?\s*元)")


_MONEY_CHARS = frozenset("0123456789０１２３４５６７８９,，.．余多" + CN_NUMERALS)
_FULLWIDTH_THOUSANDS_RE = re.compile(r"[0-9]{1,3}(?:，[0-9]{3})+.*")


def money_matches(text: str) -> Iterator[re.Match[str]]:
    """The matches of :data:`MONEY_RE` in ``text``, the same as ``MONEY_RE.finditer(text)``.

    Every match ends at the first 元 after its start and holds only numeral, separator,
    余/多 and white-space characters before it, so it lies in the run of such characters
    that ends at a 元 — at most one match per 元. Searching only those runs skips the
    regex attempts at every numeral-like character of the prose (一, 十, 万 …)."""
    end = text.find("元")
    while end >= 0:
        start = end
        while start and (text[start - 1] in _MONEY_CHARS or text[start - 1].isspace()):
            start -= 1
        if start < end:
            m = MONEY_RE.search(text, start, end + 1)
            if m is not None:
                yield m
        end = text.find("元", end + 1)


def money_value(num: str) -> int | None:
    # a full-width comma is a thousands separator only when three digits follow
    if "，" in num and not _FULLWIDTH_THOUSANDS_RE.fullmatch(num):
        return None
    value = cn_number(num.replace("，", ","))
    return None if value is None else int(value.to_integral_value())


def parse_money(text: str) -> int | None:
    """``人民币五千元`` → 5000, ``1.5万元`` → 15000, ``人民币3,000元`` → 3000; the first
    amount in ``text``, in whole yuan (rounded), ``None`` without one."""
    for m in money_matches(text):
        value = money_value(m["num"])
        if value is not None:
            return value
    return None



_TOTAL_RE = re.compile(r"(?:共计|合计|总计|累计|总价值|总金额|总额|总值|共)")
_AMOUNT_KEY_RE = re.compile(
    r"(?:价值|数额|金额|涉案金额|骗取|诈骗|盗窃|窃取|盗走|窃得|抢走|抢得|抢劫|抢夺|侵占|挪用|收受|索取|"
    r"贪污|受贿|非法获利|获利|违法所得|销售额|销售金额|赌资|集资|吸收)")
_BEFORE_SEP_RE = re.compile(r"[。；;，,]")


def parse_amount_involved(text: str, offset: int = 0) -> tuple[int, Span] | None:
    """The amount of the offence in the facts: the largest amount stated as a total
    (共计/合计/总计/累计/总价值 … 元) when there is one, else the largest amount within a
    few characters after 价值/数额/骗取/盗窃 …; its span covers the amount and 元."""
    totals: list[tuple[int, int, int]] = []
    keyed: list[tuple[int, int, int]] = []
    for m in money_matches(text):
        value = money_value(m["num"])
        if value is None or value == 0:
            continue
        before = text[max(0, m.start() - 25):m.start()]
        before = _BEFORE_SEP_RE.split(before)[-1]
        if _TOTAL_RE.search(before):
            totals.append((value, m.start(), m.end()))
        elif _AMOUNT_KEY_RE.search(before):
            keyed.append((value, m.start(), m.end()))
    pool = totals or keyed
    if not pool:
        return None
    value, start, end = max(pool, key=lambda t: (t[0], -t[1]))
    return value, make_span(text, start, end, offset)

