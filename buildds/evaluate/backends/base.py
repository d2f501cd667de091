"""The backend interface: a :class:`ChatRequest` in, a :class:`ChatResult` out.

Every backend — a remote API, a local model, an offline baseline, a replay of saved
outputs, a deterministic mock — answers the same two calls, so the runner stays uniform::

    result = await backend.complete(request)
    results = await backend.complete_many(requests, on_result=write_line)

Per-sample failures are data (``ChatResult.error``), never exceptions; a backend raises only
per run (bad spec, missing dependency, missing file), when it is built.

:func:`make_backend` turns a command-line spec into a backend::

    openai:<model>   an OpenAI-compatible chat-completions API (--base-url, $OPENAI_API_KEY)
    mock[:<mode>]    deterministic answers for tests (see MockBackend)
    majority         the most common training label / reference answer
    random:<seed>    a seeded random label
    tfidf            char n-gram TF-IDF + logistic regression
    replay:<file>    answers saved earlier ({id, raw_output} JSONL), by sample id
    hf:<path>        a local transformers text-generation model
    oracle           each item's reference answer (a judge's ceiling; the runner wires it)
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from buildds.errors import BuildError
from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["BACKEND_KINDS", "Backend", "BackendBase", "OnResult", "check_spec", "complete_bounded",
           "make_backend"]

#: called as each result arrives: ``on_result(index_in_input, result)``; may be async
OnResult = Callable[[int, ChatResult], Awaitable[Any] | Any]

BACKEND_KINDS = ("openai", "mock", "majority", "random", "tfidf", "replay", "hf", "oracle")


@runtime_checkable
class Backend(Protocol):
    """What the runner needs from a backend."""

    #: shown in reports and the manifest, e.g. ``openai:gpt-4o``
    name: str
    #: whether answers depend only on the request (not on ``sample_id``): may be cached
    cacheable: bool

    def settings(self) -> dict[str, Any]:
        """The backend's options for the run manifest. Never contains secrets."""
        ...

    async def complete(self, request: ChatRequest) -> ChatResult: ...

    async def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: OnResult | None = None
    ) -> list[ChatResult]: ...


async def _report(on_result: OnResult | None, index: int, result: ChatResult) -> None:
    if on_result is None:
        return
    out = on_result(index, result)
    if inspect.isawaitable(out):
        await out


async def complete_bounded(
    complete: Callable[[ChatRequest], Awaitable[ChatResult]],
    requests: Sequence[ChatRequest],
    *,
    concurrency: int,
    on_result: OnResult | None = None,
) -> list[ChatResult]:
    """Run ``complete`` over ``requests`` with at most ``concurrency`` in flight.

    Results come back in input order; ``on_result`` sees each one as it arrives. A fixed
    pool of workers pulls indices, so a million requests do not make a million tasks.
    Cancelling the caller cancels every worker (TaskGroup), and an exception raised by
    ``on_result`` stops the run.
    """
    results: list[ChatResult | None] = [None] * len(requests)
    next_index = iter(range(len(requests)))

    async def worker() -> None:
        for i in next_index:
            result = await complete(requests[i])
            results[i] = result
            await _report(on_result, i, result)

    n_workers = max(1, min(concurrency, len(requests)))
    if requests:
        async with asyncio.TaskGroup() as group:
            for _ in range(n_workers):
                group.create_task(worker())
    return [r for r in results if r is not None]


class BackendBase:
    """Shared plumbing: ``complete_many`` over ``complete`` with bounded concurrency."""

    name: str = "backend"
    cacheable: bool = True
    concurrency: int = 1

    def settings(self) -> dict[str, Any]:
        return {"backend": self.name}

    async def complete(self, request: ChatRequest) -> ChatResult:  # pragma: no cover
        raise NotImplementedError

    async def complete_many(
        self, requests: Sequence[ChatRequest], *, on_result: OnResult | None = None
    ) -> list[ChatResult]:
        return await complete_bounded(
            self.complete, requests, concurrency=self.concurrency, on_result=on_result
        )


_NEEDS_ARG = {
    "openai": "give a model, e.g. openai:gpt-4o",
    "replay": "give a file, e.g. replay:samples.jsonl",
    "hf": "give a model folder, e.g. hf:models/qwen",
}


def check_spec(spec: str) -> None:
    """Raise :class:`BuildError` when ``spec`` is not a backend spec :func:`make_backend`
    can build (an unknown kind, a missing model or file, a seed that is not an integer);
    nothing is built or read."""
    kind, _, arg = spec.partition(":")
    kind = kind.strip().lower()
    arg = arg.strip()
    if kind not in BACKEND_KINDS:
        raise BuildError(
            f"unknown backend {spec!r}: expected one of "
            "openai:<model>, mock[:<mode>], majority, random:<seed>, tfidf, replay:<file>, "
            "hf:<path>, oracle"
        )
    if kind in _NEEDS_ARG and not arg:
        raise BuildError(f"backend {spec!r}: {_NEEDS_ARG[kind]}")
    if kind == "mock" and arg:
        from buildds.evaluate.backends.mock import MOCK_MODES

        if arg not in MOCK_MODES:
            raise BuildError(f"unknown mock mode {arg!r}: expected one of "
                             f"{', '.join(MOCK_MODES)}")
    if kind == "random" and arg:
        try:
            int(arg)
        except ValueError:
            raise BuildError(f"backend {spec!r}: the seed must be an integer, e.g. random:13")


def make_backend(spec: str, **options: Any) -> Backend:
    """Build a backend from a spec such as ``openai:gpt-4o`` or ``random:13``.

    ``options`` go to the backend's constructor (``base_url=``, ``concurrency=``,
    ``items_by_id=`` …). Raises :class:`BuildError` for an unknown or malformed spec
    (:func:`check_spec`).
    """
    check_spec(spec)
    kind, _, arg = spec.partition(":")
    kind = kind.strip().lower()
    arg = arg.strip()
    if kind == "openai":
        from buildds.evaluate.backends.openai import OpenAIBackend

        return OpenAIBackend(arg, **options)
    if kind == "mock":
        from buildds.evaluate.backends.mock import MockBackend

        return MockBackend(arg or "parity", **options)
    if kind == "majority":
        from buildds.evaluate.backends.baselines import MajorityBackend

        return MajorityBackend(**options)
    if kind == "random":
        from buildds.evaluate.backends.baselines import RandomBackend

        return RandomBackend(int(arg) if arg else 0, **options)
    if kind == "tfidf":
        from buildds.evaluate.backends.baselines import TfidfBackend

        return TfidfBackend(**options)
    if kind == "replay":
        from buildds.evaluate.backends.replay import ReplayBackend

        return ReplayBackend(arg, **options)
    if kind == "oracle":
        from buildds.evaluate.backends.baselines import OracleBackend

        return OracleBackend(**options)
    from buildds.evaluate.backends.hf import HFBackend

    return HFBackend(arg, **options)
