"""Rows → Arrow tables and split fingerprints in bounded chunks (the export's memory).

:func:`buildds.export.common.dataset_dict` takes every split as Python columns: each row's
``as_dict`` held for the whole split, a list per column, and for the split fingerprint one
JSON string of all of it (and its UTF-8 bytes) — several copies of the dataset at once,
growing with the corpus. Here the rows go to Arrow ``chunk`` rows at a time (only one chunk
of ``as_dict`` values is alive; the chunks of a column are concatenated into one array, so
the table, the parquet and ``save_to_disk`` bytes are exactly those of one
``Table.from_pydict``), splits with the same rows share one table, and the fingerprint
hashes the same JSON text as :func:`~buildds.export.common.split_fingerprint` piece by piece
from the table (so the fingerprints are unchanged too).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from buildds import __version__
from buildds.errors import ExportError
from buildds.export.common import require_data

__all__ = ["dataset_dict_of_tables", "rows_table", "table_fingerprint"]

#: rows turned into Python values at once
CHUNK = 256


def rows_table(rows: Iterable[Any], features: Any, *, where: str = "",
               chunk: int = CHUNK) -> Any:
    """The rows (anything with ``as_dict()``) as one Arrow table with ``features``' schema,
    one contiguous array per column. Rows that do not fit are an :class:`ExportError`
    (``where`` prefixes its message)."""
    _, pa, _ = require_data()
    schema = features.arrow_schema
    parts: dict[str, list[Any]] = {name: [] for name in schema.names}
    batch: list[dict[str, Any]] = []

    def flush() -> None:
        try:
            for f in schema:
                parts[f.name].append(pa.array([d[f.name] for d in batch], type=f.type))
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
            raise ExportError(f"{where}rows do not fit the features ({exc})") from exc
        batch.clear()

    for row in rows:
        batch.append(row.as_dict())
        if len(batch) >= chunk:
            flush()
    if batch or not parts[schema.names[0]]:
        flush()
    columns = []
    for f in schema:  # one column's chunks and its concatenation at a time
        pieces = parts.pop(f.name)
        columns.append(pieces[0] if len(pieces) == 1 else pa.concat_arrays(pieces))
        del pieces
    return pa.Table.from_arrays(columns, schema=schema)


def table_fingerprint(tag: str, fingerprint: str, split: str, seed: int, table: Any,
                      *, chunk: int = CHUNK) -> str:
    """:func:`~buildds.export.common.split_fingerprint` of the table's columns (as Python
    values), hashed ``chunk`` values at a time: the same JSON text (keys sorted, default
    separators), never held whole."""
    h = hashlib.sha256()
    h.update(b"{")
    for i, name in enumerate(sorted(table.column_names)):
        h.update(((", " if i else "") + json.dumps(name, ensure_ascii=False) + ": [").encode())
        column = table.column(name)
        for start in range(0, len(column), chunk):
            values = column.slice(start, chunk).to_pylist()
            text = ", ".join(json.dumps(v, ensure_ascii=False, sort_keys=True) for v in values)
            h.update(((", " if start else "") + text).encode("utf-8"))
        h.update(b"]")
    h.update(b"}")
    content = h.hexdigest()
    return hashlib.sha256(f"{tag}\n{fingerprint}\n{split}\n{seed}\n{content}".encode()
                          ).hexdigest()[:16]


def dataset_dict_of_tables(tables: Mapping[str, Any], features: Any, *, tag: str, title: str,
                           fingerprint: str, seed: int, **info: Any
                           ) -> tuple[Any, dict[str, str]]:
    """:func:`~buildds.export.common.dataset_dict` of ready tables (split → table; splits
    may share one): the ``DatasetDict`` and each split's fingerprint."""
    datasets, _, _ = require_data()
    dsets, split_fps = {}, {}
    for split, table in tables.items():
        split_fps[split] = table_fingerprint(tag, fingerprint, split, seed, table)
        ds_info = datasets.DatasetInfo(
            description=f"{title} built by buildds {__version__} (build fingerprint "
                        f"{fingerprint})", features=features, **info)
        dsets[split] = datasets.Dataset(table, info=ds_info, split=datasets.NamedSplit(split),
                                        fingerprint=split_fps[split])
    return datasets.DatasetDict(dsets), split_fps
