"""A local Hugging Face model through ``transformers.pipeline("text-generation")``.

Only local folders: ``local_files_only=True``, so an evaluation never downloads weights.
Generation runs in a worker thread, one request at a time (a pipeline is not thread-safe);
temperature 0 means greedy decoding.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

from buildds.errors import ExtractError, MissingDependency
from buildds.evaluate.backends.base import BackendBase
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["HFBackend"]


class HFBackend(BackendBase):
    cacheable = True
    concurrency = 1

    def __init__(self, path: str | Path, *, device: str | int | None = None):
        self.path = Path(path)
        self.name = f"hf:{self.path.name}"
        self.device = device
        if not self.path.exists():
            raise ExtractError("model folder not found", source=str(self.path))
        try:
            import transformers
        except ImportError:
            raise MissingDependency("transformers", "hf", hint="needed by hf: backends")
        self._lock = threading.Lock()
        self.pipe = transformers.pipeline(
            "text-generation",
            model=str(self.path),
            device=device,
            model_kwargs={"local_files_only": True},
        )

    @property
    def cache_namespace(self) -> str:
        return f"hf:{self.path.resolve()}"

    def settings(self) -> dict[str, Any]:
        return {"backend": "hf", "path": str(self.path), "device": self.device}

    def _generate(self, request: ChatRequest) -> str:
        messages = [m.model_dump() for m in request.messages]
        kwargs: dict[str, Any] = {"max_new_tokens": request.max_tokens or 1000}
        if request.temperature:
            kwargs.update(do_sample=True, temperature=request.temperature)
        else:
            kwargs.update(do_sample=False)
        kwargs.update(request.extra)
        with self._lock:
            out = self.pipe(messages, **kwargs)
        generated = out[0]["generated_text"]
        if isinstance(generated, list):  # chat input: the conversation with the new turn
            return str(generated[-1]["content"])
        return str(generated)

    async def complete(self, request: ChatRequest) -> ChatResult:
        started = time.monotonic()
        try:
            text = await asyncio.to_thread(self._generate, request)
        except Exception as exc:  # noqa: BLE001 - one sample failing must not stop the run
            return ChatResult(text=None, error=f"generation failed: {type(exc).__name__}: {exc}")
        return ChatResult(text=text, latency_s=time.monotonic() - started)
