"""Small HTTP helpers shared by the downloader (:mod:`buildds.fetch`) and the evaluation
backends (:mod:`buildds.evaluate.backends.openai`)."""

from __future__ import annotations

import email.utils
import time
from datetime import UTC

__all__ = ["parse_retry_after"]


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date; a date
    without a zone is UTC); ``None`` when absent or unreadable, never negative."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    now = time.time() if now is None else now
    return max(0.0, when.timestamp() - now)
