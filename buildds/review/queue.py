"""The queue as the pages show it: filters, done/left, and an item's neighbours.

Filters come from the query string: ``reason`` (a full reason such as
``validation:label_balance``, or its kind before the colon, ``needs_review``), one value per
facet (``subject``, ``year``, ``document`` …) and ``status`` (``left``, ``done`` or all).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from buildds.review.sources.base import ReviewItem, ReviewSource, Verdict

__all__ = ["Queue", "QueueRow", "build_queue"]


@dataclass(frozen=True)
class QueueRow:
    item: ReviewItem
    verdict: Verdict | None


@dataclass(frozen=True)
class Queue:
    """The filtered rows, the filter choices and the progress over the whole queue."""

    rows: tuple[QueueRow, ...]
    filters: Mapping[str, str]
    #: filter name → the values it can take (reasons, then each facet)
    choices: Mapping[str, tuple[str, ...]]
    done: int
    total: int

    @property
    def left(self) -> int:
        return self.total - self.done

    @property
    def query(self) -> str:
        """The filters as a query string (empty values left out)."""
        return urlencode({k: v for k, v in self.filters.items() if v})

    def neighbours(self, key: str) -> tuple[str | None, str | None]:
        """The keys before and after ``key`` in the filtered queue."""
        keys = [r.item.key for r in self.rows]
        if key not in keys:
            return None, keys[0] if keys else None
        i = keys.index(key)
        return (keys[i - 1] if i > 0 else None, keys[i + 1] if i + 1 < len(keys) else None)

    def next_left(self, key: str) -> str | None:
        """The first item after ``key`` (wrapping round) that has no verdict yet."""
        keys = [r.item.key for r in self.rows]
        start = keys.index(key) + 1 if key in keys else 0
        for row in [*self.rows[start:], *self.rows[:start]]:
            if row.verdict is None and row.item.key != key:
                return row.item.key
        return None


def _reason_matches(reasons: Sequence[str], wanted: str) -> bool:
    return any(r == wanted or r.split(":", 1)[0] == wanted for r in reasons)


def build_queue(source: ReviewSource, params: Mapping[str, str]) -> Queue:
    """The queue of ``source`` filtered by ``params`` (unknown parameters are ignored)."""
    items = list(source.items())
    verdicts = {i.key: source.verdict_for(i.key) for i in items}
    facet_names = sorted({name for i in items for name in i.facets})
    reasons = sorted({r for i in items for r in i.reasons}
                     | {r.split(":", 1)[0] for i in items for r in i.reasons})
    choices: dict[str, tuple[str, ...]] = {"reason": tuple(reasons)}
    for name in facet_names:
        choices[name] = tuple(sorted({i.facets[name] for i in items if name in i.facets}))
    filters = {name: params.get(name, "") for name in [*choices, "status"]}
    rows = []
    for item in items:
        verdict = verdicts[item.key]
        if filters["reason"] and not _reason_matches(item.reasons, filters["reason"]):
            continue
        if any(filters[n] and item.facets.get(n) != filters[n] for n in facet_names):
            continue
        if filters["status"] == "left" and verdict is not None:
            continue
        if filters["status"] == "done" and verdict is None:
            continue
        rows.append(QueueRow(item, verdict))
    done = sum(1 for v in verdicts.values() if v is not None)
    return Queue(rows=tuple(rows), filters=filters, choices=choices, done=done, total=len(items))
