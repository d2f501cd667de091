"""A charge's article in the reasoning's citation list, swapped for another charge's.

When E1 names a confusable charge without a donor case, the citation list (依照《中华人民共和国
刑法》第二百六十六条…之规定) would still cite the original charge's article — a give-away.
:func:`article_swap` writes the new charge's article (第二百二十四条, 第一百三十三条之一 …) in
its place, in the numerals of the item it replaces; when the new article is already cited the
old one is only removed; when the old article is not cited, nothing changes.
"""

from __future__ import annotations

import re

from buildds.inject_errors.tiers import charge_profile
from buildds.schema.judgments import ArticleRef, Judgment, SpanEdit
from buildds.schema.statutes import StatuteProfile
from buildds.text.numerals import int_to_cn

__all__ = ["KIND_ARTICLES", "article_item", "article_swap", "kind_article_swap"]

_CONTINUATION = re.compile(r"(?:[、，,和及]|以及)第?[一二三四五六七八九十0-9]+款(?:第?[（(]?[一二三四五六七八九十0-9]+[)）]?项)?")
_LIST_SEP = re.compile(r"^\s*(?:[、，,和及]|以及)\s*$")


def article_item(number: int, sub: int | None, paragraph: int | None, like: str) -> str:
    """``第N条`` (之M, 第K款) in the numerals of ``like`` (Arabic when it uses digits)."""
    num = str if re.search(r"[0-9]", like) else int_to_cn
    out = f"第{num(number)}条"
    if sub:
        out += f"之{int_to_cn(sub)}"
    if paragraph and "款" in like:
        out += f"第{num(paragraph)}款"
    return out


def _cites(ref: ArticleRef, number: int, sub: int | None) -> bool:
    if ref.number != number:
        return False
    has_sub = re.match(r"第[^条]+条之", ref.span.text) is not None
    return has_sub == bool(sub) and (not sub or f"之{int_to_cn(sub)}" in ref.span.text)


_NOTE = re.compile(r"[（(][^（）()]*[)）]$")


def _item_end(ref: ArticleRef) -> int:
    """The end of the article item without a trailing note (第一百一十四条（放火罪）: the note
    names the charge, which the charge-name edit changes)."""
    return ref.span.start + len(_NOTE.sub("", ref.span.text))


def _extended_end(text: str, end: int) -> int:
    while m := _CONTINUATION.match(text, end):
        end = m.end()
    return end


def article_swap(judgment: Judgment, charge: str, target: str, profile: StatuteProfile) -> list[SpanEdit]:
    """Edits citing ``target``'s article where the reasoning cites ``charge``'s (none when
    either is unknown to the profile or the old article is not cited)."""
    from buildds.inject_errors.base import SkipInjection

    try:
        old, new = charge_profile(profile, charge), charge_profile(profile, target)
    except SkipInjection:
        return []
    if (old.article, old.article_sub) == (new.article, new.article_sub):
        return []
    text = judgment.full_text
    refs = judgment.article_refs
    hits = [i for i, r in enumerate(refs) if _cites(r, old.article, old.article_sub)]
    if not hits:
        return []
    already = any(_cites(r, new.article, new.article_sub) for r in refs)
    edits = []
    for i in hits:
        ref = refs[i]
        end = _extended_end(text, ref.span.end) if _item_end(ref) == ref.span.end else _item_end(ref)
        if not already:
            edits.append(SpanEdit(start=ref.span.start, end=end, old=text[ref.span.start:end],
                                  new=article_item(new.article, new.article_sub, new.paragraph,
                                                   text[ref.span.start:end])))
            continue
        # the new article is cited already: drop the old item with one list separator
        if i > 0 and _LIST_SEP.match(text[_extended_end(text, refs[i - 1].span.end):ref.span.start]):
            start = _extended_end(text, refs[i - 1].span.end)
            edits.append(SpanEdit(start=start, end=end, old=text[start:end], new=""))
        elif i + 1 < len(refs) and _LIST_SEP.match(text[end:refs[i + 1].span.start]):
            nxt = refs[i + 1].span.start
            edits.append(SpanEdit(start=ref.span.start, end=nxt, old=text[ref.span.start:nxt], new=""))
    return edits


#: the General-part articles of each custodial kind a judgment cites with it (管制 38/41,
#: 拘役 42/44, 有期徒刑 45/47: the range and how custody counts against it)
KIND_ARTICLES: dict[str, tuple[int, int]] = {"管制": (38, 41), "拘役": (42, 44), "有期徒刑": (45, 47)}


def kind_article_swap(judgment: Judgment, old_kind: str, new_kind: str) -> list[SpanEdit]:
    """Edits citing ``new_kind``'s General-part articles where the reasoning cites
    ``old_kind``'s (第四十二条、第四十四条 → 第四十五条、第四十七条 for a 拘役 made a 有期徒刑);
    an article of the new kind already cited is not cited twice."""
    old, new = KIND_ARTICLES.get(old_kind), KIND_ARTICLES.get(new_kind)
    if old is None or new is None or old == new:
        return []
    text, refs = judgment.full_text, judgment.article_refs
    cited = {r.number for r in refs}
    edits = []
    for a, b in zip(old, new):
        for i, ref in enumerate(refs):
            if ref.number != a:
                continue
            end = _extended_end(text, ref.span.end)
            if b not in cited:
                edits.append(SpanEdit(start=ref.span.start, end=end, old=text[ref.span.start:end],
                                      new=article_item(b, None, None, text[ref.span.start:end])))
            elif i > 0 and _LIST_SEP.match(text[_extended_end(text, refs[i - 1].span.end):ref.span.start]):
                start = _extended_end(text, refs[i - 1].span.end)
                edits.append(SpanEdit(start=start, end=end, old=text[start:end], new=""))
    return edits
