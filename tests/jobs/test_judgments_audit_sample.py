"""The shortcut audit's bounded input (buildds.jobs.judgments_audit_sample)."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace
from typing import Any

from buildds.jobs.judgments_audit_sample import audit_sample, sample_note


def _rows(counts: dict[str, int]) -> list[Any]:
    return [SimpleNamespace(id=f"{t}-{i:04d}", error_type=t)
            for t, n in counts.items() for i in range(n)]


def test_below_the_cap_every_row_is_audited() -> None:
    rows = _rows({"none": 5, "E1": 3})
    assert audit_sample(rows, seed=0, cap=5) == rows
    assert sample_note(rows, rows, cap=5) is None


def test_above_the_cap_a_seeded_sample_per_type_in_the_given_order() -> None:
    rows = sorted(_rows({"none": 40, "E1": 3, "E3": 12}), key=lambda r: r.id)
    used = audit_sample(rows, seed=0, cap=10)
    assert Counter(r.error_type for r in used) == {"none": 10, "E1": 3, "E3": 10}
    assert [r.id for r in used] == sorted(r.id for r in used)  # the rows' order is kept
    assert [r.id for r in audit_sample(list(reversed(rows)), seed=0, cap=10)] == sorted(
        (r.id for r in used), reverse=True)  # the draw does not depend on order
    assert {r.id for r in audit_sample(rows, seed=1, cap=10)} != {r.id for r in used}
    note = sample_note(rows, used, cap=10)
    assert note == {"cap_per_type": 10, "rows": {"E1": {"built": 3, "audited": 3},
                                                 "E3": {"built": 12, "audited": 10},
                                                 "none": {"built": 40, "audited": 10}}}
