"""A judgments input read as **shards**: small parts of a file, each read on its own, so no
step holds a whole corpus (issues 13 and 18).

A :class:`Shard` is a small picklable record — the file, its ``format``, the part (``start``,
``end``), the line number the part starts at, the file's sha256 and encoding — with a stable
``id`` (the file's content hash and the part, never the run or the order). Formats:

- ``jsonl`` (JSON lines; JuDGE's ``test.json`` is one): byte ranges, each ending at a line
  end, so a line is never cut (a UTF-16 file, whose newline is two bytes, is one shard);
- ``jsonl.gz``: ranges of lines (``start``/``end`` count lines from 0): gzip cannot seek, so
  a shard decompresses from the start and skips the lines before it;
- ``parquet``: ranges of row groups; a row is one record (its line is its row number).

A shard is a :class:`~buildds.extract.json_lines.LinesSource`: every reader takes it in
place of a path (:func:`~buildds.extract.judgments.load_input`), and reads only its lines,
numbered as in the file, so rejects name the file and the line as a whole-file read does.
A shard's bytes are read into memory (a shard is small: ``shard_bytes``).
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from buildds.errors import ExtractError
from buildds.extract.json_lines import JsonLinesFile
from buildds.safeio.files import open_regular
from buildds.safeio.hashing import sha256_bytes, sha256_stream
from buildds.safeio.names import printable_name

__all__ = ["DEFAULT_SHARD_BYTES", "Shard", "ShardFormat", "shard_format", "split_input"]

ShardFormat = Literal["jsonl", "jsonl.gz", "parquet"]
#: the size of a shard when none is named: small enough to hold, large enough to amortise
DEFAULT_SHARD_BYTES = 4 << 20
_CHUNK = 1 << 20


@contextmanager
def _readable(path: str | Path, what: str) -> Iterator[None]:
    """A broken gzip or parquet file as an :class:`ExtractError` naming it (the run goes on
    with the other inputs)."""
    try:
        yield
    except ExtractError:
        raise
    except (OSError, EOFError, zlib.error, ValueError) as exc:  # pyarrow's errors are ValueError
        raise ExtractError(f"cannot read the {what}: {exc}",
                           source=printable_name(Path(path).name)) from None


def shard_format(path: Path) -> ShardFormat:
    """The format by the file's name: ``.gz`` gzip JSON lines, ``.parquet``, else JSON lines."""
    name = path.name.lower()
    if name.endswith(".gz"):
        return "jsonl.gz"
    if name.endswith(".parquet"):
        return "parquet"
    return "jsonl"


@dataclass(frozen=True)
class Shard:
    """One part of an input file (see the module docstring)."""

    path: str
    format: ShardFormat
    #: bytes (jsonl), lines from 0 (jsonl.gz) or row groups (parquet): [start, end)
    start: int
    end: int
    #: the file's line number of the part's first line (1-based)
    first_line: int
    #: the whole file's sha256 (the records' provenance), and the encoding to read it in
    sha256: str
    encoding: str | None = None

    @property
    def name(self) -> str:
        return printable_name(Path(self.path).name)

    @property
    def id(self) -> str:
        """Stable: the file's name and content hash and the part (not the run, not order)."""
        stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in Path(self.path).name)
        key = sha256_bytes(f"{self.sha256}:{self.format}:{self.start}:{self.end}".encode())
        return f"{stem[:40]}-{self.start:012d}-{key[:12]}"

    def lines_file(self, *, encoding: str | None = None,
                   max_line_bytes: int | None = None) -> JsonLinesFile:
        """The shard's lines, read as a :class:`JsonLinesFile` of its own (the readers'
        ``path``); ``encoding`` applies where the shard names none."""
        return _ShardLines(self, encoding=self.encoding or encoding,
                           max_line_bytes=max_line_bytes)

    def read_bytes(self) -> bytes:
        """The shard's lines as bytes (a parquet shard: one JSON object a line, UTF-8);
        :class:`ExtractError` for a file that cannot be read."""
        with _readable(self.path, f"{self.format} file"):
            return self._read_bytes()

    def _read_bytes(self) -> bytes:
        if self.format == "jsonl":
            with open_regular(Path(self.path)) as fh:
                fh.seek(self.start)
                return fh.read(self.end - self.start)
        if self.format == "jsonl.gz":
            out = io.BytesIO()
            with open_regular(Path(self.path)) as raw, gzip.GzipFile(fileobj=raw) as fh:
                for i, line in enumerate(fh):
                    if i >= self.end:
                        break
                    if i >= self.start:
                        out.write(line)
            return out.getvalue()
        import pyarrow.parquet as pq

        with open_regular(Path(self.path)) as raw:
            table = pq.ParquetFile(raw).read_row_groups(list(range(self.start, self.end)))
        return "".join(json.dumps(r, ensure_ascii=False, default=str) + "\n"
                       for r in table.to_pylist()).encode("utf-8")


