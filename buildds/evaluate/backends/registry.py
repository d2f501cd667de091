"""Backend specs: a command-line spec in, a backend out.

:func:`make_backend` turns a spec into a backend::

    openai:<model>   an OpenAI-compatible chat-completions API (--base-url, $OPENAI_API_KEY)
    mock[:<mode>]    deterministic answers for tests (see MockBackend)
    majority         the most common training label / reference answer
    random:<seed>    a seeded random label
    tfidf            char n-gram TF-IDF + logistic regression
    replay:<file>    answers saved earlier ({id, raw_output} JSONL), by sample id
    hf:<path>        a local transformers text-generation model
    oracle           each item's reference answer (a judge's ceiling; the runner wires it)

Each implementation is imported when its kind is built, so the optional dependencies of one
backend (httpx, scikit-learn, transformers) load only when that backend is used.
"""

from __future__ import annotations

from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.backends.base import Backend

__all__ = ["BACKEND_KINDS", "check_spec", "make_backend"]

BACKEND_KINDS = ("openai", "mock", "majority", "random", "tfidf", "replay", "hf", "oracle")

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
