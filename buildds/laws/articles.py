"""What every statute reader shares: article keys from headings, the ``text``/``flat`` forms
of an article, its hash, and e-Gov law ids from law numbers.

* :func:`article_key` — 第三条の二 → ``"3_2"``, 第一百三十三条之一 → ``"133_1"``;
  :func:`article_keys` expands a deleted range (第三十八条から第八十四条まで → 38 … 84);
  :func:`article_sort_key` orders keys as the law does (``"3" < "3_2" < "3_10" < "4"``);
* :func:`flat_text` — sentence and item texts with no labels and no whitespace (what
  versions are compared on), :func:`text_hash` its sha256;
* :func:`article_text` — paragraphs as a reader sees them: 「２　…」 from the second
  paragraph on, items as 「一　…」 on their own lines;
* :func:`make_article` — a :class:`~buildds.schema.laws.LawArticle` from its parts;
* :func:`law_id_from_number` — 明治四十年法律第四十五号 → ``"140AC0000000045"``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from buildds.safeio import LIMITS
from buildds.safeio.hashing import sha256_bytes
from buildds.schema.laws import LawArticle, LawParagraph
from buildds.text import to_int_number

__all__ = [
    "ERA_CODES",
    "article_key",
    "article_keys",
    "article_number",
    "article_sort_key",
    "article_text",
    "expand_key_range",
    "flat_text",
    "law_id_from_number",
    "make_article",
    "text_hash",
]

_DIGITS = "0-9０-９〇零一二三四五六七八九十百千"
#: 第三条の二の三 / 第一百三十三条之一 (の and 之 are the branch marks)
_TITLE_RE = re.compile(rf"^第([{_DIGITS}]+)条((?:[の之][{_DIGITS}]+)*)$")
_WS_RE = re.compile(r"\s+")
_FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")

#: e-Gov law ids begin with the era's digit (明治 1 … 令和 5)
ERA_CODES = {"明治": "1", "大正": "2", "昭和": "3", "平成": "4", "令和": "5"}
_LAW_NUM_RE = re.compile(rf"^(明治|大正|昭和|平成|令和)([{_DIGITS}元]+)年"
                         rf"(?:[{_DIGITS}]+月[{_DIGITS}]+日)?(法律|政令)第([{_DIGITS}]+)号$")
_LAW_KIND = {"法律": "AC", "政令": "CO"}


def _number(text: str) -> int:
    value = 1 if text == "元" else to_int_number(text)
    if value is None:
        raise ValueError(f"unreadable number {text!r}")
    return value


def article_key(title: str) -> str:
    """The e-Gov key of one article heading: 第九十五条 → ``"95"``, 第三条の二 → ``"3_2"``,
    第三百九十八条の二十二 → ``"398_22"``, 第一百三十三条之一 → ``"133_1"``. A
    :class:`ValueError` names a heading that is not one article."""
    m = _TITLE_RE.match(_WS_RE.sub("", title))
    if not m:
        raise ValueError(f"not an article heading: {title!r}")
    parts = [_number(m.group(1))]
    parts += [_number(branch) for branch in re.split(r"[の之]", m.group(2))[1:]]
    return "_".join(str(p) for p in parts)


def article_number(key: str) -> int | None:
    """The main article number of an e-Gov key: ``"161_2"`` → 161, ``"95"`` → 95; None for a
    key that does not start with one."""
    head = key.split("_", 1)[0]
    return int(head) if head.isdigit() else None


def article_sort_key(key: str) -> tuple[tuple[int, int | str], ...]:
    """Order of e-Gov article keys: ``"3" < "3_2" < "3_10" < "4"`` (the one sort key of
    article keys in buildds.laws: the diff, the retrieval index and grounding use it)."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in key.split("_"))


