"""``buildds validate`` on an AR-Bench (``buildds judgments``) or contracts (``buildds
contracts``) export: :func:`validate_other_export` → :class:`OtherValidation`.

JBE-QA exports keep their own, fuller report (:mod:`buildds.validate.report`); the other
exports are checked here from what the export itself holds, split by split:

* every kind: an ``id`` in every row, unique within its split; no empty text in the
  kind's main text column (``judgment`` for AR-Bench, ``text`` for contracts);
* AR-Bench: the rows' pandera model (:class:`buildds.validate.arbench.ArbenchRowsModel`:
  known error types and classes, ``label`` agrees with ``error_type``, JSON columns parse).
  The checks that need the statute profile or the injected records run in the build
  (``buildds judgments``), not here.

The report names the export's data fingerprint (:mod:`buildds.export.data_fingerprint`), the
same one its card, the build's ``report.json`` and the eval leaderboard's dataset key show.
``report.json`` is deterministic (sorted keys, no paths, no timestamps)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from buildds.errors import ExtractError
from buildds.export.data_fingerprint import DATA_DIR, data_fingerprint
from buildds.pipeline import atomic_write_text
from buildds.validate.export_splits import ExportSplits, load_splits

__all__ = ["OtherValidation", "export_root", "validate_other_export",
           "validate_other_export_cli", "write_other_report"]

#: what each kind is called in the summary line, and its main text column
KIND_NAMES = {"arbench": ("AR-Bench", "judgment"),
              "contracts-classification": ("clause-classification", "text"),
              "contracts-revision": ("clause-revision", "text"),
              "contracts-clauses": ("clause-table", "text")}
MD_IDS = 20


@dataclass
class OtherValidation:
    """Errors (``{check, split, ids, message}``), rows per split and the data fingerprint."""

    kind: str
    rows: dict[str, int] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)
    data_fingerprint: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def error_count(self) -> int:
        return sum(max(1, len(e["ids"])) for e in self.errors)

    def summary_line(self, where: str | Path | None = None) -> str:
        what = KIND_NAMES.get(self.kind, (self.kind, ""))[0]
        total = sum(self.rows.values())
        per = ", ".join(f"{s} {n:,}" for s, n in self.rows.items())
        line = (f"validated {total:,} {what} rows ({per}): {self.error_count} "
                f"error{'' if self.error_count == 1 else 's'}")
        if self.data_fingerprint:
            line += f" (data fingerprint {self.data_fingerprint})"
        return f"{line} — see {where}" if where is not None else line

    def error_lines(self, limit: int = 10) -> list[str]:
        out = []
        for e in self.errors:
            ids = ", ".join(e["ids"][:limit]) + (" …" if len(e["ids"]) > limit else "")
            out.append(f"{e['check']} [{e['split']}]: {e['message']} — {ids or 'whole split'}")
        return out

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "kind": self.kind, "rows": self.rows, "errors": self.errors,
                "data_fingerprint": self.data_fingerprint}

    def to_markdown(self) -> str:
        what = KIND_NAMES.get(self.kind, (self.kind, ""))[0]
        lines = [f"# Validation of a {what} export", "", self.summary_line(), "",
                 f"data fingerprint: `{self.data_fingerprint or '–'}`", "",
                 "| split | rows |", "|---|---:|"]
        lines += [f"| {s} | {n} |" for s, n in self.rows.items()]
        if self.errors:
            lines += ["", "## Errors", "", "| check | split | rows | ids | message |",
                      "|---|---|---:|---|---|"]
            for e in self.errors:
                ids = ", ".join(e["ids"][:MD_IDS]) + (" …" if len(e["ids"]) > MD_IDS else "")
                lines.append(f"| {e['check']} | {e['split']} | {len(e['ids'])} | {ids} | "
                             f"{str(e['message']).replace('|', '/')} |")
        return "\n".join(lines) + "\n"


def export_root(path: Path) -> Path:
    """The export folder ``path`` belongs to: itself, the folder of its ``data/`` (a
    parquet file) or of its ``dataset/`` (a save_to_disk folder)."""
    if path.is_file():
        return path.parent.parent if path.parent.name == DATA_DIR else path.parent
    return path.parent if path.name == "dataset" else path


def _common_errors(split: str, frame: pd.DataFrame, text_column: str) -> list[dict[str, Any]]:
    errors: list[dict[str, Any]] = []
    ids = frame["id"].astype(str)
    empty = sorted(ids[frame["id"].isna() | (ids.str.strip() == "")].tolist())
    if empty:
        errors.append({"check": "id_missing", "split": split, "ids": empty,
                       "message": "rows without an id"})
    dup = sorted(set(ids[ids.duplicated(keep=False)].tolist()) - {""})
    if dup:
        errors.append({"check": "id_unique", "split": split, "ids": dup,
                       "message": "ids used by more than one row"})
    if text_column in frame.columns:
        text = frame[text_column].fillna("").astype(str)
        blank = sorted(ids[text.str.strip() == ""].tolist())
        if blank:
            errors.append({"check": "text_present", "split": split, "ids": blank,
                           "message": f"empty {text_column}"})
    return errors


def _arbench_errors(split: str, frame: pd.DataFrame) -> list[dict[str, Any]]:
    from buildds.validate.arbench import _schema_errors

    frame = frame.reset_index(drop=True)
    if "label" in frame.columns:
        frame = frame.assign(label=frame["label"].astype("int64"))
    return [{"check": e["check"], "split": split, "ids": e["ids"], "message": e["message"]}
            for e in _schema_errors(frame)]


def validate_other_export(path: str | Path, splits: ExportSplits | None = None
                          ) -> OtherValidation | None:
    """The validation of the AR-Bench or contracts export at ``path`` (as
    :func:`buildds.validate.export_splits.load_splits` reads it); None when it is a
    JBE-QA export (validated by :func:`buildds.validate.report.validate_jbe`).
    :class:`~buildds.errors.ExtractError` when ``path`` is no export at all."""
    path = Path(path)
    splits = splits if splits is not None else load_splits(path)
    if splits.kind.name == "jbe":
        return None
    text_column = KIND_NAMES.get(splits.kind.name, ("", "text"))[1]
    report = OtherValidation(kind=splits.kind.name,
                             data_fingerprint=data_fingerprint(export_root(path)) or "")
    for name in sorted(splits.splits):
        frame = splits.splits[name]
        report.rows[name] = len(frame)
        report.errors += _common_errors(name, frame, text_column)
        if splits.kind.name == "arbench":
            report.errors += _arbench_errors(name, frame)
    return report


def write_other_report(report: OtherValidation, out_dir: str | Path) -> tuple[Path, Path]:
    """``report.json`` and ``report.md`` into ``out_dir`` (atomically); returns both."""
    out = Path(out_dir)
    json_path, md_path = out / "report.json", out / "report.md"
    atomic_write_text(json_path, json.dumps(report.as_dict(), ensure_ascii=False,
                                            sort_keys=True, indent=2) + "\n")
    atomic_write_text(md_path, report.to_markdown())
    return json_path, md_path


def validate_other_export_cli(path: Path, out: Path | None,
                              echo: Callable[..., Any]) -> bool | None:
    """``buildds validate`` on ``path`` when it is an AR-Bench or contracts export: the
    report written (into ``out``, default ``validation/`` in the export folder), its error
    lines echoed to stderr and its summary line to stdout; whether it passed. None when
    ``path`` is a JBE-QA export or none that :func:`load_splits` reads (the JBE-QA reader
    then validates it or names the problem)."""
    path = Path(path)
    if path.is_dir() and (path / DATA_DIR / "test.parquet").is_file():
        return None
    try:
        splits = load_splits(path)
    except ExtractError:
        return None
    report = validate_other_export(path, splits)
    if report is None:
        return None
    _, md_path = write_other_report(report, out if out is not None
                                    else export_root(path) / "validation")
    for line in report.error_lines():
        echo(line, err=True)
    echo(report.summary_line(md_path))
    return report.ok
