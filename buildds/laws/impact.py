"""Which dataset items a law revision touches: for each JBE item, the articles it concerns
(:mod:`buildds.laws.grounding`) compared between the law its exam assumed (the exam day,
:mod:`buildds.laws.exam_dates`) and an as-of date (:func:`assess_items` →
:class:`~buildds.schema.laws.ItemImpact`).

For each ground, the held versions in force on the two days are diffed
(:func:`buildds.laws.diff.diff_versions`, once per pair of versions, with the terminology map
enforced between them) and the article followed to its new key. Its status:

* ``needs_review`` — substantive, moved, deleted or removed; a ground that cites a paragraph
  (第N項) whose article changed only in later paragraphs is unaffected;
* ``terminology_only`` — changed in wording only (懲役 → 拘禁刑); never a review on its own;
* ``unaffected`` — unchanged;
* ``unknown`` — the law has no text in the store (憲法), the item has no grounds, or the text in
  force on a day is not held.

**Gaps.** The store may skip versions; the revisions table (``data/revisions.yaml``) lists the
revisions whose text is not held. When one came into force after the held version in force on a
day and on or before that day, the text of that day is not held and the older one is not used
in its place — unless the revision names the articles it changed (``articles:``) and the
ground's article is not one of them. A ground whose day is such a gap is still ``unaffected``
when its article is the same in the held texts on both sides of the gap (the held version
before the first day and the next held version after the gap): a text equal at both ends of a
span is taken to be equal within it (no change made and undone between two held texts).
Otherwise it is ``unknown`` with the reason ``law text in force on <day> not held (revision
<id> of <date>)``. A ground held only as amended by a law not yet in force is ``unknown`` too.

**Which revision.** The change is placed between two consecutive held versions; the revisions
in that span and between the two days (held versions and the table's rows) are the
``candidates``; ``revision_id`` is the only one, or the one whose 附則 names the article, else
None. ``transitional`` quotes that revision's 附則 (as the store keeps them beside the articles of
the versions, :mod:`buildds.laws.impact_suppl`) where it keeps the old law applicable. A
store written before it kept 附則 gives none: :func:`store_notes` names its versions for the
report.

An item that cites articles of its code is assessed on those; one that cites none, on its
retrieved grounds of rank ≤ ``top_k``. The item's status is the worst of its grounds'
(needs_review > unknown > low_confidence > terminology_only > unaffected). A retrieved
ground scoring below ``margin`` × the item's top retrieval score is *weak*: its change makes
the item ``low_confidence`` (never ``unaffected``; the ``reason`` names the weak grounds), not
``needs_review`` — on 40 judged 民法 items, every flag resting on such grounds alone was wrong
(``margin=0`` turns this off).

**Speed.** Each diff, attribution and 附則 look-up is made once per run
(:mod:`buildds.laws.impact_memo`); a run whose store files (articles and 附則) and tables hash
the same as the previous run's in the process reuses its loaded laws, diffs and 附則.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import pairwise
from typing import Any

from buildds.laws.diff import diff_versions
from buildds.laws.grounding import SUBJECT_LAWS, ground_items
from buildds.laws.impact_memo import SupplMemo, inputs_digest, remembered
from buildds.laws.impact_suppl import missing_suppl_notes
from buildds.laws.revisions import Revision, builtin_table_text, load_revisions_table
from buildds.laws.store import LawStore
from buildds.laws.terminology import terminology_between
from buildds.schema.core import JbeItem
from buildds.schema.laws import (
    ArticleChange,
    Ground,
    GroundImpact,
    ImpactStatus,
    ItemGrounds,
    ItemImpact,
    LawArticle,
    LawVersion,
)

__all__ = ["DEFAULT_MARGIN", "DEFAULT_TOP_K", "assess_items", "store_notes",
           "touched_articles"]

#: retrieved grounds of an item without explicit ones that are assessed (rank ≤ this)
DEFAULT_TOP_K = 3
#: a retrieved ground scoring below this × the item's top score is weak (low_confidence)
DEFAULT_MARGIN = 0.85
_REVIEW = ("substantive", "moved", "deleted", "removed", "added")
_RANK = {"needs_review": 4, "unknown": 3, "low_confidence": 2, "terminology_only": 1,
         "unaffected": 0}


def touched_articles(table_text: str | None = None) -> dict[str, frozenset[str]]:
    """revision id → the only articles it changed, for the rows of the revisions table
    (default: the shipped one) that list them (``articles:``)."""
    from buildds.safeio import load_yaml_strict

    data: Any = load_yaml_strict(table_text if table_text is not None else builtin_table_text())
    return {str(row["revision_id"]): frozenset(str(a) for a in row["articles"])
            for law in data.get("laws", []) for row in law.get("versions", [])
            if row.get("articles")}


def store_notes(store: LawStore) -> list[str]:
    """What the report should say about the store: each version of the codes assessed whose
    附則 it does not keep (written before it kept them; re-import the file), so transitional
    provisions are never silently missing."""
    return missing_suppl_notes(store, SUBJECT_LAWS.values())


@dataclass
class _Law:
    """One law's held versions, the revisions of it the store does not hold, cached diffs."""

    store: LawStore
    law_id: str
    versions: list[LawVersion]
    unheld: list[Revision]
    touched: Mapping[str, frozenset[str]]
    _articles: dict[str, list[LawArticle]] = field(default_factory=dict)
    _diffs: dict[tuple[str, str], dict[str, ArticleChange]] = field(default_factory=dict)
    _at: dict[date, LawVersion | None] = field(default_factory=dict)
    #: :func:`_attribution` by (versions, article, its new key, days), made once each
    attributions: dict[tuple[str, str, str, str, tuple[date, date]], _Attribution] = field(
        default_factory=dict)

    def articles(self, v: LawVersion) -> list[LawArticle]:
        if v.revision_id not in self._articles:
            self._articles[v.revision_id] = self.store.articles(self.law_id, v.revision_id)
        return self._articles[v.revision_id]

    def at(self, day: date) -> LawVersion | None:
        if day not in self._at:  # a handful of days (exam days, as-of) asked per ground
            before = [v for v in self.versions if v.valid_from <= day]
            self._at[day] = before[-1] if before else None
        return self._at[day]

    def after(self, day: date) -> LawVersion | None:
        return next((v for v in self.versions if v.valid_from > day), None)

    def gaps(self, v: LawVersion, day: date, key: str) -> list[Revision]:
        """Revisions not held in force after ``v`` and by ``day`` that may touch ``key``."""
        return [r for r in self.unheld if v.valid_from < r.valid_from <= day
                and (r.revision_id not in self.touched or key in self.touched[r.revision_id])]

    def diff(self, a: LawVersion, b: LawVersion) -> dict[str, ArticleChange]:
        """Changes from ``a`` to ``b`` by old key (diffed once per pair)."""
        pair = (a.revision_id, b.revision_id)
        if pair not in self._diffs:
            changes = diff_versions(self.articles(a), self.articles(b),
                                    terminology=terminology_between(a.valid_from, b.valid_from))
            self._diffs[pair] = {c.old_article: c for c in changes if c.old_article}
        return self._diffs[pair]

    def follow(self, a: LawVersion, b: LawVersion, key: str) -> ArticleChange | None:
        if a.revision_id == b.revision_id:
            return (ArticleChange(law_id=self.law_id, kind="unchanged", old_article=key,
                                  new_article=key)
                    if any(x.article == key for x in self.articles(a)) else None)
        return self.diff(a, b).get(key)

    def changed_span(self, a: LawVersion, b: LawVersion, key: str) -> tuple[date, date]:
        """The first pair of consecutive held versions from ``a`` to ``b`` across which
        ``key`` changed: (valid_from of the earlier, of the later)."""
        chain = [v for v in self.versions if a.valid_from <= v.valid_from <= b.valid_from]
        for x, y in pairwise(chain):
            change = self.diff(x, y).get(key)
            if change is None:
                break
            if change.kind != "unchanged":
                return x.valid_from, y.valid_from
            key = change.new_article or key
        return a.valid_from, b.valid_from

    def candidates(self, start: date, end: date, key: str) -> list[tuple[str, date, str | None]]:
        """(revision id, enforcement date, amending law) of the revisions in (start, end]."""
        held = [(v.revision_id, v.valid_from, v.amended_by) for v in self.versions
                if start < v.valid_from <= end]
        gaps = [(r.revision_id, r.valid_from, r.amended_by) for r in self.unheld
                if start < r.valid_from <= end
                and (r.revision_id not in self.touched or key in self.touched[r.revision_id])]
        return sorted(held + gaps, key=lambda c: (c[1], c[0]))


