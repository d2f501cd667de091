"""How a run writes: every text through the run's :class:`~buildds.evaluate.redact.Redactor`
(:class:`RunFiles`, which also learns each backend's secrets and hands them to the cache),
atomically, with no timestamps, so the same outputs give the same bytes."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds.evaluate.redact import Redactor
from buildds.pipeline import atomic_write_bytes, atomic_write_text
from buildds.schema.evaluation import SampleRecord

__all__ = ["RunFiles", "dumps_json", "samples_text", "write_plots"]


class RunFiles:
    """The run's writer: texts redacted with every secret known so far."""

    def __init__(self, redactor: Redactor, cache: Any = None):
        self.redactor = redactor
        #: the response cache (or None), told of each secret added
        self.cache = cache

    def write(self, path: Path, text: str) -> None:
        atomic_write_text(path, self.redactor.text(text))

    def secrets_of(self, backend: Any) -> Any:
        """The backend, its secrets added to the run's redactor (and the cache's)."""
        extra = getattr(backend, "redactor", None)
        if isinstance(extra, Redactor) and extra:
            self.redactor = self.redactor | extra
            if self.cache is not None:
                self.cache.redactor = self.redactor
        return backend


def dumps_json(obj: Any) -> str:
    """A JSON file's text: sorted keys, two-space indent, UTF-8 as is, a final newline."""
    return json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def samples_text(records: Sequence[SampleRecord]) -> str:
    """samples.jsonl: one record a line, keys sorted."""
    return "".join(json.dumps(r.model_dump(mode="json"), ensure_ascii=False, sort_keys=True)
                   + "\n" for r in records)


def write_plots(folder: Path, make: Callable[[], Mapping[str, bytes]]) -> list[Path]:
    """Write the PNGs ``make()`` returns (nothing when matplotlib is missing)."""
    try:
        pngs = make()
    except ImportError:
        return []
    paths = []
    for name, png in sorted(pngs.items()):
        atomic_write_bytes(folder / name, png)
        paths.append(folder / name)
    return paths
