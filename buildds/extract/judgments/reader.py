"""What reading JuDGE and CAIL records shares: the strict line reader's rejects with the file
and line (:class:`RecordReader`), the ids seen across files, and the checks of a record's
fields (:func:`text_field`, :func:`id_field`: the reason and message of an unusable field)."""

from __future__ import annotations

from typing import Any

from buildds.extract.json_lines import JsonLinesFile, LineReject
from buildds.schema.core import Source
from buildds.schema.judgments import JudgmentReject

__all__ = ["FieldProblem", "RecordReader", "id_field", "kind_of", "text_field", "unique"]

#: (reason, message without the line number) of a record field that cannot be used
FieldProblem = tuple[str, str]


def unique(items: list[Any]) -> tuple[Any, ...]:
    """``items`` without repeats, in first-seen order."""
    return tuple(dict.fromkeys(items))


def kind_of(value: Any) -> str:
    """What a JSON value is, for a message (``a list``, ``null`` …)."""
    return {list: "a list", dict: "an object", str: "a string", bool: "a boolean",
            int: "a number", float: "a number", type(None): "null"}.get(type(value), "a value")


def text_field(record: dict[str, Any], key: str, what: str) -> FieldProblem | None:
    """Why ``record[key]`` is not a usable non-empty text, or None."""
    value = record.get(key)
    if value is None:
        return "missing_field", f"no {what} ({key})"
    if not isinstance(value, str):
        return "wrong_type", f"{key} ({what}) is {kind_of(value)}, not a string"
    if not value.strip():
        return "empty_field", f"{key} ({what}) is empty"
    return None


def id_field(record: dict[str, Any], key: str) -> FieldProblem | None:
    """Why ``record[key]`` is not a usable id (absent is fine), or None."""
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        return "wrong_type", f"{key} is {kind_of(value)}, not a string"
    return None


class RecordReader:
    """What both formats share: the strict line reader, rejects with the file and line, and
    the ids seen (``seen``: id → ``<file> line <n>``, shared across files by the caller)."""

    def __init__(self, src: JsonLinesFile, dataset: str,
                 seen: dict[str, str] | None) -> None:
        self.src, self.dataset = src, dataset
        self.source = Source(path=src.name, sha256=src.sha256)
        self.seen = {} if seen is None else seen

    def reject(self, line: int, reason: Any, message: str, rid: str | None = None
               ) -> JudgmentReject:
        return JudgmentReject(dataset=self.dataset, source=self.source.path, line=line, id=rid,
                              reason=reason, message=f"line {line}: {message}")

    def line_reject(self, item: LineReject) -> JudgmentReject:
        return JudgmentReject(dataset=self.dataset, source=self.source.path, line=item.line,
                              reason=item.reason, message=item.message)

    def duplicate(self, line: int, rid: str) -> JudgmentReject | None:
        """A reject when ``rid`` was seen before; otherwise ``rid`` is recorded."""
        first = self.seen.get(rid)
        if first is not None:
            return self.reject(line, "duplicate_id", f"id {rid} is already {first} "
                               "(the first is kept)", rid)
        self.seen[rid] = f"{self.source.path} line {line}"
        return None
