"""Annotation files (CSV, TSV or JSONL) → :class:`Annotation` rows: which clause (document
and number, or ``clause_id``), its labels, and for revision the alert, guidelines and the
reference revision.
"""

from __future__ import annotations

import csv
import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buildds.errors import BuildError, TransformError
from buildds.safeio import loads_strict, read_side_file

__all__ = ["Annotation", "load_annotations", "norm_key"]

_LABEL_SEP = re.compile(r"[;|；｜]")


@dataclass(frozen=True)
class Annotation:
    """One row of an annotation file (``line`` is its 1-based line, or CSV record + 1)."""

    source: str
    line: int
    document_id: str | None = None
    number: int | None = None
    number_text: str | None = None
    clause_id: str | None = None
    labels: tuple[str, ...] = ()
    id: str | None = None
    text: str | None = None
    ai_alert: str | None = None
    guidelines: str | None = None
    reference_revision: str | None = None


def norm_key(value: str) -> str:
    """NFKC, stripped: how document ids and printed clause numbers are compared."""
    return unicodedata.normalize("NFKC", value).strip()


def _labels(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.strip()
        if value.startswith("["):
            try:
                value = loads_strict(value)
            except ValueError:  # not JSON after all: a separated list
                pass
    parts = _LABEL_SEP.split(value) if isinstance(value, str) else [str(v) for v in value]
    seen: dict[str, None] = {}
    for p in parts:
        p = p.strip()
        if p:
            seen.setdefault(p, None)
    return tuple(seen)


def _opt(row: dict[str, Any], *keys: str) -> str | None:
    for k in keys:
        v = row.get(k)
        if v is not None and str(v).strip() != "":
            return str(v)
    return None


def _annotation(row: dict[str, Any], source: str, line: int) -> Annotation:
    number_raw = _opt(row, "number", "clause_number", "article")
    number: int | None = None
    number_text: str | None = None
    if number_raw is not None:
        det = norm_key(number_raw)
        if re.fullmatch(r"[0-9]+", det):
            number = int(det)
        elif re.fullmatch(r"[0-9]+\.0", det):
            number = int(float(det))
        else:
            number_text = det
    return Annotation(
        source=source, line=line,
        document_id=_opt(row, "document_id", "document", "doc_id"),
        number=number, number_text=number_text,
        clause_id=_opt(row, "clause_id"),
        labels=_labels(row.get("labels", row.get("label"))),
        id=_opt(row, "id"),
        text=_opt(row, "text", "clause", "original_clause"),
        ai_alert=_opt(row, "ai_alert", "alert"),
        guidelines=_opt(row, "guidelines", "guideline", "guidance"),
        reference_revision=_opt(row, "reference_revision", "revision"),
    )


def load_annotations(path: str | Path) -> list[Annotation]:
    """Read a CSV (header row) or JSONL annotation file. Keys: ``document_id``, ``number``
    (or ``clause_id``), ``labels`` (a list, a JSON list, or ``;``/``|``-separated), and for
    revision ``text``, ``ai_alert``, ``guidelines``, ``reference_revision``. Raises
    :class:`TransformError` naming the file and line for a file that cannot be parsed."""
    path = Path(path)
    name = str(path)
    suffix = path.suffix.lower()
    if suffix not in (".jsonl", ".ndjson", ".json", ".csv", ".tsv"):
        raise TransformError("annotations must be .csv, .tsv or .jsonl", source=name)
    try:
        raw = read_side_file(path)
    except BuildError as exc:
        raise TransformError(f"cannot read the annotation file ({exc.message})",
                             source=name) from exc
    out: list[Annotation] = []
    if suffix in (".jsonl", ".ndjson", ".json"):
        for n, line in enumerate(raw.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = loads_strict(line)
            except ValueError as exc:  # JSONDecodeError and the JSON limits
                why = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
                raise TransformError(f"line {n} is not JSON ({why})", source=name) from exc
            if not isinstance(row, dict):
                raise TransformError(f"line {n} is not a JSON object", source=name)
            out.append(_annotation(row, name, n))
    else:
        reader = csv.DictReader(raw.splitlines(),
                                delimiter="\t" if suffix == ".tsv" else ",")
        for row in reader:
            out.append(_annotation({k.strip(): v for k, v in row.items() if k}, name,
                                   reader.line_num))
    return out
