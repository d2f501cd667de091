"""A consolidated PRC law in LawRefBook Markdown → :class:`~buildds.schema.laws.LawText`.

The file opens with ``# 中华人民共和国刑法``, its adoption and amendment lines and
``<!-- INFO END -->``; parts, chapters and sections are ``##``/``###``/``####`` headings,
and each article starts a line ``第一百三十三条之一 在道路上…`` (key ``"133_1"``, numerals
read with :func:`buildds.text.cn_number`). Every further line (blank lines between) is a
paragraph (款) of that article, except a line ``（一）…``, which is an item of the paragraph
before it (label ``（一）`` as printed). A heading or an editor's note (``① …``) ends the
article, so annexes (``## 附件一``) and notes are not read as text.

PRC laws have no e-Gov id; :data:`PRC_LAW_IDS` gives the stable ids we use
(中华人民共和国刑法 → ``"CN-CRIMINAL-LAW"``); any other title needs ``law_id=``.

An amendment (``# 中华人民共和国刑法修正案（十二）``: numbered instructions such as
「在刑法第一百六十五条中增加一款…」) is not a consolidated law: it is refused with an
:class:`ExtractError` saying so — reading what an amendment changes belongs to the
revisions side of :mod:`buildds.laws`, not to a reader of texts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from buildds.errors import ExtractError
from buildds.laws.articles import make_article
from buildds.laws.readers.common import counted, decode_utf8, read_statute_bytes, source_of
from buildds.schema.laws import LawArticle, LawItem, LawParagraph, LawText
from buildds.text import cn_number

__all__ = ["ARTICLE_RE", "PRC_LAW_IDS", "parse_prc_markdown", "read_prc_markdown"]

PRC_LAW_IDS = {"中华人民共和国刑法": "CN-CRIMINAL-LAW"}
_CN = "零〇一二三四五六七八九十百千"
#: 第一百三十三条之一 text…
ARTICLE_RE = re.compile(rf"^(第([{_CN}]+)条(?:之([{_CN}]+))?)[ \u3000]+(\S.*)$")
_ITEM_RE = re.compile(rf"^(（[{_CN}]+）)[ \u3000]*(.*)$")
_AMENDMENT_RE = re.compile(r"修正案")
_NOTE_RE = re.compile(r"^[①-⑳]")


@dataclass
class _Draft:
    title: str
    key: str
    paragraphs: list[tuple[str, list[LawItem]]] = field(default_factory=list)


def read_prc_markdown(path: str | Path, law_id: str | None = None) -> LawText:
    """One consolidated PRC law in LawRefBook Markdown as a LawText."""
    data = read_statute_bytes(path)
    return parse_prc_markdown(data, path, law_id=law_id)


def parse_prc_markdown(data: bytes, path: str | Path, *, law_id: str | None = None) -> LawText:
    """The bytes of a LawRefBook Markdown file; ``path`` names it in errors and the source."""
    where = str(path)
    lines = [line.strip() for line in decode_utf8(path, data).splitlines()]
    title = next((line.lstrip("#").strip() for line in lines if line.startswith("# ")), "")
    if not title:
        raise ExtractError("not a LawRefBook Markdown law (no '# title' line)", source=where)
    if _AMENDMENT_RE.search(title):
        raise ExtractError(f"{title} is an amendment, not a consolidated law: it lists "
                           "changes to another text and cannot be read as articles",
                           source=where)
    law_id = law_id or PRC_LAW_IDS.get(title)
    if law_id is None:
        raise ExtractError(f"no law id known for {title!r}; pass law_id=", source=where)
    drafts = _drafts(lines, where)
    if not drafts:
        raise ExtractError(f"{title}: no 第…条 article lines", source=where)
    articles: list[LawArticle] = []
    for draft in counted(drafts, where):
        paragraphs = [LawParagraph(num=n, sentence=sentence, items=tuple(items))
                      for n, (sentence, items) in enumerate(draft.paragraphs, start=1)]
        articles.append(make_article(law_id, draft.key, draft.title, None, paragraphs))
    return LawText(law_id=law_id, law_title=title, articles=tuple(articles),
                   source=source_of(path, data))


def _key(number: str, branch: str | None) -> str:
    parts = [number] if branch is None else [number, branch]
    values = [cn_number(part) for part in parts]
    if any(v is None or v != int(v) or v <= 0 for v in values):
        raise ValueError(f"unreadable article number {parts!r}")
    return "_".join(str(int(v)) for v in values if v is not None)


def _drafts(lines: list[str], where: str) -> list[_Draft]:
    drafts: list[_Draft] = []
    current: _Draft | None = None
    for line in lines:
        if not line:
            continue
        if line.startswith("#") or _NOTE_RE.match(line):
            current = None  # a heading or an editor's note (① …) ends the article
            continue
        m = ARTICLE_RE.match(line)
        if m:
            try:
                key = _key(m.group(2), m.group(3))
            except ValueError as exc:
                raise ExtractError(f"article {m.group(1)}: {exc}", source=where) from None
            current = _Draft(m.group(1), key, [(m.group(4), [])])
            drafts.append(current)
            continue
        if current is None:
            continue
        item = _ITEM_RE.match(line)
        if item:
            current.paragraphs[-1][1].append(LawItem(label=item.group(1), text=item.group(2)))
        else:
            current.paragraphs.append((line, []))
    return drafts
