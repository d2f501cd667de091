"""A sharded run's row file (buildds.export.arbench_rows_file): parquet in the export's
columns, read back as the rows that were written — the merge's input (issue 18)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from buildds.errors import ExportError
from buildds.export.arbench import arbench_features
from buildds.export.arbench_rows_file import (
    ROW_GROUP,
    read_row_dicts,
    rows_parquet_bytes,
    write_rows_parquet,
)
from buildds.jobs.judgments_shard_task import ROWS_FILE, SlimRow, read_rows, slim
from buildds.schema.arbench import ArbenchRow
from tests.export.test_arrow_rows import _row


@pytest.mark.parametrize("n", [0, 1, ROW_GROUP + 1, 2500])
@pytest.mark.parametrize("streamed", [False, True])
def test_rows_come_back_as_written(tmp_path: Path, n: int, streamed: bool) -> None:
    import pyarrow.parquet as pq

    rows = [_row(i % 40) for i in range(n)]
    path = tmp_path / "rows.parquet"
    if streamed:
        assert write_rows_parquet((r.as_dict() for r in rows), path) == n
        assert [p.name for p in tmp_path.iterdir()] == ["rows.parquet"]  # no temporary left
    else:
        path.write_bytes(rows_parquet_bytes(r.as_dict() for r in rows))
    back = list(read_row_dicts(path, chunk=7))
    assert back == [r.as_dict() for r in rows]
    assert [ArbenchRow.from_dict(d) for d in back] == rows  # tuples, JSON and edits typed again
    file = pq.ParquetFile(str(path))  # any parquet reader sees the export's columns
    assert file.schema_arrow.names == arbench_features().arrow_schema.names
    assert file.metadata.num_rows == n
    # no statistics: the footer a merge holds per file stays small however long the file
    assert all(file.metadata.row_group(g).column(c).statistics is None
               for g in range(file.num_row_groups) for c in range(file.metadata.num_columns))
    groups = [file.metadata.row_group(g).num_rows for g in range(file.num_row_groups)]
    assert groups == [ROW_GROUP] * (n // ROW_GROUP) + ([n % ROW_GROUP] if n % ROW_GROUP or not n else [])


def test_a_shard_stores_slim_rows_and_reads_them_back_whole(tmp_path: Path) -> None:
    """A row whose inputs are made from its parts is stored with them empty (smaller) and read
    back as a SlimRow whose export dict is the row's; another row is kept as it is."""
    from buildds.inject_errors.arbench_rows import setting_inputs

    base = _row(1)
    inputs = setting_inputs(facts=base.facts, judgment=base.judgment, reasoning=base.reasoning,
                            anomalous_reasoning=base.anomalous_reasoning,
                            articles=base.articles_text, anomalous_articles=base.anomalous_articles_text)
    made = ArbenchRow(**{**{k: getattr(base, k) for k in base.__dataclass_fields__}, **inputs,
                         "id": "a-made"})
    odd = ArbenchRow(**{**{k: getattr(base, k) for k in base.__dataclass_fields__}, "id": "b-odd"})
    (tmp_path / ROWS_FILE).write_bytes(rows_parquet_bytes(
        ArbenchRow.as_dict(slim(r)) for r in (made, odd)))
    got = list(read_rows(tmp_path))
    assert isinstance(got[0], SlimRow) and got[0].input_s1 == ""
    assert got[0].as_dict() == made.as_dict()
    assert type(got[1]) is ArbenchRow and got[1] == odd


def test_a_row_that_does_not_fit_the_columns_is_an_export_error() -> None:
    bad = {**_row(2).as_dict(), "label": "yes"}
    with pytest.raises(ExportError, match="shard rows"):
        rows_parquet_bytes([bad])
    assert io.BytesIO(rows_parquet_bytes([])).read(4) == b"PAR1"  # an empty shard is a file


def test_a_stream_is_written_as_parts_read_in_order(tmp_path: Path) -> None:
    """A reader holds its file's footer whole: a run's rows are parts of bounded size."""
    from buildds.export.arbench_rows_file import read_row_dicts, row_files, write_rows_parts

    rows = [{**_row(i).as_dict(), "id": f"r{i:03d}"} for i in range(7)]
    assert write_rows_parts(iter(rows), tmp_path, "rows.parquet", part_rows=3) == 7
    parts = row_files(tmp_path, "rows.parquet")
    assert [p.name for p in parts] == ["rows-00000.parquet", "rows-00001.parquet",
                                       "rows-00002.parquet"]
    assert [d["id"] for p in parts for d in read_row_dicts(p)] == [r["id"] for r in rows]
    # written again with fewer rows: the old parts are gone; no rows: one empty part
    assert write_rows_parts(iter(rows[:2]), tmp_path, "rows.parquet", part_rows=3) == 2
    assert [p.name for p in row_files(tmp_path, "rows.parquet")] == ["rows-00000.parquet"]
    assert write_rows_parts(iter([]), tmp_path, "rows.parquet", part_rows=3) == 0
    (only,) = row_files(tmp_path, "rows.parquet")
    assert list(read_row_dicts(only)) == []
    assert row_files(tmp_path, "normals.parquet") == []


def test_parts_replace_a_single_file_and_every_earlier_part(tmp_path: Path) -> None:
    """A folder an earlier version (one file) or a longer write (more parts) left: the new
    write's parts are all that is read."""
    from buildds.export.arbench_rows_file import read_row_dicts, row_files, write_rows_parts

    rows = [{**_row(i).as_dict(), "id": f"r{i:03d}"} for i in range(5)]
    write_rows_parts(iter(rows), tmp_path, "rows.parquet", part_rows=2)  # 3 parts
    write_rows_parquet(iter(rows[:1]), tmp_path / "rows.parquet")  # and a single file
    assert write_rows_parts(iter(rows[1:3]), tmp_path, "rows.parquet", part_rows=2) == 2
    got = [d["id"] for p in row_files(tmp_path, "rows.parquet") for d in read_row_dicts(p)]
    assert got == ["r001", "r002"]
    assert sorted(p.name for p in tmp_path.glob("*.parquet")) == ["rows-00000.parquet"]
