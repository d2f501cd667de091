"""What the untouched-row matching (:mod:`buildds.inject_errors.normal_matching`) must hold
of every row, kept in SQLite (the standard library's) so that a sharded ``buildds judgments``
run's memory does not grow with the corpus (issue 18).

:class:`MatchStore` holds the candidates (rank, id, one bin per level), the chosen ones
(judgment id → error type, level) and the injected rows left out (row id, error type, source
id). The selection asks it for a bin's best candidates not chosen yet (an index per level:
a query reads only the rows it returns and the chosen ones it skips) where it used to keep a
heap of the bin's quota in memory, and for the injected rows to leave out of a short bin
where it kept a heap of them. The answers are those of the heaps: the same rows, byte for byte.

A whole-corpus run keeps its store in memory (``path`` None); a sharded run's is a scratch
file under ``OUT/.shards/`` (no journal, no fsync; removed by :meth:`MatchStore.close`).
:attr:`MatchStore.chosen` and :attr:`MatchStore.left` are read-only views, asked per row
while the shards' rows are merged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

__all__ = ["ChosenView", "LeftView", "MatchStore"]

#: candidates inserted per statement batch
_BATCH = 5000


class MatchStore:
    """The matching's tables for ``levels`` bin levels (see the module docstring)."""

    def __init__(self, levels: int, path: str | Path | None = None) -> None:
        self.levels, self.path = levels, None if path is None else Path(path)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.unlink(missing_ok=True)
        self._db: sqlite3.Connection | None = sqlite3.connect(
            ":memory:" if self.path is None else self.path, isolation_level=None)
        db = self._db
        db.execute("PRAGMA journal_mode=OFF")
        db.execute("PRAGMA synchronous=OFF")
        bins = ", ".join(f"b{i} TEXT NOT NULL" for i in range(levels))
        db.execute(f"CREATE TABLE cand (rank BLOB NOT NULL, id TEXT NOT NULL, {bins})")
        db.execute("CREATE TABLE chosen (id TEXT PRIMARY KEY, etype TEXT NOT NULL, "
                   "level INTEGER NOT NULL) WITHOUT ROWID")
        db.execute("CREATE TABLE left (row_id TEXT PRIMARY KEY, etype TEXT NOT NULL, "
                   "source_id TEXT) WITHOUT ROWID")
        self._indexed = False
        self.chosen = ChosenView(self)
        self.left = LeftView(self)

    def conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise ValueError(f"{self.path or 'the match store'}: closed")
        return self._db

    def add_candidates(self, candidates: Iterable[tuple[str, str, tuple[str, ...]]]) -> int:
        """Every candidate (rank as hex, id, bins finest first); how many."""
        db, n, batch = self.conn(), 0, []
        sql = f"INSERT INTO cand VALUES (?, ?, {', '.join('?' * self.levels)})"
        db.execute("BEGIN")
        for rank, cid, bins in candidates:
            batch.append((bytes.fromhex(rank), cid, *bins))
            if len(batch) >= _BATCH:
                db.executemany(sql, batch)
                n, batch = n + len(batch), []
        db.executemany(sql, batch)
        for i in range(self.levels):  # a bin's candidates in rank order, per level
            db.execute(f"CREATE INDEX cand_b{i} ON cand (b{i}, rank, id)")
        db.execute("COMMIT")
        self._indexed = True
        return n + len(batch)

    def best(self, level: int, key: str, n: int) -> list[tuple[str, str]]:
        """(rank, id) of the ``n`` best-ranked candidates of bin ``key`` at ``level`` not
        chosen yet — the smallest ranks, a tie to the larger id, as a bounded heap of
        (−rank, id) keeps — sorted by (rank, id)."""
        assert self._indexed, "add_candidates first"
        rows = self.conn().execute(
            f"SELECT rank, id FROM cand WHERE b{level} = ? AND NOT EXISTS "
            "(SELECT 1 FROM chosen WHERE chosen.id = cand.id) "
            "ORDER BY rank, id DESC LIMIT ?", (key, n)).fetchall()
        return sorted((bytes(r).hex(), str(i)) for r, i in rows)

    def choose(self, ids: Iterable[str], etype: str, level: int) -> None:
        """``ids`` chosen for ``etype`` at ``level`` (a later choice of an id replaces it)."""
        self.conn().executemany("INSERT OR REPLACE INTO chosen VALUES (?, ?, ?)",
                                ((i, etype, level) for i in ids))

    def stage(self, rows: Iterable[tuple[str, str, str, str]]) -> None:
        """Injected rows that may be left out: (error type, coarsest bin, order key, row id)."""
        db = self.conn()
        db.execute("CREATE TEMP TABLE IF NOT EXISTS staged (etype TEXT, bin TEXT, k TEXT, "
                   "row_id TEXT)")
        db.execute("DELETE FROM staged")
        db.execute("BEGIN")
        db.executemany("INSERT INTO staged VALUES (?, ?, ?, ?)", rows)
        db.execute("CREATE INDEX IF NOT EXISTS staged_bin ON staged (etype, bin, k, row_id)")
        db.execute("COMMIT")

    def leave_out(self, etype: str, key: str, n: int) -> int:
        """Of the staged rows of ``etype`` in coarsest bin ``key``, the ``n`` largest by
        (order key, row id) left out — what a bounded heap of them keeps; how many."""
        return int(self.conn().execute(
            "INSERT OR REPLACE INTO left (row_id, etype) SELECT row_id, etype FROM staged "
            "WHERE etype = ? AND bin = ? ORDER BY k DESC, row_id DESC LIMIT ?",
            (etype, key, n)).rowcount)

    def add_sources(self, pairs: Iterable[tuple[str, str]]) -> None:
        """The source (judgment) id of left-out rows: (row id, source id)."""
        self.conn().executemany("UPDATE left SET source_id = ? WHERE row_id = ?",
                                ((s, r) for r, s in pairs))

    def close(self) -> None:
        """Close (and remove the file); the views fail afterwards."""
        if self._db is not None:
            self._db.close()
            self._db = None
        if self.path is not None:
            self.path.unlink(missing_ok=True)


