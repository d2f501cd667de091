"""A response cache in SQLite, so a killed evaluation resumes where it stopped.

One table, ``responses(key, backend, model, request_json, result_json, created)``; the key
is the sha256 of the backend, the model and the full request as canonical JSON —
everything that changes the answer (messages, temperature, max_tokens, extras) and nothing
that does not (``sample_id``; never an API key). Only successful results are stored, each
as soon as it arrives, so a restarted run sends only the requests not yet answered and
retries the ones that failed.

The file is in WAL mode (readers do not block the writer; other processes may share it);
writes go through one lock, so concurrent coroutines and threads are safe.

Given a :class:`~buildds.evaluate.redact.Redactor`, the cache stores the request and the
result with the run's secrets replaced by ``***`` and returns hits the same way (a cache
written before keys were redacted cannot bring one back); keys are hashes and hold no text.

``CachedBackend(backend, cache)`` wraps any backend; ``--no-cache`` means not wrapping.

A file that is not such a cache (garbage, another program's database, a folder in its
place) or that SQLite cannot use is a :class:`~buildds.errors.BuildError` naming the file
and what to do (delete it, or run with ``--no-cache``), raised when the cache is opened —
before anything is sent — or, for a failure later on, when it happens.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from buildds.errors import BuildError
from buildds.evaluate.backends.base import Backend, OnResult, report_result
from buildds.evaluate.redact import Redactor
from buildds.pipeline import canonical_json
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["CachedBackend", "ResponseCache", "cache_key", "request_json"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    backend TEXT NOT NULL,
    model TEXT,
    request_json TEXT NOT NULL,
    result_json TEXT NOT NULL,
    created TEXT NOT NULL
)
"""
_COLUMNS = ["key", "backend", "model", "request_json", "result_json", "created"]
_WHAT_TO_DO = "delete it or use --no-cache"


def request_json(request: ChatRequest) -> str:
    """The request as canonical JSON, without ``sample_id`` (which does not change the answer)."""
    return canonical_json(request.model_dump(mode="json", exclude={"sample_id"}))


def cache_key(backend: str, model: str | None, request: ChatRequest) -> str:
    payload = canonical_json(
        {"backend": backend, "model": model, "request": request.model_dump(mode="json", exclude={"sample_id"})}
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResponseCache:
    def __init__(self, path: str | Path, *, redactor: Redactor | None = None):
        self.path = Path(path)
        self.redactor = redactor or Redactor()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        if self.path.is_dir():
            raise BuildError(f"is a folder, not a buildds response cache; {_WHAT_TO_DO}",
                             source=str(self.path))
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30.0)
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        try:
            with self._lock:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.execute(_SCHEMA)
                self._db.commit()
                columns = [row[1] for row in self._db.execute("PRAGMA table_info(responses)")]
        except sqlite3.Error as exc:
            self._db.close()
            raise self._error(exc) from exc
        if columns != _COLUMNS:
            self._db.close()
            raise BuildError(f"is not a buildds response cache (its responses table has the "
                             f"columns {', '.join(columns)}); {_WHAT_TO_DO}",
                             source=str(self.path))
        self.hits = 0
        self.misses = 0
        self.writes = 0

    def _error(self, exc: sqlite3.Error) -> BuildError:
        """A SQLite error as a :class:`BuildError` naming the file and what to do."""
        reason = str(exc) or type(exc).__name__
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(
                exc, sqlite3.OperationalError):  # not a database, malformed …
            return BuildError(f"is not a buildds response cache ({reason}); {_WHAT_TO_DO}",
                              source=str(self.path))
        return BuildError(f"cannot use the response cache ({reason}); {_WHAT_TO_DO}",
                          source=str(self.path))

    def get(self, key: str) -> ChatResult | None:
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT result_json FROM responses WHERE key = ?", (key,)
                ).fetchone()
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        hit = ChatResult.model_validate_json(row[0]).model_copy(update={"cached": True})
        return self.redactor.result(hit)

    def put(
        self, key: str, *, backend: str, model: str | None, request: ChatRequest, result: ChatResult
    ) -> bool:
        """Store a successful result; returns False (and stores nothing) for an error."""
        if result.error is not None or result.text is None:
            return False
        stored = self.redactor.result(result.model_copy(update={"cached": False}))
        redact = self.redactor.text
        try:
            with self._lock:
                self._db.execute(
                    "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        key,
                        redact(backend),
                        None if model is None else redact(model),
                        redact(request_json(request)),
                        redact(stored.model_dump_json()),
                        datetime.now(UTC).isoformat(timespec="seconds"),
                    ),
                )
                self._db.commit()
                self.writes += 1
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        return True

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CachedBackend:
    """A backend that answers from the cache first and stores what the inner backend answers.

    Identical requests in one batch are sent once. A backend whose answers depend on the
    sample id (``cacheable = False``: baselines, replay) passes straight through.
    """

    def __init__(self, backend: Backend, cache: ResponseCache):
        self.backend = backend
        self.cache = cache
        self.name = backend.name
        self.cacheable = backend.cacheable
        self.namespace: str = getattr(backend, "cache_namespace", backend.name)
        self.model: str | None = backend.settings().get("model")

    def settings(self) -> dict[str, Any]:
        return {**self.backend.settings(), "cache": str(self.cache.path)}

    def key(self, request: ChatRequest) -> str:
        return cache_key(self.namespace, self.model, request)

    def _store(self, key: str, request: ChatRequest, result: ChatResult) -> None:
        self.cache.put(key, backend=self.namespace, model=self.model, request=request, result=result)

    async def complete(self, request: ChatRequest) -> ChatResult:
        if not self.cacheable:
            return await self.backend.complete(request)
        key = self.key(request)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        result = await self.backend.complete(request)
        self._store(key, request, result)
        return result

    async def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: OnResult | None = None
    ) -> list[ChatResult]:
        if not self.cacheable:
            return await self.backend.complete_many(requests, on_result=on_result)
        results: list[ChatResult | None] = [None] * len(requests)
        # key -> indices waiting for it; the first index's request is the one sent
        pending: dict[str, list[int]] = {}
        for i, request in enumerate(requests):
            key = self.key(request)
            if key in pending:
                pending[key].append(i)
                continue
            hit = self.cache.get(key)
            if hit is not None:
                results[i] = hit
                await report_result(on_result, i, hit)
            else:
                pending[key] = [i]
        keys = list(pending)
        to_send = [requests[pending[k][0]] for k in keys]

        async def arrived(j: int, result: ChatResult) -> None:
            key = keys[j]
            self._store(key, to_send[j], result)  # before anyone hears of it: resume-safe
            for i in pending[key]:
                results[i] = result
                await report_result(on_result, i, result)

        if to_send:
            await self.backend.complete_many(to_send, on_result=arrived)
        return [r for r in results if r is not None]
