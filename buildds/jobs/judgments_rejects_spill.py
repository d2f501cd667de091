"""The rejects of a sharded ``buildds judgments`` run, spilled to a file (issues 13 and 18).

A run rejects about five things per judgment (mostly injections skipped with their reason,
about 1 KB each as Python dicts): held in memory they were the last part of the run that
grew with the corpus once the merge streamed its rows. :class:`SpilledRejects` writes each
reject as its ``rejects.jsonl`` line (canonical JSON, the bytes
:meth:`buildds.pipeline.Rejects.jsonl` gives) to ``<out>/.shards/rejects.jsonl`` as it is
added and reads them back one at a time when a step iterates ``rows``;
:func:`stage_rejects` stages the file as the run's ``rejects.jsonl`` without reading it
into memory.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from buildds.pipeline import Rejects, canonical_json
from buildds.staging import OutputStaging

__all__ = ["SpilledList", "SpilledRejects", "stage_rejects"]


class _Lines:
    """The spilled rejects as dicts, read again on every iteration."""

    def __init__(self, owner: SpilledRejects) -> None:
        self._owner = owner

    def __len__(self) -> int:
        return self._owner.count

    def __iter__(self) -> Iterator[dict[str, Any]]:
        self._owner.flush()
        with open(self._owner.path, encoding="utf-8") as fh:
            for line in fh:
                yield json.loads(line)


class SpilledList:
    """One input's parse rejects (:class:`~buildds.schema.judgments.JudgmentReject`) as the
    reader appends them, kept in the file ``path`` until the input has been read whole (a
    large input can reject thousands of records; they join the run's rejects only if the
    input is read to its end, as in a whole-corpus run). Iterated from the file;
    :meth:`close` removes it."""

    def __init__(self, path: Path) -> None:
        self.path, self.count = Path(path), 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 (closed by close())

    def append(self, reject: Any) -> None:
        self._fh.write(reject.model_dump_json() + "\n")
        self.count += 1

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Any]:
        from buildds.schema.judgments import JudgmentReject

        self._fh.flush()
        with open(self.path, encoding="utf-8") as fh:
            for line in fh:
                yield JudgmentReject.model_validate_json(line)

    def close(self) -> None:
        self._fh.close()
        self.path.unlink(missing_ok=True)


class SpilledRejects(Rejects):
    """:class:`~buildds.pipeline.Rejects` kept in the file ``path`` (truncated; the rejects
    of ``before`` first). ``rows`` iterates them (as dicts) from the file."""

    def __init__(self, path: Path, before: Rejects | None = None) -> None:
        super().__init__()
        self.path, self.count = Path(path), 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 (closed by close())
        self.rows = _Lines(self)  # type: ignore[assignment]
        for row in (before.rows if before is not None else ()):
            self._write(row)

    def add(self, *, stage: str, reason: str, message: str, source: str | None = None,
            page: int | None = None, id: str | None = None, **extra: Any) -> None:
        row = {"stage": stage, "reason": reason, "message": message, "source": source,
               "page": page, "id": id}
        row.update(extra)
        self._write(row)

    def _write(self, row: dict[str, Any]) -> None:
        self._fh.write(canonical_json(row) + "\n")
        self.count += 1

    def __len__(self) -> int:
        return self.count

    def flush(self) -> None:
        if not self._fh.closed:
            self._fh.flush()

    def close(self) -> None:
        self._fh.close()

    def jsonl(self) -> str:
        self.flush()
        return self.path.read_text("utf-8")


def stage_rejects(staging: OutputStaging, out: Path, rejects: Rejects) -> None:
    """Stage ``rejects`` as ``out/rejects.jsonl``: a spilled file is copied, never read
    into memory."""
    if not isinstance(rejects, SpilledRejects):
        staging.write_text(out / "rejects.jsonl", rejects.jsonl())
        return
    rejects.close()
    target = staging.tree("rejects.jsonl")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(rejects.path, target)
