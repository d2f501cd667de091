"""The shortcut audit's input, bounded (issues 13 and 18): at most
:data:`AUDIT_ROWS_PER_TYPE` rows per error type (``none`` — the untouched rows — counts as
a type), drawn by a seeded hash of the row id (never by order), so the audit's memory and
time stop growing with the corpus while every type keeps enough rows for its figures.

Below the cap every row is audited (the real corpora: at most 609 rows of a type, E1), and
the audit is the one of all rows; above it, ``report.json`` says so under ``shortcut_audit.sample``
(the cap, and per type the rows built and the rows audited).
"""

from __future__ import annotations

import dataclasses
import heapq
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from buildds.safeio.hashing import sha256_bytes

if TYPE_CHECKING:
    from buildds.schema.arbench import ArbenchRow

__all__ = ["AUDIT_ROWS_PER_TYPE", "audit_sample", "sample_note"]

#: rows the shortcut audit reads per error type (and of the untouched rows)
AUDIT_ROWS_PER_TYPE = 1000


def audit_sample(rows: Iterable[ArbenchRow], *, seed: int,
                 cap: int = AUDIT_ROWS_PER_TYPE) -> list[ArbenchRow]:
    """The rows the audit reads, in the order given: all of a type at or below ``cap``,
    else the ``cap`` rows of it with the smallest ``sha256(seed:audit:id)``; each without
    its facts and articles' texts, which no detector reads. ``rows`` may be
    a stream read twice (a sharded run's merged rows): a bounded heap per type is held,
    never the rows of a type."""
    per_type: Counter[str] = Counter()
    heaps: dict[str, list[tuple[str, str]]] = {}  # per type: the cap smallest, negated
    for r in rows:
        per_type[r.error_type] += 1
        heap = heaps.setdefault(r.error_type, [])
        item = (_negated(sha256_bytes(f"{seed}:audit:{r.id}".encode())), r.id)
        if len(heap) < cap:
            heapq.heappush(heap, item)
        elif item > heap[0]:
            heapq.heapreplace(heap, item)
    keep = {rid for t, heap in heaps.items() if per_type[t] > cap for _, rid in heap}
    return [_audited(r) for r in rows if per_type[r.error_type] <= cap or r.id in keep]


def _audited(row: ArbenchRow) -> ArbenchRow:
    """The row without the parts no detector reads — the facts, the articles' texts, the
    five model inputs (each repeats the facts) and the edits: nine tenths of a row — so the
    sample held costs less than the rows it stands for (on 100× JuDGE, 6,046 rows: 62 MB
    with the model inputs, ``benchmarks/bench_judgments_scale.py``)."""
    if not dataclasses.is_dataclass(row):  # a stand-in with only what the draw reads
        return row
    return dataclasses.replace(row, facts="", articles_text="", anomalous_articles_text="",
                               edits=(), **dict.fromkeys(_MODEL_INPUTS, ""))


_MODEL_INPUTS = ("input_s1", "input_s2", "input_s3", "input_s4", "input_s5")


def _negated(hex_digest: str) -> str:
    """A hex digest whose order is the reverse of the digest's (a max-heap on a min-heap)."""
    return hex_digest.translate(_REVERSE)


_REVERSE = str.maketrans("0123456789abcdef", "fedcba9876543210")


def sample_note(rows: Sequence[ArbenchRow], used: Sequence[ArbenchRow],
                cap: int = AUDIT_ROWS_PER_TYPE) -> dict[str, Any] | None:
    """What ``report.json`` records of a capped sample (None when every row was audited)."""
    if len(used) == len(rows):
        return None
    built, audited = Counter(r.error_type for r in rows), Counter(r.error_type for r in used)
    return {"cap_per_type": cap, "rows": {t: {"built": built[t], "audited": audited[t]}
                                          for t in sorted(built)}}
