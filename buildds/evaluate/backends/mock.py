"""A deterministic offline backend for tests and dry runs (no network, no model).

Modes (``mock:<mode>``):

* ``parity`` (default) — "1" when the last user message has an even number of characters,
  "0" otherwise;
* ``ones`` / ``zeros`` — always "1" / always "0";
* ``bad`` — an answer that does not follow the instruction ("1. Explanation: …");
* ``echo`` — the last user message itself;
* ``error`` — no text, ``error="mock error"``.

``answers={sample_id: text}`` scripts answers per sample (the mode answers the rest).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.backends.base import BackendBase
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["MOCK_MODES", "MockBackend", "last_user_message"]

MOCK_MODES = ("parity", "ones", "zeros", "bad", "echo", "error")


def last_user_message(request: ChatRequest) -> str:
    for message in reversed(request.messages):
        if message.role == "user":
            return message.content
    return ""


class MockBackend(BackendBase):
    def __init__(
        self,
        mode: str = "parity",
        *,
        answers: Mapping[str, str] | None = None,
        concurrency: int = 8,
    ):
        if mode not in MOCK_MODES:
            raise BuildError(f"unknown mock mode {mode!r}: expected one of {', '.join(MOCK_MODES)}")
        self.mode = mode
        self.name = "mock" if mode == "parity" else f"mock:{mode}"
        self.answers = dict(answers or {})
        # scripted answers depend on the sample id, which is not part of a cache key
        self.cacheable = not self.answers
        self.concurrency = concurrency
        self.calls = 0

    def settings(self) -> dict[str, Any]:
        return {"backend": "mock", "mode": self.mode, "scripted_answers": len(self.answers)}

    def answer(self, request: ChatRequest) -> ChatResult:
        self.calls += 1
        if request.sample_id is not None and request.sample_id in self.answers:
            return ChatResult(text=self.answers[request.sample_id], latency_s=0.0)
        prompt = last_user_message(request)
        if self.mode == "error":
            return ChatResult(text=None, error="mock error", latency_s=0.0)
        text = {
            "parity": "1" if len(prompt) % 2 == 0 else "0",
            "ones": "1",
            "zeros": "0",
            "bad": "1. Explanation: the statement follows from the cited article.",
            "echo": prompt,
        }[self.mode]
        return ChatResult(text=text, latency_s=0.0)

    async def complete(self, request: ChatRequest) -> ChatResult:
        return self.answer(request)
