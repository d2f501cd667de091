"""Reading our exports for evaluation: parquet files and ``save_to_disk`` folders as plain
rows, with the fingerprints the run manifest records.

Every task loads the same kinds of files (``data/<split>.parquet``, ``dataset/`` written by
``DatasetDict.save_to_disk``); these helpers read them one way, with one error for a file
that cannot be read (:class:`~buildds.errors.ExportError` naming it)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from buildds.errors import ExportError, MissingDependency
from buildds.export.data_fingerprint import data_fingerprint
from buildds.safeio import loads_strict

__all__ = ["load_saved", "plain_records", "read_parquet_frame", "read_parquet_rows",
           "state_fingerprint", "with_data_fingerprint"]


def _plain(value: Any) -> Any:
    """numpy arrays → lists, NaN → None; everything else as it is."""
    if hasattr(value, "tolist") and not isinstance(value, str):
        return value.tolist()
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def plain_records(frame: Any) -> list[dict[str, Any]]:
    """A pandas DataFrame as a list of dicts of plain Python values."""
    return [{k: _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def read_parquet_frame(path: Path) -> Any:
    """A parquet file as a pandas DataFrame; :class:`ExportError` naming the file when it
    cannot be read."""
    import pandas as pd

    try:
        return pd.read_parquet(path, engine="pyarrow")
    except Exception as exc:  # pyarrow raises several types for a bad file
        raise ExportError(f"cannot read parquet: {exc}", source=str(path)) from exc


def read_parquet_rows(path: Path) -> list[dict[str, Any]]:
    """A parquet file's rows as plain dicts."""
    return plain_records(read_parquet_frame(path))


def load_saved(folder: Path) -> Any:
    """``datasets.load_from_disk(folder)``; :class:`ExportError` naming the folder when it
    cannot be loaded, :class:`MissingDependency` when datasets is missing (a broken install)."""
    try:
        import datasets
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise MissingDependency("datasets", core=True) from exc
    try:
        return datasets.load_from_disk(str(folder))
    except Exception as exc:  # datasets raises several types for a bad folder
        raise ExportError(f"cannot load the saved dataset: {exc}", source=str(folder)) from exc


def state_fingerprint(split_dir: Path) -> str | None:
    """The ``_fingerprint`` a saved split's ``state.json`` records (None when absent)."""
    try:
        return str(loads_strict((split_dir / "state.json").read_text(encoding="utf-8"))
                   ["_fingerprint"])
    except (OSError, KeyError, ValueError):
        return None


def with_data_fingerprint(fp: dict[str, Any], export_dir: Path) -> dict[str, Any]:
    """``fp`` with ``data_fingerprint``: the data fingerprint of the export folder
    ``export_dir`` (:func:`buildds.export.data_fingerprint.data_fingerprint`), when it is
    one — so the run's dataset key is the one the export's card and ``buildds validate``
    show, whichever form (folder, parquet file, ``dataset/``) was loaded."""
    if found := data_fingerprint(export_dir):
        fp["data_fingerprint"] = found
    return fp
