"""Evaluation records: what a backend is asked, what it answers, and what a sample scored.

An evaluation is dataset + prompt template + backend + parser + scorer (seed 001 §3, seed
000, seed 003). Backends turn a :class:`ChatRequest` into a :class:`ChatResult`; the runner
writes one :class:`SampleRecord` per sample to ``samples.jsonl``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from buildds.schema.core import Frozen

__all__ = ["Attachment", "ChatMessage", "ChatRequest", "ChatResult", "SampleRecord"]


class ChatMessage(Frozen):
    role: Literal["system", "user", "assistant"]
    content: str


class Attachment(Frozen):
    """An original file handed to backends that accept files (highbar: a task's source
    document in its native format). The cache key holds its name, hash and media type, never
    its ``path`` (the same file elsewhere is the same request)."""

    name: str
    sha256: str
    media_type: str
    #: where to read the bytes (not serialised, so not part of the cache key)
    path: str = Field(default="", exclude=True)


class ChatRequest(Frozen):
    """One request, complete: it is the cache key (with the backend and model).

    ``attempt`` and ``attachments`` are left out of the serialised form when unset, so
    requests that do not use them keep the cache keys they always had."""

    messages: tuple[ChatMessage, ...]
    temperature: float | None = 0.0
    max_tokens: int | None = 1000
    #: backend-specific extras (seed, top_p …), part of the cache key
    extra: dict[str, Any] = Field(default_factory=dict)
    #: the dataset item this request is for (not sent; kept for tracing)
    sample_id: str | None = None
    #: repeat number of the same prompt (highbar: run 1 and run 2); part of the cache key so
    #: each attempt is really sent, never sent to the model
    attempt: int | None = None
    #: original files for backends that accept them; backends without file support send
    #: the messages only (the text of the files is in them)
    attachments: tuple[Attachment, ...] = ()
    #: ``--scoring logprob``: the allowed answers, each scored by its probability (backends
    #: that can score answers fill ``ChatResult.choice_logprobs``); never sent as such
    choices: tuple[str, ...] = ()

    @model_serializer(mode="wrap")
    def _drop_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        for key in ("attempt", "attachments", "choices"):
            if key in data and not data[key]:
                del data[key]
        return data


class ChatResult(Frozen):
    text: str | None
    #: why there is no text: "timeout", "http 500", "rate limited (gave up after 5 tries)" …
    error: str | None = None
    cached: bool = False
    attempts: int = 1
    latency_s: float | None = None
    usage: dict[str, int] = Field(default_factory=dict)
    #: ``--scoring logprob``: the log-probability of each of ``ChatRequest.choices`` (None:
    #: not among the alternatives the backend reported)
    choice_logprobs: dict[str, float | None] | None = None


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
    #: ``--scoring logprob``: each allowed answer's probability (normalised over them);
    #: left out of samples.jsonl under generative scoring
    choice_probs: dict[str, float] | None = None

    @model_serializer(mode="wrap")
    def _drop_no_probs(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data = handler(self)
        if data.get("choice_probs") is None:
            data.pop("choice_probs", None)
        return data
