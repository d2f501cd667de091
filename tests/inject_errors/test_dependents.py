"""The dependent-value repairs: date notes, days, 缓刑, fine mentions, the charge's article,
the proportional fine's base, and the text-only consistency checker."""

from __future__ import annotations

from datetime import date

import pytest

from buildds.inject_errors.base import SkipInjection
from buildds.inject_errors.charge_articles import article_item, article_swap
from buildds.inject_errors.consistency import check_consistency
from buildds.inject_errors.date_notes import (
    date_notes,
    format_date_like,
    note_offset,
    term_days,
    term_end,
)
from buildds.inject_errors.dependents import fine_change, term_allowed, term_change
from buildds.inject_errors.edits import apply_edits, undo_edits
from buildds.inject_errors.fine_base import base_amount
from tests.inject_errors.test_injectors import FACTS, PROFILE, make_judgment, theft

NOTE = "（刑期从判决执行之日起计算。判决执行以前先行羁押的，羁押一日折抵刑期一日，即自{a}起至{b}止）"


def with_note(term: str, a: str, b: str, kind: str = "有期徒刑", fine: str = "") -> object:
    return theft(factor="", extra="", kind=kind, term=term + NOTE.format(a=a, b=b), fine=fine)


# --------------------------------------------------------------------------- date notes
def test_term_end_and_offsets() -> None:
    assert term_end(date(2017, 6, 28), 12) == date(2018, 6, 27)
    assert term_end(date(2018, 8, 31), 6) == date(2019, 2, 27)  # the month end clipped
    assert term_end(date(2017, 5, 3), 4, 15) == date(2017, 9, 17)
    (note,) = date_notes("即自2014年12月25日起至2015年10月7日止")
    assert (note.start, note.end, note.end_text) == (date(2014, 12, 25), date(2015, 10, 7), "2015年10月7日")
    assert note_offset(note, 8) == 44  # bail that does not count


@pytest.mark.parametrize(("like", "want"), [
    ("2014年1月25日", "2015年10月7日"), ("2014年01月05日", "2015年10月07日"),
    ("二〇一四年一月五日", "二〇一五年十月七日"), ("二零一四年一月五日", "二零一五年十月七日"),
    ("２０１４年１月５日", "２０１５年１０月７日")])
def test_dates_in_the_notes_own_style(like: str, want: str) -> None:
    assert format_date_like(date(2015, 10, 7), like) == want


def test_term_days() -> None:
    assert term_days("拘役四个月十五日，", 5) == (15, 8)
    assert term_days("一个月零十五天，", 3) == (15, 7)
    assert term_days("四个月，并处", 3) is None


def test_term_change_moves_the_date_note_keeping_its_offset() -> None:
    j = with_note("一年", "2017年6月28日", "2018年7月7日")  # 10 days of bail on top
    edits = term_change(j, 18)
    text = apply_edits(j.full_text, edits)
    assert "有期徒刑一年六个月" in text and "至2019年1月6日止" in text  # 2018-12-27 + 10 days
    assert undo_edits(text, edits) == j.full_text
    cn = with_note("八个月", "二〇一七年六月二十八日", "二〇一八年二月二十七日")
    assert "至二〇一八年五月二十七日止" in apply_edits(cn.full_text, term_change(cn, 11))


def test_term_change_keeps_days_and_the_rules() -> None:
    j = with_note("四个月十五日", "2017年5月3日", "2017年9月17日", kind="拘役")
    text = apply_edits(j.full_text, term_change(j, 2))
    assert "拘役二个月十五日" in text and "至2017年7月17日止" in text
    assert not term_allowed(j, 6)  # six months and fifteen days is past art. 42's six months
    assert not term_allowed(j, 7) and term_allowed(j, 5)
    assert not term_allowed(j, 7, "拘役") and not term_allowed(theft(), 3)  # 有期徒刑 ≥ 6 months
    suspended = theft(term="八个月，缓刑一年")
    assert term_allowed(suspended, 12) and not term_allowed(suspended, 13)  # 缓刑 ≥ the term
    assert not term_allowed(theft(term="八个月，缓刑三年"), 40)  # 缓刑 only up to three years
    with pytest.raises(SkipInjection) as why:
        term_change(suspended, 30)
    assert why.value.reason == "term_inconsistent"


def test_term_change_skips_combined_sentences() -> None:
    j = theft(term="一年；与前罪判处的有期徒刑六个月并罚，决定执行有期徒刑一年四个月")
    with pytest.raises(SkipInjection) as why:
        term_change(j, 20)
    assert why.value.reason == "combined_sentence"


# --------------------------------------------------------------------------- fines
def test_fine_change_edits_every_mention_in_its_style() -> None:
    j = theft(fine="，并处罚金人民币二千元（罚金人民币2000元已缴纳）")
    text = apply_edits(j.full_text, fine_change(j, 50000))
    assert "并处罚金人民币五万元（罚金人民币50000元已缴纳）" in text
    assert not check_consistency(text)
    # a prepaid fine equal to the fine follows it (prepaid = fine is what real judgments show)
    prepaid = theft(fine="，并处罚金人民币二千元（已预缴罚金人民币2000元）")
    assert "已预缴罚金人民币50000元" in apply_edits(prepaid.full_text, fine_change(prepaid, 50000))


def test_base_amount_reads_the_named_base() -> None:
    j = make_judgment("经审理查明：被告人张三非法经营卷烟，经营数额共计人民币50万元，违法所得人民币2万元。",
                      "本院认为，构成非法经营罪。", "判决如下：被告人张三犯非法经营罪，判处有期徒刑八个月，并处罚金人民币五万元。")
    assert base_amount(j, "违法所得") == (20000, "违法所得人民币2万元")
    assert base_amount(j, "销售金额") is None and base_amount(j, None) is None
    quoted = make_judgment(FACTS.format(amount=5000), "本院认为，销售金额五万元以上不满二十万元的，应予处罚。",
                           "判决如下：被告人张三犯生产、销售伪劣产品罪，判处有期徒刑八个月，并处罚金人民币五万元。")
    assert base_amount(quoted, "销售金额") is None  # a statutory threshold is not the case's amount


