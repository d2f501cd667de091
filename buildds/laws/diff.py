"""How the articles of a law changed between two versions: one :class:`ArticleChange` per
article of either side.

Articles are aligned by text, not only by key, because keys are reused and renumbered
(民法 433 → 437 after the 2020 reform; 刑法 208条の2):

1. same key, same ``flat`` text → ``unchanged``; the same once the terminology map is applied
   to the old text → ``terminology``;
2. the same text (or the same after the map) under another key → ``moved`` (similarity 1 on
   the mapped text);
3. the rest is aligned by similarity (rapidfuzz ratio on ``flat``, the old side mapped):
   candidate pairs are the same key (any score) and other keys whose main article number is
   within :data:`MOVE_WINDOW` and whose score reaches :data:`MOVE_THRESHOLD`; pairs are taken
   best score first (the same key wins a tie). A same-key pair → ``substantive`` (or
   ``terminology``); another key → ``moved``;
4. what is left: an old article whose key now reads 「削除」 → ``deleted``; other old ones →
   ``removed``; new ones → ``added`` (a new 「削除」 whose old article went elsewhere is
   ``deleted`` with no old article).

「削除」 placeholders never take part in steps 2–3. ``paragraphs`` lists the paragraphs that
differ after a paragraph-level alignment: numbers of the new version for rewritten and
inserted paragraphs, of the old one for paragraphs that are gone.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from buildds.laws.articles import article_number, article_sort_key
from buildds.laws.terminology import TerminologyMap
from buildds.schema.laws import ArticleChange, ChangeKind, LawArticle, LawParagraph

__all__ = [
    "MOVE_THRESHOLD",
    "MOVE_WINDOW",
    "article_sort_key",
    "changed_paragraphs",
    "diff_versions",
    "similarity",
]

#: lowest similarity (0–1, on flat text, old side mapped) at which an article under another
#: key counts as the same article moved
MOVE_THRESHOLD = 0.8
#: how far (in main article numbers) a moved article is looked for: bounds the work to
#: about ``2 × MOVE_WINDOW`` comparisons per unmatched article
MOVE_WINDOW = 60


def similarity(a: str, b: str) -> float:
    """rapidfuzz's normalised Indel ratio of two texts, in [0, 1], rounded to 4 places."""
    return round(fuzz.ratio(a, b) / 100.0, 4)


def _para_text(p: LawParagraph) -> str:
    return "".join([p.sentence, *(i.text for i in p.items)])


