"""Compare two exports item by item (``buildds diff OLD NEW``): :func:`diff_exports`.

Both exports are read with :func:`buildds.validate.export_splits.load_splits` (every split)
and must be of the same kind (JBE-QA, AR-Bench, or the same contracts export); otherwise an
:class:`~buildds.errors.ExtractError` names both paths and kinds. Items are matched by ``id``
across splits; an item in both is compared column by column:

* the kind's label columns (JBE ``label``/``answer``, AR-Bench ``label``/``error_type``/
  ``error_class``/``gold_correction``, contracts ``labels``/``reference_revision``) →
  ``label_changed``;
* its text columns (JBE ``question``, ``instruction``, ``theme``, ``lead_in``, ``remark`` …)
  → ``text_changed``;
* ``status`` and the columns that say why (:data:`STATUS_FIELDS`) → ``status_changed``; a
  missing status column, an empty value and ``ok`` all mean "no status";
* the set of splits it is in → ``moved_split`` (JBE's ``is_fewshot`` only restates it; a
  single ``.parquet`` file compared with another export of one split holds the same split
  whatever the file is called — two export folders keep their split names, so an item in
  ``test`` then in ``needs_review`` moved even when each folder has one split);
* any other column both exports have → ``other_changed`` (``page``, ``sha256``, ``points`` …).

``corrections`` is not compared: it is a reason. Reasons come from the exports themselves —
corrections applied or no longer applied, the NEW status columns, and the ``rejects.jsonl``
beside an export (a removed item or one now under review is looked up in NEW's rejects, an
added one in OLD's; a reject's id may be the item's or its question's, and a skipped
injection names the AR-Bench rows ``<id>-<error_type>-…``).

Rendering and writing (``diff.json``, ``diff.md``) live in :mod:`.dataset_diff_report`.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds.errors import ExtractError
from buildds.schema.dataset_diff import (
    ADDED,
    CHANGE_CLASSES,
    LABEL_CHANGED,
    MOVED_SPLIT,
    OTHER_CHANGED,
    REMOVED,
    STATUS_CHANGED,
    TEXT_CHANGED,
    UNCHANGED,
    DatasetDiff,
    FieldChange,
    ItemDiff,
)
from buildds.validate.export_splits import ExportKind, ExportSplits, load_splits

__all__ = ["STATUS_FIELDS", "diff_exports", "diff_splits", "json_value"]

#: compared as ``status_changed``; a column only one export has counts as empty on the other
STATUS_FIELDS: tuple[str, ...] = ("status", "status_reason", "revision", "revision_id",
                                  "revisions")
#: never compared: named as reasons
REASON_FIELDS: tuple[str, ...] = ("corrections",)
#: status values that mean "no status": an item of a build without ``--as-of`` (no status
#: column) and a ``current`` item of an as-of build (unaffected by any revision) are alike
_NO_STATUS = (None, "", "ok", "current")

Row = dict[str, Any]


def json_value(value: Any) -> Any:
    """A cell as a plain JSON value: NaN/NA → None, numpy scalars → Python, arrays → lists."""
    if value is None:
        return None
    if hasattr(value, "tolist") and not isinstance(value, str | bytes):
        value = value.tolist()
    if isinstance(value, list | tuple):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in sorted(value.items())}
    if isinstance(value, float) and math.isnan(value):
        return None
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    return value


def _items(export: ExportSplits) -> tuple[dict[str, Row], dict[str, tuple[str, ...]]]:
    """id → row (from the first split, by name, that holds it) and id → its splits."""
    rows: dict[str, Row] = {}
    splits: dict[str, list[str]] = defaultdict(list)
    for name in sorted(export.splits):
        frame = export.splits[name]
        for record in frame.to_dict("records"):
            item_id = str(record["id"])
            if name in splits[item_id]:
                raise ExtractError(f"id {item_id} appears twice in split {name!r}",
                                   source=str(export.path))
            splits[item_id].append(name)
            rows.setdefault(item_id, {str(k): json_value(v) for k, v in record.items()})
    return rows, {k: tuple(v) for k, v in splits.items()}


def _columns(export: ExportSplits) -> set[str]:
    return {str(c) for frame in export.splits.values() for c in frame.columns}


def _field_class(kind: ExportKind, name: str) -> str | None:
    if name == "id" or name in REASON_FIELDS or name in kind.split_fields:
        return None
    if name in kind.label_fields:
        return LABEL_CHANGED
    if name in kind.text_fields:
        return TEXT_CHANGED
    if name in STATUS_FIELDS:
        return STATUS_CHANGED
    return OTHER_CHANGED


def _same(change: str, old: Any, new: Any) -> bool:
    if change == STATUS_CHANGED:
        return (old in _NO_STATUS and new in _NO_STATUS) or old == new
    return bool(old == new)


def _reject_reasons(rejects: Sequence[Mapping[str, Any]] | None, item_id: str,
                    where: str) -> list[str]:
    found = []
    for row in rejects or ():
        rid = str(row.get("id") or "")
        if row.get("error_type"):  # an injection skipped: AR-Bench <source>-<type>-<seed>
            rid = f"{rid}-{row['error_type']}"
        if rid and (item_id == rid or item_id.startswith(rid + "-")):
            text = f"{where}: {row.get('reason', '?')}"
            if row.get("message"):
                text += f" — {row['message']}"
            found.append(text)
    return found


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _row_reasons(old: Row | None, new: Row | None) -> list[str]:
    """Corrections applied / no longer applied, and the NEW (or OLD) status columns."""
    reasons = []
    before = _as_list((old or {}).get("corrections"))
    after = _as_list((new or {}).get("corrections"))
    reasons += [f"correction applied: {c}" for c in after if c not in before]
    reasons += [f"correction no longer applied: {c}" for c in before if c not in after]
    row = new if new is not None else old
    for name in STATUS_FIELDS[1:]:
        value = (row or {}).get(name)
        if value not in (None, "", []):
            reasons.append(f"{name}: {value}")
    return reasons


def _compare(kind: ExportKind, fields: Iterable[str], old: Row, new: Row
             ) -> list[FieldChange]:
    changes = []
    for name in fields:
        change = _field_class(kind, name)
        a, b = old.get(name), new.get(name)
        if change is not None and not _same(change, a, b):
            changes.append(FieldChange(field=name, change=change, old=a, new=b))
    order = {c: i for i, c in enumerate(CHANGE_CLASSES)}
    return sorted(changes, key=lambda c: (order[c.change], c.field))


def _group(kind: ExportKind, row: Row) -> str | None:
    if not kind.group_fields:
        return None
    return " ".join(str(row.get(f) or "?") for f in kind.group_fields)


def _item_diff(kind: ExportKind, item_id: str, old: Row | None, new: Row | None,
               splits: tuple[tuple[str, ...], tuple[str, ...]], fields: Sequence[str],
               rejects: tuple[list[dict[str, Any]] | None, list[dict[str, Any]] | None]
               ) -> ItemDiff | None:
    """The diff of one item, or None when it is unchanged."""
    reasons = _row_reasons(old, new)
    if old is None:
        classes: tuple[str, ...] = (ADDED,)
        reasons = _reject_reasons(rejects[0], item_id, "rejected in OLD") + reasons
        changes: list[FieldChange] = []
    elif new is None:
        classes = (REMOVED,)
        reasons = _reject_reasons(rejects[1], item_id, "rejected") + reasons
        changes = []
    else:
        changes = _compare(kind, fields, old, new)
        found = {c.change for c in changes} | ({MOVED_SPLIT} if splits[0] != splits[1]
                                               else set())
        if not found:
            return None
        classes = tuple(c for c in CHANGE_CLASSES if c in found)
        if STATUS_CHANGED in found or MOVED_SPLIT in found:
            reasons = _reject_reasons(rejects[1], item_id, "listed in rejects") + reasons
    return ItemDiff(id=item_id, classes=classes, splits_old=splits[0], splits_new=splits[1],
                    changes=tuple(changes), reasons=tuple(dict.fromkeys(reasons)),
                    group=_group(kind, new if new is not None else old or {}))


def _count(diffs: Sequence[ItemDiff], unchanged: Mapping[str, tuple[Row, tuple[str, ...]]],
           kind: ExportKind
           ) -> tuple[dict[str, int], dict[str, dict[str, int]], dict[str, dict[str, int]]]:
    total: Counter[str] = Counter()
    by_split: dict[str, Counter[str]] = defaultdict(Counter)
    by_group: dict[str, Counter[str]] = defaultdict(Counter)
    for d in diffs:
        for cls in d.classes:
            total[cls] += 1
            for split in d.splits_new or d.splits_old:
                by_split[split][cls] += 1
            if d.group is not None:
                by_group[d.group][cls] += 1
    for row, splits in unchanged.values():
        for split in splits:
            by_split[split][UNCHANGED] += 1
        group = _group(kind, row)
        if group is not None:
            by_group[group][UNCHANGED] += 1
    classes = (*CHANGE_CLASSES, UNCHANGED)

    def table(counts: Mapping[str, Counter[str]]) -> dict[str, dict[str, int]]:
        return {k: {c: counts[k][c] for c in classes if counts[k][c]} for k in sorted(counts)}

    return ({c: total[c] for c in CHANGE_CLASSES}, table(by_split), table(by_group))


def diff_splits(old: ExportSplits, new: ExportSplits) -> DatasetDiff:
    """Every item of two loaded exports of the same kind, compared (see the module doc)."""
    if old.kind.name != new.kind.name:
        raise ExtractError(f"cannot compare exports of different kinds: {old.path} is "
                           f"{old.kind.name}, {new.path} is {new.kind.name}; give two "
                           "exports of the same kind")
    kind = old.kind
    old_rows, old_splits = _items(old)
    new_rows, new_splits = _items(new)
    if len(old.splits) == len(new.splits) == 1 and (old.path.is_file() or new.path.is_file()):
        # old.parquet vs new.parquet: a file's name is not a split's
        new_splits = {k: tuple(old.splits) for k in new_splits}
    old_cols, new_cols = _columns(old), _columns(new)
    shared = sorted((old_cols & new_cols) | ((old_cols | new_cols) & set(STATUS_FIELDS)))
    diffs, unchanged = [], {}
    for item_id in sorted(old_rows.keys() | new_rows.keys()):
        o, n = old_rows.get(item_id), new_rows.get(item_id)
        splits = (old_splits.get(item_id, ()), new_splits.get(item_id, ()))
        d = _item_diff(kind, item_id, o, n, splits, shared, (old.rejects, new.rejects))
        if d is None:
            unchanged[item_id] = (n or {}, splits[1])
        else:
            diffs.append(d)
    counts, by_split, by_group = _count(diffs, unchanged, kind)
    hidden = {"id", *REASON_FIELDS, *STATUS_FIELDS}
    return DatasetDiff(
        old=str(old.path), new=str(new.path), kind=kind.name, old_items=len(old_rows),
        new_items=len(new_rows), items=tuple(diffs), unchanged=len(unchanged),
        counts=counts, counts_by_split=by_split, counts_by_group=by_group,
        columns_added=tuple(sorted(new_cols - old_cols - hidden)),
        columns_removed=tuple(sorted(old_cols - new_cols - hidden)))


def diff_exports(old: str | Path, new: str | Path) -> DatasetDiff:
    """Read two exports (folders, ``save_to_disk`` folders or ``.parquet`` files) and
    compare them item by item; raises :class:`~buildds.errors.ExtractError` for an
    unreadable export or two exports of different kinds."""
    return diff_splits(load_splits(old), load_splits(new))
