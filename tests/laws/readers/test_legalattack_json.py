"""The LegalAttack 刑法.json reader (PRC Criminal Law after Amendment X): 之N articles split
back out of their base article, 【…】 headings as captions, items and guessed 款, trailing
chapter headings and the annex dropped, bad files named; on the real file against the XI
Markdown for the articles Amendment XI left alone (skipped without ../shared)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from buildds.errors import ExtractError
from buildds.laws.readers import (
    read_law,
    read_legalattack_json,
    read_prc_markdown,
    sniff_law_format,
)
from tests.conftest import shared_path

SMALL = {
    "0": "",
    "1": "【立法宗旨】为了惩罚犯罪，保护人民，制定本法。",
    "2": "【本法任务】刑法的任务，是用刑罚同一切犯罪行为作斗争。第一编\u3000总则第一章\u3000任务",
    "3": ("【交通肇事罪】违反交通运输管理法规的，处三年以下有期徒刑或者拘役。"
          "第三条之一\u3000【危险驾驶罪】在道路上驾驶机动车，有下列情形之一的，处拘役：（一）追逐竞驶，"
          "情节恶劣的；（二）醉酒驾驶机动车的。有前款行为，依照第三条之一的规定处罚。"
          "【开设赌场罪】开设赌场的，处三年以下有期徒刑。本法另有规定的，依照规定。附则"),
}


def _write(path: Path, obj: object) -> Path:
    path.write_text(json.dumps(obj, ensure_ascii=False, indent=4), "utf-8")
    return path


def test_small_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "x.json", SMALL)
    assert sniff_law_format(path.read_bytes()) == "legalattack_json"
    law = read_law(path)
    assert (law.law_id, law.law_title) == ("CN-CRIMINAL-LAW", "中华人民共和国刑法")
    arts = {a.article: a for a in law.articles}
    assert list(arts) == ["1", "2", "3", "3_1"]
    assert arts["2"].flat == "刑法的任务，是用刑罚同一切犯罪行为作斗争。"  # heading dropped
    assert (arts["3"].article_title, arts["3"].caption) == ("第三条", "交通肇事罪")
    a = arts["3_1"]
    assert (a.article_title, a.caption) == ("第三条之一", "危险驾驶罪；开设赌场罪")
    assert [(p.sentence, [i.label for i in p.items]) for p in a.paragraphs] == [
        ("在道路上驾驶机动车，有下列情形之一的，处拘役：", ["（一）", "（二）"]),
        ("有前款行为，依照第三条之一的规定处罚。", []),  # a reference, not a heading
        ("开设赌场的，处三年以下有期徒刑。本法另有规定的，依照规定。", [])]
    assert a.paragraphs[0].items[1].text == "醉酒驾驶机动车的。"
    assert "（一）" not in a.flat and "【" not in a.flat


@pytest.mark.parametrize("content, message", [
    ("{\"0\": \"\", \"1\": \"【a】x。\",", "not JSON"),
    ("[1, 2]", "not a JSON object"),
    ("{\"0\": \"\", \"1\": 5}", "entry '1'"),
    ("{\"0\": \"\", \"1\": \"  \"}", "article 1: no text"),
    ("{\"0\": \"\"}", "no articles"),
    ("{\"0\": \"\", \"1\": \"【a】x。\", \"2\": " + "[" * 100_000 + "]" * 100_000 + "}",
     "not JSON .*deep"),
])
def test_bad_files_are_named(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, "utf-8")
    with pytest.raises(ExtractError, match=message) as err:
        read_legalattack_json(path)
    assert "bad.json" in str(err.value)


def test_real_file_against_the_xi_markdown() -> None:
    x = read_law(shared_path("realdata", "judgments", "cn-confusable-charges",
                             "legalattack_criminal_law_articles.json"))
    xi = read_prc_markdown(shared_path("realdata", "laws", "cn-criminal-law",
                                       "criminal_law_PRC_after_amendment11.md"))
    old = {a.article: a for a in x.articles}
    new = {a.article: a for a in xi.articles}
    assert len(old) == 491 and set(old) < set(new)   # XI only adds 14 之N articles
    assert sum(1 for k in old if "_" in k) == 39     # 之N split back out of their base article
    assert all(old[k].article_title == new[k].article_title for k in old)
    same = [k for k in old if old[k].flat == new[k].flat]
    assert len(same) == 458                          # the 33 others: Amendment XI's changes
    # 款 are guessed (sentence = paragraph): exactly the Markdown's for 431 of the 458
    exact = [k for k in same if old[k].paragraphs == new[k].paragraphs]
    assert len(exact) == 431
    assert old["199"].flat == "（删去）" and old["452"].flat == new["452"].flat