def changed_paragraphs(old: LawArticle, new: LawArticle,
                       terminology: TerminologyMap | None = None) -> tuple[int, ...]:
    """Paragraph numbers that differ once the paragraphs are aligned (old texts mapped):
    new numbers for rewritten or inserted paragraphs, old numbers for removed ones."""
    olds = [_para_text(p) for p in old.paragraphs]
    if terminology is not None:
        olds = [terminology.apply(t) for t in olds]
    news = [_para_text(p) for p in new.paragraphs]
    out: set[int] = set()
    matcher = difflib.SequenceMatcher(None, olds, news, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            out.update(new.paragraphs[j].num for j in range(j1, j2))
        elif tag == "delete":
            out.update(old.paragraphs[i].num for i in range(i1, i2))
    return tuple(sorted(out))


@dataclass
class _Sides:
    """The two versions being aligned and what has been paired so far."""

    old: dict[str, LawArticle]
    new: dict[str, LawArticle]
    mapped: dict[str, str]
    law_id: str
    terminology: TerminologyMap | None
    pairs: dict[str, str]       # old key → new key
    taken_new: set[str]

    def pair(self, o: str, n: str) -> None:
        self.pairs[o] = n
        self.taken_new.add(n)

    def free_old(self) -> list[str]:
        return [k for k in self.old if k not in self.pairs and not self.old[k].deleted]

    def free_new(self) -> list[str]:
        return [k for k in self.new if k not in self.taken_new and not self.new[k].deleted]


def _match_same_key(s: _Sides) -> None:
    for key, o in s.old.items():
        n = s.new.get(key)
        if n is not None and (o.text_hash == n.text_hash or o.flat == n.flat
                              or (not n.deleted and s.mapped[key] == n.flat)):
            s.pair(key, key)


def _match_exact_elsewhere(s: _Sides) -> None:
    by_text: dict[str, list[str]] = defaultdict(list)
    for key in s.free_new():
        by_text[s.new[key].flat].append(key)
    for key in s.free_old():
        for text in (s.old[key].flat, s.mapped[key]):
            waiting = by_text.get(text)
            if waiting:
                s.pair(key, waiting.pop(0))
                break


def _match_similar(s: _Sides) -> None:
    free_new = s.free_new()
    near: dict[int, list[str]] = defaultdict(list)
    for key in free_new:
        num = article_number(key)
        if num is not None:
            near[num].append(key)
    cutoff = MOVE_THRESHOLD * 100.0
    scored: list[tuple[float, int, tuple, tuple, str, str]] = []
    for o in s.free_old():
        text = s.mapped[o]
        if o in s.new and o not in s.taken_new and not s.new[o].deleted:
            score = fuzz.ratio(text, s.new[o].flat)
            scored.append((-score, 0, article_sort_key(o), article_sort_key(o), o, o))
        num = article_number(o)
        if num is None:
            continue
        cands = [k for d in range(num - MOVE_WINDOW, num + MOVE_WINDOW + 1)
                 for k in near.get(d, ()) if k != o]
        if not cands:
            continue
        for _choice, score, idx in process.extract(
                text, [s.new[k].flat for k in cands], scorer=fuzz.ratio,
                score_cutoff=cutoff, limit=None):
            n = cands[idx]
            scored.append((-score, 1, article_sort_key(o), article_sort_key(n), o, n))
    scored.sort()
    for _neg, _other, _ko, _kn, o, n in scored:
        if o not in s.pairs and n not in s.taken_new:
            s.pair(o, n)


def _change(s: _Sides, kind: ChangeKind, o: str | None, n: str | None) -> ArticleChange:
    old = s.old[o] if o is not None else None
    new = s.new[n] if n is not None else None
    sim = 1.0
    paras: tuple[int, ...] = ()
    if old is not None and new is not None:
        sim = similarity(old.flat, new.flat)
        if kind not in ("unchanged", "terminology", "deleted"):
            paras = changed_paragraphs(old, new, s.terminology)
        elif kind == "terminology":
            paras = changed_paragraphs(old, new)
    elif kind in ("added", "removed"):
        sim = 0.0
    return ArticleChange(law_id=s.law_id, kind=kind, old_article=o, new_article=n,
                         similarity=sim, paragraphs=paras)


def _classify_pair(s: _Sides, o: str, n: str) -> ChangeKind:
    old, new = s.old[o], s.new[n]
    if old.flat == new.flat:
        return "unchanged" if o == n else "moved"
    if new.deleted:
        return "deleted"
    if o != n:
        return "moved"
    if old.deleted:
        return "added"
    return "terminology" if s.mapped[o] == new.flat else "substantive"


def _changes(s: _Sides) -> list[ArticleChange]:
    out: list[ArticleChange] = []
    for o, n in s.pairs.items():
        out.append(_change(s, _classify_pair(s, o, n), o, n))
    for o in s.old:
        if o in s.pairs:
            continue
        if o in s.new and o not in s.taken_new:
            kind: ChangeKind = "deleted" if s.new[o].deleted else ("added" if s.old[o].deleted
                                                            else "substantive")
            s.pair(o, o)
            out.append(_change(s, kind, o, o))
        else:
            out.append(_change(s, "removed", o, None))
    for n in s.new:
        if n not in s.taken_new:
            out.append(_change(s, "deleted" if s.new[n].deleted else "added", None, n))
    return out


def _order(c: ArticleChange) -> tuple:
    if c.new_article is not None:
        return (0, article_sort_key(c.new_article), article_sort_key(c.old_article or ""))
    return (1, article_sort_key(c.old_article or ""), ())


def diff_versions(old: Sequence[LawArticle], new: Sequence[LawArticle], *,
                  terminology: TerminologyMap | None = None) -> list[ArticleChange]:
    """One :class:`ArticleChange` per article of either version (see the module docstring
    for how articles are aligned), ordered by new key, then the removed ones by old key."""
    old_by = {a.article: a for a in old}
    new_by = {a.article: a for a in new}
    law_id = (new[0].law_id if new else old[0].law_id if old else "")
    mapped = {k: (terminology.apply(a.flat) if terminology is not None else a.flat)
              for k, a in old_by.items()}
    sides = _Sides(old=old_by, new=new_by, mapped=mapped, law_id=law_id,
                   terminology=terminology, pairs={}, taken_new=set())
    _match_same_key(sides)
    _match_exact_elsewhere(sides)
    _match_similar(sides)
    return sorted(_changes(sides), key=_order)
