"""The rejects of a sharded run kept in a file (buildds.jobs.judgments_rejects_spill): the
same ``rejects.jsonl`` bytes as in memory, read back as dicts, staged without reading."""

from __future__ import annotations

from pathlib import Path

from buildds.jobs.judgments_rejects_spill import SpilledRejects, stage_rejects
from buildds.pipeline import Rejects
from buildds.staging import OutputStaging


def _fill(rejects: Rejects) -> None:
    rejects.add(stage="inject", reason="no_fine", message="没有罚金", id="j1", error_type="E5")
    rejects.add(stage="parse", reason="malformed_json", message="line 8: …", source="a.jsonl",
                line=8)


def test_spilled_rejects_give_the_same_lines_and_rows(tmp_path: Path) -> None:
    before, memory = Rejects(), Rejects()
    before.add(stage="read", reason="empty", message="no record", source="e.jsonl")
    memory.add(stage="read", reason="empty", message="no record", source="e.jsonl")
    spilled = SpilledRejects(tmp_path / ".shards" / "rejects.jsonl", before)
    _fill(spilled)
    _fill(memory)
    assert len(spilled) == len(memory) == 3
    assert spilled.jsonl() == memory.jsonl()
    assert list(spilled.rows) == memory.rows and len(spilled.rows) == 3
    assert [r["reason"] for r in spilled.rows] == ["empty", "no_fine", "malformed_json"]


def test_stage_rejects_copies_the_file(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    memory = Rejects()
    spilled = SpilledRejects(out / ".shards" / "rejects.jsonl")
    _fill(memory)
    _fill(spilled)
    staging = OutputStaging(out)
    stage_rejects(staging, out, spilled)
    staging.commit()
    assert (out / "rejects.jsonl").read_text("utf-8") == memory.jsonl()
    other = tmp_path / "other"
    other.mkdir()
    staging = OutputStaging(other)
    stage_rejects(staging, other, memory)  # in memory: written as before
    staging.commit()
    assert (other / "rejects.jsonl").read_text("utf-8") == memory.jsonl()
