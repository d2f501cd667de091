"""A doubt about one clause of a clause table (``buildds contracts``): what
:mod:`buildds.validate.clause_checks` found, where (document, page, paragraph) and why.
"""

from __future__ import annotations

from typing import Literal

from buildds.schema.core import Frozen

__all__ = ["ClauseFlag", "ClauseFlagCode"]

ClauseFlagCode = Literal[
    "empty_clause", "toc_like", "too_long", "numbering_gap", "numbering_duplicate",
    "outside_clause", "no_clauses",
]


class ClauseFlag(Frozen):
    """One flag: ``clause`` is the clause's position in its document (0-based; None for a
    flag on the whole document), ``paragraph`` its first block (1-based, as in the report)."""

    source: str
    code: ClauseFlagCode
    message: str
    clause: int | None = None
    number_text: str | None = None
    page: int | None = None
    paragraph: int | None = None
