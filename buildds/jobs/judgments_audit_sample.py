"""The shortcut audit's input, bounded (issues 13 and 18): at most
:data:`AUDIT_ROWS_PER_TYPE` rows per error type (``none`` — the untouched rows — counts as
a type), drawn by a seeded hash of the row id (never by order), so the audit's memory and
time stop growing with the corpus while every type keeps enough rows for its figures.

Below the cap every row is audited (the real corpora: at most 609 rows of a type, E1), and
the audit is the one of all rows; above it, ``report.json`` says so under ``shortcut_audit.sample``
(the cap, and per type the rows built and the rows audited).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from buildds.safeio.hashing import sha256_bytes

if TYPE_CHECKING:
    from buildds.schema.arbench import ArbenchRow

__all__ = ["AUDIT_ROWS_PER_TYPE", "audit_sample", "sample_note"]

#: rows the shortcut audit reads per error type (and of the untouched rows)
AUDIT_ROWS_PER_TYPE = 1000


def audit_sample(rows: Sequence[ArbenchRow], *, seed: int,
                 cap: int = AUDIT_ROWS_PER_TYPE) -> list[ArbenchRow]:
    """The rows the audit reads, in the order given: all of a type at or below ``cap``,
    else the ``cap`` rows of it with the smallest ``sha256(seed:audit:id)``."""
    per_type = Counter(r.error_type for r in rows)
    if all(n <= cap for n in per_type.values()):
        return list(rows)
    ranks: dict[str, list[tuple[str, str]]] = {}
    for r in rows:
        if per_type[r.error_type] > cap:
            ranks.setdefault(r.error_type, []).append(
                (sha256_bytes(f"{seed}:audit:{r.id}".encode()), r.id))
    keep = {rid for ranked in ranks.values() for _, rid in sorted(ranked)[:cap]}
    return [r for r in rows if per_type[r.error_type] <= cap or r.id in keep]


def sample_note(rows: Sequence[ArbenchRow], used: Sequence[ArbenchRow],
                cap: int = AUDIT_ROWS_PER_TYPE) -> dict[str, Any] | None:
    """What ``report.json`` records of a capped sample (None when every row was audited)."""
    if len(used) == len(rows):
        return None
    built, audited = Counter(r.error_type for r in rows), Counter(r.error_type for r in used)
    return {"cap_per_type": cap, "rows": {t: {"built": built[t], "audited": audited[t]}
                                          for t in sorted(built)}}
