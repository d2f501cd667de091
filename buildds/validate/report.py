"""Validate a JBE-QA item table and report: :func:`validate_jbe` → :class:`ValidationReport`.

The report holds

* ``errors`` — ``{check, column, ids, message}``: the pandera model's failures (run with
  ``lazy=True``, every failure case mapped back to the offending item ids) and the
  checks that make the data wrong (bad characters, exclusions without a reason);
* ``flags`` — ``{check, id, message}``: things worth a look (artefacts, duplicates,
  label balance outside the bound …);
* ``counts`` — items and true share overall, per subject and per year × subject;
* ``exclusions_by_reason`` — excluded questions per reason (and their ids).

``to_json()`` is deterministic (sorted keys, no timestamps, no paths) so a re-run on the
same data writes the same bytes; ``to_markdown()`` is the version for people.
:func:`write_report` writes both atomically.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from buildds.errors import ValidationFailed
from buildds.pipeline import atomic_write_text
from buildds.validate.balance import DEFAULT_BALANCE_BOUNDS, balance_counts, balance_flags
from buildds.validate.checks import (
    ErrorEntry,
    FlagEntry,
    duplicate_statements,
    exclusion_findings,
    exclusion_rows,
    item_ids,
    text_findings,
)
from buildds.validate.markdown import ids_text, plural, render_markdown
from buildds.validate.schemas import (
    DATAFRAME_CHECK_COLUMNS,
    JbeItemsModel,
    id_sort_key,
    pa,
)

__all__ = ["ValidationReport", "items_frame", "validate_jbe", "write_report"]

_INT_COLUMNS = ("points", "page")


@dataclass
class ValidationReport:
    errors: list[ErrorEntry] = field(default_factory=list)
    flags: list[FlagEntry] = field(default_factory=list)
    counts: dict[str, Any] = field(default_factory=dict)
    exclusions_by_reason: dict[str, int] = field(default_factory=dict)
    exclusion_ids_by_reason: dict[str, list[str]] = field(default_factory=dict)
    balance_bounds: tuple[float, float] = DEFAULT_BALANCE_BOUNDS
    #: the export's data fingerprint (set by ``buildds validate``; "" for bare items)
    data_fingerprint: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def error_count(self) -> int:
        """Failures: one per offending id of each error (one for a column-wide error)."""
        return sum(max(1, len(e["ids"])) for e in self.errors)

    @property
    def flag_count(self) -> int:
        return len(self.flags)

    def error_ids(self) -> list[str]:
        return sorted({i for e in self.errors for i in e["ids"]}, key=id_sort_key)

    def flagged_ids(self, check: str | None = None) -> list[str]:
        return sorted({f["id"] for f in self.flags if check is None or f["check"] == check},
                      key=id_sort_key)

    def error_lines(self, limit: int = 10) -> list[str]:
        """One line per error, naming the ids (at most ``limit`` of them)."""
        return [f"{e['check']}{f' [{c}]' if (c := e['column']) else ''}: {e['message']} — "
                f"{ids_text(e['ids'], limit, whole='whole column' if c else 'whole dataset')}"
                for e in self.errors]

    def summary_line(self, where: str | Path | None = None) -> str:
        total = self.counts.get("total", 0)
        line = (f"validated {total:,} items: {plural(self.error_count, 'error')}, "
                f"{plural(self.flag_count, 'flag')}")
        if self.data_fingerprint:
            line += f" (data fingerprint {self.data_fingerprint})"
        return f"{line} — see {where}" if where is not None else line

    def raise_for_errors(self) -> None:
        """Raise :class:`buildds.errors.ValidationFailed` naming the offending ids."""
        if self.errors:
            raise ValidationFailed(f"{self.summary_line()}\n" + "\n".join(self.error_lines()))

    # ----------------------------------------------------------------- serialisation
    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.balance_bounds
        return {
            "ok": self.ok,
            "summary": {
                "items": self.counts.get("total", 0),
                "errors": self.error_count,
                "flags": self.flag_count,
                "errors_by_check": dict(Counter(e["check"] for e in self.errors)),
                "flags_by_check": dict(Counter(f["check"] for f in self.flags)),
            },
            "balance_bounds": [lo, hi],
            "counts": self.counts,
            "exclusions": {
                "total": sum(self.exclusions_by_reason.values()),
                "by_reason": self.exclusions_by_reason,
                "ids_by_reason": self.exclusion_ids_by_reason,
            },
            "errors": self.errors,
            "flags": self.flags,
            **({"data_fingerprint": self.data_fingerprint} if self.data_fingerprint else {}),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True, indent=2) + "\n"

    def to_markdown(self, title: str = "JBE-QA validation report", *, level: int = 1) -> str:
        """The report for people; ``level=2`` makes the title ``##`` (and every section one
        level deeper) for embedding in another report."""
        md = render_markdown(self, title)
        if level > 1:
            md = re.sub(r"(?m)^#", "#" * level, md)
        return md


# --------------------------------------------------------------------------- validation
def items_frame(items: Iterable[Any]) -> pd.DataFrame:
    """A DataFrame of items from :class:`buildds.schema.JbeItem` records (or dicts)."""
    rows = [i.model_dump() if hasattr(i, "model_dump") else dict(i) for i in items]
    return pd.DataFrame(rows)


def _prepare(items: pd.DataFrame) -> pd.DataFrame:
    """Positional index (failure cases map back by position) and integer columns of any
    width (HF ``int32``, nullable ``Int64`` without gaps) widened to int64."""
    df = items.reset_index(drop=True).copy()
    for col in _INT_COLUMNS:
        if col in df.columns:
            s = df[col]
            if pd.api.types.is_integer_dtype(s.dtype) and not s.isna().any():
                df[col] = s.astype("int64")
    if "answer" in df.columns:
        s = df["answer"]
        if pd.api.types.is_bool_dtype(s.dtype) and not s.isna().any():
            df["answer"] = s.astype(bool)
    return df


_CHECK_NAMES: list[tuple[re.Pattern[str], str, str]] = [
    # (pandera check text, our name, description template; {0} is the argument)
    (re.compile(r"^field_uniqueness$"), "unique", "duplicate value"),
    (re.compile(r"^str_matches\('(.*)'\)$"), "pattern", "does not match {0}"),
    (re.compile(r"^isin\((.*)\)$"), "allowed_values", "not one of {0}"),
    (re.compile(r"^greater_than_or_equal_to\((.*)\)$"), "min_value", "must be ≥ {0}"),
    (re.compile(r"^not_nullable$"), "not_null", "missing value"),
    (re.compile(r"^dtype\('?(.*?)'?\)$"), "dtype", "expected dtype {0}"),
    (re.compile(r"^column_in_dataframe$"), "missing_column", "column is missing"),
]
_CUSTOM_MESSAGES = {
    "non_empty_text": "empty or blank text",
    "list_of_strings": "not a list of non-empty strings",
    "label_answer_consistent": "label Y must go with answer True, N with False",
    "year_matches_id": "year differs from the id's era year",
    "subject_jp_matches_id": "subject_jp differs from the id's subject",
    "subject_matches_subject_jp": "subject and subject_jp name different subjects",
}


def _describe(check: str) -> tuple[str, str]:
    for pattern, name, template in _CHECK_NAMES:
        m = pattern.match(check)
        if m:
            return name, template.format(*m.groups())
    return check, _CUSTOM_MESSAGES.get(check, f"failed check {check}")


def _value_text(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "null"
    text = repr(v) if isinstance(v, str) else str(v)
    return text if len(text) <= 40 else text[:39] + "…"


def schema_errors(df: pd.DataFrame) -> list[ErrorEntry]:
    """Run :class:`JbeItemsModel` lazily on a prepared frame; failures grouped per
    (check, column), each with the ids of the offending rows."""
    try:
        JbeItemsModel.validate(df, lazy=True)
    except pa.errors.SchemaErrors as exc:
        cases = exc.failure_cases
    else:
        return []
    ids = item_ids(df)
    grouped: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {"ids": set(), "values": [], "rows": set(), "description": ""})
    for case in cases.to_dict(orient="records"):
        check_text = str(case.get("check"))
        name, description = _describe(check_text)
        frame_level = case.get("schema_context") == "DataFrameSchema"
        column = DATAFRAME_CHECK_COLUMNS.get(name, "") if frame_level else str(case.get("column"))
        if name == "missing_column":
            column = str(case.get("failure_case"))
        g = grouped[(name, column)]
        g["description"] = description
        index = case.get("index")
        row: int | None = None
        if index is not None and not (isinstance(index, float) and math.isnan(index)):
            row = int(index)
        if row is not None and 0 <= row < len(ids):
            g["rows"].add(row)
            g["ids"].add(ids[row])
        if name == "dtype" and row is None:
            g["got"] = str(case.get("failure_case"))
        elif not frame_level and name not in ("unique", "missing_column"):
            g["values"].append(_value_text(case.get("failure_case")))
    errors: list[ErrorEntry] = []
    for (name, column), g in grouped.items():
        message = g["description"]
        if "got" in g:
            message += f", got {g['got']}"
        if g["rows"]:
            message += f" ({plural(len(g['rows']), 'row')})"
        values = sorted(set(g["values"]))
        if values:
            message += ": " + ", ".join(values[:3]) + (" …" if len(values) > 3 else "")
        errors.append({"check": name, "column": column, "ids": sorted(g["ids"], key=id_sort_key),
                       "message": message})
    return errors


def validate_jbe(items: pd.DataFrame,
                 exclusions: Iterable[Mapping[str, Any]] | pd.DataFrame | None = None,
                 *, balance_bounds: tuple[float, float] = DEFAULT_BALANCE_BOUNDS
                 ) -> ValidationReport:
    """Validate a JBE-QA item table (and the excluded questions, if given).

    ``balance_bounds`` is the allowed range of the share of true items per year × subject
    (also applied per subject and overall); a group outside it is flagged."""
    lo, hi = (float(balance_bounds[0]), float(balance_bounds[1]))
    if not (0.0 <= lo <= hi <= 1.0):
        raise ValueError(f"balance bounds must satisfy 0 ≤ low ≤ high ≤ 1, got {balance_bounds}")
    df = _prepare(items)

    errors: list[ErrorEntry] = []
    if len(df) == 0:
        errors.append({"check": "no_items", "column": "", "ids": [],
                       "message": "the dataset has no items"})
    else:
        errors += schema_errors(df)
    text_errors, flags = text_findings(df)
    errors += text_errors
    flags += duplicate_statements(df)

    counts = balance_counts(df)
    flags += balance_flags(counts, (lo, hi))

    rows = exclusion_rows(exclusions)
    ex_errors, ex_flags, ids_by_reason = exclusion_findings(rows, item_ids(df))
    errors += ex_errors
    flags += ex_flags

    errors.sort(key=lambda e: (e["check"], e["column"], [id_sort_key(i) for i in e["ids"]],
                               e["message"]))
    flags.sort(key=lambda f: (f["check"], id_sort_key(f["id"]), f["id"], f["message"]))
    return ValidationReport(
        errors=errors,
        flags=flags,
        counts=counts,
        exclusions_by_reason={r: len(v) for r, v in ids_by_reason.items()},
        exclusion_ids_by_reason=ids_by_reason,
        balance_bounds=(lo, hi),
    )


def write_report(report: ValidationReport, out_dir: str | Path) -> tuple[Path, Path]:
    """Write ``report.json`` and ``report.md`` into ``out_dir`` (atomically); returns both."""
    out = Path(out_dir)
    json_path, md_path = out / "report.json", out / "report.md"
    atomic_write_text(json_path, report.to_json())
    atomic_write_text(md_path, report.to_markdown())
    return json_path, md_path
