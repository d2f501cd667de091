"""AR-Bench rows (:class:`~buildds.schema.arbench.ArbenchRow`) → a Hugging Face
``DatasetDict``, parquet files and a dataset card.

:func:`export_arbench` writes, under ``out``::

    dataset/                      DatasetDict.save_to_disk, one split per task:
                                  ``detection`` (all rows), ``classification`` and
                                  ``correction`` (the anomalous rows)
    data/<task>.parquet           the same splits as parquet (past 50,000 rows as parts,
                                  <task>-00000-of-0000N.parquet …: .split_parts)
    README.md                     the dataset card (YAML front matter + Markdown)

Splits are the tasks; the five input settings S1–S5 are columns (``input_s1`` …
``input_s5``, the exact model input), so every split serves every setting. All splits share
the explicit features of :func:`arbench_features`; a row's values are its
:meth:`~buildds.schema.arbench.ArbenchRow.as_dict`.

Determinism and atomicity follow :mod:`buildds.export.hf`: rows in id order, split
fingerprints derived from the caller's ``fingerprint``, the seed and the content, one shard,
no dates in the card, everything written to a temp folder and swapped in with ``os.replace``.
The rows are written as a stream (:mod:`buildds.export.arbench_stream`: fixed batches of
rows, parquet row groups of that many rows), so ``rows`` may be a re-iterable in id order
(a sharded run's merged rows) that is never held whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buildds import __version__
from buildds.errors import ExportError
from buildds.export.arbench_stream import streamed_writer
from buildds.export.common import (
    ExportedDataset,
    feature_rows,
    hub_front_matter,
    json_block,
    render_card,
    require_data,
    write_export,
)
from buildds.export.sources import card_sources
from buildds.export.split_parts import split_files
from buildds.inject_errors.arbench_rows import TASKS
from buildds.schema.arbench import COLUMNS, FACTOR_GROUPS, ArbenchRow
from buildds.staging import OutputStaging

__all__ = [
    "FIELD_DOCS",
    "ArbenchExport",
    "arbench_features",
    "export_arbench",
    "load_arbench_export",
]

CARD_TEMPLATE = "arbench.md.j2"
SEED_TITLE = ("AR-Bench: Benchmarking Legal Reasoning with Judgment Error Detection, "
              "Classification and Correction")

FIELD_DOCS = {
    "id": "row id: <source id>-<error type>-<seed>, or <source id>-none for a normal judgment",
    "source_id": "id of the original judgment (JuDGE text_id / cail-<line>)",
    "dataset": "source dataset: judge or cail",
    "error_type": "E1 erroneous charge, E2 omitted charge, E3 term outside limits, E4 ignored "
                  "sentencing factor, E5 fixed fine outside limits, E6 proportional fine "
                  "outside limits, or none",
    "error_class": "classification target: charge / prison_term / fine (none for normal rows)",
    "label": "detection target: 0 normal, 1 anomalous",
    "factor": "sentencing factors of the original: none / mitigating / aggravating / mixed",
    "charges": "charges of the original judgment (without 罪)",
    "facts": "case facts",
    "judgment": "the judgment part (判决如下 …), anomalous where an error was injected",
    "original_judgment": "the judgment part as the court wrote it (the corrected text)",
    "reasoning": "the normal reasoning (本院认为 …)",
    "anomalous_reasoning": "the reasoning after injection (S4/S5; = reasoning for normal rows)",
    "cited_articles": "Criminal Law articles the normal reasoning cites",
    "anomalous_cited_articles": "Criminal Law articles the anomalous reasoning cites",
    "articles_text": "text of the cited articles (S3)",
    "anomalous_articles_text": "text of the articles the anomalous reasoning cites (S5)",
    "gold_correction": "correction target (JSON): the values to restore, e.g. {\"months\": 42}",
    "rationale": "why the injected value is wrong (JSON): tier, range, confusable pair …; "
                 "a normal row: the error type it was drawn for (matched_for) and the bin",
    "edits": "the span edits on the original full text (JSON list of {start,end,old,new})",
    "seed": "injection seed",
    "input_s1": "S1 input: facts + judgment",
    "input_s2": "S2 input: facts + normal reasoning + judgment",
    "input_s3": "S3 input: S2 + cited articles",
    "input_s4": "S4 input: facts + anomalous reasoning + judgment",
    "input_s5": "S5 input: S4 + articles the anomalous reasoning cites",
}
SPLIT_DOCS = {
    "detection": "every row; target `label`",
    "classification": "anomalous rows; target `error_class`",
    "correction": "anomalous rows; target `gold_correction` (and `original_judgment`)",
}
_LISTS = ("charges", "cited_articles", "anomalous_cited_articles")
_INTS = {"label": "int8", "seed": "int32"}
#: the parquet columns with statistics and dictionary pages (the short ones a reader filters
#: on; :func:`~buildds.export.arbench_stream.parquet_options`)
INDEXED = ("id", "source_id", "dataset", "error_type", "error_class", "label", "factor", "seed")


@dataclass(frozen=True, kw_only=True)
class ArbenchExport(ExportedDataset):

    def parquet(self, split: str = "detection") -> Path:
        return self.out / "data" / f"{split}.parquet"

    def parquet_files(self, split: str = "detection") -> list[Path]:
        """The split's parquet file, or its parts (:mod:`buildds.export.split_parts`)."""
        return split_files(self.out / "data", split)


