"""Only the judgments of a JuDGE or CAIL file (:func:`load_judge`, :func:`load_cail`); each
reject goes to a list, or to the log."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

from buildds.extract.judgments.cail import read_cail
from buildds.extract.judgments.judge import read_judge
from buildds.schema.judgments import Judgment, JudgmentReject

__all__ = ["load_cail", "load_judge"]

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
