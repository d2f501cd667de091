"""Ground JBE items in statute articles: which articles of its subject's code an item concerns,
and how that was found (:class:`~buildds.schema.laws.ItemGrounds`).

* ``explicit`` — references the item writes: 第九十五条, 第３条の２, 第九十六条第三項, 同条 (the
  previous reference), 前条 (the article before the previous reference), 同法 (the law
  last named), in its theme, lead-in and statement, including （参照条文） blocks. A
  reference belongs to the law named right before it (民法第百条; 借地借家法第十条 is not 民法);
  an unnamed one to the law named earlier in the same sentence — or anywhere earlier in a
  参照条文 block — and otherwise to the subject's own code. Only references to the subject's
  own code become grounds.
* ``retrieved`` — the top ``k`` articles of a BM25 index over the code
  (:mod:`buildds.laws.retrieval`), queried with the item's theme, lead-in and statement with
  its references masked and its 参照条文 blocks left out; predictions, with score and rank.
* ``unknown`` — neither. The Constitution's text is not in the law store, so a 憲法 item is
  grounded only by the article numbers it cites (law id ``321CONSTITUTION``, e-Gov's id of
  日本国憲法 — numbers read from the item, never guessed) and is ``unknown`` otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from buildds.laws.articles import article_sort_key
from buildds.laws.retrieval import (
    DEFAULT_ANALYZER,
    Analyzer,
    ArticleIndex,
    article_index,
)
from buildds.schema.core import JbeItem
from buildds.schema.laws import Ground, GroundStatus, ItemGrounds, LawArticle
from buildds.text import to_int_number

__all__ = ["CIVIL_CODE", "CONSTITUTION", "PENAL_CODE", "SUBJECT_LAWS", "ArticleRef",
           "explicit_grounds", "find_references", "ground_item", "ground_items", "item_references",
           "mask_references", "retrieval_query"]

CIVIL_CODE = "129AC0000000089"
PENAL_CODE = "140AC0000000045"
CONSTITUTION = "321CONSTITUTION"
#: the code each exam subject (``JbeItem.subject_jp``) is about
SUBJECT_LAWS = {"民法": CIVIL_CODE, "刑法": PENAL_CODE, "憲法": CONSTITUTION}
_LAW_NAMES = {"民法": CIVIL_CODE, "刑法": PENAL_CODE, "憲法": CONSTITUTION,
              "日本国憲法": CONSTITUTION}

_NUM = "[0-9０-９〇一二三四五六七八九十百千]+"
_REFERENCE = re.compile(
    rf"(?<![一-龥ァ-ヶー])(?P<law>同法|[一-龥ァ-ヶー]*法)?(?:[（(][^（）()]{{1,30}}[）)])?\s*"
    rf"(?P<ref>第(?P<num>{_NUM})条(?P<branches>(?:の{_NUM})*))"
    rf"(?:第(?P<para>{_NUM})項)?(?:第{_NUM}号)?"
    rf"|(?P<same>同条)(?:第(?P<para2>{_NUM})項)?(?:第{_NUM}号)?"
    rf"|(?P<prev>前条)")
_BLOCK = re.compile(r"[【（(\[［]参照条文[】）)\]］]")
_OTHER = "other:"
#: what makes 「…民法」 another law than the code in force (旧民法, 明治憲法, 大日本帝国憲法)
_OLD_LAW_MARKS = ("旧", "改正前", "明治", "帝国", "新")


@dataclass(frozen=True)
class ArticleRef:
    """One reference found in a text: the law's e-Gov id (``other:借地借家法`` for a law the
    store does not know), the article key, the paragraph if one is cited, and where."""

    law: str
    article: str
    paragraph: int | None
    start: int
    end: int


def _key(num: str, branches: str) -> str | None:
    parts = [to_int_number(num)] + [to_int_number(b) for b in branches.split("の")[1:]]
    if any(p is None or p <= 0 for p in parts):
        return None
    return "_".join(str(p) for p in parts)


def _law_of(name: str) -> str:
    """The law id a name before 第N条 stands for; the regex takes the whole run of kanji, so
    「場合刑法」 is 刑法, while 旧民法 and 明治憲法 are other laws."""
    if name in _LAW_NAMES:
        return _LAW_NAMES[name]
    for known in sorted(_LAW_NAMES, key=len, reverse=True):
        if name.endswith(known):
            head = name[:-len(known)]
            if not head.endswith(_OLD_LAW_MARKS):
                return _LAW_NAMES[known]
            break
    return _OTHER + name


def _previous_article(key: str, order: Sequence[str]) -> str | None:
    """The article before ``key``: in ``order`` when it holds ``key``, else by arithmetic."""
    if key in order:
        i = order.index(key)
        return order[i - 1] if i > 0 else None
    parts = [int(p) for p in key.split("_")]
    if len(parts) > 1:
        return "_".join(map(str, parts[:-1])) if parts[-1] == 2 else \
            "_".join(map(str, parts[:-1] + [parts[-1] - 1]))
    return str(parts[0] - 1) if parts[0] > 1 else None


@dataclass
class _Context:
    default_law: str
    order: Mapping[str, Sequence[str]]
    last: ArticleRef | None = None
    last_named: str | None = None


def find_references(text: str, default_law: str, *, block: bool = False,
                    order: Mapping[str, Sequence[str]] | None = None,
                    context: _Context | None = None) -> list[ArticleRef]:
    """The article references in ``text``, in order (see the module docstring for which law
    each belongs to). ``block``: ``text`` is a 参照条文 block, where a law once named stays
    in force to its end. ``order``: article keys per law id in order, for 前条."""
    ctx = context or _Context(default_law, order or {})
    refs: list[ArticleRef] = []
    sentence_law: str | None = None
    cursor = 0
    for m in _REFERENCE.finditer(text):
        if not block and "。" in text[cursor:m.start()]:
            sentence_law = None
        cursor = m.end()
        para_text = m.group("para") or m.group("para2")
        paragraph = to_int_number(para_text) if para_text else None
        if m.group("same") or m.group("prev"):
            if ctx.last is None:
                continue
            law, article = ctx.last.law, ctx.last.article
            if m.group("prev"):
                prev = _previous_article(article, ctx.order.get(law, ()))
                if prev is None:
                    continue
                article, paragraph = prev, None
        else:
            article_key = _key(m.group("num"), m.group("branches"))
            if article_key is None:
                continue
            name = m.group("law")
            if name == "同法":
                law = ctx.last_named or sentence_law or ctx.default_law
            elif name:
                law = _law_of(name)
            else:
                law = sentence_law or ctx.default_law
            if name:
                ctx.last_named = sentence_law = law
            article = article_key
        ref = ArticleRef(law, article, paragraph, m.start(), m.end())
        refs.append(ref)
        ctx.last = ref
    return refs


def _fields(item: JbeItem) -> list[tuple[str, bool]]:
    """The item's texts in reading order, each split from its 参照条文 block: (text, block)."""
    out: list[tuple[str, bool]] = []
    for text in (item.theme, item.lead_in, item.question):
        if not text:
            continue
        m = _BLOCK.search(text)
        out.append((text[:m.start()] if m else text, False))
        if m:
            out.append((text[m.start():], True))
    return out


