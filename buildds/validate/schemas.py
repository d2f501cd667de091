"""pandera models of the exported datasets: one :class:`pandera.DataFrameModel` per dataset.

:class:`JbeItemsModel` checks a DataFrame whose columns are the fields of
:class:`buildds.schema.JbeItem` (one row per item). Run it with ``lazy=True`` so every
failure is collected; :func:`buildds.validate.report.validate_jbe` does that and maps each
failure case back to the offending item ids.

Unknown extra columns (``is_fewshot`` …) are allowed; ``corrections`` is optional.
Cross-column rules are dataframe-level checks whose names say what they test
(:data:`DATAFRAME_CHECK_COLUMNS` lists the columns each one reads).
"""

from __future__ import annotations

import re
from typing import Any, get_args

import numpy as np
import pandas as pd

from buildds.errors import MissingDependency
from buildds.schema import SUBJECTS, JbeExclusionReason, JbeQuestionType
from buildds.text import year_of_era

try:  # pandera >= 0.24 has the pandas API under pandera.pandas
    import pandera.pandas as pa
except ImportError:  # pragma: no cover - older pandera
    try:
        import pandera as pa  # type: ignore[no-redef]
    except ImportError as exc:  # pragma: no cover
        raise MissingDependency("pandera", core=True) from exc
from pandera.typing import Series

__all__ = [
    "DATAFRAME_CHECK_COLUMNS",
    "EXCLUSION_REASONS",
    "ID_PATTERN",
    "QUESTION_TYPES",
    "SHA256_PATTERN",
    "SUBJECT_JP",
    "YEAR_PATTERN",
    "JbeItemsModel",
    "id_sort_key",
    "year_sort_key",
]

#: ``令和６年-民法-18-5``: era year (full-width digits or 元), subject, question, statement
ID_PATTERN = r"^(平成|令和)([０-９]+|元)年-(憲法|民法|刑法)-[0-9]+-[0-9]+$"
YEAR_PATTERN = r"^(平成|令和)([０-９]+|元)年$"
#: lower-case hex, as :func:`buildds.safeio.hashing.sha256_file` writes it
SHA256_PATTERN = r"^[0-9a-f]{64}$"
SUBJECT_JP: dict[str, str] = {s.en: s.jp for s in SUBJECTS.values()}
QUESTION_TYPES: tuple[str, ...] = get_args(JbeQuestionType)
EXCLUSION_REASONS: tuple[str, ...] = get_args(JbeExclusionReason)

#: the columns each dataframe-level check reads (for the report: a failure names them)
DATAFRAME_CHECK_COLUMNS: dict[str, str] = {
    "label_answer_consistent": "label/answer",
    "year_matches_id": "year/id",
    "subject_jp_matches_id": "subject_jp/id",
    "subject_matches_subject_jp": "subject/subject_jp",
}

_ID_RE = re.compile(ID_PATTERN)
def year_sort_key(year: Any) -> tuple[int, str]:
    """Chronological order for era years; anything else after them, by its text."""
    g = year_of_era(year) if isinstance(year, str) else None
    return (g if g is not None else 10_000, str(year))


def id_sort_key(id_: Any) -> tuple[Any, ...]:
    """Ids in reading order: era year chronologically, then numbers as numbers
    (``…-2-1`` before ``…-10-1``, ``<row 2>`` before ``<row 10>``)."""
    text = str(id_)
    runs = re.split(r"(\d+)", text)
    natural = tuple(int(p) if i % 2 else p for i, p in enumerate(runs))
    return (year_sort_key(text)[0], natural, text)


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_bool(v: Any) -> bool:
    return isinstance(v, (bool, np.bool_))


def _non_blank(s: pd.Series) -> pd.Series:
    return s.map(lambda v: isinstance(v, str) and bool(v.strip())).astype(bool)


def _rowwise(df: pd.DataFrame, columns: tuple[str, ...], ok: Any) -> pd.Series:
    """``ok(*row)`` per row as a boolean Series; all True when a column is missing (the
    missing column is reported on its own)."""
    if not set(columns) <= set(df.columns):
        return pd.Series(True, index=df.index, dtype=bool)
    values = zip(*(df[c] for c in columns))
    return pd.Series([bool(ok(*row)) for row in values], index=df.index, dtype=bool)


