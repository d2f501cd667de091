"""``diff.json`` and ``diff.md`` for a :class:`~buildds.schema.dataset_diff.DatasetDiff`:
:func:`diff_json`, :func:`diff_markdown`, :func:`write_diff`.

``diff.json`` is canonical: every changed item sorted by id with the full before/after
values, keys sorted, so the same two exports always give the same bytes. ``diff.md`` is for
a person: counts per class, per split and (JBE) per subject and year, then the first
``limit`` changed items with the changed part of each field before and after.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from buildds.pipeline import atomic_write_text
from buildds.schema.dataset_diff import CHANGE_CLASSES, UNCHANGED, DatasetDiff, ItemDiff

__all__ = ["DEFAULT_SHOWN", "diff_json", "diff_markdown", "excerpt", "write_diff"]

#: changed items shown with their fields in diff.md
DEFAULT_SHOWN = 50
#: characters kept either side of the changed part of a long text
CONTEXT = 40


def diff_json(diff: DatasetDiff) -> str:
    """The canonical JSON text of ``diff`` (sorted keys, items by id, a final newline)."""
    return json.dumps(diff.as_dict(), ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", "⏎")


def _show(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def excerpt(old: str, new: str, context: int = CONTEXT) -> tuple[str, str]:
    """The part of two texts that differs, with ``context`` characters either side (``…``
    where text was cut)."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[-1 - end] == new[-1 - end]:
        end += 1
    lo = max(0, start - context)

    def cut(text: str) -> str:
        hi = min(len(text), len(text) - end + context)
        return ("…" if lo else "") + text[lo:hi] + ("…" if hi < len(text) else "")

    return cut(old), cut(new)


def _table(title: str, counts: Mapping[str, Mapping[str, int]], head: str) -> list[str]:
    if not counts:
        return []
    classes = [c for c in (*CHANGE_CLASSES, UNCHANGED)
               if any(row.get(c) for row in counts.values())]
    lines = ["", f"## {title}", "", f"| {head} | " + " | ".join(classes) + " |",
             "|---|" + "---:|" * len(classes)]
    lines += [f"| {_cell(key)} | " + " | ".join(str(row.get(c, 0)) for c in classes) + " |"
              for key, row in counts.items()]
    return lines


def _item_lines(item: ItemDiff) -> list[str]:
    lines = ["", f"### {item.id}", "", f"- {', '.join(item.classes)}"
             + (f" ({item.group})" if item.group else "")]
    if item.splits_old != item.splits_new:
        lines.append(f"- splits: {', '.join(item.splits_old) or '—'} → "
                     f"{', '.join(item.splits_new) or '—'}")
    lines += [f"- why: {r}" for r in item.reasons]
    if item.changes:
        lines += ["", "| field | class | before | after |", "|---|---|---|---|"]
        for c in item.changes:
            before, after = _show(c.old), _show(c.new)
            if isinstance(c.old, str) and isinstance(c.new, str):
                before, after = excerpt(c.old, c.new)
            lines.append(f"| {c.field} | {c.change} | {_cell(before)} | {_cell(after)} |")
    return lines


def diff_markdown(diff: DatasetDiff, limit: int = DEFAULT_SHOWN) -> str:
    """``diff.md``: counts, then the first ``limit`` changed items (by id)."""
    lines = [f"# Dataset diff ({diff.kind})", "",
             f"- OLD: `{diff.old}` ({diff.old_items} items)",
             f"- NEW: `{diff.new}` ({diff.new_items} items)", "",
             diff.summary_line(), "", "| class | items |", "|---|---:|"]
    lines += [f"| {c} | {n} |" for c, n in diff.counts.items()]
    lines.append(f"| {UNCHANGED} | {diff.unchanged} |")
    if diff.columns_added or diff.columns_removed:
        lines += ["", "## Columns", ""]
        lines += [f"- {what}: {', '.join(cols)}" for what, cols in
                  (("added", diff.columns_added), ("removed", diff.columns_removed)) if cols]
    lines += _table("Per split", diff.counts_by_split, "split")
    lines += _table("Per subject and year", diff.counts_by_group, "subject year")
    if diff.items:
        shown = diff.items[:limit]
        lines += ["", f"## Changed items ({len(shown)} of {len(diff.items)}, by id)"]
        if len(shown) < len(diff.items):
            lines += ["", "The others are in diff.json."]
        for item in shown:
            lines += _item_lines(item)
    return "\n".join(lines) + "\n"


def write_diff(diff: DatasetDiff, out_dir: str | Path, limit: int = DEFAULT_SHOWN
               ) -> tuple[Path, Path]:
    """Write ``diff.json`` and ``diff.md`` into ``out_dir`` (atomically); returns both."""
    out = Path(out_dir)
    json_path, md_path = out / "diff.json", out / "diff.md"
    atomic_write_text(json_path, diff_json(diff))
    atomic_write_text(md_path, diff_markdown(diff, limit))
    return json_path, md_path
