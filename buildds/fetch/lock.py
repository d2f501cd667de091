"""The lock file ``<dest>/jbe.lock.json``: the sha256 and size of every file as first
downloaded (or first found in place), so that later runs verify each file against it and
report any change instead of trusting whatever the server serves today.

Format (deterministic: sorted keys, no timestamps)::

    {"description": "...", "files": {"2015/kenpo-mondai.pdf":
        {"sha256": "...", "size": 12345, "url": "https://..."}}}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from buildds.errors import BuildError, FetchError
from buildds.pipeline import atomic_write_text
from buildds.safeio import loads_strict, read_side_file

__all__ = ["LOCK_NAME", "LockEntry", "read_lock", "write_lock"]

#: The lock file's name inside ``--dest``.
LOCK_NAME = "jbe.lock.json"
_DESCRIPTION = ("sha256 and size of every bar-exam PDF as first fetched by `buildds fetch jbe`; "
                "later runs verify each file against it. Accept a change with --update-lock.")


@dataclass(frozen=True)
class LockEntry:
    """One locked file: its sha256, size in bytes and the URL it came from (None if placed by
    hand)."""

    sha256: str
    size: int
    url: str | None


def read_lock(path: Path) -> dict[str, LockEntry]:
    """The entries of the lock file at ``path`` by relative path; empty when it is absent."""
    if not path.exists():
        return {}
    try:
        data = loads_strict(read_side_file(path))
    except (BuildError, OSError, ValueError) as exc:
        raise FetchError(f"cannot read lock file ({exc})", source=str(path)) from exc
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        raise FetchError("lock file must be an object with a 'files' object", source=str(path))
    out: dict[str, LockEntry] = {}
    for rel, e in files.items():
        if not (isinstance(e, dict) and isinstance(e.get("sha256"), str)
                and isinstance(e.get("size"), int)):
            raise FetchError(f"lock entry {rel!r} needs sha256 and size", source=str(path))
        out[str(rel)] = LockEntry(e["sha256"], e["size"], e.get("url"))
    return out


def write_lock(path: Path, entries: dict[str, LockEntry]) -> None:
    """Write ``entries`` to ``path`` atomically, sorted by relative path."""
    files = {rel: {"sha256": e.sha256, "size": e.size, "url": e.url}
             for rel, e in sorted(entries.items())}
    text = json.dumps({"description": _DESCRIPTION, "files": files}, ensure_ascii=False,
                      indent=1, sort_keys=True) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)