class JbeItemsModel(pa.DataFrameModel):
    """One JBE-QA item per row (the fields of :class:`buildds.schema.JbeItem`)."""

    id: Series[str] = pa.Field(unique=True, str_matches=ID_PATTERN)
    year: Series[str] = pa.Field(str_matches=YEAR_PATTERN)
    subject: Series[str] = pa.Field(isin=sorted(SUBJECT_JP))
    subject_jp: Series[str] = pa.Field(isin=sorted(SUBJECT_JP.values()))
    instruction: Series[str]
    question: Series[str]
    label: Series[str] = pa.Field(isin=["N", "Y"])
    answer: Series[bool]
    theme: Series[str] = pa.Field(nullable=True)
    lead_in: Series[str] = pa.Field(nullable=True)
    remark: Series[str] = pa.Field(nullable=True)
    question_type: Series[str] = pa.Field(isin=list(QUESTION_TYPES))
    points: Series[int] = pa.Field(ge=0)
    source: Series[str]
    sha256: Series[str] = pa.Field(str_matches=SHA256_PATTERN)
    page: Series[int] = pa.Field(ge=1)
    corrections: Series[object] | None = pa.Field(nullable=True)

    class Config:
        strict = False  # extra columns (is_fewshot …) are the export's business
        coerce = False  # a wrong type is a finding, not something to paper over

    @pa.check("instruction", "question", "source", name="non_empty_text")
    def _non_empty_text(cls, s: pd.Series) -> pd.Series:
        return _non_blank(s)

    @pa.dataframe_check(name="ocr_confidence_0_100")
    def _ocr_confidence(cls, df: pd.DataFrame) -> pd.Series:
        """``ocr_confidence`` (optional column): null for text-layer items, else a number
        0–100. Checked here, not as a typed column: a frame of text-layer items has it as
        an all-None object column, one of OCR'd items as float64."""
        if "ocr_confidence" not in df.columns:
            return pd.Series(True, index=df.index, dtype=bool)

        def ok(v: Any) -> bool:
            if v is None or (isinstance(v, float) and np.isnan(v)):
                return True
            return (isinstance(v, (int, float, np.integer, np.floating))
                    and not isinstance(v, bool) and 0 <= float(v) <= 100)

        return df["ocr_confidence"].map(ok).astype(bool)

    @pa.check("corrections", name="list_of_strings")
    def _list_of_strings(cls, s: pd.Series) -> pd.Series:
        def ok(v: Any) -> bool:
            if v is None:
                return True
            if isinstance(v, (list, tuple, np.ndarray)):
                return all(isinstance(x, str) and x.strip() for x in v)
            return False

        return s.map(ok).astype(bool)

    @pa.dataframe_check(name="label_answer_consistent")
    def _label_answer(cls, df: pd.DataFrame) -> pd.Series:
        """label Y ⇔ answer True (rows with an invalid label or answer are reported by
        those columns' own checks)."""

        def ok(label: Any, answer: Any) -> bool:
            if label not in ("Y", "N") or not _is_bool(answer):
                return True
            return (label == "Y") == bool(answer)

        return _rowwise(df, ("label", "answer"), ok)

    @pa.dataframe_check(name="year_matches_id")
    def _year_matches_id(cls, df: pd.DataFrame) -> pd.Series:
        def ok(id_: Any, year: Any) -> bool:
            m = _ID_RE.match(id_) if _is_str(id_) else None
            if not m or not _is_str(year):
                return True  # a malformed id or year is reported by its own check
            return f"{m.group(1)}{m.group(2)}年" == year

        return _rowwise(df, ("id", "year"), ok)

    @pa.dataframe_check(name="subject_jp_matches_id")
    def _subject_jp_matches_id(cls, df: pd.DataFrame) -> pd.Series:
        def ok(id_: Any, jp: Any) -> bool:
            m = _ID_RE.match(id_) if _is_str(id_) else None
            if not m or not _is_str(jp):
                return True
            return m.group(3) == jp

        return _rowwise(df, ("id", "subject_jp"), ok)

    @pa.dataframe_check(name="subject_matches_subject_jp")
    def _subject_matches_subject_jp(cls, df: pd.DataFrame) -> pd.Series:
        def ok(en: Any, jp: Any) -> bool:
            if en not in SUBJECT_JP or not _is_str(jp):
                return True  # an unknown subject is the subject column's finding
            return SUBJECT_JP[en] == jp

        return _rowwise(df, ("subject", "subject_jp"), ok)
