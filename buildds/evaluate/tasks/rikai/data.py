"""Loading a LegalRikai export (``buildds contracts``) for the clause tasks (seed 000).

An export (:mod:`buildds.export.rikai`) has two splits, ``evaluation`` (scored) and
``development`` (few-shot demonstrations, baselines' training data). :func:`load_rikai_data`
reads it from any of the forms ``buildds contracts`` writes::

    <out>/                           the export folder: data/evaluation.parquet,
                                     data/development.parquet, README.md
    <out>/dataset/                   the save_to_disk folder (dataset_dict.json)
    <out>/data/evaluation.parquet    one parquet file (development.parquet beside it)

Clause-classification labels are stored as class-label indices; they are decoded to their
names with the features (the ``huggingface`` schema metadata of the parquet files, or the
saved dataset's features), whose ``names`` are the full label inventory — also the labels no
item carries. A hand-made file whose ``labels`` are strings is read as it is; its inventory
is then every label that occurs in either split.

Rows are plain dicts in the export's (id) order; nothing here depends on the task's prompt.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from buildds.errors import ExportError
from buildds.evaluate.tasks.export_io import load_saved, state_fingerprint, with_data_fingerprint
from buildds.safeio import loads_strict
from buildds.safeio.hashing import sha256_file

__all__ = ["DEV_SPLIT", "EVAL_SPLIT", "RikaiData", "load_rikai_data"]

Kind = Literal["classification", "revision"]
EVAL_SPLIT = "evaluation"
DEV_SPLIT = "development"
#: the columns each task reads
REQUIRED = {"classification": ("id", "text", "labels"),
            "revision": ("id", "text", "ai_alert", "guidelines", "reference_revision")}


@dataclass
class RikaiData:
    """Both splits of an export as plain dicts, and what is known about the labels."""

    kind: Kind
    evaluation: list[dict[str, Any]]
    development: list[dict[str, Any]]
    #: the label inventory, in the export's order (classification only)
    label_inventory: list[str] = field(default_factory=list)
    #: where the data came from and its fingerprints (for the manifest)
    fingerprint: dict[str, Any] = field(default_factory=dict)
    #: development items a prompt shows as demonstrations (set by the revision task)
    fewshot_ids: set[str] = field(default_factory=set)

    @property
    def items_by_id(self) -> dict[str, dict[str, Any]]:
        """Every item of both splits by id (ids are unique across the splits)."""
        return {str(r["id"]): r for r in [*self.development, *self.evaluation]}


# --------------------------------------------------------------------------- reading
def _label_names_from_features(features: Mapping[str, Any]) -> list[str] | None:
    """``{"labels": {"feature": {"names": [...]}}}`` (datasets' JSON features) → names."""
    spec = features.get("labels")
    if not isinstance(spec, Mapping):
        return None
    inner = spec.get("feature", spec)
    names = inner.get("names") if isinstance(inner, Mapping) else None
    return [str(n) for n in names] if isinstance(names, list) else None


def _parquet_rows(path: Path) -> tuple[list[dict[str, Any]], list[str] | None]:
    """Rows of a parquet file and the label names of its ``huggingface`` metadata."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several types for a bad file
        raise ExportError(f"cannot read parquet: {exc}", source=str(path)) from exc
    meta = (table.schema.metadata or {}).get(b"huggingface")
    names = None
    if meta:
        try:
            names = _label_names_from_features(loads_strict(meta)["info"]["features"])
        except (ValueError, KeyError, TypeError):
            names = None
    return table.to_pylist(), names


def _card_fingerprints(card: Path) -> dict[str, str]:
    """The build and split fingerprints the export's README.md states."""
    if not card.is_file():
        return {}
    text = card.read_text(encoding="utf-8")
    out: dict[str, str] = {}
    m = re.search(r"build fingerprint: `([^`]+)`", text)
    if m:
        out["build"] = m.group(1)
    for split, fp in re.findall(r"`(evaluation|development)` `([0-9a-f]+)`", text):
        out[split] = fp
    return out


def _from_parquet(eval_file: Path, card: Path) -> tuple[dict[str, list[dict[str, Any]]],
                                                        list[str] | None, dict[str, Any]]:
    dev_file = eval_file.with_name(f"{DEV_SPLIT}.parquet")
    evaluation, names = _parquet_rows(eval_file)
    development: list[dict[str, Any]] = []
    fp: dict[str, Any] = {"kind": "parquet", "evaluation_sha256": sha256_file(eval_file)}
    if dev_file.is_file() and dev_file != eval_file:
        development, dev_names = _parquet_rows(dev_file)
        names = names or dev_names
        fp["development_sha256"] = sha256_file(dev_file)
    card_fp = _card_fingerprints(card)
    if card_fp:
        fp["card"] = card_fp
    if eval_file.parent.name == "data":
        with_data_fingerprint(fp, eval_file.parent.parent)
    return {EVAL_SPLIT: evaluation, DEV_SPLIT: development}, names, fp


def _from_saved(saved: Path) -> tuple[dict[str, list[dict[str, Any]]], list[str] | None,
                                      dict[str, Any]]:
    dd = load_saved(saved)
    if EVAL_SPLIT not in dd:
        raise ExportError(f"the saved dataset has no {EVAL_SPLIT!r} split", source=str(saved))
    splits = {s: dd[s].data.table.to_pylist() if s in dd else []
              for s in (EVAL_SPLIT, DEV_SPLIT)}
    names = _label_names_from_features(dd[EVAL_SPLIT].features.to_dict())
    fp: dict[str, Any] = {"kind": "dataset",
                          "splits": {s: state_fingerprint(saved / s) for s in sorted(dd)}}
    card_fp = _card_fingerprints(saved.parent / "README.md")
    if card_fp:
        fp["card"] = card_fp
    return splits, names, with_data_fingerprint(fp, saved.parent)


def _read(path: Path) -> tuple[dict[str, list[dict[str, Any]]], list[str] | None,
                               dict[str, Any]]:
    if path.is_file():
        return _from_parquet(path, path.parent.parent / "README.md")
    if (path / "data" / f"{EVAL_SPLIT}.parquet").is_file():
        return _from_parquet(path / "data" / f"{EVAL_SPLIT}.parquet", path / "README.md")
    saved = path / "dataset" if (path / "dataset" / "dataset_dict.json").is_file() else path
    if (saved / "dataset_dict.json").is_file():
        return _from_saved(saved)
    raise ExportError("no LegalRikai export here (expected data/evaluation.parquet, a "
                      "save_to_disk folder or a .parquet file); run `buildds contracts "
                      "--annotations …` first", source=str(path))


# --------------------------------------------------------------------------- decoding
def _decode_labels(rows: Sequence[dict[str, Any]], names: Sequence[str] | None,
                   source: str) -> None:
    """Class-label indices → label names, in place (strings are kept)."""
    for r in rows:
        labels = r.get("labels") or []
        out = []
        for lab in labels:
            if isinstance(lab, str):
                out.append(lab)
            elif names is not None and 0 <= int(lab) < len(names):
                out.append(names[int(lab)])
            else:
                raise ExportError(f"item {r.get('id')!r}: label {lab!r} has no name (the "
                                  "export's features are missing)", source=source)
        r["labels"] = out


def _check_columns(rows: Sequence[dict[str, Any]], kind: Kind, source: str) -> None:
    if not rows:
        return
    missing = [c for c in REQUIRED[kind] if c not in rows[0]]
    if missing:
        what = "clause-classification" if kind == "classification" else "clause-revision"
        raise ExportError(f"not a {what} export: no column(s) {', '.join(missing)} (is it "
                          "the other clause task's export?)", source=source)


def load_rikai_data(path: str | Path, kind: Kind) -> RikaiData:
    """Load a LegalRikai export of ``kind`` (see the module doc for the accepted forms)."""
    path = Path(path)
    splits, names, fp = _read(path)
    for rows in splits.values():
        _check_columns(rows, kind, str(path))
    inventory: list[str] = []
    if kind == "classification":
        for rows in splits.values():
            _decode_labels(rows, names, str(path))
        if names is not None:
            inventory = list(names)
        else:
            seen = {lab for rows in splits.values() for r in rows for lab in r["labels"]}
            inventory = sorted(seen)
            fp["inventory"] = "labels seen in the data (no class-label features)"
    for rows in splits.values():
        rows.sort(key=lambda r: str(r["id"]))
    ids = [str(r["id"]) for rows in splits.values() for r in rows]
    if len(set(ids)) != len(ids):
        raise ExportError("an item id occurs twice (in one split or in both)", source=str(path))
    return RikaiData(kind=kind, evaluation=splits[EVAL_SPLIT], development=splits[DEV_SPLIT],
                     label_inventory=inventory, fingerprint=fp)