def arbench_features() -> Any:
    """The declared features, in :data:`~buildds.schema.arbench.COLUMNS` order."""
    datasets, _, _ = require_data()
    feats: dict[str, Any] = {}
    for name in COLUMNS:
        if name in _LISTS:
            feats[name] = datasets.Sequence(datasets.Value("string"))
        elif name in _INTS:
            feats[name] = datasets.Value(_INTS[name])
        else:
            feats[name] = datasets.Value("string")
    return datasets.Features(feats)


class _Anomalous:
    """The anomalous rows of a re-iterable ``rows`` (the classification and correction
    splits), re-read on every iteration."""

    def __init__(self, rows: Iterable[ArbenchRow]) -> None:
        self._rows = rows

    def __iter__(self) -> Iterator[ArbenchRow]:
        return (r for r in self._rows if r.label == 1)


def _summary(rows: Iterable[ArbenchRow]) -> dict[str, Any]:
    """One pass over the rows in id order: their number, the anomalous ones, the rows per
    error type and factor (the card's counts table), the statute versions the injected rows
    were made under (their rationale's ``statute_version``, a build with ``--law-store``)
    with their row counts; duplicate ids (adjacent in id order) are an :class:`ExportError`."""
    per: dict[str, Counter[str]] = {}
    versions: Counter[str] = Counter()
    n = anomalous = 0
    last: str | None = None
    for r in rows:
        if r.id == last:
            raise ExportError(f"duplicate row ids: {r.id}")
        last, n = r.id, n + 1
        per.setdefault(r.error_type, Counter())[r.factor] += 1
        if r.label == 1:
            anomalous += 1
            if r.rationale.get("statute_version"):
                versions[str(r.rationale["statute_version"])] += 1
    counts = [{"error_type": et, "factors": [per[et][f] for f in FACTOR_GROUPS],
               "total": sum(per[et].values())}
              for et in ("none", "E1", "E2", "E3", "E4", "E5", "E6") if et in per]
    return {"n": n, "anomalous": anomalous, "counts": counts,
            "statute_versions": sorted(versions.items())}


def _review_lines(review: Sequence[dict[str, Any]] | None) -> list[dict[str, str]] | None:
    """A reviewer's validity rates (``--review-verdicts``) as card table rows."""
    from buildds.schema.review import ValidityRate

    if review is None:
        return None
    return [{"error_type": str(r["error_type"]), "text": ValidityRate(**r).as_text()}
            for r in review]


