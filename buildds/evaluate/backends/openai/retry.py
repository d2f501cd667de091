"""When to send and when to try again: token buckets for the requests- and tokens-per-minute
limits, the statuses retried, exponential backoff with jitter, and the server's
``Retry-After`` (honoured up to ``max_retry_after_s``)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from buildds.errors import BuildError
from buildds.evaluate.backends.http_transport import Failure

__all__ = ["RETRY_AFTER_STATUSES", "RETRY_STATUSES", "TokenBucket", "backoff_s", "retry_wait",
           "too_long_to_wait"]

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
RETRY_AFTER_STATUSES = frozenset({429, 503})


class TokenBucket:
    """Allows ``rate_per_min`` units a minute, in bursts of at most ``capacity``.

    ``capacity`` defaults to one minute's worth (how API quotas are counted); a smaller
    ``window_s`` gives a smoother limit: at most ``rate * window_s / 60`` units per window.
    A cost larger than the capacity waits for a full bucket instead of forever.
    """

    def __init__(self, rate_per_min: float, *, window_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic):
        if rate_per_min <= 0:
            raise BuildError(f"rate limit must be positive, got {rate_per_min}")
        self.rate_per_s = rate_per_min / 60.0
        self.capacity = max(1.0, rate_per_min * window_s / 60.0)
        self.level = self.capacity
        #: the time source (tests give a virtual one, so they count instead of timing)
        self.clock = clock
        self.updated = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.level = min(self.capacity, self.level + (now - self.updated) * self.rate_per_s)
        self.updated = now

    def wait_time(self, cost: float) -> float:
        """Seconds until ``cost`` can be taken (0 = now); takes it when it returns 0."""
        cost = min(cost, self.capacity)
        self._refill()
        if self.level >= cost - 1e-9:  # rounding must not leave a wait of a few ulps
            self.level = max(0.0, self.level - cost)
            return 0.0
        return (cost - self.level) / self.rate_per_s


def backoff_s(attempt: int, base_s: float, max_s: float, rng: random.Random) -> float:
    """Exponential backoff with equal jitter: attempt 1 → ~base, 2 → ~2·base …"""
    ceiling = min(max_s, base_s * 2 ** (attempt - 1))
    return ceiling / 2 + rng.uniform(0, ceiling / 2)


def retry_wait(failure: Failure, attempt: int, base_s: float, max_s: float,
               rng: random.Random) -> float:
    """Seconds before the next try: the server's Retry-After, else backoff."""
    if failure.retry_after is not None:
        return failure.retry_after + rng.uniform(0, 0.1)
    return backoff_s(attempt, base_s, max_s, rng)


def too_long_to_wait(failure: Failure, max_retry_after_s: float) -> Failure | None:
    """A final failure when the server asks to wait longer than ``max_retry_after_s``."""
    if failure.retry_after is None or failure.retry_after <= max_retry_after_s:
        return None
    return Failure(f"{failure.reason}: the server asked to retry after "
                   f"{failure.retry_after:g} s, longer than the limit of "
                   f"{max_retry_after_s:g} s (raise it with --max-retry-after); "
                   "not retried", retry=False)