# --------------------------------------------------------------------------- articles
def test_article_swap_follows_the_charge() -> None:
    j = theft(factor="", extra="、第六十七条第三款")
    (edit,) = article_swap(j, "盗窃", "抢夺", PROFILE)
    assert (edit.old, edit.new) == ("第二百六十四条", "第二百六十七条")
    assert article_item(133, 1, 1, "第264条第1款") == "第133条之一第1款"
    assert article_swap(j, "盗窃", "放火", PROFILE) == []  # unknown charge: nothing to swap
    both = theft(factor="", extra="、第二百六十七条")
    (drop,) = article_swap(both, "盗窃", "抢夺", PROFILE)  # already cited: the old one goes
    assert apply_edits(both.full_text, [drop]).count("第二百六十七条") == 1
    assert "第二百六十四条" not in apply_edits(both.full_text, [drop])


# --------------------------------------------------------------------------- the checker
def test_check_consistency_finds_contradictions() -> None:
    ok = with_note("一年", "2017年6月28日", "2018年6月27日")
    assert check_consistency(ok.full_text) == []
    stale = with_note("二年", "2017年6月28日", "2018年6月27日")  # the note still spans one year
    assert [i.split(":")[0] for i in check_consistency(stale.full_text)] == ["date_note"]
    assert check_consistency("判决如下：被告人张三犯盗窃罪，判处拘役八个月。")[0].startswith("kind_range")
    assert check_consistency("判决如下：被告人张三犯盗窃罪，判处有期徒刑二年，缓刑一年。")[0].startswith("probation")
    assert check_consistency("判决如下：被告人张三犯盗窃罪，判处有期徒刑二年，并处罚金人民币二千元"
                             "（罚金人民币三千元已缴纳）。")[0].startswith("fine_mentions")
    combined = ("判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月，并处罚金人民币二千元；犯抢夺罪，判处有期徒刑六个月，"
                "并处罚金人民币一千元，决定执行有期徒刑一年，并处罚金人民币{}。")
    assert check_consistency(combined.format("三千元")) == []
    assert [i.split(":")[0] for i in check_consistency(combined.format("二千元"))] == ["combined_fine"]
    over = combined.format("三千元").replace("决定执行有期徒刑一年", "决定执行有期徒刑二年")
    assert [i.split(":")[0] for i in check_consistency(over)] == ["combined_term"]


# --------------------------------------------------------------------------- 量刑建议
def test_recommendations_are_read() -> None:
    from buildds.inject_errors.dependents import recommended_fines, recommended_ranges

    assert recommended_ranges("建议判处被告人一年以上二年以下有期徒刑") == [(12, 24)]
    assert recommended_ranges("建议对其在有期徒刑六个月至一年的幅度内处刑") == [(6, 12)]
    assert recommended_ranges("建议对被告人判处七年以上有期徒刑，并处罚金") == [(84, 10**6)]
    assert recommended_ranges("建议判处拘役三个月") == [(3, 3)] and recommended_ranges("建议从轻处罚") == []
    assert recommended_fines("建议判处有期徒刑八个月，并处罚金人民币二千元。") == [2000]


def test_a_stated_recommendation_keeps_the_term_and_fine() -> None:
    j = make_judgment(FACTS.format(amount=5000) + "公诉机关建议判处被告人有期徒刑六个月至一年，并处罚金人民币二千元。",
                      "本院认为，被告人张三构成盗窃罪，公诉机关的量刑建议适当，本院予以采纳。"
                      "依照《中华人民共和国刑法》第二百六十四条之规定，",
                      "判决如下：被告人张三犯盗窃罪，判处有期徒刑八个月，并处罚金人民币二千元。")
    assert term_change(j, 10)  # inside the recommendation: allowed
    for edit in (lambda: term_change(j, 30), lambda: fine_change(j, 50000)):
        with pytest.raises(SkipInjection) as why:
            edit()
        assert why.value.reason == "recommendation_stated"


def test_year_zeros_as_courts_write_them() -> None:
    for zero in "〇零○OＯ0":
        (note,) = date_notes(f"即自二{zero}一四年一月三日起至二{zero}一九年一月二日止")
        assert (note.start, note.end) == (date(2014, 1, 3), date(2019, 1, 2))
        assert format_date_like(date(2019, 7, 2), note.end_text) == f"二{zero}一九年七月二日"
    (note,) = date_notes("即自2017年05月1日起执行至2018年04月30日止")
    assert note.end == date(2018, 4, 30)


def test_an_unreadable_note_is_a_skip() -> None:
    j = with_note("一年", "2017年6月28日", "年2018年6月27日")  # a typo the reader cannot take
    with pytest.raises(SkipInjection) as why:
        term_change(j, 18)
    assert why.value.reason == "date_note_unparsed"


def test_article_swap_leaves_a_charge_note_to_the_name_edit() -> None:
    """第二百六十四条（盗窃罪）: the article is swapped, the note's charge name is the E1 name
    edit's (the two edits must not overlap)."""
    from tests.inject_errors.test_injectors import injected

    j = theft(factor="", extra="（盗窃罪）")
    (edit,) = article_swap(j, "盗窃", "抢夺", PROFILE)
    assert (edit.old, edit.new) == ("第二百六十四条", "第二百六十七条")
    out = injected("E1", j)
    assert "第二百六十七条（抢夺罪）之规定" in out.reasoning
