"""AR-Bench rows in a parquet file of the export's own columns, written and read back a
batch at a time: the row files of a sharded ``buildds judgments`` run (issue 18: "written as
parquet shards"), which :mod:`buildds.jobs.judgments_merged_rows` merges by id.

A shard's file has the columns and types of the export
(:func:`~buildds.export.arbench.arbench_features`), so any parquet reader reads it (pandas,
DuckDB, ``datasets``), in row groups of :data:`ROW_GROUP` rows (what a reader holds
decoded); the S1–S5 input columns of a row that makes them from its other columns are stored
empty (the merge makes them again: they are most of a row's size). :func:`read_row_dicts` gives each row as
:meth:`~buildds.schema.arbench.ArbenchRow.as_dict` gave it, ``chunk`` rows decoded at a time.

A reader holds the footer of its file whole — a few KB per row group decoded — so a file of
a run's rows that grew with the corpus would make every merge of them grow with it too (a
run of 20,000 rows: ~20 MB per reader). :func:`write_rows_parts` therefore writes a stream
of rows as parts of at most :data:`PART_ROWS` rows (``rows-00000.parquet``, …), and
:func:`row_files` lists them in order, so a reader holds one part's footer at a time.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from itertools import chain, islice
from pathlib import Path
from typing import Any

from buildds.export.arrow_rows import rows_table
from buildds.export.common import PARQUET_OPTIONS, parquet_batches, require_data

__all__ = ["PART_ROWS", "ROW_GROUP", "read_row_dicts", "row_files", "rows_parquet_bytes",
           "write_rows_parquet", "write_rows_parts"]


class _Stored:
    """A row as the file holds it (``as_dict``: the dict given)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = data

    def as_dict(self) -> Mapping[str, Any]:
        return self._data


#: rows per row group of a shard's file: what a reader decodes at once, so the merge of k
#: files holds about k × this many rows
ROW_GROUP = 25
#: rows per part file of :func:`write_rows_parts` (40 row groups: a footer of ~100 KB)
PART_ROWS = 1000


def _write(rows: Iterable[Mapping[str, Any]], sink: Any, group: int) -> int:
    from buildds.export.arbench import arbench_features
    from buildds.export.arbench_stream import batches

    _, _, pq = require_data()
    features = arbench_features()
    n = 0
    # no column statistics: a reader loads the footer whole, and min/max of the text columns
    # per row group would make it grow with the file (a run of 25,000 rows: ~100 MB)
    with pq.ParquetWriter(sink, features.arrow_schema,
                          **{**PARQUET_OPTIONS, "write_statistics": False}) as writer:
        for batch in batches((_Stored(r) for r in rows), group):
            writer.write_table(rows_table(batch, features, where="shard rows: "),
                               row_group_size=group)
            n += len(batch)
        if not n:
            writer.write_table(rows_table([], features, where="shard rows: "))
    return n


def rows_parquet_bytes(rows: Iterable[Mapping[str, Any]], *, group: int = ROW_GROUP) -> bytes:
    """The parquet file of ``rows`` (each as :meth:`ArbenchRow.as_dict` gives it, in the
    order given), in row groups of ``group`` rows; an empty file has one empty row group.
    Rows that do not fit the features are an :class:`~buildds.errors.ExportError`."""
    _, pa, _ = require_data()
    sink = pa.BufferOutputStream()
    _write(rows, sink, group)
    return bytes(sink.getvalue().to_pybytes())


def write_rows_parquet(rows: Iterable[Mapping[str, Any]], path: str | Path, *,
                       group: int = ROW_GROUP) -> int:
    """:func:`rows_parquet_bytes` streamed into the file ``path`` (written beside it, then
    moved into place: never half a file under its name); the number of rows."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        n = _write(rows, str(tmp), group)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return n


def read_row_dicts(path: str | Path, *, chunk: int = ROW_GROUP) -> Iterator[dict[str, Any]]:
    """The rows of a file :func:`rows_parquet_bytes` wrote, in order, ``chunk`` at a time."""
    for batch in parquet_batches(path, batch_size=chunk):  # a merge holds one reader a file
        yield from batch.to_pylist()


def _part(name: str, i: int) -> str:
    stem, _, ext = name.rpartition(".")
    return f"{stem}-{i:05d}.{ext}"


def write_rows_parts(rows: Iterable[Mapping[str, Any]], folder: str | Path, name: str, *,
                     part_rows: int = PART_ROWS) -> int:
    """``rows`` (as :func:`write_rows_parquet`) into ``folder`` as the parts of ``name``
    (``rows.parquet`` → ``rows-00000.parquet``, …: at most ``part_rows`` rows each, at
    least one part; the parts of an earlier write removed first); the number of rows."""
    folder = Path(folder)
    for old in [folder / name, *_parts(folder, name)]:  # whatever an earlier write left
        old.unlink(missing_ok=True)
    it, n, i = iter(rows), 0, 0
    first = next(it, None)
    while first is not None or i == 0:
        part = iter(()) if first is None else chain([first], islice(it, part_rows - 1))
        n += write_rows_parquet(part, folder / _part(name, i))
        first, i = next(it, None), i + 1
    return n


def row_files(folder: str | Path, name: str) -> list[Path]:
    """The files that hold the rows of ``name`` in ``folder``, in order: ``name`` itself, or
    its parts (:func:`write_rows_parts`); none when neither is there."""
    folder = Path(folder)
    return [folder / name] if (folder / name).is_file() else _parts(folder, name)


def _parts(folder: Path, name: str) -> list[Path]:
    stem, _, ext = name.rpartition(".")
    return sorted(folder.glob(f"{stem}-[0-9][0-9][0-9][0-9][0-9].{ext}"))
