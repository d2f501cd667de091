"""The PRC Criminal Law as one JSON object ``{"article number": "text"}`` (THUlawtech
LegalAttack's ``刑法.json``, the only text held of the law after Amendment X) →
:class:`~buildds.schema.laws.LawText` with law id ``CN-CRIMINAL-LAW``.

What the file holds and loses, and how it is read back:

* Keys are base article numbers (``"0"`` is empty and skipped); a 之N article is merged into
  its base article's text after a heading ``第一百三十三条之一　`` — that heading (its number
  the base article's) is a reliable boundary, so each 之N article is split back out under its
  own key (``"133_1"``).
* Paragraph breaks (款) are gone: the text runs on. They are guessed: a further 【charge】
  heading starts a paragraph; items ``（一）…；（二）…。`` go with the sentence before them, up
  to the first 。 in an item; every other sentence (up to 。) is a paragraph, except one opening
  本法另有规定/其中， (it goes on the one before). On the articles Amendment XI left alone this
  gives the XI Markdown's paragraphs exactly for 431 of 458; the rest are paragraphs of several
  sentences split in two. ``flat`` (what diffs compare) does not depend on the guess;
  paragraph numbers in a diff, and 款 numbers, do.
* Each article (and 之N article) opens with 【charge or topic】 headings, not in the statute:
  they are kept as the ``caption`` (several joined by ``；``), never in the text.
* Part/chapter/section headings (``第二编　分则第一章　…``, ``附则``) run on at the end of
  the article before them and are dropped, as is the annex list after ``附件一`` in art. 452.
"""

from __future__ import annotations

import re
from pathlib import Path

from buildds.errors import ExtractError
from buildds.laws.articles import make_article
from buildds.laws.readers.common import counted, decode_utf8, read_statute_bytes, source_of
from buildds.safeio.json_strict import loads_strict
from buildds.schema.laws import LawArticle, LawItem, LawParagraph, LawText
from buildds.text import cn_number

__all__ = ["LAW_ID", "LAW_TITLE", "looks_like_legalattack_json", "parse_legalattack_json",
           "read_legalattack_json"]

LAW_ID = "CN-CRIMINAL-LAW"
LAW_TITLE = "中华人民共和国刑法"
_CN = "零〇一二三四五六七八九十百千"
#: a 之N article's heading inside its base article's text
_BRANCH_RE = re.compile(rf"第([{_CN}]+)条之([{_CN}]+)[\u3000 ]+(?=【)")
_CAPTION_RE = re.compile(r"【([^【】]+)】")
#: an item label where an item can start: after ：；。 or at the start of a paragraph
_ITEM_RE = re.compile(rf"(?:(?<=[：；。])|^)（[{_CN}]+）")
#: part/chapter/section headings and 附则 run on after an article's last sentence
_HEADING_TAIL_RE = re.compile(rf"(?<=[。；：”])((?:第[{_CN}]+[编章节][\u3000 ]\S*?)+|附则)$")
#: the annex list after art. 452 (附件一 as a heading, not 「列于本法附件一的…」)
#: one sentence: up to and with 。 (or the rest of the text)
_SENTENCE_RE = re.compile(r"[^。]+。?|。")
#: sentences that go on the paragraph before them (本法另有规定的，依照规定。 after a rule)
_JOIN_PREFIXES = ("本法另有规定", "其中，")
_ANNEX_RE = re.compile(r"(?<=。)附件一")


