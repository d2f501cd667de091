"""Statutes in versions: articles as they read in one version of a law, and the versions of a
law keyed by the date they came into force.

* :class:`LawArticle` — one article (条) of one version: its e-Gov key (``"95"``,
  ``"3_2"`` for 第三条の二, ``"398_22"``), caption (見出し), paragraphs (項) with their items
  (号), whether it reads 「削除」, and ``flat`` — sentence and item texts with no labels and no
  whitespace, the format-independent text that diffs compare — with its sha256
  (``text_hash``).
* :class:`LawText` — what a reader makes of one statute file: the law, its articles and its
  supplementary provisions (附則), with the file's provenance; no dates of its own.
* :class:`LawVersion` — one version of one law: e-Gov's revision id
  (``{law_id}_{YYYYMMDD}_{amending law id}``), the enforcement interval
  ``[valid_from, valid_to)`` (``valid_to`` None while it is the latest), whether it is in
  force yet (``status``), and, kept apart, the date the text was fetched — a fetch date is
  never an enforcement date.
* :class:`ArticleChange` — how one article changed from one version to the next.
* :class:`ItemGrounds` / :class:`Ground` — the articles a dataset item concerns;
  :class:`ItemImpact` / :class:`GroundImpact` — what a revision did to them.
* :class:`Ground`, :class:`ItemGrounds` — the articles a dataset item concerns, each found
  ``explicit`` (cited) or ``retrieved`` (predicted, with score and rank); ``unknown`` when
  none.

Everything here is data; the readers that make these records from e-Gov XML/HTML, the
old-system text and the PRC Markdown are in :mod:`buildds.laws`.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from buildds.schema.core import Frozen, Source

__all__ = [
    "ArticleChange",
    "ChangeKind",
    "Ground",
    "GroundHow",
    "GroundImpact",
    "GroundStatus",
    "ImpactStatus",
    "ItemGrounds",
    "ItemImpact",
    "LawArticle",
    "LawItem",
    "LawParagraph",
    "LawText",
    "LawVersion",
    "SupplProvision",
    "VersionStatus",
]

VersionStatus = Literal["enforced", "unenforced"]


class LawItem(Frozen):
    """One item (号) of a paragraph: its label as printed (``一``, ``イ``) and its text."""

    label: str
    text: str


class LawParagraph(Frozen):
    """One paragraph (項): its number (1 for the first, unnumbered one), its sentence and its
    items."""

    num: int
    sentence: str
    items: tuple[LawItem, ...] = ()


class LawArticle(Frozen):
    """One article of one version of a law."""

    law_id: str
    #: e-Gov key: "95", "3_2" (第三条の二), "398_22"; for PRC law "133_1" is 第一百三十三条之一
    article: str
    #: the heading as printed: 第九十五条, 第一百三十三条之一
    article_title: str
    caption: str | None = None
    deleted: bool = False
    paragraphs: tuple[LawParagraph, ...] = ()
    #: paragraphs joined as a reader sees them (「２　…」 prefixes, items as 「一　…」)
    text: str
    #: sentence and item texts, no labels, no whitespace: what versions are compared on
    flat: str
    #: sha256 of ``flat``
    text_hash: str


class LawVersion(Frozen):
    """One version of one law: when it applied and where its text came from."""

    law_id: str
    law_title: str
    #: e-Gov form ``{law_id}_{YYYYMMDD enforcement}_{amending law id or 000000000000000}``;
    #: for laws outside e-Gov, the same shape with the amending act's own id
    revision_id: str
    valid_from: date
    #: the day the next version came into force (exclusive); None for the latest
    valid_to: date | None = None
    status: VersionStatus = "enforced"
    #: the amending law (法律第N号, 修正案（十二）), when there is one
    amended_by: str | None = None
    #: when the text was downloaded — provenance only, never used as a date of the law
    fetched: date | None = None
    source: Source
    articles: int = 0
    #: articles whose text in this version's file is as amended by a law not yet in force on
    #: ``valid_from`` (刑法 155–167 in the 2026-01-01 download, 令和7年法律第39号): their
    #: in-force text is not in the file
    unenforced_articles: tuple[str, ...] = ()
    #: what amends them and when it comes into force (from its 附則)
    unenforced_note: str | None = None


class SupplProvision(Frozen):
    """One amending law's supplementary provisions (附則) as printed in a consolidated text:
    its number, and the first article (normally 施行期日) apart from the rest."""

    #: as e-Gov prints it (令和四年六月一七日法律第六七号); None for the law's original 附則
    amend_law_num: str | None = None
    enforcement_clause: str = ""
    full_text: str = ""


class LawText(Frozen):
    """One statute file as read: the law it holds, every article of its main provision (本則)
    in order, its 附則, and where it came from. Dates come from a revisions file, not from
    here."""

    law_id: str
    law_title: str
    articles: tuple[LawArticle, ...]
    suppl_provisions: tuple[SupplProvision, ...] = ()
    source: Source


ChangeKind = Literal["unchanged", "added", "deleted", "removed", "moved", "terminology",
                     "substantive"]


class ArticleChange(Frozen):
    """How one article changed between two versions of a law.

    ``added``: in the new version only; ``deleted``: now reads 「削除」; ``removed``: gone
    from the text; ``moved``: the same text under another number (民法 433 → 437);
    ``terminology``: the same once a terminology map is applied (懲役・禁錮 → 拘禁刑);
    ``substantive``: anything else. ``similarity`` is in [0, 1] on ``flat`` texts."""

    law_id: str
    kind: ChangeKind
    old_article: str | None = None
    new_article: str | None = None
    similarity: float = 1.0
    #: paragraph numbers (of the new version; the old one for removals) whose text changed
    paragraphs: tuple[int, ...] = ()


GroundHow = Literal["explicit", "retrieved"]
GroundStatus = Literal["explicit", "retrieved", "unknown"]


class Ground(Frozen):
    """One article an item concerns, and how that was found: ``explicit`` — the item cites it
    (第N条, 同条, 前条, a （参照条文） block); ``retrieved`` — predicted by a retrieval model over
    the code's article texts, with its ``score`` and ``rank`` (1 = best)."""

    law_id: str
    #: e-Gov key, as in :class:`LawArticle`
    article: str
    how: GroundHow
    score: float | None = None
    rank: int | None = None
    #: the paragraph (項) cited with the article (第九十六条第三項 → 3), explicit grounds only
    paragraph: int | None = None


