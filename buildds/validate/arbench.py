"""Validate AR-Bench rows: :func:`validate_arbench` → :class:`ArbenchValidation`.

* :class:`ArbenchRowsModel` (pandera, ``lazy=True``): unique ids, known error types /
  classes / factor groups, ``label`` agrees with ``error_type``, ``error_class`` is the
  error type's class, non-empty texts, JSON columns parse.
* Semantic checks on the :class:`~buildds.schema.arbench.ArbenchRow` records, recomputed:

  - ``E3_inside_range``: the term of the row's ``judgment`` (re-parsed) lies outside the range
    of the kind in the rationale's tier, read again from the profile (ambiguous: inside the
    adjacent tier's range, outside the judged one);
  - ``E5_inside_range`` / ``E6_inside_range``: the fine of the row's judgment lies outside the
    fixed range / ratio × amount (involved, else the stated base) of the rationale's rule;
  - ``E1_not_confusable``: the substituted charge is in the confusable table of the gold one,
    and a donor's defendant name (rationale ``donor_defendant``) does not leak into the
    anomalous reasoning;
  - ``statute_version``: a row built from a law store (rationale ``statute_version``) is
    checked against that version's profile, which must be given (``versions``);
  - ``edits_roundtrip``: with the injected records, ``apply_edits(original, edits)`` is the
    anomalous text, undoing gives the original, and the row holds the record's edits and
    anomalous parts.
* ``counts``: rows per error type, factor group, error type × factor, task and dataset.

Failing rows can be left out (:meth:`ArbenchValidation.failing_rows`) and the rest validated
again; ``to_json()`` is deterministic; :func:`write_report` writes report.json / report.md.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from pandera.typing import Series

from buildds.inject_errors.arbench_rows import TASKS, task_rows
from buildds.pipeline import atomic_write_text
from buildds.schema.arbench import COLUMNS, FACTOR_GROUPS, ArbenchRow
from buildds.schema.judgments import ERROR_CLASS, InjectedJudgment
from buildds.schema.statutes import FineRule, StatuteProfile
from buildds.validate.schemas import pa

__all__ = ["ArbenchRowsModel", "ArbenchValidation", "check_edits", "rows_frame",
           "validate_arbench", "write_report"]

ERROR_TYPES = ("none", "E1", "E2", "E3", "E4", "E5", "E6")
ERROR_CLASSES = ("none", "charge", "prison_term", "fine")
MD_IDS = 20


def _is_json(value: object) -> bool:
    try:
        json.loads(str(value))
    except (TypeError, ValueError):
        return False
    return True


class ArbenchRowsModel(pa.DataFrameModel):
    """One row per judgment version (see :mod:`buildds.inject_errors.arbench_rows`), as
    :meth:`ArbenchRow.as_dict <buildds.schema.arbench.ArbenchRow.as_dict>` gives it."""

    id: Series[str] = pa.Field(unique=True, str_length={"min_value": 1})
    source_id: Series[str] = pa.Field(str_length={"min_value": 1})
    error_type: Series[str] = pa.Field(isin=list(ERROR_TYPES))
    error_class: Series[str] = pa.Field(isin=list(ERROR_CLASSES))
    label: Series[int] = pa.Field(isin=[0, 1])
    factor: Series[str] = pa.Field(isin=list(FACTOR_GROUPS))
    facts: Series[str] = pa.Field(str_length={"min_value": 1})
    judgment: Series[str] = pa.Field(str_length={"min_value": 1})
    gold_correction: Series[str]
    rationale: Series[str]
    edits: Series[str]

    @pa.dataframe_check
    def label_matches_error_type(cls, df: pd.DataFrame) -> pd.Series:  # type: ignore[misc]
        return df["label"] == (df["error_type"] != "none").astype(int)

    @pa.dataframe_check
    def error_class_of_type(cls, df: pd.DataFrame) -> pd.Series:  # type: ignore[misc]
        want = df["error_type"].map(lambda t: ERROR_CLASS.get(t, "none"))
        return df["error_class"] == want

    @pa.dataframe_check
    def json_columns_parse(cls, df: pd.DataFrame) -> pd.Series:  # type: ignore[misc]
        # astype(bool): mapping an empty text column keeps the text dtype
        return (df["gold_correction"].map(_is_json).astype(bool)
                & df["rationale"].map(_is_json).astype(bool)
                & df["edits"].map(_is_json).astype(bool))

    class Config:
        strict = False
        coerce = False


@dataclass
class ArbenchValidation:
    errors: list[dict[str, Any]] = field(default_factory=list)
    counts: dict[str, Any] = field(default_factory=dict)
    checked: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors

    def failing_rows(self) -> dict[str, tuple[str, str]] | None:
        """Row id → (check, message) of every row an error names; ``None`` when an error
        names no row (it is about the dataset, so no row can be left out to mend it)."""
        out: dict[str, tuple[str, str]] = {}
        for error in self.errors:
            if not error["ids"]:
                return None
            for rid in error["ids"]:
                out.setdefault(rid, (error["check"], str(error["message"])))
        return out

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "errors": self.errors, "checked": dict(sorted(self.checked.items())),
                "counts": self.counts}

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False, sort_keys=True, indent=2) + "\n"

    def to_markdown(self, level: int = 1) -> str:
        h = "#" * level
        lines = [f"{h} AR-Bench validation", "",
                 f"{'OK' if self.ok else 'FAILED'}: {len(self.errors)} error(s); "
                 + ", ".join(f"{k} {v}" for k, v in sorted(self.checked.items())), ""]
        if self.errors:
            lines += [f"{h}# Errors", "", "| check | rows | ids | message |", "|---|---:|---|---|"]
            for e in self.errors:
                ids = ", ".join(e["ids"][:MD_IDS]) + (" …" if len(e["ids"]) > MD_IDS else "")
                lines.append(f"| {e['check']} | {len(e['ids'])} | {ids} | "
                             f"{str(e['message']).replace('|', '/')} |")
            lines.append("")
        c = self.counts
        lines += [f"{h}# Rows per error type and factor", "",
                  "| error type | " + " | ".join(FACTOR_GROUPS) + " | total |",
                  "|---|" + "---:|" * (len(FACTOR_GROUPS) + 1)]
        for et in ERROR_TYPES:
            per = c.get("by_error_type_factor", {}).get(et, {})
            if not per:
                continue
            lines.append(f"| {et} | " + " | ".join(str(per.get(f, 0)) for f in FACTOR_GROUPS)
                         + f" | {c['by_error_type'].get(et, 0)} |")
        lines += ["", f"{h}# Rows per task", "", "| task | rows |", "|---|---:|"]
        lines += [f"| {t} | {n} |" for t, n in c.get("by_task", {}).items()]
        lines.append("")
        return "\n".join(lines)


def rows_frame(rows: Sequence[ArbenchRow], cols: Sequence[str] = COLUMNS) -> pd.DataFrame:
    frame = pd.DataFrame([[d[c] for c in cols] for d in map(ArbenchRow.as_dict, rows)], None, cols)
    frame["label"] = frame["label"].astype("int64")
    if frame.empty:  # no values to infer from: give the text columns their declared dtype
        text = [c for c, f in ArbenchRowsModel.to_schema().columns.items()
                if str(f.dtype) in ("str", "string", "string[pyarrow]") and c in frame]
        frame = frame.astype(dict.fromkeys(text, "str"))
    return frame


def _schema_errors(frame: pd.DataFrame) -> list[dict[str, Any]]:
    try:
        ArbenchRowsModel.validate(frame, lazy=True)
    except pa.errors.SchemaErrors as exc:
        out: dict[tuple[str, str], set[str]] = {}
        cases = exc.failure_cases
        for _, case in cases.iterrows():
            check = str(case.get("check"))
            column = str(case.get("column") or "")
            index = case.get("index")
            ids: set[str] = set()
            if index is not None and not pd.isna(index) and index in frame.index:
                ids.add(str(frame.loc[index, "id"]))
            elif column == "id":
                ids.add(str(case.get("failure_case")))
            out.setdefault((check, column), set()).update(ids)
        return [{"check": f"schema:{check}", "column": column, "ids": sorted(ids),
                 "message": f"{column or 'row'} fails {check}"}
                for (check, column), ids in sorted(out.items())]
    return []


def _tiers(profile: StatuteProfile, charge: str, kind: str) -> list[Any]:
    from buildds.inject_errors.statutes import resolve_charge

    # the same name resolution the injectors used (aliases, renames), so the check recomputes
    # against the very statute the injection was made from
    return [t for t in resolve_charge(profile, charge).tiers if t.condition.kind == kind]


def _range(tier: Any, kind: str) -> tuple[int, int] | None:
    from buildds.inject_errors.tiers import kind_range

    r = kind_range(tier, kind) if tier is not None else None
    if r is None or r.min_months is None or r.max_months is None:
        return None
    return r.min_months, r.max_months


def _profile_range(profile: StatuteProfile, charge: str, tier: str, kind: str,
                   stated: object) -> tuple[int, int] | None:
    """The range of ``kind`` in the tier of ``charge`` named ``tier`` (several tiers can share
    a condition kind: the one whose range is the ``stated`` one, else the first)."""
    ranges = [r for t in _tiers(profile, charge, tier) if (r := _range(t, kind)) is not None]
    for r in ranges:
        if isinstance(stated, (list, tuple)) and list(r) == list(stated):
            return r
    return ranges[0] if ranges else None


def _sentence(row: ArbenchRow) -> Any:
    """The row's judgment re-parsed: a Japanese 主文 (dataset ``jp``) by its own parser."""
    from buildds.extract.judgments import parse_sentence
    from buildds.extract.judgments.jp_sentence import parse_jp_sentence
    return parse_jp_sentence(row.judgment)[0] if row.dataset == "jp" else parse_sentence(row.judgment)


