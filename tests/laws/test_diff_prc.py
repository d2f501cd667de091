"""PRC Criminal Law X → XI (skipped without ../shared): the version after Amendment X read from
LegalAttack's 刑法.json, the one after XI from the LawRefBook Markdown; the diff finds every
article Amendment XI's items name — modified (将刑法第N条…修改为, 在刑法第N条中增加一款) as
substantive, added (作为第N条之M) as added — and nothing else."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from buildds.laws.diff import diff_versions
from buildds.laws.readers import read_law
from buildds.text import cn_number
from tests.conftest import shared_path

_CN = "零〇一二三四五六七八九十百"
_ITEM_RE = re.compile(rf"^([{_CN}]+)、(.*)$")
_ARTICLE = rf"第([{_CN}]+)条(?:之([{_CN}]+))?"


def _key(number: str, branch: str | None) -> str:
    return str(int(cn_number(number) or 0)) + (f"_{int(cn_number(branch) or 0)}" if branch else "")


def amendment_items(path: Path) -> tuple[int, dict[str, str]]:
    """How many numbered items the amendment has, and the articles they name: key →
    ``"added"`` (在刑法第N条后增加一条，作为第N条之M) or ``"substantive"`` (将刑法第N条…修改为,
    在刑法第N条中增加一款 …)."""
    items, named = 0, {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _ITEM_RE.match(line)
        if not m:
            continue
        items += 1
        head = m.group(2).split("“", 1)[0]
        added = re.search(rf"增加一条，作为{_ARTICLE}", head)
        if added:
            named[_key(added.group(1), added.group(2))] = "added"
            continue
        changed = re.search(rf"刑法{_ARTICLE}", head)
        if changed:
            named[_key(changed.group(1), changed.group(2))] = "substantive"
    return items, named


def test_prc_x_to_xi_covers_every_article_amendment_xi_names() -> None:
    old = read_law(shared_path("realdata", "judgments", "cn-confusable-charges",
                               "legalattack_criminal_law_articles.json"))
    new = read_law(shared_path("realdata", "laws", "cn-criminal-law",
                               "criminal_law_PRC_after_amendment11.md"))
    items, named = amendment_items(shared_path("realdata", "laws", "cn-criminal-law",
                                               "amendment_XI_2020.md"))
    # 48 items: 47 name an article (33 changed, 14 之N added), the last one is 施行 (in force)
    assert items == 48 and len(named) == 47
    assert Counter(named.values()) == {"substantive": 33, "added": 14}
    changes = diff_versions(old.articles, new.articles)
    found = {c.new_article or c.old_article: c.kind for c in changes if c.kind != "unchanged"}
    # every named article found, with the kind its item says, and no article beyond them
    assert found == named
    unchanged = [c for c in changes if c.kind == "unchanged"]
    assert len(unchanged) == 458 and len(old.articles) - len(named) + 14 == 458
    # 增加一款作为第三款 (341), 第二款修改为 (134, 431), 第五款 (277): the paragraph named
    paragraphs = {c.new_article: c.paragraphs for c in changes if c.kind == "substantive"}
    assert 3 in paragraphs["341"] and 2 in paragraphs["134"] and 2 in paragraphs["431"]
