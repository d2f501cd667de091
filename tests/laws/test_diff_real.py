"""buildds.laws.diff on the real versions in ../shared/realdata/laws (skipped without it).

The articles are read from the data provider's per-article JSONL (the oracle files), not by
the readers, so these tests check the diff alone."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from buildds.laws.diff import diff_versions
from buildds.laws.terminology import builtin_terminology
from buildds.schema.laws import ArticleChange, LawArticle, LawItem, LawParagraph
from buildds.text import to_int_number
from tests.conftest import shared_path


def load_oracle(path: Path) -> list[LawArticle]:
    """The rows of an ``articles_*.jsonl`` oracle file as LawArticles (text_hash = sha256 of
    ``flat``)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        paras = tuple(LawParagraph(num=p["num"], sentence=p["sentence"],
                                   items=tuple(LawItem(**i) for i in p["items"]))
                      for p in r["paragraphs"])
        out.append(LawArticle(law_id=r["law_id"], article=r["article"],
                              article_title=r["article_title"], caption=r["caption"],
                              deleted=r["deleted"], paragraphs=paras, text=r["text"],
                              flat=r["flat"],
                              text_hash=hashlib.sha256(r["flat"].encode()).hexdigest()))
    return out


def civil(version: str) -> list[LawArticle]:
    return load_oracle(shared_path("realdata", "laws", "jp-civil-code", f"articles_{version}.jsonl"))


def penal(version: str) -> list[LawArticle]:
    return load_oracle(shared_path("realdata", "laws", "jp-penal-code", f"articles_{version}.jsonl"))


def changed(changes: list[ArticleChange]) -> dict[str, str]:
    return {c.new_article or c.old_article or "": c.kind for c in changes if c.kind != "unchanged"}


#: 民法等の一部を改正する法律（令和4年法律第102号）, in force 2024-04-01: the articles its 附則
#: (suppl_provisions_2026-01.jsonl, 第二条〜第五条) names — 733, 772, 774–778, 778の2–778の4,
#: 783, 786 — and those whose text only dropped the 再婚禁止期間 (733) or took the new
#: 嫡出否認 rules into cross-references: 740, 743, 744, 746, 773.
CHAKUSHUTSU_2024 = {"733": "deleted", "740": "substantive", "743": "substantive",
                    "744": "substantive", "746": "deleted", "772": "substantive",
                    "773": "substantive", "774": "substantive", "775": "substantive",
                    "776": "substantive", "777": "substantive", "778": "substantive",
                    "778_2": "added", "778_3": "added", "778_4": "added",
                    "783": "substantive", "786": "substantive"}
#: changed by another law between the two texts — 令和5年法律第53号 (民事執行・公正証書の
#: デジタル化): 384 (民事執行法の条項), 969, 969の2 (公正証書遺言), 984 (its cross-reference)
OTHER_LAWS_2023_2026 = {"384", "969", "969_2", "984"}


def test_civil_code_2023_to_2026_finds_the_chakushutsu_package() -> None:
    changes = diff_versions(civil("2023-06-14"), civil("2026-01"))
    assert len(changes) == 1224
    found = changed(changes)
    assert {k: found.get(k) for k in CHAKUSHUTSU_2024} == CHAKUSHUTSU_2024
    assert set(found) - set(CHAKUSHUTSU_2024) == OTHER_LAWS_2023_2026


def test_civil_code_2013_to_2023_moves() -> None:
    changes = diff_versions(civil("2013-11"), civil("2023-06-14"))
    moves = {(c.old_article, c.new_article): c.similarity for c in changes if c.kind == "moved"}
    # 債権法 (2020): 選択債権 433→437 … 440; 相続法 (2019): 遺留分 1029→1043, 1042→1048 …;
    # 2022 懲戒権: 821→822
    for pair in [("433", "437"), ("435", "438"), ("436", "439"), ("438", "440"),
                 ("523", "524"), ("1029", "1043"), ("1042", "1048"), ("1043", "1049"),
                 ("821", "822")]:
        assert pair in moves, pair
    assert moves[("433", "437")] == 1.0
    assert len(moves) == 21
    olds = [c.old_article for c in changes if c.old_article]
    news = [c.new_article for c in changes if c.new_article]
    assert sorted(olds) == sorted(a.article for a in civil("2013-11"))
    assert sorted(news) == sorted(a.article for a in civil("2023-06-14"))


