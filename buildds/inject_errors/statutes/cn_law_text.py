"""The PRC 刑法 markdown text as articles and paragraphs: :func:`split_cn_articles`.

Articles are 第X条 / 第X条之N lines; the lines after one are its paragraphs (款), and numbered
items （一）… stay with the paragraph they belong to. Headings and comments end an article.
"""

from __future__ import annotations

import re

from buildds.text import cn_numeral

__all__ = ["split_cn_articles"]


_CN_ART_RE = re.compile(r"^第(?P<num>[零一二三四五六七八九十百千]+)条(?:之(?P<sub>[一二三四五六七八九十]+))?[ \u3000]+(?P<rest>.*)$")
_ITEM_RE = re.compile(r"^（[一二三四五六七八九十]+）")


def split_cn_articles(text: str) -> dict[tuple[int, int | None], list[str]]:
    """(article, 之N) → its paragraphs (款); numbered items （一）… stay with their paragraph."""
    articles: dict[tuple[int, int | None], list[str]] = {}
    current: list[str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith(("#", "<!--")):
            current = None
            continue
        if m := _CN_ART_RE.match(line):
            key = (cn_numeral(m.group("num")), cn_numeral(m.group("sub")) if m.group("sub") else None)
            current = articles.setdefault(key, [])
            current.append(m.group("rest"))
        elif current is not None:
            if _ITEM_RE.match(line) and current:
                current[-1] += line
            else:
                current.append(line)
    return articles