class _ShardLines(JsonLinesFile):
    """A :class:`JsonLinesFile` over one shard's bytes, its lines numbered as in the file."""

    def __init__(self, shard: Shard, *, encoding: str | None,
                 max_line_bytes: int | None) -> None:
        super().__init__(shard.path, encoding=encoding, max_line_bytes=max_line_bytes)
        self.shard = shard
        self.line_offset = shard.first_line - 1

    def _open(self) -> tuple[BinaryIO, str]:
        return io.BytesIO(self.shard.read_bytes()), self.shard.sha256


# --------------------------------------------------------------------------- splitting
def split_input(path: str | Path, *, shard_bytes: int = DEFAULT_SHARD_BYTES,
                encoding: str | None = None, sha256: str | None = None) -> list[Shard]:
    """The shards of one input file, in file order; ``encoding`` (the file's, as found by
    the probe) is named on every shard but the first (which reads any byte-order mark and
    detects as a whole-file read does). An empty file is one empty shard."""
    path = Path(path)
    fmt = shard_format(path)
    if sha256 is None:
        with open_regular(path) as fh:
            sha256 = sha256_stream(fh)
    later = encoding if encoding is None or "\n".encode(encoding) == b"\n" else None
    if fmt == "parquet":
        with _readable(path, "parquet file"):
            return _parquet_shards(path, shard_bytes, sha256)
    if fmt == "jsonl.gz":
        with _readable(path, "gzip file"):
            return _gz_shards(path, shard_bytes, sha256, later)
    if encoding is not None and later is None:  # a two-byte newline: no byte split
        return [Shard(str(path), "jsonl", 0, path.stat().st_size, 1, sha256)]
    return _jsonl_shards(path, shard_bytes, sha256, later)


def _jsonl_shards(path: Path, shard_bytes: int, sha256: str, later: str | None
                  ) -> list[Shard]:
    """Byte ranges of about ``shard_bytes``, each extended to the end of its last line."""
    shards: list[Shard] = []
    with open_regular(path) as fh:
        size = fh.seek(0, io.SEEK_END)
        start, line = 0, 1
        while start < size or not shards:
            end = min(size, start + max(1, shard_bytes))
            if end < size:
                fh.seek(end - 1)
                fh.readline()  # to the end of the line the range stops in
                end = fh.tell()
            shards.append(Shard(str(path), "jsonl", start, end, line, sha256,
                                None if not shards else later))
            line += _newlines(fh, start, end)
            start = end
    return shards


def _newlines(fh: BinaryIO, start: int, end: int) -> int:
    fh.seek(start)
    count, left = 0, end - start
    while left > 0:
        chunk = fh.read(min(_CHUNK, left))
        if not chunk:
            break
        count += chunk.count(b"\n")
        left -= len(chunk)
    return count


def _gz_shards(path: Path, shard_bytes: int, sha256: str, later: str | None) -> list[Shard]:
    """Ranges of lines of about ``shard_bytes`` uncompressed."""
    shards: list[Shard] = []
    with open_regular(path) as raw, gzip.GzipFile(fileobj=raw) as fh:
        start, size, n = 0, 0, 0
        for n, line in enumerate(fh, 1):
            size += len(line)
            if size >= shard_bytes:
                shards.append(Shard(str(path), "jsonl.gz", start, n, start + 1, sha256,
                                    None if not shards else later))
                start, size = n, 0
    if n > start or not shards:
        shards.append(Shard(str(path), "jsonl.gz", start, n, start + 1, sha256,
                            None if not shards else later))
    return shards


def _parquet_shards(path: Path, shard_bytes: int, sha256: str) -> list[Shard]:
    """Runs of row groups of about ``shard_bytes`` (uncompressed, as the metadata says)."""
    import pyarrow.parquet as pq

    with open_regular(path) as raw:
        meta = pq.ParquetFile(raw).metadata
    shards: list[Shard] = []
    start, size, rows, first = 0, 0, 0, 1
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        size += group.total_byte_size
        rows += group.num_rows
        if size >= shard_bytes or g == meta.num_row_groups - 1:
            shards.append(Shard(str(path), "parquet", start, g + 1, first, sha256, "utf-8"))
            start, size, first = g + 1, 0, first + rows
            rows = 0
    return shards or [Shard(str(path), "parquet", 0, 0, 1, sha256, "utf-8")]
