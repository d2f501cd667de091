"""Content hashes (sha256, hex) of bytes, a file or the rest of a stream: the bottom floor's
home for them, so the readers in :mod:`buildds.safeio` need nothing from the runner, and
every stage imports them from here."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import BinaryIO

__all__ = ["sha256_bytes", "sha256_file", "sha256_stream"]


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path) -> str:
    with open(path, "rb") as fh:
        return sha256_stream(fh)


def sha256_stream(fh: BinaryIO) -> str:
    """sha256 of what is left to read in ``fh``, read in 1 MiB chunks."""
    h = hashlib.sha256()
    for chunk in iter(lambda: fh.read(1 << 20), b""):
        h.update(chunk)
    return h.hexdigest()
