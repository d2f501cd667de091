"""Read every split of an export for ``buildds diff``: :func:`load_splits`.

``path`` may be, like :func:`buildds.validate.load.load_export` accepts,

* an export folder holding ``data/<split>.parquet`` (every split is read) or a ``dataset/``
  folder;
* a folder written by ``datasets``' ``save_to_disk`` (every split);
* a single ``.parquet`` file (one split, named after the file's stem).

``rejects.jsonl`` is read when it lies in the export folder (or beside a ``save_to_disk``
folder). The kind of export is told by its columns (:data:`KINDS`): JBE-QA items, AR-Bench
rows, or one of the three contracts exports (clause table, clause classification, revision).
Class-label columns (the contracts ``labels``) are read as their names, from the features
the export records (the parquet's ``huggingface`` metadata, or the saved dataset's).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from buildds.errors import ExtractError
from buildds.validate.load import load_saved_dataset, read_rejects

__all__ = ["KINDS", "ExportKind", "ExportSplits", "detect_kind", "load_splits"]


@dataclass(frozen=True)
class ExportKind:
    """What one kind of export holds: the columns that tell it apart, and which columns are
    its labels and its texts (every other column but ``id`` counts as metadata)."""

    name: str
    marker: frozenset[str]
    label_fields: tuple[str, ...]
    text_fields: tuple[str, ...]
    #: columns that only restate the split (not compared: ``moved_split`` says it)
    split_fields: tuple[str, ...] = ()
    #: columns naming an item's group in the report (JBE: subject and year)
    group_fields: tuple[str, ...] = ()


#: the kinds, in the order they are tried (the first whose marker columns are all there)
KINDS: tuple[ExportKind, ...] = (
    ExportKind("jbe", frozenset({"question", "label", "answer"}), ("label", "answer"),
               ("question", "statement", "instruction", "theme", "lead_in", "remark"),
               split_fields=("is_fewshot",), group_fields=("subject_jp", "year")),
    ExportKind("arbench", frozenset({"input_s1", "error_type", "original_judgment"}),
               ("label", "error_type", "error_class", "gold_correction"),
               ("facts", "judgment", "original_judgment", "reasoning", "anomalous_reasoning",
                "charges", "cited_articles", "anomalous_cited_articles", "articles_text",
                "anomalous_articles_text", "rationale", "edits", "input_s1", "input_s2",
                "input_s3", "input_s4", "input_s5")),
    ExportKind("contracts-revision", frozenset({"reference_revision", "ai_alert", "text"}),
               ("reference_revision",), ("text", "heading", "ai_alert", "guidelines")),
    ExportKind("contracts-classification", frozenset({"labels", "text"}), ("labels",),
               ("text", "heading")),
    ExportKind("contracts-clauses", frozenset({"input_text", "block_start", "text"}), (),
               ("text", "input_text", "heading", "number_text", "original_text",
                "accepted_text")),
)


@dataclass
class ExportSplits:
    """Every split of one export (split name → rows), its kind and its rejects."""

    path: Path
    splits: dict[str, pd.DataFrame]
    kind: ExportKind
    rejects: list[dict[str, Any]] | None = None
    rejects_path: Path | None = None


def _label_names(feature: Any) -> list[str] | None:
    """The names of a ``ClassLabel`` feature, or of the ``ClassLabel`` a list holds."""
    if isinstance(feature, list) and len(feature) == 1:
        feature = {"_type": "List", "feature": feature[0]}
    if not isinstance(feature, dict):
        return None
    if feature.get("_type") == "ClassLabel" and isinstance(feature.get("names"), list):
        return [str(n) for n in feature["names"]]
    if feature.get("_type") in ("List", "Sequence", "LargeList"):
        return _label_names(feature.get("feature"))
    return None


def _decode_labels(frame: pd.DataFrame, features: Any) -> pd.DataFrame:
    """Class-label columns as their names, so that a label inventory that grew between two
    builds does not make every shifted number look like a changed label."""
    if not isinstance(features, dict):
        return frame

    def name(names: list[str], value: Any) -> Any:
        if isinstance(value, np.ndarray | list | tuple):
            return [name(names, v) for v in value]
        ok = isinstance(value, int | np.integer) and 0 <= int(value) < len(names)
        return names[int(value)] if ok else value

    for column, feature in features.items():
        names = _label_names(feature)
        if names is not None and column in frame.columns:
            frame[column] = [name(names, v) for v in frame[column]]
    return frame


def _read_parquet(path: Path) -> pd.DataFrame:
    try:
        frame = pd.read_parquet(path)
        meta = pq.read_schema(path).metadata or {}
    except Exception as exc:  # pyarrow raises several types for a bad file
        raise ExtractError(f"cannot read parquet: {exc}", source=str(path)) from exc
    try:
        features = json.loads(meta.get(b"huggingface", b"{}")).get("info", {}).get("features")
    except (ValueError, AttributeError):
        features = None
    return _decode_labels(frame, features)


def _read_saved_dataset(folder: Path) -> dict[str, pd.DataFrame]:
    import datasets

    ds = load_saved_dataset(folder)
    parts = dict(ds) if isinstance(ds, datasets.DatasetDict) else {"test": ds}
    frames = {}
    for name, part in parts.items():
        frame = part.to_pandas()
        assert isinstance(frame, pd.DataFrame)
        frames[name] = _decode_labels(frame, part.features.to_dict())
    return frames


def _is_saved_dataset(folder: Path) -> bool:
    return (folder / "dataset_dict.json").is_file() or (folder / "state.json").is_file()


def _frames(path: Path) -> tuple[dict[str, pd.DataFrame], list[Path]]:
    """The splits at ``path`` and the folders where a rejects.jsonl may lie."""
    if path.is_file():
        if path.suffix != ".parquet":
            raise ExtractError("expected a .parquet file, an export folder or a "
                               "datasets folder", source=str(path))
        near = [path.parent.parent] if path.parent.name == "data" else []
        return {path.stem: _read_parquet(path)}, near
    if not path.is_dir():
        raise ExtractError("no such file or folder", source=str(path))
    files = sorted((path / "data").glob("*.parquet")) if (path / "data").is_dir() else []
    if files:
        return {f.stem: _read_parquet(f) for f in files}, [path]
    if _is_saved_dataset(path):
        return _read_saved_dataset(path), [path, path.parent]
    if _is_saved_dataset(path / "dataset"):
        return _read_saved_dataset(path / "dataset"), [path]
    raise ExtractError("not an export: expected data/*.parquet, a dataset/ folder written "
                       "by save_to_disk, or a .parquet file", source=str(path))


def detect_kind(columns: set[str], path: Path) -> ExportKind:
    """The first of :data:`KINDS` whose marker columns ``columns`` holds."""
    for kind in KINDS:
        if kind.marker <= columns:
            return kind
    raise ExtractError("not an export buildds makes (no JBE, AR-Bench or contracts columns; "
                       f"columns: {', '.join(sorted(columns)) or 'none'})", source=str(path))


def load_splits(path: str | Path) -> ExportSplits:
    """Every split of the export at ``path``, its kind and its rejects (when found)."""
    path = Path(path)
    frames, near = _frames(path)
    columns: set[str] = set()
    for name, frame in frames.items():
        if "id" not in frame.columns:
            raise ExtractError(f"split {name!r} has no id column", source=str(path))
        columns |= set(frame.columns)
    kind = detect_kind(columns, path)
    rejects_path = next((f / "rejects.jsonl" for f in near
                         if (f / "rejects.jsonl").is_file()), None)
    rejects = read_rejects(rejects_path) if rejects_path is not None else None
    return ExportSplits(path=path, splits=frames, kind=kind, rejects=rejects,
                        rejects_path=rejects_path)