class _KeyView:
    """The keys of one of the store's tables: ``in``, ``len`` and iteration in key order."""

    _table = _key = ""

    def __init__(self, store: MatchStore) -> None:
        self._store = store

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._store.conn().execute(
            f"SELECT 1 FROM {self._table} WHERE {self._key} = ?", (key,)).fetchone() is not None

    def __iter__(self) -> Iterator[str]:
        sql = f"SELECT {self._key} FROM {self._table} ORDER BY {self._key}"
        for (key,) in self._store.conn().execute(sql):
            yield str(key)

    def __len__(self) -> int:
        return int(self._store.conn().execute(
            f"SELECT count(*) FROM {self._table}").fetchone()[0])


class ChosenView(_KeyView, Mapping[str, tuple[str, int]]):
    """Judgment id → (error type, level) of the chosen candidates (read-only)."""

    _table, _key = "chosen", "id"

    def __getitem__(self, key: str) -> tuple[str, int]:
        row = self._store.conn().execute(
            "SELECT etype, level FROM chosen WHERE id = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return str(row[0]), int(row[1])


class LeftView(_KeyView):
    """The injected row ids left out (``in``, ``len``, iteration in id order) and
    :meth:`rows`: (row id, source id, error type) in that order."""

    _table, _key = "left", "row_id"

    def per_type(self) -> dict[str, int]:
        """Rows left out per error type, sorted by type."""
        return {str(t): int(n) for t, n in self._store.conn().execute(
            "SELECT etype, count(*) FROM left GROUP BY etype ORDER BY etype")}

    def rows(self) -> Iterator[tuple[str, str, str]]:
        for r, s, t in self._store.conn().execute(
                "SELECT row_id, source_id, etype FROM left ORDER BY row_id, source_id, etype"):
            yield str(r), str(s), str(t)