@dataclass
class _Verdict:
    status: ImpactStatus
    impact: GroundImpact | None = None
    reason: str | None = None


def _gap_reason(day: date, gap: Revision) -> str:
    return (f"law text in force on {day.isoformat()} not held (revision {gap.revision_id} of "
            f"{gap.valid_from.isoformat()})")


_Attribution = tuple[tuple[str, date, str | None] | None, tuple[str, ...],
                     tuple[tuple[str, date, str | None], ...]]


def _attribute(law: _Law, lo: LawVersion, hi: LawVersion, ground: Ground, change: ArticleChange,
               days: tuple[date, date], suppl: SupplMemo) -> GroundImpact:
    key = change.new_article or ground.article
    memo = (lo.revision_id, hi.revision_id, ground.article, key, days)
    if memo not in law.attributions:  # the same for every item of a year grounded here
        law.attributions[memo] = _attribution(law, lo, hi, ground.article, key, days, suppl)
    chosen, transitional, cands = law.attributions[memo]
    return GroundImpact(ground=ground, change=change,
                        revision_id=chosen[0] if chosen else None,
                        enforced=chosen[1] if chosen else None, transitional=transitional,
                        candidates=tuple(c[0] for c in cands))


def _attribution(law: _Law, lo: LawVersion, hi: LawVersion, article: str, key: str,
                 days: tuple[date, date], suppl: SupplMemo) -> _Attribution:
    """The revision chosen among the candidates, its transitional excerpts, the candidates."""
    seg_from, seg_to = law.changed_span(lo, hi, article)
    start, end = max(seg_from, min(days)), min(seg_to, max(days))
    cands = law.candidates(start, end, article)
    chosen: tuple[str, date, str | None] | None = cands[0] if len(cands) == 1 else None
    transitional: tuple[str, ...] = ()
    for cand in cands:
        prov = suppl.find(cand[2], [v for v in law.versions if v.valid_from >= cand[1]])
        if prov is None:
            continue
        if chosen is None and suppl.names(prov, key):
            chosen = cand
        if chosen == cand:
            transitional = suppl.excerpts(prov, key)
            break
    return chosen, transitional, tuple(cands)


