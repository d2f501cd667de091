"""What ``buildds diff OLD NEW`` finds between two exports of the same kind, item by item.

Items are matched by ``id``. An item is :data:`ADDED` (only in NEW), :data:`REMOVED` (only
in OLD), or present in both; then it is unchanged or carries one or more change classes:
:data:`TEXT_CHANGED`, :data:`LABEL_CHANGED`, :data:`STATUS_CHANGED`, :data:`MOVED_SPLIT`
and :data:`OTHER_CHANGED` (provenance or metadata such as ``page``, ``sha256``, ``points``).
Each change names its fields with their values before and after; ``reasons`` say why when the
exports say so (a ``corrections`` column, a ``status_reason`` column, a ``rejects.jsonl``
beside the export).

Values are JSON values (strings, numbers, booleans, ``None``, lists): a missing cell is
``None``, an array cell a list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ADDED",
    "CHANGE_CLASSES",
    "LABEL_CHANGED",
    "MOVED_SPLIT",
    "OTHER_CHANGED",
    "REMOVED",
    "STATUS_CHANGED",
    "TEXT_CHANGED",
    "UNCHANGED",
    "DatasetDiff",
    "FieldChange",
    "ItemDiff",
]

ADDED = "added"
REMOVED = "removed"
TEXT_CHANGED = "text_changed"
LABEL_CHANGED = "label_changed"
STATUS_CHANGED = "status_changed"
MOVED_SPLIT = "moved_split"
OTHER_CHANGED = "other_changed"
UNCHANGED = "unchanged"

#: every class an item can carry, in report order (``unchanged`` items are only counted)
CHANGE_CLASSES: tuple[str, ...] = (ADDED, REMOVED, TEXT_CHANGED, LABEL_CHANGED,
                                   STATUS_CHANGED, MOVED_SPLIT, OTHER_CHANGED)


@dataclass(frozen=True)
class FieldChange:
    """One column of one item, before (OLD) and after (NEW), and the change class it counts
    for (``text_changed``, ``label_changed``, ``status_changed`` or ``other_changed``)."""

    field: str
    change: str
    old: Any
    new: Any

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "class": self.change, "old": self.old, "new": self.new}


@dataclass(frozen=True)
class ItemDiff:
    """One item that was added, removed or changed.

    ``splits_old``/``splits_new`` are the splits the item is in (empty when absent; an
    AR-Bench row is in ``detection`` and, when anomalous, ``classification`` and
    ``correction``); ``group`` is the item's subject and year for a JBE export."""

    id: str
    classes: tuple[str, ...]
    splits_old: tuple[str, ...] = ()
    splits_new: tuple[str, ...] = ()
    #: the changed columns, grouped by class in :data:`CHANGE_CLASSES` order, each sorted
    changes: tuple[FieldChange, ...] = ()
    reasons: tuple[str, ...] = ()
    group: str | None = None

    def fields_of(self, change: str) -> tuple[str, ...]:
        """The changed fields that count for ``change`` (e.g. ``text_changed``)."""
        return tuple(c.field for c in self.changes if c.change == change)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "classes": list(self.classes), "group": self.group,
                "splits_old": list(self.splits_old), "splits_new": list(self.splits_new),
                "changes": [c.as_dict() for c in self.changes],
                "reasons": list(self.reasons)}


@dataclass(frozen=True)
class DatasetDiff:
    """Two exports compared: every added, removed or changed item (sorted by id) and the
    counts of each class, overall, per split (each NEW split an item is in, or its OLD splits
    when it was removed; unchanged items too) and per group (JBE: subject and year)."""

    old: str
    new: str
    #: the kind of export both are (``jbe``, ``arbench``, ``contracts-clauses`` …)
    kind: str
    old_items: int
    new_items: int
    items: tuple[ItemDiff, ...]
    unchanged: int
    counts: Mapping[str, int]
    counts_by_split: Mapping[str, Mapping[str, int]]
    counts_by_group: Mapping[str, Mapping[str, int]]
    #: columns only NEW has / only OLD has (not compared item by item, except status columns)
    columns_added: tuple[str, ...] = ()
    columns_removed: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        """Whether anything differs: an item added, removed or changed, or a column."""
        return bool(self.items or self.columns_added or self.columns_removed)

    def summary_line(self) -> str:
        if not self.changed:
            return (f"{self.kind}: no changes ({self.new_items} items, "
                    f"{self.old} → {self.new})")
        shown = [f"{n} {k.replace('_', ' ')}" for k, n in self.counts.items() if n]
        columns = "".join(f"; columns {what}: {', '.join(cols)}" for what, cols in
                          (("added", self.columns_added), ("removed", self.columns_removed))
                          if cols)
        # an item can be in several classes; the unchanged ones are not among those that differ
        return (f"{self.kind}: {len(self.items)} items differ ({', '.join(shown)}); "
                f"{self.unchanged} unchanged{columns}, {self.old} → {self.new}")

    def as_dict(self) -> dict[str, Any]:
        return {"old": self.old, "new": self.new, "kind": self.kind,
                "old_items": self.old_items, "new_items": self.new_items,
                "changed": self.changed, "unchanged": self.unchanged,
                "columns_added": list(self.columns_added),
                "columns_removed": list(self.columns_removed),
                "counts": dict(self.counts),
                "counts_by_split": {k: dict(v) for k, v in self.counts_by_split.items()},
                "counts_by_group": {k: dict(v) for k, v in self.counts_by_group.items()},
                "items": [i.as_dict() for i in self.items]}
