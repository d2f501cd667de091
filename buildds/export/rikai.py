"""LegalRikai-style items → a Hugging Face ``DatasetDict``, parquet files and a card.

:func:`export_classification` and :func:`export_revision` write, under ``out``::

    dataset/                   DatasetDict.save_to_disk (splits ``evaluation``, ``development``)
    data/evaluation.parquet
    data/development.parquet
    README.md                  the dataset card (YAML front matter + Markdown)

:func:`export_clauses` writes the unlabelled clause table the same way, as one split
``clauses`` (for annotation). Labels are ``Sequence(ClassLabel(names=inventory))``. They
take the records :mod:`buildds.transform.rikai` makes
(:class:`~buildds.schema.contracts.ClassificationItem`,
:class:`~buildds.schema.contracts.RevisionItem`,
:class:`~buildds.schema.contracts.ClauseRow`); a record's ``as_dict()`` is its row, keys in
the order of the features below.

Determinism and atomicity follow :mod:`buildds.export.hf`: rows in id order, fingerprints
derived from the caller's ``fingerprint``, the seed and the content, one shard, no dates in
the card, everything written to a temp folder and swapped in with ``os.replace``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from buildds import __version__
from buildds.errors import ExportError
from buildds.export.common import (
    ExportedDataset,
    check_unique_ids,
    dataset_dict,
    feature_rows,
    hub_front_matter,
    json_block,
    render_card,
    require_data,
    write_export,
)
from buildds.export.rikai_docs import SPAN_FIELD_DOCS, span_features, split_layout
from buildds.export.sources import card_sources
from buildds.schema.contracts import ClassificationItem, ClauseRow, RevisionItem
from buildds.staging import OutputStaging
from buildds.transform.rikai import SPLITS

__all__ = [
    "CLAUSE_SPLIT",
    "RikaiExport",
    "classification_features",
    "clause_features",
    "export_classification",
    "export_clauses",
    "export_revision",
    "revision_features",
]

_T = TypeVar("_T")

CARD_TEMPLATE = "rikai.md.j2"
CLAUSE_SPLIT = "clauses"

FIELD_DOCS = {
    "id": "clause id: document id and article number (業務委託契約書-1a2b3c4d-3)",
    "document_id": ("the contract: its file name without extension and 8 hex digits of the "
                    "hash of its relative path and content (stable whatever else is in "
                    "the batch)"),
    "source": "input file the clause was read from",
    "number": "article number (第３条 → 3); empty for preambles, signatures …",
    "number_text": "the number as printed (第３条, Section 2)",
    "heading": "the article heading (完成後の検査)",
    "kind": ("article, section, cover (an English title page), preamble, recitals "
             "(WHEREAS …), signature, appendix, supplementary or other"),
    "role": "definitions for the definitions article/section (定義, Definitions), else empty",
    "page": "first page of the clause (PDF, scans)",
    "text": "the clause as given to a model: number, heading, then the body",
    "input_text": "the clause as given to a model: number, heading, then the body",
    "labels": "clause types (multi-label)",
    "ai_alert": "the alert about a potential problem in the clause",
    "guidelines": "guidance for the revision",
    "reference_revision": "the clause revised by a legal expert",
    "changed": "true when tracked changes touch the clause",
    "original_text": "the clause with every tracked change rejected (when changed)",
    "accepted_text": "the clause with every tracked change accepted (when changed)",
    "block_start": "first block (paragraph / line) of the clause in the document",
    "block_end": "last block of the clause",
    "sha256": "sha256 of the input file",
    **SPAN_FIELD_DOCS,
}
SPLIT_DOCS = {
    "evaluation": "held-out items for scoring",
    "development": "few-shot examples or fine-tuning (split it further as needed)",
    CLAUSE_SPLIT: "every clause found, unlabelled, for annotation",
}


@dataclass(frozen=True, kw_only=True)
class RikaiExport(ExportedDataset):
    """What an export wrote."""

    task: str

    def parquet(self, split: str = "evaluation") -> Path:
        return self.out / "data" / f"{split}.parquet"


# --------------------------------------------------------------------------- features
def _base_features(datasets: Any) -> dict[str, Any]:
    V = datasets.Value
    return {"id": V("string"), "document_id": V("string"), "source": V("string"),
            "number": V("int32"), "heading": V("string"), "page": V("int32"),
            "char_start": V("int32"), "char_end": V("int32"), "text": V("string")}


def classification_features(label_inventory: Sequence[str]) -> Any:
    datasets, _, _ = require_data()
    if len(set(label_inventory)) != len(label_inventory):
        raise ExportError("the label inventory has duplicate labels")
    return datasets.Features({**_base_features(datasets), "labels": datasets.Sequence(
        datasets.ClassLabel(names=list(label_inventory)))})


def revision_features() -> Any:
    datasets, _, _ = require_data()
    V = datasets.Value
    return datasets.Features({**_base_features(datasets), "ai_alert": V("string"),
                              "guidelines": V("string"), "reference_revision": V("string")})


def clause_features() -> Any:
    datasets, _, _ = require_data()
    V = datasets.Value
    return datasets.Features({
        "id": V("string"), "source": V("string"), "document_id": V("string"),
        "kind": V("string"), "number": V("int32"), "number_text": V("string"),
        "heading": V("string"), "text": V("string"), "input_text": V("string"),
        "changed": V("bool"), "original_text": V("string"), "accepted_text": V("string"),
        "page": V("int32"), "block_start": V("int32"), "block_end": V("int32"),
        "sha256": V("string"), **span_features(datasets), "role": V("string"),
    })


# --------------------------------------------------------------------------- writing
def _columns(rows: Sequence[dict[str, Any]], features: Any) -> dict[str, list[Any]]:
    return {name: [row[name] for row in rows] for name in features}


def _export(task: str, splits: dict[str, list[dict[str, Any]]], features: Any, *, out: Path,
            fingerprint: str, provenance: dict[str, Any], seed: int, title: str, about: str,
            labels: list[tuple[str, int]] | None,
            staging: OutputStaging | None = None,
            extra_files: Mapping[str, str] | None = None) -> RikaiExport:
    """Write one export; ``splits`` holds each split's rows as dicts (a record's
    ``as_dict()``, labels encoded), one key per feature."""
    out = Path(out)
    check_unique_ids(r["id"] for rows in splits.values() for r in rows)
    dd, split_fps = dataset_dict(
        {split: _columns(sorted(rows, key=lambda r: r["id"]), features)
         for split, rows in splits.items()}, features,
        tag=f"buildds-rikai-{task}", title=title, fingerprint=fingerprint, seed=seed,
        where=f"{task} ")
    names = list(splits)

    def card(sizes: dict[str, dict[str, int]], data_fp: str) -> str:
        front_matter = hub_front_matter({
            "pretty_name": f"{title}, built by buildds",
            "language": ["ja"],
            "license": "other",
            "task_categories": (["text-classification"] if task == "classification"
                                else ["text-generation"] if task == "revision" else []),
            "tags": ["legal", "contracts", "japanese-law", "legalrikai"],
        }, n=sum(len(r) for r in splits.values()), splits=names, sizes=sizes, features=features)
        context = {
            "front_matter": front_matter, "data_fingerprint": data_fp,
            "title": title, "about": about, "version": __version__,
            "splits": [{"name": s, "rows": len(splits[s]), "about": SPLIT_DOCS.get(s, "")}
                       for s in names],
            "labels": labels, "used_labels": sum(1 for _, c in labels or [] if c),
            "features": feature_rows(features, FIELD_DOCS), "fingerprint": fingerprint,
            "split_fingerprints": [(s, split_fps[s]) for s in names], "seed": seed,
            "code_version": str(provenance.get("code_version") or __version__),
            "inputs": card_sources(provenance)["rows"],
            "options": json_block(provenance.get("options", {})),
            "split_layout": split_layout(provenance.get("options", {}), task),
        }
        return render_card(context, CARD_TEMPLATE)

    files = write_export(dd, out=out, splits=names, card=card, what=task, staging=staging,
                         extra_files=extra_files)
    return RikaiExport(out=out, task=task, fingerprint=fingerprint, seed=seed,
                       splits={s: len(splits[s]) for s in names}, split_fingerprints=split_fps,
                       files=files)


def _check_splits(splits: dict[str, list[_T]]) -> dict[str, list[_T]]:
    missing = [s for s in SPLITS if s not in splits]
    if missing:
        raise ExportError(f"missing split(s): {', '.join(missing)}")
    return {s: list(splits[s]) for s in SPLITS}


def export_classification(items: dict[str, list[ClassificationItem]], *, out: Path,
                          label_inventory: Sequence[str], fingerprint: str,
                          provenance: dict[str, Any], seed: int = 0,
                          staging: OutputStaging | None = None,
                          extra_files: Mapping[str, str] | None = None) -> RikaiExport:
    """Write the clause-classification export (into the run's ``staging`` when given;
    ``extra_files``, the peers' task files, beside ``data/``).
    ``items`` maps ``evaluation`` and ``development`` to items from
    :func:`buildds.transform.rikai.classification_items` (split with
    :func:`~buildds.transform.rikai.split_items`). A label outside ``label_inventory`` is an
    :class:`ExportError`."""
    splits = _check_splits(items)
    features = classification_features(label_inventory)
    index = {name: i for i, name in enumerate(label_inventory)}
    encoded: dict[str, list[dict[str, Any]]] = {}
    counts: Counter[str] = Counter()
    for split, rows in splits.items():
        encoded[split] = []
        for it in rows:
            bad = [lab for lab in it.labels if lab not in index]
            if bad:
                raise ExportError(f"item {it.id}: label(s) not in the inventory: "
                                  f"{', '.join(bad)}", source=it.source, page=it.page)
            counts.update(it.labels)
            encoded[split].append({**it.as_dict(), "labels": [index[lab] for lab in it.labels]})
    labels = sorted(((name, counts[name]) for name in label_inventory),
                    key=lambda kv: (-kv[1], kv[0]))
    about = ("Clause classification (条文分類): given a contract clause, name every clause "
             "type it contains, from the label inventory below (multi-label).")
    return _export("classification", encoded, features, out=out, fingerprint=fingerprint,
                   provenance=provenance, seed=seed, title="LegalRikai clause classification",
                   about=about, labels=labels, staging=staging, extra_files=extra_files)


def export_revision(items: dict[str, list[RevisionItem]], *, out: Path, fingerprint: str,
                    provenance: dict[str, Any], seed: int = 0,
                    staging: OutputStaging | None = None) -> RikaiExport:
    """Write the clause-revision export (items from
    :func:`buildds.transform.rikai.revision_items`, split into evaluation/development)."""
    about = ("Clause revision (条文修正): given a clause, an AI alert about a potential "
             "problem and guidelines, revise the clause; `reference_revision` is the expert's.")
    rows = {s: [it.as_dict() for it in split] for s, split in _check_splits(items).items()}
    return _export("revision", rows, revision_features(), out=out, fingerprint=fingerprint,
                   provenance=provenance, seed=seed, title="LegalRikai clause revision",
                   about=about, labels=None, staging=staging)


def export_clauses(rows: Sequence[ClauseRow], *, out: Path, fingerprint: str,
                   provenance: dict[str, Any], seed: int = 0,
                   staging: OutputStaging | None = None) -> RikaiExport:
    """Write the unlabelled clause table (rows from
    :func:`buildds.transform.rikai.clause_table`) as one split ``clauses``."""
    about = ("Every clause cut from the input contracts, unlabelled, with its provenance: "
             "the table to annotate for clause classification or revision.")
    return _export("clauses", {CLAUSE_SPLIT: [r.as_dict() for r in rows]}, clause_features(),
                   out=out, fingerprint=fingerprint, provenance=provenance, seed=seed,
                   title="Contract clauses", about=about, labels=None, staging=staging)
