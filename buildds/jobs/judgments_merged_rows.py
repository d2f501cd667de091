"""The merged rows of a sharded ``buildds judgments`` run, streamed (issues 13 and 18).

:class:`MergedRows` is what the merge (:func:`buildds.jobs.judgments_sharded.merge_shards`)
gives the steps after it instead of a list: every iteration is a fresh k-way merge by row
id (:func:`heapq.merge`) over the shards' row files (each shard wrote its rows in id order,
a parquet file of the export's columns, read a batch at a time:
:func:`~buildds.jobs.judgments_shard_task.read_rows`). So validation, the corpus tables, the
audit's capped sample and the export each see the rows in the final order while at most one
row per shard is held — the run's memory does not grow with the number of rows.

Rows left out by validation are an id set (:meth:`MergedRows.without`): only the failing
rows' ids are held, never the rows. The injected rows the matching left out, and the chosen
untouched rows, are asked of the matching's store (SQLite:
:mod:`buildds.inject_errors.normal_matching_store`) row by row, until the compaction has
written them into run files.

A merge holds a row group (:data:`~buildds.export.arbench_rows_file.ROW_GROUP` rows) of each
file it reads, so the number of files is bounded too: a run with more than :data:`FANIN`
streams first merges its shards in groups of that many into run files
(:meth:`MergedRows.compacted`, again while there are more), and the steps read those.
"""

from __future__ import annotations

import heapq
import shutil
from collections.abc import Container, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from buildds.errors import BuildError
from buildds.jobs.judgments_matched_normals import NORMALS_FILE, chosen_normals
from buildds.jobs.judgments_shard_task import ROWS_FILE, read_rows
from buildds.pipeline import release_freed_memory

if TYPE_CHECKING:
    from buildds.schema.arbench import ArbenchRow

__all__ = ["FANIN", "TRIM_EVERY", "MergedRows"]

#: files merged at once (a row group of each is held)
FANIN = 8
#: rows read between two hand-backs of freed memory (:func:`_trimmed`)
TRIM_EVERY = 1000


def _in_order(folder: str) -> Iterator[ArbenchRow]:
    """A shard's rows, checked to be in id order (what the merge relies on)."""
    last: str | None = None
    for row in read_rows(folder):
        if last is not None and row.id < last:
            raise BuildError(f"rows out of id order ({row.id} after {last}): the shard's "
                             "files were changed", source=folder)
        last = row.id
        yield row


def _trimmed(rows: Iterator[ArbenchRow]) -> Iterator[ArbenchRow]:
    """``rows``, the freed memory handed back every :data:`TRIM_EVERY` rows: the allocators
    keep the pages of the rows already read, so a long pass's resident size would grow with
    the number of rows it reads although it holds one row per file."""
    for i, row in enumerate(rows, 1):
        yield row
        if i % TRIM_EVERY == 0:
            release_freed_memory()


class MergedRows:
    """The rows of the shards under ``folders`` (each with ``counts[i]`` rows), in id order,
    re-read from the files on every iteration; ``excluded``: ids left out by validation;
    ``left_out``: injected row ids the matching left out; ``normals``: the untouched rows
    chosen from the shards' candidates."""

    def __init__(self, folders: Sequence[str], counts: Sequence[int],
                 excluded: frozenset[str] = frozenset(),
                 normals: Mapping[str, tuple[str, int]] | None = None,
                 left_out: Container[str] = frozenset()) -> None:
        self.folders, self.counts, self.excluded = tuple(folders), tuple(counts), excluded
        #: the untouched rows chosen from the shards' candidates (judgment id → the error
        #: type and bin level it was drawn for: :mod:`.judgments_matched_normals`)
        self.normals = normals or {}
        self.left_out = left_out
        self._len: int | None = (None if excluded or left_out
                                 else sum(self.counts) + len(self.normals))

    def __iter__(self) -> Iterator[ArbenchRow]:
        streams = [_in_order(f) for f in self.folders]
        if self.normals:
            streams += [chosen_normals(read_rows(f, NORMALS_FILE), self.normals)
                        for f in self.folders]
        merged = heapq.merge(*streams, key=lambda r: r.id)
        if self.excluded or self.left_out:
            merged = (r for r in merged
                      if r.id not in self.excluded and r.id not in self.left_out)
        return _trimmed(merged)

    def __len__(self) -> int:
        if self._len is None:
            self._len = sum(1 for _ in self)
        return self._len

    def __bool__(self) -> bool:
        return len(self) > 0

    def without(self, ids: set[str] | frozenset[str]) -> MergedRows:
        """These rows without ``ids`` (and without the ones already left out)."""
        return MergedRows(self.folders, self.counts, self.excluded | frozenset(ids),
                          self.normals, self.left_out)

    def streams(self) -> int:
        """How many files an iteration reads at once."""
        return len(self.folders) * (2 if self.normals else 1)

    def compacted(self, into: str | Path, fanin: int = FANIN) -> MergedRows:
        """These rows read from at most ``fanin`` files: while there are more, groups of
        shards (then of runs) merged into one run file each under ``into`` (made anew);
        the rows and their order are the same."""
        from buildds.export.arbench_rows_file import write_rows_parts
        from buildds.schema.arbench import ArbenchRow

        level, depth = self, 0
        if level.streams() <= fanin:
            return level
        shutil.rmtree(into, ignore_errors=True)
        while level.streams() > fanin:
            size = max(2, fanin // (2 if level.normals else 1))
            folders, counts = [], []
            for i in range(0, len(level.folders), size):
                group = MergedRows(level.folders[i:i + size], level.counts[i:i + size],
                                   level.excluded, level.normals, level.left_out)
                folder = Path(into) / f"run-{depth}-{i // size:05d}"
                folder.mkdir(parents=True)
                counts.append(write_rows_parts((ArbenchRow.as_dict(r) for r in group),
                                               folder, ROWS_FILE))  # parts: bounded footers
                folders.append(str(folder))
            level, depth = MergedRows(folders, counts), depth + 1
        return level
