"""The ``evaluation`` and ``development`` splits of a task's items, seeded: a share
(:func:`split_items`) or the layout of a published dataset, by name (:func:`split_like`,
:data:`SPLIT_PRESETS`).

LegalRikai (seed 000) — what ``--split-like legalrikai`` reproduces:

* clause revision: 378 test items and 8 development items, the development items being the
  few-shot examples every prompt shows ("開発セットはfew-shot examplesで利用されることを想定");
  so **8 development items** (drawn with the seed), every other item evaluation — 378/8 of
  386 items. With fewer than 16 items the development split gets half of them (rounded down);
* clause classification: 12,876 evaluation and 46,477 development clauses, so an evaluation
  share of 12,876 / 59,353 = 21.69 %.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from buildds.errors import TransformError
from buildds.schema.contracts import RikaiItem

__all__ = ["SPLITS", "SPLIT_PRESETS", "SplitPreset", "split_items", "split_like"]

SPLITS = ("evaluation", "development")

ItemT = TypeVar("ItemT", bound=RikaiItem)


@dataclass(frozen=True)
class SplitPreset:
    """A published dataset's split layout: a fixed number of development items per task, or
    an evaluation share (see the module docstring)."""

    name: str
    about: str
    development_count: dict[str, int] = field(default_factory=dict)
    eval_share: dict[str, float] = field(default_factory=dict)


SPLIT_PRESETS: dict[str, SplitPreset] = {
    "legalrikai": SplitPreset(
        name="legalrikai",
        about=("LegalRikai (seed 000): clause revision 378 test / 8 development items (the "
               "development items are the few-shot examples); clause classification 12,876 "
               "evaluation / 46,477 development clauses"),
        development_count={"revision": 8},
        eval_share={"classification": 12_876 / (12_876 + 46_477)},
    ),
}


def split_like(items: Sequence[ItemT], *, name: str, task: str,
               seed: int = 0) -> dict[str, list[ItemT]]:
    """The splits of ``items`` laid out as the dataset ``name`` lays out ``task``'s (see
    the module docstring); drawn as :func:`split_items` draws them."""
    preset = SPLIT_PRESETS.get(name)
    if preset is None:
        raise TransformError(f"unknown split layout {name!r} "
                             f"(known: {', '.join(sorted(SPLIT_PRESETS))})")
    if task in preset.development_count:
        n = len(items)
        development = min(preset.development_count[task], n // 2)
        return split_items(items, seed=seed, eval_count=n - development)
    if task in preset.eval_share:
        return split_items(items, seed=seed, eval_share=preset.eval_share[task])
    raise TransformError(f"the {name} layout has no {task} task")


def split_items(items: Sequence[ItemT], *, eval_share: float = 0.2,
                seed: int = 0, eval_count: int | None = None) -> dict[str, list[ItemT]]:
    """``evaluation`` (``round(n * eval_share)`` items — or ``eval_count`` — drawn with
    ``random.Random(seed)`` from the items sorted by id) and ``development`` (the rest);
    each split in id order. The input order never matters."""
    if not 0.0 <= eval_share <= 1.0:
        raise TransformError(f"eval_share must be between 0 and 1, not {eval_share}")
    ordered = sorted(items, key=lambda it: it.id)
    ids = [it.id for it in ordered]
    if len(set(ids)) != len(ids):
        dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
        raise TransformError(f"duplicate item ids: {', '.join(dupes[:5])}")
    count = round(len(ids) * eval_share) if eval_count is None else eval_count
    if not 0 <= count <= len(ids):
        raise TransformError(f"eval_count must be between 0 and {len(ids)}, not {count}")
    chosen = set(random.Random(seed).sample(ids, count))
    return {"evaluation": [it for it in ordered if it.id in chosen],
            "development": [it for it in ordered if it.id not in chosen]}
