"""Read an exported JBE-QA dataset for validation: :func:`load_export`.

``path`` may be

* an export folder holding ``data/test.parquet`` (and optionally ``rejects.jsonl``, one
  row per excluded question with ``reason`` and ``message``) or a ``dataset/`` folder;
* a folder written by ``datasets``' ``save_to_disk`` (its ``test`` split is validated;
  ``rejects.jsonl`` is looked for beside it);
* a single ``.parquet`` file (``rejects.jsonl`` is looked for in the export folder when
  the file is ``<export>/data/<name>.parquet``).

The report goes, unless told otherwise, to a ``validation/`` folder beside the data —
never over the build's own ``report.json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from buildds.errors import ExtractError, MissingDependency
from buildds.export.data_fingerprint import data_fingerprint
from buildds.safeio import loads_strict, read_side_file

__all__ = ["LoadedExport", "load_export", "load_saved_dataset", "read_rejects"]

SPLIT = "test"


@dataclass
class LoadedExport:
    items: pd.DataFrame
    exclusions: list[dict[str, Any]] | None
    #: "export" (folder with data/test.parquet), "dataset" (save_to_disk), "parquet"
    kind: str
    #: where the report goes by default
    default_out: Path
    rejects_path: Path | None = None
    #: the export's data fingerprint (:mod:`buildds.export.data_fingerprint`), "" when the
    #: path is not inside an export folder (a lone .parquet file)
    data_fingerprint: str = ""


def read_rejects(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a ``rejects.jsonl`` file (blank lines skipped)."""
    path = Path(path)
    if not path.is_file():
        raise ExtractError("rejects file not found", source=str(path))
    rows = []
    for n, line in enumerate(read_side_file(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = loads_strict(line)
        except ValueError as exc:  # JSONDecodeError and the JSON limits
            why = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise ExtractError(f"line {n} is not JSON: {why}", source=str(path)) from exc
        if not isinstance(row, dict):
            raise ExtractError(f"line {n} is not a JSON object", source=str(path))
        rows.append(row)
    return rows


def _is_saved_dataset(folder: Path) -> bool:
    return (folder / "dataset_dict.json").is_file() or (folder / "state.json").is_file()


def _read_parquet(path: Path) -> pd.DataFrame:
    try:
        return pd.read_parquet(path)
    except Exception as exc:  # pyarrow raises several types for a bad file
        raise ExtractError(f"cannot read parquet: {exc}", source=str(path)) from exc


def load_saved_dataset(folder: Path) -> Any:
    """What ``datasets.save_to_disk`` wrote in ``folder`` (a ``Dataset`` or a
    ``DatasetDict``); an :class:`ExtractError` naming the folder when it cannot be loaded."""
    try:
        import datasets
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise MissingDependency("datasets", core=True) from exc
    try:
        return datasets.load_from_disk(str(folder))
    except Exception as exc:
        raise ExtractError(f"cannot load dataset: {exc}", source=str(folder)) from exc


def _read_saved_dataset(folder: Path) -> pd.DataFrame:
    import datasets

    ds = load_saved_dataset(folder)
    if isinstance(ds, datasets.DatasetDict):
        if SPLIT not in ds:
            raise ExtractError(f"no {SPLIT!r} split (splits: {', '.join(sorted(ds))})",
                               source=str(folder))
        ds = ds[SPLIT]
    frame = ds.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    return frame


def _rejects_in(*folders: Path) -> Path | None:
    for folder in folders:
        candidate = folder / "rejects.jsonl"
        if candidate.is_file():
            return candidate
    return None


def load_export(path: str | Path, *, rejects: str | Path | None = None) -> LoadedExport:
    """Items (and exclusions, when a rejects file is found or given) of an export."""
    path = Path(path)
    if path.is_file():
        if path.suffix != ".parquet":
            raise ExtractError("expected a .parquet file, an export folder or a "
                               "datasets folder", source=str(path))
        items, kind, out = _read_parquet(path), "parquet", path.parent / "validation"
        found = _rejects_in(path.parent.parent) if path.parent.name == "data" else None
    elif path.is_dir():
        if (path / "data" / f"{SPLIT}.parquet").is_file():
            items, kind = _read_parquet(path / "data" / f"{SPLIT}.parquet"), "export"
            out, found = path / "validation", _rejects_in(path)
        elif _is_saved_dataset(path):
            items, kind = _read_saved_dataset(path), "dataset"
            out, found = path.parent / "validation", _rejects_in(path, path.parent)
        elif _is_saved_dataset(path / "dataset"):
            items, kind = _read_saved_dataset(path / "dataset"), "dataset"
            out, found = path / "validation", _rejects_in(path)
        else:
            raise ExtractError(f"not an export: expected data/{SPLIT}.parquet, a dataset/ "
                               f"folder written by save_to_disk, or a .parquet file",
                               source=str(path))
    else:
        raise ExtractError("no such file or folder", source=str(path))
    rejects_path = Path(rejects) if rejects is not None else found
    exclusions = read_rejects(rejects_path) if rejects_path is not None else None
    root = path.parent.parent if path.is_file() else (
        path.parent if kind == "dataset" and _is_saved_dataset(path) else path)
    return LoadedExport(items=items, exclusions=exclusions, kind=kind, default_out=out,
                        rejects_path=rejects_path,
                        data_fingerprint=data_fingerprint(root) or "")
