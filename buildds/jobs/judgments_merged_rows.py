"""The merged rows of a sharded ``buildds judgments`` run, streamed (issues 13 and 18).

:class:`MergedRows` is what the merge (:func:`buildds.jobs.judgments_sharded.merge_shards`)
gives the steps after it instead of a list: every iteration is a fresh k-way merge by row
id (:func:`heapq.merge`) over the shards' row files (each shard wrote its rows in id order,
one pickle after another, read one at a time:
:func:`~buildds.jobs.judgments_shard_task.read_rows`). So validation, the corpus tables, the
audit's capped sample and the export each see the rows in the final order while at most one
row per shard is held — the run's memory does not grow with the number of rows.

Rows left out by validation are an id set (:meth:`MergedRows.without`): only the failing
rows' ids are held, never the rows.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from buildds.errors import BuildError
from buildds.jobs.judgments_matched_normals import read_normals
from buildds.jobs.judgments_shard_task import read_rows

if TYPE_CHECKING:
    from buildds.schema.arbench import ArbenchRow

__all__ = ["MergedRows"]


def _in_order(folder: str) -> Iterator[ArbenchRow]:
    """A shard's rows, checked to be in id order (what the merge relies on)."""
    last: str | None = None
    for row in read_rows(folder):
        if last is not None and row.id < last:
            raise BuildError(f"rows out of id order ({row.id} after {last}): the shard's "
                             "files were changed", source=folder)
        last = row.id
        yield row


class MergedRows:
    """The rows of the shards under ``folders`` (each with ``counts[i]`` rows), in id order,
    re-read from the files on every iteration; ``excluded``: ids left out."""

    def __init__(self, folders: Sequence[str], counts: Sequence[int],
                 excluded: frozenset[str] = frozenset(),
                 normals: Mapping[str, tuple[str, int]] | None = None) -> None:
        self.folders, self.counts, self.excluded = tuple(folders), tuple(counts), excluded
        #: the untouched rows chosen from the shards' candidates (judgment id → the error
        #: type and bin level it was drawn for: :mod:`.judgments_matched_normals`)
        self.normals = dict(normals or {})
        self._len: int | None = None if excluded else sum(self.counts) + len(self.normals)

    def __iter__(self) -> Iterator[ArbenchRow]:
        streams = [_in_order(f) for f in self.folders]
        if self.normals:
            streams += [read_normals(f, self.normals) for f in self.folders]
        merged = heapq.merge(*streams, key=lambda r: r.id)
        if not self.excluded:
            return iter(merged)
        return (r for r in merged if r.id not in self.excluded)

    def __len__(self) -> int:
        if self._len is None:
            self._len = sum(1 for _ in self)
        return self._len

    def __bool__(self) -> bool:
        return len(self) > 0

    def without(self, ids: set[str] | frozenset[str]) -> MergedRows:
        """These rows without ``ids`` (and without the ones already left out)."""
        return MergedRows(self.folders, self.counts, self.excluded | frozenset(ids),
                          self.normals)