def _ground_status(change: ArticleChange, ground: Ground) -> ImpactStatus:
    if change.kind == "unchanged":
        return "unaffected"
    if change.kind == "terminology":
        return "terminology_only"
    if (change.kind == "substantive" and ground.paragraph is not None and change.paragraphs
            and min(change.paragraphs) > ground.paragraph):
        return "unaffected"  # only later paragraphs changed: the cited one reads the same
    return "needs_review"


def _assess_ground(law: _Law, ground: Ground, days: tuple[date, date],
                   suppl: SupplMemo) -> _Verdict:
    assumed, as_of = days
    if as_of < assumed:
        # the grounds are keys of the later text, and a revision would have to be read
        # backwards (an article added after --as-of, a key reused since): not assessed
        return _Verdict("unknown", reason=f"--as-of {as_of.isoformat()} is before the day "
                        f"the item was written for ({assumed.isoformat()}); only later dates "
                        f"are assessed")
    va, vb = law.at(assumed), law.at(as_of)
    for day, v in ((assumed, va), (as_of, vb)):
        if v is None:
            first = law.versions[0]
            return _Verdict("unknown", reason=f"law text in force on {day.isoformat()} not held "
                            f"(the store's first version of {law.law_id} is in force from "
                            f"{first.valid_from.isoformat()})")
    assert va is not None and vb is not None
    lo, hi = (va, vb) if va.valid_from <= vb.valid_from else (vb, va)
    early, late = min(days), max(days)
    gap_lo, gap_hi = law.gaps(lo, early, ground.article), law.gaps(hi, late, ground.article)
    if gap_hi:
        nxt = law.after(late)
        if nxt is None:
            return _Verdict("unknown", reason=_gap_reason(late, gap_hi[0]))
        hi = nxt
    if gap_lo and hi.revision_id == lo.revision_id:
        return _Verdict("unknown", reason=_gap_reason(early, gap_lo[0]))
    change = law.follow(lo, hi, ground.article)
    if change is None:
        return _Verdict("unknown", reason=f"article {ground.article} of {law.law_id} is not in "
                        f"{lo.revision_id}, the version in force on {early.isoformat()}")
    if change.new_article and change.new_article in hi.unenforced_articles:
        return _Verdict("unknown", reason=f"article {change.new_article} of {hi.revision_id} "
                        f"is held only as amended by a law not yet in force "
                        f"({hi.unenforced_note})")
    status = _ground_status(change, ground)
    impact = (_attribute(law, lo, hi, ground, change, days, suppl)
              if status != "unaffected" else None)
    if (gap_lo or gap_hi) and status != "unaffected":
        gap = (gap_lo or gap_hi)[0]
        return _Verdict("unknown", impact, _gap_reason(early if gap_lo else late, gap))
    return _Verdict(status, impact)


