"""The merged rows of a sharded run (buildds.jobs.judgments_merged_rows): a k-way merge by
id over the shards' row files, read again on every iteration, rows left out by id."""

from __future__ import annotations

from pathlib import Path

import pytest

from buildds.export.arbench_rows_file import rows_parquet_bytes
from buildds.jobs.judgments_merged_rows import MergedRows
from buildds.jobs.judgments_shard_task import ROWS_FILE
from tests.export.test_arrow_rows import _row


def _shard(folder: Path, ids: list[str]) -> str:
    folder.mkdir()
    rows = [_row(i) for i in range(len(ids))]
    (folder / ROWS_FILE).write_bytes(rows_parquet_bytes(
        {**r.as_dict(), "id": rid} for r, rid in zip(rows, ids, strict=True)))
    return str(folder)


def test_rows_in_id_order_read_again_and_left_out_by_id(tmp_path: Path) -> None:
    a = _shard(tmp_path / "a", ["a1", "c3", "e5"])
    b = _shard(tmp_path / "b", ["b2", "d4"])
    empty = _shard(tmp_path / "c", [])
    rows = MergedRows([a, b, empty], [3, 2, 0])
    assert [r.id for r in rows] == ["a1", "b2", "c3", "d4", "e5"]
    assert [r.id for r in rows] == ["a1", "b2", "c3", "d4", "e5"]  # a fresh pass
    assert len(rows) == 5 and rows
    fewer = rows.without({"c3"}).without({"a1"})
    assert [r.id for r in fewer] == ["b2", "d4", "e5"] and len(fewer) == 3
    assert len(rows) == 5  # the rows it was made from are unchanged
    assert not MergedRows([], [])


def test_a_shard_out_of_order_is_an_error_naming_it(tmp_path: Path) -> None:
    import pytest

    from buildds.errors import BuildError

    bad = _shard(tmp_path / "bad", ["b", "a"])
    with pytest.raises(BuildError, match="out of id order") as err:
        list(MergedRows([bad], [2]))
    assert err.value.source == bad


@pytest.mark.parametrize("fanin", [2, 3, 4])
def test_many_shards_are_merged_in_runs_with_the_same_rows(tmp_path: Path, fanin: int) -> None:
    """More files than ``fanin``: groups merged into run files (in levels) until at most
    ``fanin`` are read at once; the rows, their order and the left-out ids are unchanged."""
    ids = [f"r{i:03d}" for i in range(40)]
    shards = [_shard(tmp_path / f"s{k}", ids[k::9]) for k in range(9)]
    rows = MergedRows(shards, [len(ids[k::9]) for k in range(9)], frozenset({"r005", "r031"}))
    compact = rows.compacted(tmp_path / "runs", fanin=fanin)
    assert compact.streams() <= fanin < rows.streams()
    assert [r.as_dict() for r in compact] == [r.as_dict() for r in rows]
    assert len(compact) == 38 and "r005" not in {r.id for r in compact}
    assert rows.compacted(tmp_path / "again", fanin=9) is rows  # few enough: read as they are


def test_a_pass_hands_freed_memory_back_as_it_reads(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A long pass trims every TRIM_EVERY rows (the allocators would keep the pages of the
    rows already read), with the left-out ids of the matching asked row by row."""
    from buildds.jobs import judgments_merged_rows as merged

    calls: list[int] = []
    monkeypatch.setattr(merged, "TRIM_EVERY", 3)
    monkeypatch.setattr(merged, "release_freed_memory", lambda: calls.append(1))
    ids = [f"r{i:02d}" for i in range(10)]
    rows = MergedRows([_shard(tmp_path / "a", ids)], [10], left_out={"r04", "r07"})
    assert [r.id for r in rows] == [i for i in ids if i not in {"r04", "r07"}]
    assert len(calls) == 8 // 3 and len(rows) == 8