#: what changed in 刑法 besides the 拘禁刑 wording (2023-07-13 → the 2026-01-01 download)
PENAL_SUBSTANTIVE = {
    "10": "軽重", "12": "処遇", "16": "拘留", "25": "執行猶予", "26_2": "執行猶予",
    "26_3": "執行猶予", "27": "執行猶予", "27_2": "執行猶予", "27_6": "執行猶予",
    "27_7": "執行猶予", "56": "再犯", "68": "減軽",
    # 令和7年法律第39号 (電磁的記録文書等), in the download but not yet in force
    "155": "電磁的記録", "156": "電磁的記録", "157": "電磁的記録", "158": "電磁的記録",
    "159": "電磁的記録", "160": "電磁的記録", "161": "電磁的記録", "165": "電磁的記録",
    "166": "電磁的記録", "167": "電磁的記録"}


def test_penal_code_2023_to_2026_is_mostly_terminology() -> None:
    changes = diff_versions(penal("2023-07-13"), penal("2026-01-01"),
                            terminology=builtin_terminology())
    counts = Counter(c.kind for c in changes)
    assert counts == {"terminology": 154, "unchanged": 130, "substantive": 22, "deleted": 1,
                      "added": 1}
    found = changed(changes)
    assert {k for k, v in found.items() if v == "substantive"} == set(PENAL_SUBSTANTIVE)
    assert found["13"] == "deleted" and found["95_2"] == "added"   # 禁錮; 電子計算機損壊等
    assert counts["terminology"] > 5 * counts["substantive"]
    without_map = Counter(c.kind for c in diff_versions(penal("2023-07-13"), penal("2026-01-01")))
    assert without_map["terminology"] == 0 and without_map["substantive"] == 176


def amendment_articles(path: Path) -> dict[str, str]:
    """The articles an amendment's numbered items (一、在刑法第一百六十五条中… / 四、将刑法第
    三百八十七条第一款修改为…) name — key → the item's wording up to the first quote."""
    named: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"[一二三四五六七八九十]+、.*?刑法第([零〇一二三四五六七八九十百]+)条(?:之([一二三四五六七八九十]+))?", line)
        if m:
            key = str(to_int_number(m.group(1)))
            if m.group(2):
                key += f"_{to_int_number(m.group(2))}"
            named[key] = line.split("“", 1)[0]
    return named


def test_prc_xi_to_xii_finds_exactly_the_articles_amendment_xii_names() -> None:
    readers = pytest.importorskip("buildds.laws.readers")
    if not hasattr(readers, "read_prc_markdown"):
        pytest.skip("the PRC Markdown reader is not there yet")
    old = readers.read_law(shared_path("realdata", "laws", "cn-criminal-law",
                                       "criminal_law_PRC_after_amendment11.md"))
    new = readers.read_law(shared_path("realdata", "judgments", "cn-criminal-law",
                                       "criminal_law_PRC_2023_amendment12.md"))
    named = amendment_articles(shared_path("realdata", "laws", "cn-criminal-law",
                                           "amendment_XII_2023.md"))
    assert sorted(named, key=int) == ["165", "166", "169", "387", "390", "391", "393"]
    changes = diff_versions(old.articles, new.articles)
    assert changed(changes) == dict.fromkeys(named, "substantive")
    paragraphs = {c.new_article: c.paragraphs for c in changes if c.kind != "unchanged"}
    # 增加一款作为第二款 / 第一款修改为: the paragraph the item names is among those found
    assert paragraphs["169"] == (2,) and paragraphs["387"] == (1,) and paragraphs["391"] == (1,)


def test_penal_code_reused_key_208_2() -> None:
    """平成25年法律第86号 took 危険運転致死傷 (208条の2) out of the Penal Code; 凶器準備集合
    (208条の3) took its number. The key is on both sides, the article is not the same."""
    changes = diff_versions(penal("2013-11"), penal("2023-07-13"))
    kinds = {(c.kind, c.old_article, c.new_article) for c in changes if c.kind != "unchanged"}
    assert {("moved", "208_3", "208_2"), ("removed", "208_2", None),
            ("moved", "182", "183")} <= kinds
