"""A string → string map kept on disk (SQLite, the standard library's), for what a run must
remember of every record it has read — the ids and case keys a sharded ``buildds judgments``
de-duplicates across its inputs (:mod:`buildds.jobs.judgments_sharded`) — so that its
memory does not grow with the corpus (issue 18). It answers the few questions a ``dict``
is asked there (``in``, ``[]``, ``get``, assignment); lookups cost a few
microseconds, far below parsing the record they guard.

The file is scratch space: created empty (an old one is removed), never synced (no
journal, no fsync: a crash loses nothing that a re-run does not rebuild) and removed by
:meth:`SpilledMap.close`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, MutableMapping
from pathlib import Path

__all__ = ["SpilledMap"]


class SpilledMap(MutableMapping[str, str]):
    """``key → value`` strings in a SQLite file at ``path`` (see the module docstring)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.unlink(missing_ok=True)
        self._db: sqlite3.Connection | None = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=OFF")
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute("CREATE TABLE kv (k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID")
        self._db.execute("BEGIN")

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise ValueError(f"{self.path}: the map is closed")
        return self._db

    def get(self, key: str, default: str | None = None) -> str | None:
        row = self._conn().execute("SELECT v FROM kv WHERE k = ?", (key,)).fetchone()
        return default if row is None else str(row[0])

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __getitem__(self, key: str) -> str:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def __setitem__(self, key: str, value: str) -> None:
        self._conn().execute("INSERT OR REPLACE INTO kv VALUES (?, ?)", (key, value))

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        self._conn().execute("DELETE FROM kv WHERE k = ?", (key,))

    def __iter__(self) -> Iterator[str]:
        return (str(k) for (k,) in self._conn().execute("SELECT k FROM kv ORDER BY k").fetchall())

    def __len__(self) -> int:
        return int(self._conn().execute("SELECT count(*) FROM kv").fetchone()[0])

    def close(self) -> None:
        """Close and remove the file (the map is empty afterwards)."""
        if self._db is not None:
            self._db.close()
            self._db = None
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> SpilledMap:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
