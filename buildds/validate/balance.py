"""Label balance of a JBE-QA item table: items and true share overall, per subject and per
year × subject (:func:`balance_counts`), and a flag for each year × subject whose true share is
outside the allowed bound (:func:`balance_flags`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from buildds.validate.checks import FlagEntry
from buildds.validate.schemas import SUBJECT_JP, year_sort_key

__all__ = ["DEFAULT_BALANCE_BOUNDS", "balance_counts", "balance_flags", "subject_order"]

DEFAULT_BALANCE_BOUNDS: tuple[float, float] = (0.25, 0.75)


def subject_order(subject: str) -> tuple[int, str]:
    """Constitution, Civil Code, Penal Code (the exam's order), then anything else."""
    known = list(SUBJECT_JP)
    return (known.index(subject) if subject in known else len(known), subject)


def _share(n_true: int, n: int) -> float | None:
    return round(n_true / n, 4) if n else None


def _cell(n: int, n_true: int) -> dict[str, Any]:
    return {"items": n, "true": n_true, "false": n - n_true, "true_share": _share(n_true, n)}


def balance_counts(df: pd.DataFrame) -> dict[str, Any]:
    """Items and true share: overall, per subject, per year × subject.

    Only rows whose ``answer`` is a boolean count towards true/false (other rows are
    schema errors); ``items`` counts every row."""
    n = len(df)
    answers = df["answer"] if "answer" in df.columns else pd.Series([None] * n)
    is_true = [isinstance(a, (bool, np.bool_)) and bool(a) for a in answers]
    subjects = [str(s) for s in df["subject"]] if "subject" in df.columns else [""] * n
    years = [str(y) for y in df["year"]] if "year" in df.columns else [""] * n

    per_subject: Counter[str] = Counter()
    per_subject_true: Counter[str] = Counter()
    per_ys: Counter[tuple[str, str]] = Counter()
    per_ys_true: Counter[tuple[str, str]] = Counter()
    for year, subject, t in zip(years, subjects, is_true):
        per_subject[subject] += 1
        per_subject_true[subject] += t
        per_ys[(year, subject)] += 1
        per_ys_true[(year, subject)] += t

    per_year_subject: dict[str, dict[str, Any]] = {}
    for (year, subject) in sorted(per_ys, key=lambda k: (year_sort_key(k[0]), subject_order(k[1]))):
        per_year_subject.setdefault(year, {})[subject] = _cell(per_ys[(year, subject)],
                                                               per_ys_true[(year, subject)])
    n_true = sum(is_true)
    overall = _cell(n, n_true)
    del overall["items"]  # "total" says it
    return {
        **overall,
        "total": n,
        "per_subject": {s: _cell(per_subject[s], per_subject_true[s])
                        for s in sorted(per_subject, key=subject_order)},
        "per_year_subject": per_year_subject,
    }


def balance_flags(counts: Mapping[str, Any], bounds: tuple[float, float] = DEFAULT_BALANCE_BOUNDS
                  ) -> list[FlagEntry]:
    """A flag for every year × subject, subject, and the whole set whose true share lies
    outside ``bounds`` (inclusive). The flag's id names the group: ``令和６年/Civil Code``,
    ``Civil Code``, ``overall``."""
    lo, hi = bounds
    flags: list[FlagEntry] = []

    def check(group: str, cell: Mapping[str, Any]) -> None:
        share = cell["true_share"]
        if share is None or lo <= share <= hi:
            return
        n = cell.get("items", cell.get("total"))
        flags.append({"check": "label_balance", "id": group,
                      "message": f"true share {share:.2f} ({cell['true']}/{n}) "
                                 f"outside [{lo:g}, {hi:g}]"})

    for year, row in counts["per_year_subject"].items():
        for subject, cell in row.items():
            check(f"{year}/{subject}", cell)
    for subject, cell in counts["per_subject"].items():
        check(subject, cell)
    check("overall", counts)
    return flags
