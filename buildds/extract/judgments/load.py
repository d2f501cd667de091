"""Only the judgments of a judgments file (:func:`load_judge`, :func:`load_cail`, and for
any format found, :func:`load_input`); each reject goes to a list, or to the log."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

from buildds.extract.judgments.cail import read_cail
from buildds.extract.judgments.cases import CaseRegistry, case_number
from buildds.extract.judgments.judge import read_judge
from buildds.extract.judgments.mapped import read_mapped
from buildds.schema.judgment_fields import JudgmentFieldMap
from buildds.schema.judgments import Judgment, JudgmentReject

__all__ = ["load_cail", "load_input", "load_judge"]

# the package's name: the logger the judgments were always read under
log = logging.getLogger("buildds.extract.judgments")


def _only_judgments(records: Iterator[Judgment | JudgmentReject],
                    rejects: list[JudgmentReject] | None) -> Iterator[Judgment]:
    for record in records:
        if isinstance(record, Judgment):
            yield record
        elif rejects is not None:
            rejects.append(record)
        else:
            log.warning("rejected %s line %d (%s): %s", record.source, record.line,
                        record.reason, record.message)


def load_judge(path: str | Path, rejects: list[JudgmentReject] | None = None, *,
               encoding: str | None = None, max_line_bytes: int | None = None,
               seen: dict[str, str] | None = None) -> Iterator[Judgment]:
    """Single-defendant JuDGE judgments; rejects go to ``rejects`` (or the log)."""
    return _only_judgments(read_judge(path, encoding=encoding, max_line_bytes=max_line_bytes,
                                      seen=seen), rejects)


def load_cail(path: str | Path, rejects: list[JudgmentReject] | None = None, *,
              encoding: str | None = None, max_line_bytes: int | None = None,
              seen: dict[str, str] | None = None) -> Iterator[Judgment]:
    """Single-defendant CAIL2018 records; rejects go to ``rejects`` (or the log)."""
    return _only_judgments(read_cail(path, encoding=encoding, max_line_bytes=max_line_bytes,
                                     seen=seen), rejects)


def _claim_cases(records: Iterator[Judgment | JudgmentReject], cases: CaseRegistry
                 ) -> Iterator[Judgment | JudgmentReject]:
    """JuDGE judgments claim their case (``text_id`` = LeCaRD's ``ajId``, and the case
    number); a case read before is ``duplicate_case``."""
    for record in records:
        if isinstance(record, Judgment):
            where = f"{record.source.path} line {record.line}"
            first = cases.claim((record.id, case_number(record.full_text)), where)
            if first is not None:
                record = JudgmentReject(
                    dataset=record.dataset, source=record.source.path, line=record.line,
                    id=record.id, reason="duplicate_case",
                    message=f"line {record.line}: case {first[0]} is already {first[1]} "
                            "(the first is kept)")
        yield record


def load_input(path: str | Path, field_map: JudgmentFieldMap,
               rejects: list[JudgmentReject] | None = None, *, encoding: str | None = None,
               max_line_bytes: int | None = None, seen: dict[str, str] | None = None,
               cases: CaseRegistry | None = None) -> Iterator[Judgment]:
    """The judgments of a file read by ``field_map`` (its reader: JuDGE, CAIL, or the
    mapped parts); ``seen`` (ids) and ``cases`` are shared across a run's inputs, so an id
    or a case read before is rejected naming the first."""
    cases = cases if cases is not None else CaseRegistry()
    if field_map.reader == "cail":
        return _only_judgments(read_cail(path, encoding=encoding, max_line_bytes=max_line_bytes,
                                         seen=seen), rejects)
    if field_map.reader == "judge":
        return _only_judgments(_claim_cases(read_judge(
            path, encoding=encoding, max_line_bytes=max_line_bytes, seen=seen), cases), rejects)
    return _only_judgments(read_mapped(path, field_map, encoding=encoding,
                                       max_line_bytes=max_line_bytes, seen=seen, cases=cases),
                           rejects)
