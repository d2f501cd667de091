"""Defaults of a request to a model endpoint, in a module that imports nothing, so that
``buildds eval --help`` shows them without loading the HTTP backends."""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_ATTEMPTS", "DEFAULT_MAX_RETRY_AFTER_S", "DEFAULT_TIMEOUT_S"]

#: a Retry-After longer than this fails the sample instead (``--max-retry-after``)
DEFAULT_MAX_RETRY_AFTER_S = 60.0
#: seconds one try may take, connecting and reading included (``--timeout``)
DEFAULT_TIMEOUT_S = 120.0
#: tries per request (``--max-attempts``)
DEFAULT_MAX_ATTEMPTS = 6
