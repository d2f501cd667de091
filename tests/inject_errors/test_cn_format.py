"""Terms and amounts written in the style of the text they replace."""

from __future__ import annotations

from buildds.extract.judgments import parse_months
from buildds.inject_errors.cn_format import format_months_cn, format_yuan_cn
from buildds.text import cn_number
from buildds.text.numerals import int_to_cn


def test_numeral_rendering() -> None:
    for n in (1, 10, 11, 20, 105, 1000, 1005, 1500, 10050, 15000, 100500, 120000, 1000001, 100001000):
        assert cn_number(int_to_cn(n)) == n
    assert [format_months_cn(m, like) for m, like in [(42, "三年"), (7, "八个月"), (18, "1年6个月"),
                                                      (18, "一年零六个月"), (24, "六个月")]] == [
        "三年六个月", "七个月", "1年6个月", "一年零六个月", "二年"]
    assert parse_months(format_months_cn(43, "三年")) == 43
    assert [format_yuan_cn(80000, like) for like in ("五千元", "5000元", "3,000元", "1.5万元", "人民币五千元")] == [
        "八万元", "80000元", "80,000元", "8万元", "人民币八万元"]


def test_full_width_digits_are_kept() -> None:
    from buildds.inject_errors.cn_format import format_months_cn, format_yuan_cn

    assert format_months_cn(18, "３年") == "１年６个月"
    assert format_yuan_cn(25000, "５０００元") == "２５０００元"
    assert format_yuan_cn(25000, "５，０００元") == "２５，０００元"
    assert format_yuan_cn(25000, "5,000元") == "25,000元"


def test_nice_amounts_are_amounts_courts_write() -> None:
    from buildds.inject_errors.cn_format import FINE_MANTISSAS, nice_amount

    assert [nice_amount(v, up=True) for v in (7, 11, 1234, 26000, 432171)] == [8, 15, 1500, 30000, 500000]
    assert [nice_amount(v, up=False) for v in (0.5, 7, 11, 1234, 99999)] == [0, 6, 10, 1000, 80000]
    for v in range(1, 5000, 37):
        for up in (True, False):
            n = nice_amount(v, up=up)
            assert (n >= v) if up else (n <= v)
            lead = n / 10 ** (len(str(n)) - 1)
            assert lead in FINE_MANTISSAS or lead * 10 in FINE_MANTISSAS or n == 0