def _check_e3(row: ArbenchRow, rat: Mapping[str, Any], profile: StatuteProfile) -> str | None:
    s = _sentence(row)
    if s.months is None:
        return "no term in the anomalous judgment"
    charge, kind = str(rat["charge"]), str(rat["kind"])
    rng = _profile_range(profile, charge, str(rat["tier"]), kind, rat.get("range_months"))
    if rng is None:
        return f"{charge}: no {kind} range in tier {rat['tier']}"
    if list(rng) != list(rat["range_months"]):
        return f"range {rat['range_months']} in the rationale, {list(rng)} in the profile"
    lo, hi = rng
    if lo <= s.months <= hi:
        return f"term {s.months} months is inside the tier's range [{lo}, {hi}]"
    if rat.get("ambiguous_tier"):
        adj = _profile_range(profile, charge, str(rat["adjacent_tier"]), kind,
                             rat.get("adjacent_range_months"))
        if adj is None or not adj[0] <= s.months <= adj[1]:
            return f"term {s.months} months is not in the adjacent tier's range {adj}"
    return None


def _fine_rule(profile: StatuteProfile, rat: Mapping[str, Any]) -> FineRule | None:
    charge, source = str(rat["charge"]), str(rat.get("rule", "charge"))
    if source.startswith("tier:"):
        tiers = _tiers(profile, charge, source.removeprefix("tier:"))
        fixed = [t.fine for t in tiers if t.fine.kind in ("fixed_range", "proportional")]
        return fixed[0] if fixed else (tiers[0].fine if tiers else None)
    from buildds.inject_errors.statutes import resolve_charge
    return resolve_charge(profile, charge).fine


