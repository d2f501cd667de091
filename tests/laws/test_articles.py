"""Article keys, ``flat``/``text`` forms and law ids shared by the statute readers."""

from __future__ import annotations

import hashlib

import pytest

from buildds.laws.articles import (
    article_key,
    article_keys,
    article_text,
    flat_text,
    law_id_from_number,
    make_article,
    text_hash,
)
from buildds.schema.laws import LawItem, LawParagraph


@pytest.mark.parametrize(("title", "key"), [
    ("第一条", "1"), ("第九十五条", "95"), ("第三条の二", "3_2"), ("第三百九十八条の二十二", "398_22"),
    ("第千四十四条", "1044"), ("第一条の二の三", "1_2_3"), ("第一百三十三条之一", "133_1"),
    ("第 三 条", "3"),
])
def test_article_key(title: str, key: str) -> None:
    assert article_key(title) == key


def test_article_keys_expand_ranges_and_pairs() -> None:
    assert article_keys("第七十三条から第七十六条まで") == ["73", "74", "75", "76"]
    assert len(article_keys("第三十八条から第八十四条まで")) == 47
    assert article_keys("第百二条の二から第百二条の四まで") == ["102_2", "102_3", "102_4"]
    assert article_keys("第三百六十七条及び第三百六十八条") == ["367", "368"]
    assert article_keys("第四十条・第四十一条") == ["40", "41"]
    assert article_keys("第三条の二") == ["3_2"]


@pytest.mark.parametrize("title", ["附則", "第三章", "第三条第二項", "第十条から第三条まで",
                                   "第三条の二から第五条まで"])
def test_not_article_headings(title: str) -> None:
    with pytest.raises(ValueError):
        article_keys(title)


PARAGRAPHS = (
    LawParagraph(num=1, sentence="次に掲げる者は、 罰する。",
                 items=(LawItem(label="一", text="甲"),
                        LawItem(label="イ", text="乙　丙"))),
    LawParagraph(num=2, sentence="前項の規定は、\n適用しない。"),
)


def test_flat_drops_labels_and_all_whitespace() -> None:
    assert flat_text(PARAGRAPHS) == "次に掲げる者は、罰する。甲乙丙前項の規定は、適用しない。"


def test_text_prefixes_paragraphs_and_items() -> None:
    assert article_text(PARAGRAPHS) == ("次に掲げる者は、 罰する。\n一　甲\nイ　乙　丙\n"
                                        "２　前項の規定は、\n適用しない。")


def test_make_article_computes_hash_and_deleted() -> None:
    art = make_article("X", "3_2", "第三条の二", "（見出し）", PARAGRAPHS)
    assert art.text_hash == hashlib.sha256(art.flat.encode()).hexdigest() == text_hash(art.flat)
    assert not art.deleted and art.caption == "（見出し）"
    gone = make_article("X", "13", "第十三条", "", [LawParagraph(num=1, sentence="削除")])
    assert gone.deleted and gone.caption is None and gone.text == "削除"
    item_deleted = make_article("X", "2", "第二条", None, [LawParagraph(
        num=1, sentence="次の罪", items=(LawItem(label="一", text="削除"),))])
    assert not item_deleted.deleted


@pytest.mark.parametrize(("num", "law_id"), [
    ("明治四十年法律第四十五号", "140AC0000000045"),
    ("明治二十九年四月二十七日法律第八十九号", "129AC0000000089"),
    ("昭和二十二年政令第十六号", "322CO0000000016"),
    ("令和三年法律第三十六号", "503AC0000000036"),
    ("平成元年法律第一号", "401AC0000000001"),
    ("昭和二十一年憲法", "321CONSTITUTION"),
    ("法律第三号", None), ("", None),
])
def test_law_id_from_number(num: str, law_id: str | None) -> None:
    assert law_id_from_number(num) == law_id