def article_keys(title: str) -> list[str]:
    """The keys a heading stands for: one for 第三条の二, two for 第三百六十七条及び第三百六十八条
    (or 第四十条・第四十一条), every article of a range for
    第七十三条から第七十六条まで (``73`` … ``76``) or 第百二条の二から第百二条の四まで
    (``102_2`` … ``102_4``). A range whose ends differ in more than their last number (or run
    backwards) is a :class:`ValueError`."""
    title = _WS_RE.sub("", title)
    if title.endswith("まで") and "から" in title:
        first, last = title[:-2].split("から", 1)
        return expand_key_range(article_key(first), article_key(last), title)
    return [article_key(part) for part in re.split(r"及び|・", title)]


def expand_key_range(first: str, last: str, title: str = "") -> list[str]:
    """``"73"``, ``"76"`` → 73, 74, 75, 76; ``"102_2"``, ``"102_4"`` → 102_2 … 102_4."""
    a, b = first.split("_"), last.split("_")
    if len(a) != len(b) or a[:-1] != b[:-1] or int(a[-1]) > int(b[-1]):
        raise ValueError(f"cannot expand the article range {title or first + ':' + last!r}")
    stem = "_".join(a[:-1])
    count, limit = int(b[-1]) - int(a[-1]) + 1, LIMITS["statute_articles"]
    if count > limit.default:
        raise ValueError(f"the range {title or first + ':' + last!r} makes {count:,} articles, "
                         f"more than the limit of {limit.default:,} (raise it with "
                         f"{limit.how_to_raise})")
    return [f"{stem}_{n}" if stem else str(n) for n in range(int(a[-1]), int(b[-1]) + 1)]


def flat_text(paragraphs: Iterable[LawParagraph]) -> str:
    """Sentences and item texts in order, no labels, no whitespace at all."""
    parts: list[str] = []
    for paragraph in paragraphs:
        parts.append(paragraph.sentence)
        parts.extend(item.text for item in paragraph.items)
    return _WS_RE.sub("", "".join(parts))


def article_text(paragraphs: Iterable[LawParagraph]) -> str:
    """Paragraphs one per line, 「２　…」 from the second on; each item on its own line as
    「label　text」."""
    lines: list[str] = []
    for paragraph in paragraphs:
        prefix = f"{str(paragraph.num).translate(_FULLWIDTH)}　" if paragraph.num > 1 else ""
        lines.append(prefix + paragraph.sentence)
        lines.extend(f"{item.label}　{item.text}" for item in paragraph.items)
    return "\n".join(lines)


def text_hash(flat: str) -> str:
    """sha256 (hex) of the UTF-8 bytes of ``flat``."""
    return sha256_bytes(flat.encode("utf-8"))


def make_article(law_id: str, key: str, title: str, caption: str | None,
                 paragraphs: Iterable[LawParagraph]) -> LawArticle:
    """One article with its ``text``, ``flat`` and hash computed; ``deleted`` when the whole
    article reads 「削除」."""
    paragraphs = tuple(paragraphs)
    flat = flat_text(paragraphs)
    return LawArticle(law_id=law_id, article=key, article_title=title, caption=caption or None,
                      deleted=flat == "削除", paragraphs=paragraphs,
                      text=article_text(paragraphs), flat=flat, text_hash=text_hash(flat))


def law_id_from_number(law_num: str) -> str | None:
    """The e-Gov law id of an act or cabinet order from its number:
    明治四十年法律第四十五号 → ``"140AC0000000045"``, 昭和二十一年憲法 → ``"321CONSTITUTION"``;
    ``None`` for any other form."""
    law_num = _WS_RE.sub("", law_num)
    if law_num == "昭和二十一年憲法":
        return "321CONSTITUTION"
    m = _LAW_NUM_RE.match(law_num)
    if not m:
        return None
    era, year, kind, num = m.groups()
    try:
        return f"{ERA_CODES[era]}{_number(year):02d}{_LAW_KIND[kind]}{_number(num):010d}"
    except ValueError:
        return None
