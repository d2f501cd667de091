"""JSON lines read strictly, one record at a time: every line is a JSON object or a reject
with its line number and reason — a bad line never stops the rest of the file.

:class:`JsonLinesFile` opens the file with :func:`buildds.safeio.open_regular` (a FIFO or a
link to a device is refused, naming the file), hashes it through the same descriptor,
decodes it with :func:`buildds.safeio.decode_lines` (strict; BOM, UTF-16 and GB18030
detected, or the encoding named) and parses each line with
:func:`buildds.safeio.loads_strict`. Reject reasons (:data:`LineRejectReason`):

* ``encoding`` — bytes that are not text in the file's encoding, or an escaped lone
  surrogate (not a character);
* ``line_too_long`` — a line over the ``line_bytes`` limit (``--max-line-bytes``);
* ``control_character`` — a control character (C0 but tab/newline/CR), raw or escaped;
* ``malformed_json`` — not JSON;
* ``json_limit`` — nesting too deep, a number with too many digits, ``NaN``/``Infinity``;
* ``not_an_object`` — valid JSON but not one object (an array of records, a string …).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO, Literal, NamedTuple, Protocol, Self, runtime_checkable

from buildds.errors import ExtractError
from buildds.safeio.files import open_regular
from buildds.safeio.hashing import sha256_stream
from buildds.safeio.json_strict import JsonLimitError, loads_strict
from buildds.safeio.names import printable_name
from buildds.safeio.text_decoding import DecodedLines, Encoding, decode_lines

__all__ = ["CONTROL_RE", "JsonLine", "JsonLinesFile", "LineReject", "LineRejectReason",
           "LinesSource", "describe_char", "open_lines"]

LineRejectReason = Literal["encoding", "line_too_long", "control_character", "malformed_json",
                           "json_limit", "not_an_object"]

#: control characters (C0 but tab, newline and carriage return) and lone surrogates: JSON
#: refuses them raw in a string, but takes them escaped (``\u0007``, ``\ud800``)
CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
_JSON_KIND = {list: "an array", str: "a string", int: "a number", float: "a number",
              bool: "a boolean", type(None): "null"}


class JsonLine(NamedTuple):
    line: int
    value: dict[str, Any]


class LineReject(NamedTuple):
    line: int
    reason: LineRejectReason
    message: str


def describe_char(ch: str) -> str:
    """``U+0001`` (a control character) or ``U+D800`` (a lone surrogate)."""
    return f"U+{ord(ch):04X}"


def _not_an_object(line: int, value: Any) -> LineReject:
    kind = _JSON_KIND.get(type(value), type(value).__name__)
    if isinstance(value, list):
        kind += f" of {len(value)} value{'' if len(value) == 1 else 's'}"
    return LineReject(line, "not_an_object",
                      f"line {line}: {kind}, not one JSON object (one record per line)")


def _escaped_control(line: int, value: dict[str, Any]) -> LineReject | None:
    """The first string of ``value`` holding a control character or a lone surrogate (only
    an escape can put one there), as a reject naming its key path."""
    stack: list[tuple[str, Any]] = [(k, v) for k, v in reversed(value.items())]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            bad = CONTROL_RE.search(item)
            if bad is None:
                continue
            at = f"at character {bad.start() + 1}"
            if 0xD800 <= ord(bad[0]) <= 0xDFFF:
                return LineReject(line, "encoding", f"line {line}: {path} holds a lone surrogate "
                                  f"{describe_char(bad[0])} (not a character) {at}")
            return LineReject(line, "control_character", f"line {line}: {path} holds the "
                              f"control character {describe_char(bad[0])} {at}")
        elif isinstance(item, dict):
            stack.extend((f"{path}.{k}", v) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(item))))
    return None


def parse_line(line: int, text: str) -> JsonLine | LineReject:
    """One decoded line as a JSON object, or why not."""
    try:
        value = loads_strict(text)
    except JsonLimitError as exc:
        return LineReject(line, "json_limit", f"line {line}: {exc}")
    except json.JSONDecodeError as exc:
        bad = CONTROL_RE.search(text)
        if bad is not None:
            return LineReject(line, "control_character",
                              f"line {line}: control character {describe_char(bad[0])} at "
                              f"column {bad.start() + 1}")
        return LineReject(line, "malformed_json", f"line {line}: {exc}")
    if not isinstance(value, dict):
        return _not_an_object(line, value)
    # an escape is the only way to a control character or a lone surrogate here (a raw one
    # is bad JSON); a lone backslash is cheaper to look for than the pair
    if "\\" in text and "\\u" in text:
        bad_string = _escaped_control(line, value)
        if bad_string is not None:
            return bad_string
    return JsonLine(line, value)


class JsonLinesFile:
    """``with JsonLinesFile(path) as src: for item in src: …`` — see the module docstring.

    ``name`` (printable), ``sha256`` and ``encoding`` are set on entering; opening or
    reading failures are :class:`ExtractError` naming the file."""

    def __init__(self, path: str | Path, *, encoding: str | None = None,
                 max_line_bytes: int | None = None) -> None:
        self.path = Path(path)
        self.name = printable_name(self.path.name)
        self._encoding = encoding
        self._max_line_bytes = max_line_bytes
        self._fh: BinaryIO | None = None
        self._lines: DecodedLines | None = None
        self.sha256 = ""

    @property
    def encoding(self) -> Encoding:
        assert self._lines is not None, "enter the JsonLinesFile first"
        return self._lines.encoding

    #: added to every line number (a shard that starts inside its file: :class:`LinesSource`)
    line_offset = 0

    def _open(self) -> tuple[BinaryIO, str]:
        """The bytes to read (at their start) and the file's sha256 (a shard reads a part)."""
        fh = open_regular(self.path)
        try:
            sha256 = sha256_stream(fh)
            fh.seek(0)
        except BaseException:
            fh.close()
            raise
        return fh, sha256

    def __enter__(self) -> Self:
        try:
            self._fh, self.sha256 = self._open()
        except ExtractError as exc:
            raise ExtractError(exc.message, source=printable_name(self.path)) from None
        except OSError as exc:
            raise ExtractError(f"cannot read: {exc.strerror or exc}", source=self.name) from None
        try:
            hint = "" if self._encoding else "; name the file's encoding with --encoding"
            self._lines = decode_lines(self._fh, encoding=self._encoding,
                                       max_line_bytes=self._max_line_bytes, hint=hint)
        except ValueError as exc:  # an unknown --encoding
            self.close()
            raise ExtractError(str(exc), source=self.name) from None
        except OSError as exc:
            self.close()
            raise ExtractError(f"cannot read: {exc.strerror or exc}", source=self.name) from None
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __iter__(self) -> Iterator[JsonLine | LineReject]:
        assert self._lines is not None, "enter the JsonLinesFile first"
        try:
            for item in self._lines:
                line = item.number + self.line_offset
                if item.text is None:
                    yield LineReject(line, item.reason or "encoding",
                                     _renumber(item.message, item.number, line))
                else:
                    yield parse_line(line, item.text)
        except OSError as exc:
            raise ExtractError(f"cannot read: {exc.strerror or exc}", source=self.name) from None


def _renumber(message: str, number: int, line: int) -> str:
    """A decoder message naming the line in the part read, named by its line in the file."""
    if number == line:
        return message
    return message.replace(f"line {number}", f"line {line}", 1)


@runtime_checkable
class LinesSource(Protocol):
    """A part of a file read as its own lines (a shard,
    :class:`buildds.extract.judgments.shards.Shard`): the readers take it for a path."""

    def lines_file(self, *, encoding: str | None = None,
                   max_line_bytes: int | None = None) -> JsonLinesFile: ...


def open_lines(path: str | Path | LinesSource, *, encoding: str | None = None,
               max_line_bytes: int | None = None) -> JsonLinesFile:
    """The :class:`JsonLinesFile` of a file, or of the part of one a :class:`LinesSource`
    names."""
    if isinstance(path, LinesSource):
        return path.lines_file(encoding=encoding, max_line_bytes=max_line_bytes)
    return JsonLinesFile(path, encoding=encoding, max_line_bytes=max_line_bytes)
