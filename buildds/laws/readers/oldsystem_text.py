"""Plain text of the pre-2017 法令データ提供システム → :class:`~buildds.schema.laws.LawText`.

The dump reads, after a title line, the law number line
``（明治二十九年四月二十七日法律第八十九号）最終改正：…`` and a table of contents::

    （国内犯）                 caption: the line before the heading
    第一条                     heading alone on its line
    　この法律は、…            text lines begin with one 「　」 (a wrapped line may not)
    ２                         paragraph number alone on its line
    　日本国外にある…
    一                         item label alone on its line (イ, ロ … for sub-items)
    　削除

Headings of parts, chapters and sections (``　　第二章　人``) end an article; the first
``附　則`` line ends the main provision, and each ``附　則　（…号）`` line opens one
:class:`~buildds.schema.laws.SupplProvision`. The law id comes from the law number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from buildds.errors import ExtractError
from buildds.laws.articles import article_keys, law_id_from_number, make_article
from buildds.laws.readers.common import counted, decode_utf8, read_statute_bytes, source_of
from buildds.schema.laws import LawArticle, LawItem, LawParagraph, LawText, SupplProvision

__all__ = ["HEADER_RE", "parse_oldsystem_text", "read_oldsystem_text"]

_NUM = "〇一二三四五六七八九十百千"
#: the law-number line that opens every dump: （明治四十年四月二十四日法律第四十五号）…
HEADER_RE = re.compile(r"^（((?:明治|大正|昭和|平成|令和)[^（）]*?号)）")
_TITLE_RE = re.compile(rf"^第[{_NUM}]+条[^\s　]*$")
_PARAGRAPH_RE = re.compile(r"^○?[０-９]+$")
_ITEM_RE = re.compile(rf"^(?:[{_NUM}]+|[イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセスン])$")
_HEADING_RE = re.compile(rf"^\u3000\u3000+第[{_NUM}]+[編章節款目]")
_CAPTION_RE = re.compile(r"^（[^（）]+）$")
_SUPPL_RE = re.compile(r"^\u3000*附\u3000則")
_SUPPL_NUM_RE = re.compile(r"（([^（）]*号)）")
_WS_RE = re.compile(r"\s+")


@dataclass
class _Draft:
    title: str
    caption: str | None
    paragraphs: list[tuple[str, list[LawItem]]] = field(default_factory=lambda: [("", [])])

    def add_text(self, text: str) -> None:
        sentence, items = self.paragraphs[-1]
        if items:
            items[-1] = LawItem(label=items[-1].label, text=items[-1].text + text)
        else:
            self.paragraphs[-1] = (sentence + text, items)


def read_oldsystem_text(path: str | Path) -> LawText:
    """One old-system text dump as a LawText."""
    data = read_statute_bytes(path)
    return parse_oldsystem_text(data, path)


def parse_oldsystem_text(data: bytes, path: str | Path) -> LawText:
    """The bytes of an old-system dump; ``path`` names it in errors and the source."""
    where = str(path)
    lines = [line.rstrip() for line in decode_utf8(path, data).splitlines()]
    header = next((i for i, line in enumerate(lines) if HEADER_RE.match(line)), None)
    if header is None:
        raise ExtractError("not an old-system statute text (no （…法律第N号） line)",
                           source=where)
    match = HEADER_RE.match(lines[header])
    law_id = law_id_from_number(match.group(1)) if match else None
    if law_id is None:
        raise ExtractError(f"cannot tell the law id from {lines[header]!r}", source=where)
    title = next((line.strip() for line in reversed(lines[:header]) if line.strip()), "")
    body = lines[header + 1:]
    end = next((i for i, line in enumerate(body) if _SUPPL_RE.match(line)), len(body))
    drafts = _drafts(body[:end])
    if not drafts:
        raise ExtractError("old-system text without articles", source=where)
    articles: list[LawArticle] = []
    for draft in counted(drafts, where):
        paragraphs = [LawParagraph(num=n, sentence=sentence, items=tuple(items))
                      for n, (sentence, items) in enumerate(draft.paragraphs, start=1)]
        try:
            keys = article_keys(draft.title)
        except ValueError as exc:
            raise ExtractError(f"article {draft.title!r}: {exc}", source=where) from None
        articles.extend(make_article(law_id, key, draft.title, draft.caption, paragraphs)
                        for key in keys)
    return LawText(law_id=law_id, law_title=title, articles=tuple(articles),
                   suppl_provisions=_suppl(body[end:]), source=source_of(path, data))


def _drafts(lines: list[str]) -> list[_Draft]:
    drafts: list[_Draft] = []
    current: _Draft | None = None
    previous = ""  # the last non-blank line
    lines = [line for line in lines if line.strip()]
    for i, line in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if _CAPTION_RE.match(line) and _TITLE_RE.match(following):
            pass  # read as the next article's caption
        elif _TITLE_RE.match(line):
            caption = previous if _CAPTION_RE.match(previous) else None
            current = _Draft(line, caption)
            drafts.append(current)
        elif _HEADING_RE.match(line):
            current = None
        elif current is not None and _PARAGRAPH_RE.match(line):
            current.paragraphs.append(("", []))
        elif current is not None and _ITEM_RE.match(line):
            current.paragraphs[-1][1].append(LawItem(label=line, text=""))
        elif current is not None:
            # a text line begins with 「　」; a line wrapped inside a parenthesis does not
            current.add_text(line.removeprefix("\u3000"))
        previous = line
    return drafts


def _suppl(lines: list[str]) -> tuple[SupplProvision, ...]:
    blocks: list[list[str]] = []
    for line in lines:
        if _SUPPL_RE.match(line):
            blocks.append([line])
        elif blocks and line.strip():
            blocks[-1].append(line)
    provisions = []
    for block in blocks:
        m = _SUPPL_NUM_RE.search(block[0])
        rest = block[1:]
        # the first provision: up to the second paragraph or article heading
        starts = [i for i, line in enumerate(rest)
                  if _PARAGRAPH_RE.match(line) or _TITLE_RE.match(line)]
        cut = starts[1] if len(starts) > 1 else len(rest)
        if cut < len(rest) and _CAPTION_RE.match(rest[cut - 1]):
            cut -= 1  # the next article's caption
        provisions.append(SupplProvision(
            amend_law_num=m.group(1) if m else None,
            enforcement_clause=_WS_RE.sub("", "".join(rest[:cut])),
            full_text=_WS_RE.sub("", "".join(block))))
    return tuple(provisions)
