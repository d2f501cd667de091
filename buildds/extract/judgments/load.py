"""Only the judgments of a judgments file (:func:`load_judge`, :func:`load_cail`, and for
any format found, :func:`load_input`); each reject goes to a list, or to the log."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

from buildds.extract.json_lines import LinesSource
from buildds.extract.judgments.cail import read_cail
from buildds.extract.judgments.cases import CaseRegistry, case_number, procedure_of
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


def _judge_cases(records: Iterator[Judgment | JudgmentReject], cases: CaseRegistry,
                 first_instance_only: bool) -> Iterator[Judgment | JudgmentReject]:
    """JuDGE judgments: an appeal or retrial by its case number (刑终, 刑再 …) is
    ``not_first_instance`` (with ``first_instance_only``; JuDGE names no procedure); the
    others claim their case (``text_id`` = LeCaRD's ``ajId``, and the case number), and a
    case read before is ``duplicate_case``."""
    for record in records:
        if isinstance(record, Judgment):
            number = case_number(record.full_text)
            procedure = procedure_of(None, number)
            if first_instance_only and procedure in ("appeal", "retrial"):
                record = _reject(record, "not_first_instance",
                                 f"{'an' if procedure == 'appeal' else 'a'} {procedure} "
                                 f"judgment (case number {number}): only first-instance "
                                 "judgments are read")
            else:
                first = cases.claim((record.id, number),
                                    f"{record.source.path} line {record.line}")
                if first is not None:
                    record = _reject(record, "duplicate_case", f"case {first[0]} is already "
                                     f"{first[1]} (the first is kept)")
        yield record


def _reject(judgment: Judgment, reason: str, message: str) -> JudgmentReject:
    return JudgmentReject(dataset=judgment.dataset, source=judgment.source.path,
                          line=judgment.line, id=judgment.id, reason=reason,  # type: ignore[arg-type]
                          message=f"line {judgment.line}: {message}")


def load_input(path: str | Path | LinesSource, field_map: JudgmentFieldMap,
               rejects: list[JudgmentReject] | None = None, *, encoding: str | None = None,
               max_line_bytes: int | None = None, seen: dict[str, str] | None = None,
               cases: CaseRegistry | None = None, first_instance_only: bool = True
               ) -> Iterator[Judgment]:
    """The judgments of a file read by ``field_map`` (its reader: JuDGE, CAIL, or the
    mapped parts); ``seen`` (ids) and ``cases`` are shared across a run's inputs, so an id
    or a case read before is rejected naming the first. ``first_instance_only``: appeals
    and retrials are rejected (``not_first_instance``; CAIL gives no procedure)."""
    cases = cases if cases is not None else CaseRegistry()
    if field_map.reader == "cail":
        return _only_judgments(read_cail(path, encoding=encoding, max_line_bytes=max_line_bytes,
                                         seen=seen), rejects)
    if field_map.reader == "judge":
        return _only_judgments(_judge_cases(read_judge(
            path, encoding=encoding, max_line_bytes=max_line_bytes, seen=seen), cases,
            first_instance_only), rejects)
    return _only_judgments(read_mapped(path, field_map, encoding=encoding,
                                       max_line_bytes=max_line_bytes, seen=seen, cases=cases,
                                       first_instance_only=first_instance_only), rejects)