def _used_grounds(grounds: ItemGrounds, top_k: int) -> tuple[Ground, ...]:
    explicit = tuple(g for g in grounds.grounds if g.how == "explicit")
    return explicit or tuple(g for g in grounds.grounds
                             if g.how == "retrieved" and (g.rank or 0) <= top_k)


def _weak(grounds: Sequence[Ground], margin: float) -> dict[str, str]:
    """article → why, for the retrieved grounds scoring below ``margin`` × the top score."""
    scores = [g.score for g in grounds if g.how == "retrieved" and g.score is not None]
    top = max(scores, default=0.0)
    return {g.article: f"{g.article} (score {g.score:.2f} < {margin:g} × {top:.2f})"
            for g in grounds if g.how == "retrieved" and g.score is not None and top > 0
            and g.score < margin * top}


def _assess_item(item: JbeItem, grounds: ItemGrounds, days: tuple[date, date],
                 laws: Mapping[str, _Law | None], suppl: SupplMemo, top_k: int,
                 margin: float) -> ItemImpact:
    used = _used_grounds(grounds, top_k)
    weak = _weak(used, margin)
    record = grounds.model_copy(update={"grounds": used})
    if not used:
        return ItemImpact(item_id=item.id, status="unknown", assumed=days[0], as_of=days[1],
                          grounds=record, reason="no grounds (no article cited or retrieved)")
    verdicts: list[_Verdict] = []
    for g in used:
        law = laws.get(g.law_id)
        if law is None:
            verdicts.append(_Verdict("unknown", reason=f"law {g.law_id} has no text in the "
                                     f"store"))
        else:
            verdict = _assess_ground(law, g, days, suppl)
            if verdict.status == "needs_review" and g.article in weak:
                verdict = _Verdict("low_confidence", verdict.impact, weak[g.article])
            verdicts.append(verdict)
    status = max((v.status for v in verdicts), key=_RANK.__getitem__)
    reasons = dict.fromkeys(v.reason for v in verdicts if v.reason and v.status == "unknown")
    if status == "low_confidence":
        reasons = {"only weakly retrieved grounds changed: " + ", ".join(
            v.reason for v in verdicts if v.reason and v.status == status): None}
    return ItemImpact(item_id=item.id, status=status, assumed=days[0], as_of=days[1],
                      grounds=record,
                      impacts=tuple(v.impact for v in verdicts if v.impact is not None),
                      reason="; ".join(r for r in reasons if r) or None)


