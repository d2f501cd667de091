"""What the statute readers share: a file's bytes read within the limit, its
:class:`~buildds.schema.core.Source`, and UTF-8 decoding that names the file when it fails."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from buildds.errors import ExtractError, LimitExceeded
from buildds.safeio import LIMITS, read_bytes_limited
from buildds.safeio.hashing import sha256_bytes
from buildds.schema.core import Source

__all__ = ["counted", "decode_utf8", "read_statute_bytes", "source_of"]

T = TypeVar("T")


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


def counted(articles: Iterable[T], where: str) -> Iterator[T]:
    """``articles`` (a reader's article elements or drafts) one by one, stopping with
    :class:`LimitExceeded` naming the file once there are more than the ``statute_articles``
    limit allows — before the work of building them is done."""
    limit = LIMITS["statute_articles"]
    for n, article in enumerate(articles, 1):
        if n > limit.default:
            raise LimitExceeded("articles in the file: at least", f"{n:,}",
                                f"{limit.default:,}", option=limit.how_to_raise, source=where)
        yield article