def _check_fine(row: ArbenchRow, rat: Mapping[str, Any], profile: StatuteProfile,
                etype: str) -> str | None:
    from buildds.extract.judgments import parse_amount_involved

    s = _sentence(row)
    if s.fine_yuan is None:
        return "no fine in the anomalous judgment"
    rule = _fine_rule(profile, rat)
    want = "fixed_range" if etype == "E5" else "proportional"
    if rule is None or rule.kind != want:
        return f"the rule {rat.get('rule')} of {rat['charge']} is not {want}"
    amount = None
    if etype == "E6":  # the amount involved, else (none stated) the base the rule names
        found = parse_amount_involved(row.facts)
        amount, said = (found[0] if found else None), str(rat.get("base_text") or "")
        if amount != rat.get("amount_yuan"):
            return f"amount involved {amount} differs from the rationale's {rat.get('amount_yuan')}"
        if amount is None and (not said or said not in row.facts + row.reasoning + row.original_judgment):
            return f"no amount involved, and the base {rat.get('base')} ({said}) is not stated"
        amount = rat.get("base_yuan") if amount is None else amount
    lo, hi = rule.allowed_range(amount)
    if (lo is None or s.fine_yuan >= lo) and (hi is None or s.fine_yuan <= hi):
        return f"fine {s.fine_yuan} yuan is inside the allowed range [{lo}, {hi}]"
    return None


def _check_e1(row: ArbenchRow, rat: Mapping[str, Any], gold: Mapping[str, Any],
              profile: StatuteProfile) -> str | None:
    pair = rat.get("confusable_pair") or []
    if len(pair) != 2:
        return "no confusable pair in the rationale"
    charge, target = pair
    if gold.get("charge") != charge:
        return f"gold charge {gold.get('charge')} is not {charge}"
    if target not in profile.confusable.get(charge, ()):
        return f"{target} is not in the confusable table of {charge}"
    if target not in row.judgment:
        return f"{target} does not appear in the anomalous judgment"
    donor_name = rat.get("donor_defendant")
    if donor_name and donor_name in row.anomalous_reasoning and donor_name not in row.reasoning:
        return f"the donor's defendant {donor_name} appears in the anomalous reasoning"
    return None


