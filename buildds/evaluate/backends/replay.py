"""Answers saved by an earlier run: a JSONL of ``{"id": …, "raw_output": …}`` (the
runner's ``samples.jsonl`` has both fields), looked up by ``request.sample_id``.

Re-scoring a run with a new parser or scorer needs no model: ``--backend replay:samples.jsonl``.

The file is user input: it must be a regular file (no FIFO or device), each line strict JSON
(:func:`buildds.safeio.loads_strict`: bounded depth and number size, no NaN).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from buildds.errors import BuildError, ExtractError
from buildds.evaluate.backends.base import BackendBase
from buildds.safeio import loads_strict, open_regular
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["NO_SAVED_OUTPUT", "ReplayBackend"]

NO_SAVED_OUTPUT = "no saved output"


class ReplayBackend(BackendBase):
    cacheable = False

    def __init__(self, path: str | Path, *, concurrency: int = 64):
        self.path = Path(path)
        self.name = f"replay:{self.path.name}"
        self.concurrency = concurrency
        if not self.path.exists():
            raise ExtractError("replay file not found", source=str(self.path))
        self.outputs: dict[str, str | None] = {}
        with io.TextIOWrapper(open_regular(self.path), encoding="utf-8") as fh:
            try:
                self._read(fh)
            except UnicodeDecodeError as exc:
                raise BuildError(f"not UTF-8 text ({exc.reason} at byte {exc.start} of a "
                                 "line)", source=str(self.path)) from None

    def _read(self, lines: Iterable[str]) -> None:
        for lineno, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = loads_strict(line)
                self.outputs[str(row["id"])] = row.get("raw_output")
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise BuildError(
                    f"line {lineno}: expected a JSON object with 'id' and 'raw_output' ({exc})",
                    source=str(self.path),
                )

    def settings(self) -> dict[str, Any]:
        return {"backend": "replay", "file": str(self.path), "outputs": len(self.outputs)}

    async def complete(self, request: ChatRequest) -> ChatResult:
        if request.sample_id is None or request.sample_id not in self.outputs:
            return ChatResult(text=None, error=NO_SAVED_OUTPUT)
        text = self.outputs[request.sample_id]
        if text is None:
            return ChatResult(text=None, error=NO_SAVED_OUTPUT)
        return ChatResult(text=text, latency_s=0.0)
