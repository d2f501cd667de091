"""Fixtures of the evaluation tests: the bundled sample exam, exported once per session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def sample_export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``buildds jbe --years 2025`` on the bundled sample (74 items, 4 few-shot exemplars)."""
    from buildds.jobs.jbe import build_jbe
    from buildds.sample import SAMPLE_DIR

    root = tmp_path_factory.mktemp("sample_jbe")
    raw = root / "raw"
    shutil.copytree(SAMPLE_DIR, raw)
    out = root / "out"
    build_jbe(years=[2025], raw=raw, out=out, progress=False, processes=1, corrections=None)
    return out


@pytest.fixture
def retry_waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits (seconds) the OpenAI backend decides on before each retry, recorded: a test
    checks that a Retry-After was honoured by its value, not by timing the run."""
    from buildds.evaluate.backends.openai import backend

    waits: list[float] = []
    real = backend.retry_wait

    def recording(*args, **kwargs) -> float:
        waits.append(real(*args, **kwargs))
        return waits[-1]

    monkeypatch.setattr(backend, "retry_wait", recording)
    return waits
