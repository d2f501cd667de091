"""Evaluation records: what a backend is asked, what it answers, and what a sample scored.

An evaluation is dataset + prompt template + backend + parser + scorer (seed 001 §3, seed
000, seed 003). Backends turn a :class:`ChatRequest` into a :class:`ChatResult`; the runner
writes one :class:`SampleRecord` per sample to ``samples.jsonl``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from buildds.schema.core import Frozen

__all__ = ["ChatMessage", "ChatRequest", "ChatResult", "SampleRecord"]


class ChatMessage(Frozen):
    role: Literal["system", "user", "assistant"]
    content: str


class ChatRequest(Frozen):
    """One request, complete: it is the cache key (with the backend and model)."""

    messages: tuple[ChatMessage, ...]
    temperature: float | None = 0.0
    max_tokens: int | None = 1000
    #: backend-specific extras (seed, top_p …), part of the cache key
    extra: dict[str, Any] = Field(default_factory=dict)
    #: the dataset item this request is for (not sent; kept for tracing)
    sample_id: str | None = None


class ChatResult(Frozen):
    text: str | None
    #: why there is no text: "timeout", "http 500", "rate limited (gave up after 5 tries)" …
    error: str | None = None
    cached: bool = False
    attempts: int = 1
    latency_s: float | None = None
    usage: dict[str, int] = Field(default_factory=dict)


class SampleRecord(Frozen):
    """One line of ``samples.jsonl``: enough to trace a score back to the model's output."""

    id: str
    prompt_sha256: str
    raw_output: str | None
    parsed: Any = None
    score: float | None = None
    error: str | None = None
    #: the gold answer, for reading the file without the dataset
    gold: Any = None
    cached: bool = False
