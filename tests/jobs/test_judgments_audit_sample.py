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


class _Stream:
    """Rows that can only be iterated (as a sharded run's merged rows), counting passes."""

    def __init__(self, rows: list[Any]) -> None:
        self.rows, self.passes = rows, 0

    def __iter__(self) -> Any:
        self.passes += 1
        return iter(self.rows)


def test_a_stream_gives_the_smallest_hashes_per_type() -> None:
    from buildds.safeio.hashing import sha256_bytes

    rows = sorted(_rows({"none": 300, "E2": 7, "E4": 55}), key=lambda r: r.id)
    stream = _Stream(rows)
    used = audit_sample(stream, seed=3, cap=20)
    assert stream.passes == 2  # a count-and-rank pass, then the rows kept

    def rank(r: Any) -> str:
        return sha256_bytes(f"3:audit:{r.id}".encode())

    expected = {r.id for t in ("none", "E4")
                for r in sorted((x for x in rows if x.error_type == t), key=rank)[:20]}
    expected |= {r.id for r in rows if r.error_type == "E2"}
    assert [r.id for r in used] == sorted(expected)


def test_the_sample_drops_what_no_detector_reads() -> None:
    from tests.export.test_arrow_rows import _row

    rows = [_row(i) for i in range(6)]
    used = audit_sample(rows, seed=0, cap=2)
    assert used and all(r.facts == r.articles_text == r.anomalous_articles_text == "" for r in used)
    assert all(r.input_s1 == r.input_s2 == r.input_s3 == r.input_s4 == r.input_s5 == ""
               and r.edits == () for r in used)  # the model inputs repeat the facts
    assert any(r.input_s1 and r.edits for r in rows)  # what was dropped was there
    assert [(r.id, r.judgment, r.original_judgment, r.reasoning, r.anomalous_reasoning, r.charges,
             r.rationale) for r in used] == [
        (r.id, r.judgment, r.original_judgment, r.reasoning, r.anomalous_reasoning, r.charges,
         r.rationale) for r in rows if r.id in {u.id for u in used}]