def explicit_grounds(item: JbeItem, order: Mapping[str, Sequence[str]] | None = None
                     ) -> tuple[Ground, ...]:
    """The articles of the item's own code that it cites, each once (first paragraph cited
    kept), in order of first mention."""
    own = SUBJECT_LAWS.get(item.subject_jp)
    seen: dict[str, Ground] = {}
    for ref in item_references(item, order):
        if ref.law == own and ref.article not in seen:
            seen[ref.article] = Ground(law_id=own, article=ref.article, how="explicit",
                                       paragraph=ref.paragraph)
    return tuple(seen.values())


def item_references(item: JbeItem, order: Mapping[str, Sequence[str]] | None = None
                    ) -> list[ArticleRef]:
    """Every article reference of the item, to any law, in reading order (theme, lead-in,
    statement); 同条 and 前条 follow the previous reference across them."""
    own = SUBJECT_LAWS.get(item.subject_jp)
    if own is None:
        return []
    ctx = _Context(own, order or {})
    return [ref for text, block in _fields(item)
            for ref in find_references(text, own, block=block, context=ctx)]


def mask_references(text: str) -> str:
    """``text`` with every article reference (and the law named with it) removed."""
    out, cursor = [], 0
    for m in _REFERENCE.finditer(text):
        out.append(text[cursor:m.start()])
        cursor = m.end()
    out.append(text[cursor:])
    return "".join(out)


def retrieval_query(item: JbeItem) -> str:
    """What the retriever is asked: theme, lead-in and statement, references masked,
    参照条文 blocks left out (they quote the article: their grounds are explicit)."""
    return "\n".join(mask_references(text) for text, block in _fields(item) if not block)


def ground_item(item: JbeItem, codes: Mapping[str, Sequence[LawArticle]], k: int = 5,
                analyzer: Analyzer = DEFAULT_ANALYZER) -> ItemGrounds:
    """The grounds of one item. ``codes`` maps law ids to the articles of the version to
    ground in; a subject whose code is not there gets explicit grounds only."""
    return _Grounder(codes, k, analyzer).ground(item)


def ground_items(items: Iterable[JbeItem], codes: Mapping[str, Sequence[LawArticle]],
                 k: int = 5, analyzer: Analyzer = DEFAULT_ANALYZER) -> Iterator[ItemGrounds]:
    """:func:`ground_item` for each item, in order (each code's article order and index are
    made once)."""
    grounder = _Grounder(codes, k, analyzer)
    for item in items:
        yield grounder.ground(item)


class _Grounder:
    """:func:`ground_item` with each code's article order and index looked up once."""

    def __init__(self, codes: Mapping[str, Sequence[LawArticle]], k: int,
                 analyzer: Analyzer) -> None:
        self.codes, self.k, self.analyzer = codes, k, analyzer
        self._made: dict[str, tuple[dict[str, list[str]], ArticleIndex]] = {}

    def _code(self, law: str, articles: Sequence[LawArticle]
              ) -> tuple[dict[str, list[str]], ArticleIndex]:
        if law not in self._made:
            order = [a.article for a in sorted(articles, key=lambda a: article_sort_key(a.article))]
            self._made[law] = ({law: order}, article_index(articles, self.analyzer))
        return self._made[law]

    def ground(self, item: JbeItem) -> ItemGrounds:
        own = SUBJECT_LAWS.get(item.subject_jp)
        articles = self.codes.get(own) if own else None
        if not own or not articles:
            explicit = explicit_grounds(item, {})
            return ItemGrounds(item_id=item.id, grounds=explicit,
                               status="explicit" if explicit else "unknown")
        order, index = self._code(own, articles)
        explicit = explicit_grounds(item, order)
        cited = {g.article for g in explicit}
        hits = index.search(retrieval_query(item), self.k)
        retrieved = tuple(Ground(law_id=own, article=key, how="retrieved", score=score,
                                 rank=rank)
                          for rank, (key, score) in enumerate(hits, 1) if key not in cited)
        status: GroundStatus = "explicit" if explicit else "retrieved" if retrieved else "unknown"
        return ItemGrounds(item_id=item.id, grounds=explicit + retrieved, status=status)