def looks_like_legalattack_json(data: bytes) -> bool:
    """A JSON object whose first keys are article numbers with text values (``{"0": "",
    "1": "【立法宗旨】…``)."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:4096]
    return re.match(rb'\{\s*"0"\s*:\s*"[^"]*"\s*,\s*"1"\s*:\s*"', head) is not None


def read_legalattack_json(path: str | Path) -> LawText:
    """Read one LegalAttack ``刑法.json`` file."""
    return parse_legalattack_json(read_statute_bytes(path), path)


def parse_legalattack_json(data: bytes, path: str | Path) -> LawText:
    """The bytes of a LegalAttack ``刑法.json``; ``path`` names it in errors and the source."""
    where = str(path)
    try:
        obj = loads_strict(decode_utf8(path, data))  # the JSON depth/number limits
    except ValueError as exc:
        raise ExtractError(f"not JSON ({exc})", source=where) from None
    if not isinstance(obj, dict):
        raise ExtractError("not a JSON object of article number → text", source=where)
    articles: list[LawArticle] = []
    for number, text in counted(obj.items(), where):
        if not (isinstance(number, str) and number.isdigit() and isinstance(text, str)):
            raise ExtractError(f"entry {number!r}: not article number → text", source=where)
        if int(number) == 0 and not text.strip():
            continue
        if int(number) <= 0 or not text.strip():
            raise ExtractError(f"article {number}: no text", source=where)
        articles.extend(_articles(int(number), text, where))
    if not articles:
        raise ExtractError("no articles in the file", source=where)
    keys = [a.article for a in articles]
    if len(set(keys)) != len(keys):
        raise ExtractError("an article appears twice", source=where)
    return LawText(law_id=LAW_ID, law_title=LAW_TITLE, articles=tuple(articles),
                   source=source_of(path, data))


def _articles(number: int, text: str, where: str) -> list[LawArticle]:
    """The base article and its 之N articles from one entry."""
    text = re.sub(r"\s+$", "", text)
    annex = _ANNEX_RE.search(text)
    if annex:
        text = text[:annex.start()]
    text = _HEADING_TAIL_RE.sub("", text)
    parts: list[tuple[str, str, str]] = []  # key, title, text
    start, key, title = 0, str(number), f"第{_cn_title(number)}条"
    for m in _BRANCH_RE.finditer(text):
        base, branch = cn_number(m.group(1)), cn_number(m.group(2))
        if base != number:
            continue  # a reference to another article, not a heading of this one
        if branch is None or branch != int(branch) or branch <= 0:
            raise ExtractError(f"article {number}: unreadable heading {m.group(0)!r}",
                               source=where)
        parts.append((key, title, text[start:m.start()]))
        start, key, title = m.end(), f"{number}_{int(branch)}", m.group(0).strip()
    parts.append((key, title, text[start:]))
    out = []
    for key, title, body in parts:
        captions = _CAPTION_RE.findall(body)
        paragraphs = _paragraphs(body)
        if not paragraphs:
            raise ExtractError(f"article {title}: no text", source=where)
        out.append(make_article(LAW_ID, key, title, "；".join(captions) or None, paragraphs))
    return out


def _paragraphs(body: str) -> list[LawParagraph]:
    """Paragraphs as the text shows them: each 【…】 heading starts one; items ``（一）…``
    belong to the paragraph before them, up to the first 。 of an item; every other sentence
    (up to 。) is a paragraph of its own, unless it opens with :data:`_JOIN_PREFIXES`."""
    drafts: list[tuple[str, list[LawItem]]] = []
    for segment in _CAPTION_RE.split(body)[::2]:  # the texts between the headings
        segment = segment.strip()
        if not segment:
            continue
        fresh = True  # a heading starts a paragraph whatever its first words
        starts = list(_ITEM_RE.finditer(segment))
        runs: list[tuple[str, str | None]] = [
            (segment[:starts[0].start()] if starts else segment, None)]
        if not runs[0][0]:
            drafts.append(("", []))  # items straight after a heading
            fresh = False
        for i, m in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(segment)
            item = segment[m.end():end]
            cut = item.index("。") + 1 if "。" in item else len(item)
            runs += [(item[:cut], m.group(0)), (item[cut:], None)]
        for text, label in runs:
            if label is not None:
                drafts[-1][1].append(LawItem(label=label, text=text))
                continue
            for sentence in _SENTENCE_RE.findall(text):
                if drafts and not fresh and sentence.startswith(_JOIN_PREFIXES) \
                        and not drafts[-1][1]:
                    drafts[-1] = (drafts[-1][0] + sentence, [])
                else:
                    drafts.append((sentence, []))
                fresh = False
    return [LawParagraph(num=n, sentence=s, items=tuple(items))
            for n, (s, items) in enumerate(drafts, start=1)]


_DIGITS = "零一二三四五六七八九"


def _cn_title(n: int) -> str:
    """第…条's numeral as the statute prints it: 4 → 四, 10 → 十, 15 → 十五, 101 → 一百零一,
    110 → 一百一十, 452 → 四百五十二."""
    if n < 10:
        return _DIGITS[n]
    if n < 20:
        return "十" + (_DIGITS[n % 10] if n % 10 else "")
    hundreds, rest = divmod(n, 100)
    tens, ones = divmod(rest, 10)
    out = _DIGITS[hundreds] + "百" if hundreds else ""
    if tens:
        out += _DIGITS[tens] + "十"
    elif hundreds and ones:
        out += "零"
    if ones:
        out += _DIGITS[ones]
    return out
