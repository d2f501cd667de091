"""What the statute readers share: a file's bytes read within the limit, its
:class:`~buildds.schema.core.Source`, and UTF-8 decoding that names the file when it fails."""

from __future__ import annotations

from pathlib import Path

from buildds.errors import ExtractError
from buildds.safeio import LIMITS, read_bytes_limited
from buildds.safeio.hashing import sha256_bytes
from buildds.schema.core import Source

__all__ = ["decode_utf8", "read_statute_bytes", "source_of"]


def read_statute_bytes(path: str | Path) -> bytes:
    """The bytes of one statute file (a regular file within the ``side_file_bytes`` limit)."""
    return read_bytes_limited(path, max_bytes=LIMITS["side_file_bytes"].default)


def source_of(path: str | Path, data: bytes) -> Source:
    return Source(path=str(path), sha256=sha256_bytes(data))


def decode_utf8(path: str | Path, data: bytes) -> str:
    """``data`` as UTF-8 (a BOM dropped); an :class:`ExtractError` naming the file and the
    byte offset otherwise."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ExtractError(f"not UTF-8 text (byte {exc.start})", source=str(path)) from None
