"""What a reply says: the answer's text and usage, a missing content, or a
:class:`~buildds.evaluate.backends.http_transport.Failure` (retried for 429 and 5xx, with the
server's Retry-After on 429/503; not retried for other statuses or a body that is not a chat
completion, whose start the error quotes, redacted). 401, 403 and 404 are ``fatal``
(:data:`FATAL_STATUSES`): a wrong key or a model the server does not have fails every request
alike, so the backend stops the run instead of failing each sample."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import NamedTuple

from buildds.evaluate.backends.http_transport import Failure, Reply
from buildds.evaluate.backends.openai.retry import RETRY_AFTER_STATUSES, RETRY_STATUSES
from buildds.evaluate.logprob import Position, read_positions
from buildds.httputil import parse_retry_after

__all__ = ["FATAL_STATUSES", "Answer", "parse_reply", "snippet"]

#: statuses that stop the run, with what they mean
FATAL_STATUSES = {401: "authentication failed", 403: "access denied",
                  404: "not found (no such model, or a wrong base URL)"}


class Answer(NamedTuple):
    """What one successful exchange says: the text, or why there is none."""

    text: str | None
    error: str | None
    usage: dict[str, int]
    #: the output tokens and their top alternatives, when the reply has log-probabilities
    positions: list[Position] | None = None


def snippet(body: bytes, redact: Callable[[str], str]) -> str:
    """The start of a response body, for an error message (redacted before it is cut, so
    that no part of a key survives the cut)."""
    return redact(body[:4096].decode("utf-8", "replace"))[:200]


def parse_reply(reply: Reply, redact: Callable[[str], str]) -> Answer:
    """The answer (or a missing-content error), else :class:`Failure`."""
    status = reply.status
    if status != 200:
        retry_after = None
        if status in RETRY_AFTER_STATUSES:
            retry_after = parse_retry_after(reply.retry_after)
        reason = "rate limited" if status == 429 else f"http {status}"
        if status not in RETRY_STATUSES:
            reason += f": {snippet(reply.body, redact)}"
        raise Failure(reason, retry=status in RETRY_STATUSES, retry_after=retry_after,
                      fatal=status in FATAL_STATUSES)
    try:
        data = json.loads(reply.body)
        text = data["choices"][0]["message"].get("content")
        usage = {k: v for k, v in (data.get("usage") or {}).items() if isinstance(v, int)}
        positions = read_positions(data["choices"][0])
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise Failure(f"bad response: {snippet(reply.body, redact)}", retry=False)
    if text is None:
        return Answer(None, "no content in response", usage, positions)
    return Answer(text, None, usage, positions)