def _load_laws(store: LawStore, law_ids: Iterable[str], table: Sequence[Revision],
               touched: Mapping[str, frozenset[str]]) -> dict[str, _Law | None]:
    out: dict[str, _Law | None] = {}
    for law_id in sorted(set(law_ids)):
        versions = store.versions(law_id)
        held = {v.revision_id for v in versions}
        out[law_id] = _Law(store, law_id, versions,
                           [r for r in table if r.law_id == law_id and r.revision_id not in held
                            and r.status == "enforced"], touched) if versions else None
    return out


def _ground_all(items: Sequence[JbeItem], laws: Mapping[str, _Law | None],
                assumed: Callable[[JbeItem], date], top_k: int) -> dict[str, ItemGrounds]:
    """Ground each item in the version of its code in force on its exam day (items of the
    same code and version are grounded together, each code's index built once)."""
    groups: dict[tuple[str, str], list[JbeItem]] = defaultdict(list)
    for item in items:
        law = laws.get(SUBJECT_LAWS.get(item.subject_jp, ""))
        version = law.at(assumed(item)) if law is not None else None
        groups[(law.law_id if law else "", version.revision_id if version else "")].append(item)
    out: dict[str, ItemGrounds] = {}
    for (law_id, rid), group in sorted(groups.items()):
        law = laws.get(law_id)
        version = next((v for v in law.versions if v.revision_id == rid), None) if law else None
        codes = {law_id: law.articles(version)} if law and version else {}
        out.update((g.item_id, g) for g in ground_items(group, codes, k=top_k))
    return out


def assess_items(items: Sequence[JbeItem], store: LawStore, as_of: date, *,
                 assumed: Callable[[JbeItem], date] | None = None,
                 grounds: Mapping[str, ItemGrounds] | None = None,
                 revisions: Sequence[Revision] | None = None,
                 touched: Mapping[str, frozenset[str]] | None = None,
                 top_k: int = DEFAULT_TOP_K, margin: float = DEFAULT_MARGIN
                 ) -> list[ItemImpact]:
    """One :class:`ItemImpact` per item, ordered by item id (see the module docstring).
    ``assumed``: each item's exam day (default: :func:`~buildds.laws.exam_dates.exam_date_of`);
    ``grounds``: precomputed grounds by item id (default: grounded here, in the version in
    force on the exam day); ``revisions``: the revisions table (default: the shipped one);
    ``touched``: revision id → the only articles it changed (default: the shipped table's
    ``articles:`` lists when ``revisions`` is the shipped table, else none); ``margin``: see
    the module docstring (0: every assessed ground counts in full)."""
    from buildds.laws.exam_dates import exam_date_of

    day_of = assumed or exam_date_of()
    table = list(revisions) if revisions is not None else load_revisions_table()
    if touched is None:
        touched = touched_articles() if revisions is None else {}
    law_ids = [*SUBJECT_LAWS.values(), *(g.law_id for ig in (grounds or {}).values()
                                         for g in ig.grounds)]
    digest = inputs_digest(store, law_ids, table, touched)
    laws, suppl = remembered(digest, lambda: (_load_laws(store, law_ids, table, touched),
                                              SupplMemo(store)))
    found = dict(grounds) if grounds is not None else _ground_all(items, laws, day_of, top_k)
    out = []
    for item in sorted(items, key=lambda i: i.id):
        item_grounds = found.get(item.id) or ItemGrounds(item_id=item.id, status="unknown")
        out.append(_assess_item(item, item_grounds, (day_of(item), as_of), laws, suppl, top_k,
                                margin))
    return out
