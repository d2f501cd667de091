"""Which format a judgments file holds (:func:`detect_format`, :func:`record_format`): the
first built-in field mapping (:data:`~buildds.extract.judgments.field_maps.BUILTIN_MAPS`:
JuDGE, CAIL, LeCaRD, Caseformer) whose ``detect`` keys a record has, or the mapping the
user names (``--input-format``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.extract.json_lines import LineReject, LinesSource, open_lines
from buildds.extract.judgments.field_maps import BUILTIN_MAPS
from buildds.safeio.text_decoding import Encoding
from buildds.schema.judgment_fields import JudgmentFieldMap

__all__ = ["JudgmentInput", "detect_format", "record_format"]


@dataclass
class JudgmentInput:
    """What :func:`detect_format` found: the file's printable ``name``, ``sha256``,
    ``encoding`` and ``format`` (the mapping's name; ``None`` when no line names one; then
    ``rejects`` holds (line, reason, message) of every line, read to the end) with its
    ``field_map``."""

    path: Path
    name: str
    sha256: str
    encoding: Encoding
    format: str | None
    rejects: list[tuple[int, str, str]] = field(default_factory=list)
    field_map: JudgmentFieldMap | None = None

    def no_format_message(self) -> str:
        """Why no format was found: an empty file, or the lines' reject reasons counted."""
        if not self.rejects:
            return "empty file: no JSON lines"
        reasons = Counter(reason for _, reason, _ in self.rejects)
        return (f"no JuDGE ({{text_id, text, fd}}), CAIL ({{fact, meta}}), LeCaRD ({{ajId, qw, "
                f"pjjg}}) or Caseformer ({{id, fact, reason, result, content}}) record: all "
                f"{len(self.rejects)} lines rejected ("
                + ", ".join(f"{k} {n}" for k, n in sorted(reasons.items()))
                + f"; first: {self.rejects[0][2]})")


def record_format(record: dict[str, Any]) -> str | None:
    """The name of the first built-in mapping whose ``detect`` keys ``record`` has: ``judge``
    ({text_id, text, la, fd}), ``cail`` ({fact, meta}), ``lecard`` ({ajId, qw, pjjg, …}),
    ``caseformer`` ({id, fact, reason, result, content}); None."""
    for fmap in BUILTIN_MAPS.values():
        if fmap.matches(record):
            return fmap.name
    return None


def detect_format(path: str | Path | LinesSource, *, encoding: str | None = None,
                  max_line_bytes: int | None = None,
                  field_map: JudgmentFieldMap | None = None) -> JudgmentInput:
    """The format of a judgments file from its first JSON object that has one (lines before
    it that cannot be read are skipped here, and rejected by the reader); the same strict
    reading as :func:`read_judge`. With ``field_map`` (the user's choice) that one is used
    unread. :class:`~buildds.errors.ExtractError` for a file that cannot be read."""
    with open_lines(path, encoding=encoding, max_line_bytes=max_line_bytes) as src:
        found = JudgmentInput(path=src.path, name=src.name, sha256=src.sha256,
                              encoding=src.encoding, format=None)
        if field_map is not None:
            found.format, found.field_map = field_map.name, field_map
            return found
        for item in src:
            if isinstance(item, LineReject):
                found.rejects.append((item.line, item.reason, item.message))
                continue
            found.format = record_format(item.value)
            if found.format is not None:
                found.field_map = BUILTIN_MAPS[found.format]
                found.rejects.clear()
                return found
            message = (f"line {item.line}: not a JuDGE ({{text_id, text, fd}}), CAIL ({{fact, "
                       "meta}), LeCaRD ({ajId, qw, pjjg}) or Caseformer ({id, fact, reason, "
                       "result, content}) record")
            found.rejects.append((item.line, "missing_field", message))
    return found
