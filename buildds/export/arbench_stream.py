"""The AR-Bench export written from a stream of rows (issues 13 and 18): memory bounded by
one batch of rows, whatever the number of rows.

:func:`write_streamed_splits` writes each split, :data:`BATCH` rows at a time, as

- ``dataset/<split>/data-00000-of-00001.arrow`` — through ``datasets``' own
  ``ArrowWriter`` (what ``save_to_disk`` uses: one record batch per :data:`BATCH` rows,
  the features in the schema's metadata), beside the ``state.json`` and
  ``dataset_info.json`` that ``save_to_disk`` writes and ``datasets.load_from_disk`` reads
  (and ``dataset/dataset_dict.json``);
- ``data/<split>.parquet`` — through ``pyarrow.parquet.ParquetWriter`` with every option
  that changes bytes pinned (as :func:`buildds.export.common.write_parquet`), in **row groups
  of** :data:`BATCH` **rows** (the last one shorter); a split of more than
  :data:`~buildds.export.split_parts.PART_ROWS` rows as numbered parts
  (``data/<split>-00000-of-00008.parquet`` …, :mod:`buildds.export.split_parts`), each
  part's writer closed at its last row — a writer holds the metadata of every row group it
  wrote.

The batches are counted in rows, never in bytes or in shards, so the files are the same
byte for byte whatever the shard size or the number of workers that made the rows. Each
split's fingerprint hashes the same JSON text as
:func:`~buildds.export.arrow_rows.table_fingerprint`, read back from the parquet file one
column and one row group at a time. A split whose rows are those of an earlier split
(``correction``: the rows of ``classification``) gets copies of that split's data files.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from buildds import __version__
from buildds.errors import ExportError
from buildds.export import split_parts
from buildds.export.arrow_rows import rows_table
from buildds.export.common import PARQUET_OPTIONS, parquet_batches, require_data
from buildds.pipeline import release_freed_memory

__all__ = ["ARROW_FILE", "BATCH", "batches", "parquet_fingerprint", "parquet_options",
           "streamed_writer", "write_streamed_splits"]

#: rows per Arrow record batch and per parquet row group: a row carries its S1–S5 inputs
#: (the judgment's text five times), so a batch of 250 is some tens of MB while it is built
BATCH = 250
ARROW_FILE = "data-00000-of-00001.arrow"


def batches(rows: Iterable[Any], size: int) -> Iterator[list[Any]]:
    it = iter(rows)
    while batch := list(islice(it, size)):
        yield batch


def parquet_options(indexed: Sequence[str] | None) -> dict[str, Any]:
    """The writer's options: :data:`~buildds.export.common.PARQUET_OPTIONS`, with statistics
    and dictionary pages only for the ``indexed`` columns when given. A writer holds every
    row group's statistics until it closes, so min/max of long texts (a judgment's facts,
    the S1–S5 inputs: up to 4 KB each per column and row group) would grow with the split;
    their dictionaries are of no use either (every value is unique)."""
    if indexed is None:
        return dict(PARQUET_OPTIONS)
    return {**PARQUET_OPTIONS, "write_statistics": list(indexed), "use_dictionary": list(indexed)}


def _write_split(rows: Iterable[Any], features: Any, arrow_path: Path, data_dir: Path,
                 split: str, where: str, indexed: Sequence[str] | None = None
                 ) -> tuple[int, int, list[Path]]:
    """One split's rows into its Arrow file and its parquet file or parts
    (:mod:`buildds.export.split_parts`: a writer per part, closed at the part's last row);
    (rows, Arrow bytes, the parquet files in row order)."""
    from datasets.arrow_writer import ArrowWriter

    _, _, pq = require_data()
    part_rows = split_parts.PART_ROWS  # read at call time (tests make parts small)
    arrow = ArrowWriter(features=features, path=str(arrow_path), embed_local_files=True)
    it = iter(rows)
    n = nbytes = 0
    written: list[Path] = []
    try:
        while True:
            batch = list(islice(it, min(BATCH, part_rows)))
            if not batch and written:
                break
            written.append(data_dir / f".{split}-{len(written):05d}.parquet.part")
            parquet = pq.ParquetWriter(str(written[-1]), features.arrow_schema,
                                       **parquet_options(indexed))
            taken = 0
            try:
                while batch:
                    table = rows_table(batch, features, where=where)
                    arrow.write_table(table)
                    parquet.write_table(table, row_group_size=BATCH)
                    taken, n, nbytes = taken + table.num_rows, n + table.num_rows, (
                        nbytes + table.nbytes)
                    del table, batch
                    release_freed_memory()  # the batch's rows and table, before the next
                    batch = list(islice(it, min(BATCH, part_rows - taken)))
                if not n:  # an empty split: one empty row group, as ``write_table`` writes it
                    parquet.write_table(rows_table([], features, where=where))
            finally:
                parquet.close()
            if taken < part_rows:
                break
    finally:
        arrow.finalize()
        arrow.close()
    files = [data_dir / name for name in split_parts.part_names(split, len(written))]
    for part, final in zip(written, files, strict=True):
        part.replace(final)
    return n, nbytes, files


def parquet_fingerprint(tag: str, fingerprint: str, split: str, seed: int,
                        path: Path | Sequence[Path], *, chunk: int = 256) -> str:
    """:func:`~buildds.export.arrow_rows.table_fingerprint` of the table in ``path`` (a
    parquet file, or a split's parts in row order: their rows as one table), one column at
    a time, ``chunk`` values at a time."""
    _, _, pq = require_data()
    paths = [path] if isinstance(path, Path) else list(path)
    h = hashlib.sha256()
    h.update(b"{")
    for i, name in enumerate(sorted(pq.read_schema(str(paths[0])).names)):
        h.update(((", " if i else "") + json.dumps(name, ensure_ascii=False) + ": [").encode())
        first = True
        for batch in (b for p in paths
                      for b in parquet_batches(p, batch_size=chunk, columns=[name])):
            values = batch.column(0).to_pylist()
            if not values:
                continue
            text = ", ".join(json.dumps(v, ensure_ascii=False, sort_keys=True) for v in values)
            h.update(((", " if not first else "") + text).encode("utf-8"))
            first = False
        h.update(b"]")
        release_freed_memory()  # the column's pages, before the next column
    h.update(b"}")
    content = h.hexdigest()
    return hashlib.sha256(f"{tag}\n{fingerprint}\n{split}\n{seed}\n{content}".encode()
                          ).hexdigest()[:16]


def _state_files(split_dir: Path, split: str, split_fp: str, info: Any) -> None:
    """``state.json`` and ``dataset_info.json`` as ``Dataset.save_to_disk`` writes them."""
    from datasets.utils.py_utils import asdict

    state: dict[str, Any] = {"_data_files": [{"filename": ARROW_FILE}], "_fingerprint": split_fp,
             "_format_columns": None, "_format_kwargs": {}, "_format_type": None,
             "_output_all_columns": False, "_split": split}
    with open(split_dir / "state.json", "w", encoding="utf-8") as fh:
        json.dump(state, fh, indent=2, sort_keys=True)
    data = asdict(info)
    with open(split_dir / "dataset_info.json", "w", encoding="utf-8") as fh:
        json.dump({k: data[k] for k in sorted(data)}, fh, indent=2)


# long: one split after another, each written, fingerprinted and described
def write_streamed_splits(splits: Mapping[str, Iterable[Any]], features: Any, *,
                          dataset_dir: Path, data_dir: Path, tag: str, title: str,
                          fingerprint: str, seed: int, indexed: Sequence[str] | None = None,
                          **info: Any) -> tuple[dict[str, dict[str, int]], dict[str, str]]:
    """Every split (name → its rows, anything with ``as_dict()``, re-iterable; a split given
    the same object as an earlier one shares its files) under ``dataset_dir`` and
    ``data_dir`` (see the module docstring); each split's sizes (``num_examples``,
    ``num_bytes``, ``download_size``) and fingerprint. ``indexed``: the parquet columns with
    statistics and dictionaries (:func:`parquet_options`; None: every column). Rows that do
    not fit the features are an :class:`ExportError`."""
    datasets, _, _ = require_data()
    dataset_dir.mkdir(parents=True, exist_ok=True)
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(dataset_dir / "dataset_dict.json", "w", encoding="utf-8") as fh:
        json.dump({"splits": list(splits)}, fh)
    sizes: dict[str, dict[str, int]] = {}
    fps: dict[str, str] = {}
    written: dict[int, str] = {}  # id of a split's rows -> the split written from them
    files: dict[str, list[Path]] = {}  # split -> its parquet files
    for split, rows in splits.items():
        split_dir = dataset_dir / split
        split_dir.mkdir()
        arrow_path = split_dir / ARROW_FILE
        if id(rows) in written:
            twin = written[id(rows)]
            shutil.copyfile(dataset_dir / twin / ARROW_FILE, arrow_path)
            files[split] = [data_dir / name for name in
                            split_parts.part_names(split, len(files[twin]))]
            for theirs, ours in zip(files[twin], files[split], strict=True):
                shutil.copyfile(theirs, ours)
            n, nbytes = sizes[twin]["num_examples"], sizes[twin]["num_bytes"]
        else:
            n, nbytes, files[split] = _write_split(rows, features, arrow_path, data_dir, split,
                                                   where=f"split {split}: ", indexed=indexed)
            written[id(rows)] = split
        fps[split] = parquet_fingerprint(tag, fingerprint, split, seed, files[split])
        ds_info = datasets.DatasetInfo(
            description=f"{title} built by buildds {__version__} (build fingerprint "
                        f"{fingerprint})", features=features, **info)
        _state_files(split_dir, split, fps[split], ds_info)
        sizes[split] = {"num_examples": n, "num_bytes": nbytes,
                        "download_size": sum(f.stat().st_size for f in files[split]),
                        "parquet_files": len(files[split])}
    return sizes, fps


def streamed_writer(splits: Mapping[str, Iterable[Any]], features: Any, fps: dict[str, str],
                    **kw: Any) -> Callable[[Path, Path], dict[str, dict[str, int]]]:
    """:func:`write_streamed_splits` as the data writer of
    :func:`buildds.export.common.write_export` (the split fingerprints into ``fps``)."""
    def write(dataset_dir: Path, data_dir: Path) -> dict[str, dict[str, int]]:
        sizes, got = write_streamed_splits(splits, features, dataset_dir=dataset_dir,
                                           data_dir=data_dir, **kw)
        fps.update(got)
        return sizes

    if not isinstance(kw.get("fingerprint"), str):
        raise ExportError("a streamed export needs the build fingerprint")
    return write
