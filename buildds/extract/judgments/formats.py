"""Which format a judgments file holds (:func:`detect_format`, :func:`record_format`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from buildds.extract.json_lines import JsonLinesFile, LineReject
from buildds.safeio.text_decoding import Encoding

__all__ = ["JudgmentInput", "detect_format", "record_format"]


@dataclass
class JudgmentInput:
    """What :func:`detect_format` found: the file's printable ``name``, ``sha256``,
    ``encoding`` and ``format`` (``None`` when no line names one; then ``rejects`` holds
    (line, reason, message) of every line, read to the end)."""

    path: Path
    name: str
    sha256: str
    encoding: Encoding
    format: Literal["judge", "cail"] | None
    rejects: list[tuple[int, str, str]] = field(default_factory=list)

    def no_format_message(self) -> str:
        """Why no format was found: an empty file, or the lines' reject reasons counted."""
        if not self.rejects:
            return "empty file: no JSON lines"
        reasons = Counter(reason for _, reason, _ in self.rejects)
        return (f"no JuDGE ({{text_id, text, fd}}) or CAIL ({{fact, meta}}) record: all "
                f"{len(self.rejects)} lines rejected ("
                + ", ".join(f"{k} {n}" for k, n in sorted(reasons.items()))
                + f"; first: {self.rejects[0][2]})")


def record_format(record: dict[str, Any]) -> Literal["judge", "cail"] | None:
    """``judge`` ({text_id, text, la, fd}), ``cail`` ({fact, meta}) or None."""
    if "fd" in record or "text_id" in record:
        return "judge"
    if "fact" in record and "meta" in record:
        return "cail"
    return None


def detect_format(path: str | Path, *, encoding: str | None = None,
                  max_line_bytes: int | None = None) -> JudgmentInput:
    """The format of a judgments file from its first JSON object that has one (lines before
    it that cannot be read are skipped here, and rejected by the reader); the same strict
    reading as :func:`read_judge`. :class:`~buildds.errors.ExtractError` for a file that
    cannot be read."""
    with JsonLinesFile(path, encoding=encoding, max_line_bytes=max_line_bytes) as src:
        found = JudgmentInput(path=Path(path), name=src.name, sha256=src.sha256,
                              encoding=src.encoding, format=None)
        for item in src:
            if isinstance(item, LineReject):
                found.rejects.append((item.line, item.reason, item.message))
                continue
            found.format = record_format(item.value)
            if found.format is not None:
                found.rejects.clear()
                return found
            message = (f"line {item.line}: neither JuDGE ({{text_id, text, fd}}) nor CAIL "
                       "({fact, meta}) fields")
            found.rejects.append((item.line, "missing_field", message))
    return found
