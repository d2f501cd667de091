"""The day each JBE exam was sat, so that an item can be checked against the law its exam
assumed (:mod:`buildds.laws.impact`): the table ``buildds/laws/data/exam_dates.yaml`` (one row
per year, with where the date comes from), overridable per year (``--exam-date 2019=2019-05-19``).

* :func:`western_year` — an era year as JBE-QA writes it (``平成２７年``, ``令和元年``) → 2015, 2019.
* :func:`load_exam_dates` — the table: western year → date.
* :func:`parse_exam_date` — one ``YEAR=DATE`` override.
* :func:`exam_date_of` — the function from an item to its exam's date (a year without a date is
  an error naming it).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from datetime import date
from importlib import resources
from typing import Any

from buildds.errors import BuildError
from buildds.schema.core import JbeItem
from buildds.text import year_of_era

__all__ = ["exam_date_of", "load_exam_dates", "parse_exam_date", "western_year"]

def western_year(era_year: str) -> int | None:
    """``令和元年`` → 2019, ``平成２７年`` → 2015, ``2024`` → 2024; None when it is neither."""
    text = unicodedata.normalize("NFKC", era_year).replace(" ", "")
    year = year_of_era(text)
    if year is not None:
        return year
    m = re.fullmatch(r"((?:19|20)\d\d)年?", text)
    return int(m.group(1)) if m else None


def load_exam_dates() -> dict[int, date]:
    """The shipped table: western year → the day of that year's short-answer exam."""
    from buildds.safeio import load_yaml_strict

    text = resources.files("buildds.laws").joinpath("data/exam_dates.yaml").read_text("utf-8")
    data: Any = load_yaml_strict(text)
    out: dict[int, date] = {}
    for row in data["exams"]:
        if not isinstance(row.get("date"), date) or not str(row.get("source") or "").strip():
            raise BuildError(f"exam_dates.yaml: year {row.get('year')} needs a date and a "
                             f"source")
        out[int(row["year"])] = row["date"]
    return out


def parse_exam_date(text: str) -> tuple[int, date]:
    """``"2019=2019-05-19"`` → (2019, date(2019, 5, 19)); :class:`ValueError` otherwise,
    also when the day is not in the year it is given for."""
    year, sep, day = text.partition("=")
    if not sep or not re.fullmatch(r"\d{4}", year.strip()):
        raise ValueError(f"{text!r} is not YEAR=YYYY-MM-DD")
    try:
        when = date.fromisoformat(day.strip())
    except ValueError as exc:
        raise ValueError(f"{text!r}: {exc}") from None
    if when.year != int(year):
        raise ValueError(f"{text!r}: the exam day of {int(year)} must be in {int(year)}")
    return int(year), when


def exam_date_of(overrides: Mapping[int, date] | None = None) -> Callable[[JbeItem], date]:
    """A function giving each item its exam's date: ``overrides`` first, then the table."""
    table = {**load_exam_dates(), **(overrides or {})}

    def assumed(item: JbeItem) -> date:
        year = western_year(item.year)
        if year is None or year not in table:
            raise BuildError(f"item {item.id}: no exam date for the year {item.year!r}; "
                             f"give one with --exam-date YEAR=YYYY-MM-DD")
        return table[year]

    return assumed
