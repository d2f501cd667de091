"""The request body: the chat messages as the API takes them (with ``send_files``, the files'
content parts after the text of the last user message), encoded once for all tries; and a
request's token estimate for the tokens-per-minute limit."""

from __future__ import annotations

import json
from typing import Any

from buildds.evaluate.backends.openai.files import FileError
from buildds.schema.evaluation import ChatRequest

__all__ = ["request_body", "token_estimate"]


def request_body(model: str, request: ChatRequest,
                 files: list[dict[str, Any]] | None = None) -> bytes:
    """The request body, encoded once for all tries; ``files`` (content parts) go after
    the text of the last user message."""
    messages: list[dict[str, Any]] = [{"role": m.role, "content": m.content}
                                      for m in request.messages]
    if files:
        last = next((m for m in reversed(messages) if m["role"] == "user"), None)
        if last is None:
            raise FileError("no user message to attach the files to")
        last["content"] = [{"type": "text", "text": last["content"]}, *files]
    payload: dict[str, Any] = {"model": model, "messages": messages}
    if request.temperature is not None:
        payload["temperature"] = request.temperature
    if request.max_tokens is not None:
        payload["max_tokens"] = request.max_tokens
    payload.update(request.extra)
    return json.dumps(payload, ensure_ascii=False).encode()


def token_estimate(request: ChatRequest) -> float:
    """Prompt characters / 2 + ``max_tokens``."""
    chars = sum(len(m.content) for m in request.messages)
    return chars / 2 + (request.max_tokens or 0)