def export_arbench(rows: Iterable[ArbenchRow], *, out: Path, fingerprint: str,
                   provenance: dict[str, Any], seed: int = 0,
                   validation: dict[str, Any] | None = None,
                   staging: OutputStaging | None = None,
                   review: Sequence[dict[str, Any]] | None = None,
                   notes: Sequence[str] = (), jurisdiction: str = "cn",
                   extra_files: Mapping[str, str] | None = None) -> ArbenchExport:
    """Write the AR-Bench export under ``out`` (see the module docstring; into the run's
    ``staging`` when given, swapped in when the run commits); ``extra_files`` (the peers'
    task files, path → text) beside ``data/``. Raises
    :class:`ExportError` for duplicate ids, rows that do not fit the features, or a failed
    write (the previous export is kept). ``review``: a reviewer's validity rates
    (:class:`~buildds.schema.review.ValidityRate` fields) for the card; ``notes``: lines the
    card lists under "Build notes" (e.g. what a statute profile cannot inject);
    ``jurisdiction``: ``cn`` or ``jp`` (the card's language and tags)."""
    out = Path(out)
    # rows in id order, read as a stream (a sharded run's rows are never all held)
    ordered = sorted(rows, key=lambda r: r.id) if isinstance(rows, Sequence) else rows
    summary = _summary(ordered)
    features = arbench_features()
    anomalous = _Anomalous(ordered)  # classification and correction: the same rows, files
    split_rows = {"detection": ordered, "classification": anomalous, "correction": anomalous}
    split_n = {"detection": summary["n"], "classification": summary["anomalous"],
               "correction": summary["anomalous"]}
    split_fps: dict[str, str] = {}
    write = streamed_writer(split_rows, features, split_fps, tag="buildds-arbench",
                            title="AR-Bench", fingerprint=fingerprint, seed=seed,
                            indexed=INDEXED, citation=SEED_TITLE)

    def card(sizes: dict[str, dict[str, int]], data_fp: str) -> str:
        front_matter = hub_front_matter({
            "pretty_name": "AR-Bench (appellate review of criminal judgments), built by buildds",
            "language": ["ja"] if jurisdiction == "jp" else ["zh"],
            "license": "other",
            "task_categories": ["text-classification", "text-generation"],
            "tags": ["legal", "japanese-law" if jurisdiction == "jp" else "chinese-law",
                     "criminal-law", "ar-bench", "error-detection"],
        }, n=summary["n"], splits=TASKS, sizes=sizes, features=features)
        context = {
            "front_matter": front_matter, "data_fingerprint": data_fp,
            "seed_title": SEED_TITLE, "version": __version__, "n_rows": summary["n"],
            "splits": [{"name": s, "rows": split_n[s], "about": SPLIT_DOCS[s]}
                       for s in TASKS],
            "factor_names": list(FACTOR_GROUPS), "counts": summary["counts"],
            "features": feature_rows(features, FIELD_DOCS), "fingerprint": fingerprint,
            "split_fingerprints": [(s, split_fps[s]) for s in TASKS], "seed": seed,
            "code_version": str(provenance.get("code_version") or __version__),
            "inputs": card_sources(provenance)["rows"],
            "options": json_block(provenance.get("options", {})),
            "validation": json_block(validation) if validation is not None else None,
            "review": _review_lines(review), "notes": list(notes),
            "statute_versions": summary["statute_versions"],
        }
        return render_card(context, CARD_TEMPLATE)

    files = write_export(None, out=out, splits=TASKS, card=card, what="AR-Bench",
                         staging=staging, extra_files=extra_files, write_data=write)
    return ArbenchExport(out=out, fingerprint=fingerprint, seed=seed,
                         splits=dict(split_n), split_fingerprints=split_fps, files=files)


def load_arbench_export(path: str | Path, split: str = "detection") -> Any:
    """One split of an export as a pandas DataFrame (from ``data/<split>.parquet``, or its
    parts: :mod:`buildds.export.split_parts`)."""
    files = split_files(Path(path) / "data", split)
    if not files:
        raise ExportError(f"no AR-Bench export here ({split}.parquet is missing); run "
                          "`buildds judgments` first", source=str(path))
    import pandas as pd

    frames = [pd.read_parquet(f, engine="pyarrow") for f in files]
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