class ItemGrounds(Frozen):
    """The articles one dataset item concerns. ``status`` is ``explicit`` when the item cites
    at least one article of its subject's code, ``retrieved`` when only a retrieval model
    grounds it, ``unknown`` when nothing does — an unknown item is never taken as unaffected
    by a revision."""

    item_id: str
    grounds: tuple[Ground, ...] = ()
    status: GroundStatus


ImpactStatus = Literal["unaffected", "terminology_only", "needs_review", "low_confidence",
                       "unknown"]


class GroundImpact(Frozen):
    """What happened to one ground of an item between the law its exam assumed and the as-of
    date: the change, the revision that made it and when that came into force."""

    ground: Ground
    change: ArticleChange
    #: the revision that brought the change (``{law_id}_{YYYYMMDD}_{amending law}``)
    revision_id: str | None = None
    enforced: date | None = None
    #: 附則 provisions of that revision that may keep the old law applicable (経過措置)
    transitional: tuple[str, ...] = ()
    #: every revision between the two dates that could have made the change (``revision_id``
    #: is one of them when it can be told which; None when it cannot)
    candidates: tuple[str, ...] = ()


class ItemImpact(Frozen):
    """How a law revision touches one dataset item.

    ``unaffected``: every ground's article is unchanged between ``assumed`` (the law in force
    at the exam) and ``as_of``; ``terminology_only``: changed in wording only (a terminology
    map, e.g. 懲役 → 拘禁刑) — reported, but not a reason for review on its own;
    ``needs_review``: a ground's article changed in substance, moved, or was deleted/removed;
    ``low_confidence``: such a change, but only in retrieved grounds that scored well below
    the item's best one (likely not what the item is about; still never unaffected);
    ``unknown``: the item has no grounds, or the law text in force at one of the two dates is
    not held — never taken as unaffected."""

    item_id: str
    status: ImpactStatus
    assumed: date
    as_of: date
    grounds: ItemGrounds
    impacts: tuple[GroundImpact, ...] = ()
    #: why the status is ``unknown`` (no grounds; no text held for a date …) or
    #: ``low_confidence`` (the weak grounds that changed, with their scores)
    reason: str | None = None
