"""Annotations joined to clause rows → LegalRikai-style items, with every problem.

:func:`classification_items` / :func:`revision_items` join annotations to clauses on
(``document_id``, clause ``number``) — or ``clause_id`` — and return the items
(:class:`~buildds.schema.contracts.ClassificationItem`,
:class:`~buildds.schema.contracts.RevisionItem`) together with every problem
(:class:`~buildds.schema.contracts.ItemProblem`: unknown label, clause without labels,
annotation without a clause, incomplete revision row): nothing is dropped silently.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Generic, TypeVar

from buildds.schema.contracts import (
    ClassificationItem,
    ClauseRow,
    ItemProblem,
    RevisionItem,
    RikaiItem,
)
from buildds.transform.rikai.annotations import Annotation, norm_key
from buildds.transform.rikai.identity import DocumentAliases

__all__ = ["LABELLED_KINDS", "ItemsResult", "classification_items", "label_frequencies",
           "revision_items"]

#: clause kinds an annotator labels; the others (preamble, signature, chapters) are reported
#: as unlabelled only when ``report_all=True``
LABELLED_KINDS = ("article", "section", "supplementary", "appendix")

ItemT = TypeVar("ItemT", bound=RikaiItem)


@dataclass
class ItemsResult(Generic[ItemT]):
    """The items of one task, every problem met making them, and the label inventory."""

    items: list[ItemT] = field(default_factory=list)
    problems: list[ItemProblem] = field(default_factory=list)
    label_inventory: list[str] = field(default_factory=list)


class _ClauseIndex:
    def __init__(self, clauses: Sequence[ClauseRow]):
        self.by_id = {c.id: c for c in clauses}
        self.by_number: dict[tuple[str, int], ClauseRow] = {}
        self.by_text: dict[tuple[str, str], ClauseRow] = {}
        self.docs = DocumentAliases(dict.fromkeys((c.document_id, c.path or c.source)
                                                  for c in clauses))
        #: why the last :meth:`find` found nothing, when it is not just "no such clause"
        self.why: str | None = None
        for c in clauses:
            if c.number is not None and c.kind in ("article", "section"):
                self.by_number.setdefault((c.document_id, c.number), c)
            if c.number_text:
                self.by_text.setdefault((c.document_id, norm_key(c.number_text)), c)

    def find(self, a: Annotation) -> ClauseRow | None:
        self.why = None
        if a.clause_id is not None:
            return self.by_id.get(a.clause_id)
        doc, self.why = self.docs.resolve(a.document_id or "")
        if doc is None:
            return None
        if a.number is not None:
            return self.by_number.get((doc, a.number))
        if a.number_text is not None:
            return self.by_text.get((doc, a.number_text))
        return None


def _where(a: Annotation) -> str:
    if a.clause_id is not None:
        return f"clause {a.clause_id}"
    number = a.number if a.number is not None else a.number_text
    return f"document {a.document_id!r}, clause {number}"


def _unmatched(index: _ClauseIndex, a: Annotation, more: str = "") -> ItemProblem:
    """An annotation that names no clause: ``ambiguous-document`` (naming every file its
    document name matches) or ``unmatched-annotation``."""
    if index.why is not None:
        return ItemProblem("ambiguous-document", index.why, a.source, a.id, a.line)
    return ItemProblem("unmatched-annotation", f"no clause for {_where(a)}{more}", a.source,
                       a.id, a.line)


def _item_base(c: ClauseRow) -> dict[str, Any]:
    """The :class:`RikaiItem` fields of an item made from clause ``c``."""
    return {"id": c.id, "document_id": c.document_id, "source": c.source,
            "number": c.number, "heading": c.heading, "page": c.page, "text": c.input_text,
            "char_start": c.char_start, "char_end": c.char_end}


def _row_base(a: Annotation, text: str, c: ClauseRow | None) -> dict[str, Any]:
    """The :class:`RikaiItem` fields of a revision row with its own ``text``: the clause it
    names (when found) gives the id and provenance."""
    return {"id": c.id if c else f"row-{a.line:05d}",
            "document_id": c.document_id if c else a.document_id,
            "source": c.source if c else PurePath(a.source).name,
            "number": c.number if c else a.number, "heading": c.heading if c else None,
            "page": c.page if c else None, "text": text}


def classification_items(clauses: Sequence[ClauseRow], annotations: Sequence[Annotation],
                         *, label_inventory: Sequence[str] | None = None,
                         report_all: bool = False) -> ItemsResult[ClassificationItem]:
    """:class:`~buildds.schema.contracts.ClassificationItem` ``{id, document_id, source,
    number, heading, page, text, labels}`` for every clause with at least one known label
    (several annotation rows for one clause are merged).

    ``label_inventory`` defaults to every label the annotations use (sorted). Reported:
    labels outside the inventory (``unknown-label``, the label is left out), labellable
    clauses with no (known) label (``unlabelled-clause``; with ``report_all`` also preambles,
    signatures and chapters) and annotations naming no clause (``unmatched-annotation``)."""
    result: ItemsResult[ClassificationItem] = ItemsResult()
    inventory = (list(label_inventory) if label_inventory is not None
                 else sorted({lab for a in annotations for lab in a.labels}))
    known = set(inventory)
    result.label_inventory = inventory
    index = _ClauseIndex(clauses)
    labels: dict[str, dict[str, None]] = {}
    for a in annotations:
        c = index.find(a)
        if c is None:
            result.problems.append(_unmatched(index, a))
            continue
        mine = labels.setdefault(c.id, {})
        for lab in a.labels:
            if lab in known:
                mine.setdefault(lab, None)
            else:
                result.problems.append(ItemProblem(
                    "unknown-label", f"label {lab!r} is not in the label inventory",
                    a.source, c.id, a.line, c.page))
    for c in clauses:
        found = labels.get(c.id)
        if found:
            result.items.append(ClassificationItem(**_item_base(c), labels=tuple(found)))
        elif report_all or c.kind in LABELLED_KINDS:
            why = "has no labels" if c.id not in labels else "has no known label"
            result.problems.append(ItemProblem(
                "unlabelled-clause", f"{c.kind} {c.number_text or c.id} {why}",
                c.source, c.id, None, c.page))
    result.items.sort(key=lambda it: it.id)
    return result


def revision_items(clauses: Sequence[ClauseRow],
                   annotations: Sequence[Annotation]) -> ItemsResult[RevisionItem]:
    """:class:`~buildds.schema.contracts.RevisionItem` ``{id, document_id, source, number,
    heading, page, text, ai_alert, guidelines, reference_revision}``. A row with its own
    ``text`` stands alone; otherwise its clause is found by (``document_id``, ``number``) or
    ``clause_id`` and its text used. Rows missing ``ai_alert``/``guidelines``/
    ``reference_revision`` are ``incomplete-annotation``; rows naming no clause are
    ``unmatched-annotation``."""
    result: ItemsResult[RevisionItem] = ItemsResult()
    index = _ClauseIndex(clauses)
    used: Counter[str] = Counter()
    for a in annotations:
        alert, guidelines, reference = a.ai_alert, a.guidelines, a.reference_revision
        if alert is None or guidelines is None or reference is None:
            missing = [k for k, v in (("ai_alert", alert), ("guidelines", guidelines),
                                      ("reference_revision", reference)) if v is None]
            result.problems.append(ItemProblem(
                "incomplete-annotation", f"row has no {', '.join(missing)}", a.source, a.id,
                a.line))
            continue
        if a.text is not None:
            c = index.find(a) if (a.clause_id or a.document_id) else None
            if c is None and index.why is not None:
                result.problems.append(_unmatched(index, a))
                continue
            base = _row_base(a, a.text, c)
        else:
            c = index.find(a)
            if c is None:
                result.problems.append(_unmatched(index, a, " (and no text)"))
                continue
            base = _item_base(c)
        item_id: str = a.id or str(base["id"])
        used[item_id] += 1
        if used[item_id] > 1:
            item_id = f"{item_id}-{used[item_id]}"
        result.items.append(RevisionItem(**{**base, "id": item_id}, ai_alert=alert,
                                         guidelines=guidelines, reference_revision=reference))
    result.items.sort(key=lambda it: it.id)
    return result


def label_frequencies(items: Iterable[ClassificationItem]) -> dict[str, int]:
    """Label → number of items carrying it, most frequent first (ties by label)."""
    counts = Counter(lab for it in items for lab in it.labels)
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
