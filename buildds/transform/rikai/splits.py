"""The ``evaluation`` and ``development`` splits of a task's items, seeded."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

from buildds.errors import TransformError
from buildds.schema.contracts import RikaiItem

__all__ = ["SPLITS", "split_items"]

SPLITS = ("evaluation", "development")

ItemT = TypeVar("ItemT", bound=RikaiItem)


def split_items(items: Sequence[ItemT], *, eval_share: float = 0.2,
                seed: int = 0) -> dict[str, list[ItemT]]:
    """``evaluation`` (``round(n * eval_share)`` items drawn with ``random.Random(seed)``
    from the items sorted by id) and ``development`` (the rest); each split in id order.
    The input order never matters."""
    if not 0.0 <= eval_share <= 1.0:
        raise TransformError(f"eval_share must be between 0 and 1, not {eval_share}")
    ordered = sorted(items, key=lambda it: it.id)
    ids = [it.id for it in ordered]
    if len(set(ids)) != len(ids):
        dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
        raise TransformError(f"duplicate item ids: {', '.join(dupes[:5])}")
    chosen = set(random.Random(seed).sample(ids, round(len(ids) * eval_share)))
    return {"evaluation": [it for it in ordered if it.id in chosen],
            "development": [it for it in ordered if it.id not in chosen]}