def check_edits(row: ArbenchRow, rec: InjectedJudgment) -> str | None:
    """Check ``edits_roundtrip`` of one row against the record it came from (None: passes)."""
    from buildds.inject_errors.edits import SpanEditError, apply_edits, undo_edits

    try:
        if apply_edits(rec.original.full_text, rec.edits) != rec.anomalous_text:
            return "apply_edits(original, edits) is not the anomalous text"
        if undo_edits(rec.anomalous_text, rec.edits) != rec.original.full_text:
            return "undoing the edits does not give the original"
    except SpanEditError as exc:
        return f"edits do not fit: {exc}"
    if tuple(row.edits) != tuple(rec.edits):
        return "the row's edits are not the record's"
    if row.judgment != rec.judgment or row.anomalous_reasoning != rec.reasoning:
        return "the row's judgment/reasoning are not the record's anomalous parts"
    return None


def _counts(rows: Sequence[ArbenchRow]) -> dict[str, Any]:
    by_type: Counter[str] = Counter(r.error_type for r in rows)
    by_tf: dict[str, Counter[str]] = {}
    for r in rows:
        by_tf.setdefault(r.error_type, Counter())[r.factor] += 1
    tasks = task_rows(rows)
    return {
        "rows": len(rows),
        "by_error_type": {t: by_type[t] for t in ERROR_TYPES if by_type[t]},
        "by_error_class": dict(sorted(Counter(r.error_class for r in rows).items())),
        "by_factor": {f: n for f in FACTOR_GROUPS
                      if (n := sum(1 for r in rows if r.factor == f))},
        "by_error_type_factor": {t: {f: by_tf[t][f] for f in FACTOR_GROUPS if by_tf[t][f]}
                                 for t in ERROR_TYPES if t in by_tf},
        "by_task": {t: len(tasks[t]) for t in TASKS},
        "by_dataset": dict(sorted(Counter(r.dataset for r in rows).items())),
    }


def validate_arbench(rows: Sequence[ArbenchRow], *, profile: StatuteProfile,
                     injected: Sequence[InjectedJudgment] | None = None,
                     versions: Mapping[str, StatuteProfile] | None = None,
                     roundtrip: Mapping[str, str | None] | None = None) -> ArbenchValidation:
    """Schema + semantic checks of ``rows`` (see the module docstring); ``injected`` (the
    records the rows came from) enables the edit round-trip check. ``versions``: the profile
    per revision id — a row whose rationale names a ``statute_version`` is checked against
    that version (an unknown one fails ``statute_version``), the others against ``profile``;
    ``roundtrip``: a sharded run's failing :func:`check_edits` (an id absent passed)."""
    report = ArbenchValidation()
    frame = rows_frame(rows, list(ArbenchRowsModel.to_schema().columns))  # not input_s*
    report.errors.extend(_schema_errors(frame))
    by_id = {r.id: r for r in injected} if injected is not None else None
    failures: dict[tuple[str, str], list[str]] = {}
    checked: Counter[str] = Counter()

    def fail(check: str, rid: str, message: str) -> None:
        failures.setdefault((check, message), []).append(rid)

    for row in rows:
        etype, rid = row.error_type, row.id
        rat, gold = row.rationale, row.gold_correction
        named = rat.get("statute_version")
        if named is not None and str(named) not in (versions or {}):
            fail("statute_version", rid, f"version {named} is not among the profiles given")
            continue
        profile_of = (versions or {}).get(str(named), profile) if named else profile
        try:
            msg = None
            if etype == "E1":
                checked["E1_not_confusable"] += 1
                msg = _check_e1(row, rat, gold, profile_of)
                check = "E1_not_confusable"
            elif etype == "E3":
                checked["E3_inside_range"] += 1
                msg = _check_e3(row, rat, profile_of)
                check = "E3_inside_range"
            elif etype in ("E5", "E6"):
                check = f"{etype}_inside_range"
                checked[check] += 1
                msg = _check_fine(row, rat, profile_of, etype)
            if msg is not None:
                fail(check, rid, msg)
        except (KeyError, TypeError, ValueError) as exc:
            fail(f"{etype}_rationale", rid, f"cannot recompute from the rationale: {exc}")
        if (by_id is not None or roundtrip is not None) and etype != "none":
            checked["edits_roundtrip"] += 1
            rec = (by_id or {}).get(rid)
            missing = "no injected record with this id"
            msg = (check_edits(row, rec) if rec is not None
                   else missing if by_id is not None else (roundtrip or {}).get(rid))
            if msg is not None:
                fail("edits_roundtrip", rid, msg)
    for (check, message), ids in sorted(failures.items()):
        # one entry per check and message, the message naming the first id
        report.errors.append({"check": check, "column": "", "ids": sorted(ids),
                              "message": f"{ids[0]}: {message}"})
    report.checked = dict(checked)
    report.counts = _counts(rows)
    return report


def write_report(report: ArbenchValidation, out: str | Path) -> None:
    """``report.json`` and ``report.md`` under ``out`` (atomically)."""
    out = Path(out)
    atomic_write_text(out / "report.json", report.to_json())
    atomic_write_text(out / "report.md", report.to_markdown())
