"""Manual corrections of a contracts clause table, as data applied on every build.

A person never edits ``clauses.jsonl``: they (or ``buildds review``) add an entry to a YAML
file under ``corrections/contracts/`` and every later ``buildds contracts`` applies it to the
clause rows, in file-name then entry order::

    - id: SG-892ebb32-10             # a clause id of clauses.jsonl
      action: text                   # text | exclude | accept
      expect: 3f1c0a9b2d4e5f60       # text_digest of the clause text this entry was made on
      text: "10.1 The Advance …"     # text only: the clause text it becomes
      reason: OCR read "Buyer" as "Bayer"
      reviewer: A. Lawyer            # optional

``accept`` says a flagged clause was checked and is right (it changes nothing, and is
reported); ``exclude`` leaves the clause out of the table and the export (a reject with the
reason, never a silent drop); ``text`` replaces the clause body (its ``input_text`` follows).

``expect`` guards against stale entries: a correction applies only when the clause's text at
that point (after the entries before it) has that digest (:func:`text_digest`). An entry
whose clause id is gone or whose text changed (a new file version, another correction) is
**stale**: reported with its file and entry, never applied. A malformed file is an error
naming the file.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import Field

from buildds.errors import TransformError
from buildds.schema import Frozen
from buildds.schema.contracts import ClauseRow
from buildds.schema.jbe_build import StaleCorrection
from buildds.transform.corrections import correction_entries

__all__ = ["ContractCorrection", "CorrectionsResult", "apply_contract_corrections",
           "load_contract_corrections", "text_digest"]


def text_digest(text: str) -> str:
    """16 hex digits of the sha256 of a clause's text (UTF-8): what ``expect`` holds."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class ContractCorrection(Frozen):
    """One entry (see the module docstring); ``origin``: ``<file name>#<entry from 1>``."""

    id: str = Field(min_length=1)
    action: Literal["text", "exclude", "accept"]
    expect: str = Field(pattern=r"^[0-9a-f]{16}$")
    reason: str = Field(min_length=1)
    text: str | None = None
    reviewer: str | None = None
    origin: str = ""


def load_contract_corrections(folder: str | Path | None) -> list[ContractCorrection]:
    """All entries of ``folder/*.yaml`` (and ``*.yml``) in file-name order; a missing folder
    means none. :class:`TransformError` naming the file for a malformed one
    (:func:`~buildds.transform.corrections.correction_entries`)."""
    out: list[ContractCorrection] = []
    for path, n, c in correction_entries(folder, ContractCorrection):
        if c.action == "text" and c.text is None:
            raise TransformError(f"entry {n}: action 'text' needs text", source=str(path))
        out.append(c)
    return out


@dataclasses.dataclass
class CorrectionsResult:
    """The rows after the corrections, the excluded rows (each with its entry), the entries
    that applied (by origin) and the stale ones."""

    rows: list[ClauseRow]
    excluded: list[tuple[ClauseRow, ContractCorrection]]
    applied: list[ContractCorrection]
    stale: list[StaleCorrection]


def _input_text(row: ClauseRow, text: str) -> str:
    from buildds.transform.rikai.clause_table import clause_input_text

    return clause_input_text(row.number_text, row.heading, text)


def apply_contract_corrections(rows: Sequence[ClauseRow],
                               corrections: Sequence[ContractCorrection]) -> CorrectionsResult:
    """Apply the entries in order (see the module docstring)."""
    current = {r.id: r for r in rows}
    result = CorrectionsResult(rows=[], excluded=[], applied=[], stale=[])
    for c in corrections:
        row = current.get(c.id)
        if row is None:
            result.stale.append(StaleCorrection(
                origin=c.origin, id=c.id, action=c.action,
                message=f"no clause has id {c.id!r} (the file changed, or it was excluded)"))
            continue
        if text_digest(row.text) != c.expect:
            result.stale.append(StaleCorrection(
                origin=c.origin, id=c.id, action=c.action,
                message=f"{c.id}: the clause text changed since the entry was made (its "
                        f"digest is {text_digest(row.text)}, the entry expects {c.expect})"))
            continue
        if c.action == "exclude":
            result.excluded.append((row, c))
            del current[c.id]
        elif c.action == "text":
            assert c.text is not None
            current[c.id] = dataclasses.replace(row, text=c.text,
                                                input_text=_input_text(row, c.text))
        result.applied.append(c)
    result.rows = [current[r.id] for r in rows if r.id in current]
    return result
