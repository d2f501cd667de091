"""Text lines from bytes, decoded strictly: a byte that is not text in the file's encoding
makes *its line* a reject (with the line number), never a replacement character and never
the end of the run.

The encoding of a file is, in this order:

* the one the caller names (``--encoding``); a BOM of the same family is skipped;
* a byte-order mark: UTF-8, UTF-16 LE/BE, UTF-32 LE/BE;
* UTF-16/32 without a BOM, from the NUL bytes around the first character (RFC 4627 §3:
  a JSON text starts with an ASCII character);
* GB18030 (a superset of GBK) when most non-ASCII lines of the first
  :data:`SAMPLE_BYTES` are not UTF-8, most decode strictly as GB18030, and what they decode
  to is mostly CJK text (ideographs, CJK and full-width punctuation) — random bytes and
  Latin-1 text fail one of the three;
* otherwise UTF-8.

:func:`decode_lines` streams the file line by line (a line is split at the encoding's own
newline code unit, so UTF-16 text whose code units hold a 0x0A byte is not cut), with a
limit on the bytes of one line (:data:`~buildds.safeio.limits.LIMITS` ``line_bytes``): an
over-long line is skipped without being held in memory.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, Literal, NamedTuple

from buildds.safeio.limits import LIMITS

__all__ = ["SAMPLE_BYTES", "DecodedLines", "Encoding", "TextLine", "check_encoding",
           "decode_lines", "detect_encoding"]

#: bytes read from the start of a file to detect its encoding
SAMPLE_BYTES = 256 * 1024
_CHUNK = 1 << 16
_CJK_SHARE = 0.8

_BOMS: tuple[tuple[bytes, str], ...] = (  # UTF-32 LE first: its BOM starts like UTF-16 LE's
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


@dataclass(frozen=True)
class Encoding:
    """How a file is decoded: ``name`` (a Python codec), where it came from, and the
    byte-order mark skipped at the start (``b""`` when none)."""

    name: str
    found_by: Literal["option", "bom", "content"]
    bom: bytes = b""

    def describe(self) -> str:
        how = {"option": "named with --encoding", "bom": "byte-order mark",
               "content": "detected"}[self.found_by]
        return f"{self.name} ({how})"


class TextLine(NamedTuple):
    """One non-blank line: ``text`` when it decoded, else ``reason`` and ``message``."""

    number: int
    text: str | None
    reason: Literal["encoding", "line_too_long"] | None = None
    message: str = ""


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return (0x4E00 <= o <= 0x9FFF or 0x3000 <= o <= 0x303F or 0xFF00 <= o <= 0xFFEF
            or 0x3400 <= o <= 0x4DBF or 0x2000 <= o <= 0x206F or 0xF900 <= o <= 0xFAFF)


def _decodes(raw: bytes, codec: str, final: bool) -> str | None:
    try:
        return codecs.getincrementaldecoder(codec)("strict").decode(raw, final=final)
    except UnicodeDecodeError:
        return None


def detect_encoding(sample: bytes, *, whole: bool = False) -> Encoding:
    """The encoding of a file that starts with ``sample`` (``whole``: the sample is the whole
    file); see the module docstring."""
    for bom, name in _BOMS:
        if sample.startswith(bom):
            return Encoding(name, "bom", bom)
    head = sample[:4]
    if len(head) == 4:
        if head[:3] == b"\0\0\0" and head[3]:
            return Encoding("utf-32-be", "content")
        if head[0] and head[1:] == b"\0\0\0":
            return Encoding("utf-32-le", "content")
        if head[0] == 0 and head[2] == 0 and head[1] and head[3]:
            return Encoding("utf-16-be", "content")
        if head[1] == 0 and head[3] == 0 and head[0] and head[2]:
            return Encoding("utf-16-le", "content")
    lines = sample.split(b"\n")
    last_partial = not whole
    if last_partial and len(lines) > 1:
        lines.pop()  # cut by the sample's end
        last_partial = False
    non_ascii = [line for line in lines if not line.isascii()]
    if not non_ascii:
        return Encoding("utf-8", "content")
    final = not last_partial
    not_utf8 = sum(1 for line in non_ascii if _decodes(line, "utf-8", final) is None)
    if not_utf8 * 2 <= len(non_ascii):
        return Encoding("utf-8", "content")
    decoded = [t for line in non_ascii if (t := _decodes(line, "gb18030", final)) is not None]
    if len(decoded) * 2 <= len(non_ascii):
        return Encoding("utf-8", "content")
    wide = [ch for text in decoded for ch in text if not ch.isascii()]
    if wide and sum(1 for ch in wide if _is_cjk(ch)) >= _CJK_SHARE * len(wide):
        return Encoding("gb18030", "content")
    return Encoding("utf-8", "content")


def check_encoding(name: str) -> str:
    """The codec name of ``name`` when it can decode line-based input; :class:`ValueError`
    otherwise (see :func:`_declared`)."""
    return _declared(name, b"").name


def _declared(name: str, sample: bytes) -> Encoding:
    """The encoding the caller named, made concrete (UTF-16/32 byte order from the BOM, or
    little-endian); :class:`ValueError` for a name that is not a text encoding or whose
    newline is not one 0x0A byte (or a UTF-16/32 code unit)."""
    try:
        codec = codecs.lookup(name).name
        "\n".encode(codec)
    except LookupError:
        raise ValueError(f"{name!r} is not a text encoding Python knows") from None
    family = codec.replace("_", "-")
    if family in ("utf-16", "utf-32"):
        for bom, concrete in _BOMS:
            if concrete.startswith(family) and sample.startswith(bom):
                return Encoding(concrete, "option", bom)
        return Encoding(f"{family}-le", "option")
    for bom, concrete in _BOMS:
        if concrete == family and sample.startswith(bom):
            return Encoding(concrete, "option", bom)
    if family in ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        return Encoding(family, "option")
    if "\n".encode(codec) != b"\n":
        raise ValueError(f"{name!r}: lines in this encoding do not end in a 0x0A byte; "
                         "convert the file to UTF-8")
    return Encoding(codec, "option")


class DecodedLines:
    """The non-blank lines of a binary file object, decoded (see :func:`decode_lines`)."""

    def __init__(self, fh: BinaryIO, *, encoding: str | None = None,
                 max_line_bytes: int | None = None, hint: str = "") -> None:
        self._fh = fh
        self.max_line_bytes = (LIMITS["line_bytes"].default if max_line_bytes is None
                               else max_line_bytes)
        self._hint = hint
        start = fh.tell()
        sample = fh.read(SAMPLE_BYTES)
        whole = len(sample) < SAMPLE_BYTES or not fh.read(1)
        self.encoding = (_declared(encoding, sample) if encoding
                         else detect_encoding(sample, whole=whole))
        fh.seek(start + len(self.encoding.bom))
        self._newline = "\n".encode(self.encoding.name)

    def __iter__(self) -> Iterator[TextLine]:
        raw_lines = (self._byte_lines() if len(self._newline) == 1
                     else self._unit_lines(len(self._newline)))
        codec = self.encoding.name
        for number, (raw, size) in enumerate(raw_lines, start=1):
            if raw is None:
                option = LIMITS["line_bytes"].option
                yield TextLine(number, None, "line_too_long",
                               f"line {number}: {size:,} bytes exceed the limit of "
                               f"{self.max_line_bytes:,} bytes per line (raise it with {option})")
                continue
            try:
                text = raw.decode(codec)
            except UnicodeDecodeError as exc:
                bad = raw[exc.start:min(exc.end, exc.start + 4)].hex(" ")
                yield TextLine(number, None, "encoding",
                               f"line {number}: not {codec} text at byte {exc.start + 1} of the "
                               f"line ({bad}: {exc.reason}); the file was read as "
                               f"{self.encoding.describe()}{self._hint}")
                continue
            if text and not text.isspace():
                yield TextLine(number, text)

    def _byte_lines(self) -> Iterator[tuple[bytes | None, int]]:
        """(line without its newline, size), or (None, size) for an over-long line."""
        limit = self.max_line_bytes
        readline = self._fh.readline
        while True:
            raw = readline(limit + 1)
            if not raw:
                return
            if raw.endswith(b"\n"):
                yield raw[:-1], len(raw) - 1
                continue
            if len(raw) <= limit:  # the last line, without a newline
                yield raw, len(raw)
                return
            size = len(raw)
            while True:  # skip the rest of the line, a chunk at a time
                rest = readline(_CHUNK)
                size += len(rest)
                if not rest or rest.endswith(b"\n"):
                    break
            yield None, size - (1 if rest.endswith(b"\n") else 0)

    def _unit_lines(self, unit: int) -> Iterator[tuple[bytes | None, int]]:
        """As :meth:`_byte_lines` for UTF-16/32: a newline is a whole code unit at a unit
        boundary of the line."""
        newline, limit = self._newline, self.max_line_bytes
        buf = bytearray()
        scan = 0  # where to look for the next newline in buf
        dropped = 0  # bytes of the current over-long line already thrown away
        eof = False
        while True:
            i = buf.find(newline, scan)
            while i >= 0 and i % unit:
                i = buf.find(newline, i + 1)
            if i >= 0:
                size = dropped + i
                yield (bytes(buf[:i]) if not dropped and size <= limit else None), size
                del buf[:i + unit]
                scan, dropped = 0, 0
                continue
            if eof:
                if buf or dropped:
                    size = dropped + len(buf)
                    yield (bytes(buf) if not dropped and size <= limit else None), size
                return
            if len(buf) > limit:  # no newline within the limit: drop whole code units
                cut = len(buf) - len(buf) % unit
                dropped += cut
                del buf[:cut]
            scan = max(0, len(buf) - unit + 1)
            scan -= scan % unit
            chunk = self._fh.read(_CHUNK)
            eof = not chunk
            buf += chunk


def decode_lines(fh: BinaryIO, *, encoding: str | None = None,
                 max_line_bytes: int | None = None, hint: str = "") -> DecodedLines:
    """The non-blank lines of ``fh`` (opened in binary mode, seekable), decoded strictly:
    iterate the result for :class:`TextLine` s (numbered from 1, blank lines counted);
    ``.encoding`` says how the file is read. ``encoding`` names it (else it is detected,
    see the module docstring); ``hint`` is appended to the message of an undecodable line
    (e.g. how to name the encoding). :class:`ValueError` for an unknown ``encoding``."""
    return DecodedLines(fh, encoding=encoding, max_line_bytes=max_line_bytes, hint=hint)
