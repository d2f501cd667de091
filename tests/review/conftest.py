"""Fixtures of the review app's tests: the JBE sample build, a running server and a headless
browser.

* ``jbe_sample`` (session): ``buildds jbe --years 2025`` on a copy of the bundled sample,
  with an empty corrections folder; tests that write verdicts make their own corrections
  folder (:func:`jbe_source`) so they never see each other's.
* ``review_server``: a starter — ``review_server(out_or_source)`` serves the app for an output
  folder (detected with :func:`buildds.review.sources.base.detect_source`) or a ready source,
  from a thread on a free 127.0.0.1 port, and returns a :class:`RunningReview` (base URL,
  token, the URL with the token); every server started stops at the test's end. Other kinds'
  browser tests reuse it.
* ``chromium`` (module): playwright driving Debian's chromium (``executable_path``, no browser
  download), skipped when either is missing; :func:`screenshot` saves a page to
  ``$BUILDDS_ARTIFACTS`` or ``artifacts/screenshots/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class JbeSample:
    root: Path
    raw: Path
    out: Path
    corrections: Path


def build_sample(root: Path, corrections: Path | None = None) -> JbeSample:
    """The bundled sample built into ``root/out`` from a copy in ``root/raw``."""
    from buildds.jobs.jbe import build_jbe
    from buildds.sample import SAMPLE_DIR

    raw = root / "raw"
    if not raw.exists():
        shutil.copytree(SAMPLE_DIR, raw)
    corrections = corrections or root / "corrections"
    corrections.mkdir(parents=True, exist_ok=True)
    out = root / "out"
    build_jbe(years=[2025], raw=raw, out=out, progress=False, processes=1,
              corrections=corrections)
    return JbeSample(root=root, raw=raw, out=out, corrections=corrections)


@pytest.fixture(scope="session")
def jbe_sample(tmp_path_factory: pytest.TempPathFactory) -> JbeSample:
    return build_sample(tmp_path_factory.mktemp("review_jbe"))


def jbe_source(sample: JbeSample, corrections: Path, **kw: Any) -> Any:
    from buildds.review.sources.jbe import JbeSource

    return JbeSource(sample.out, raw=sample.raw, corrections=corrections, **kw)


@dataclass(frozen=True)
class RunningReview:
    base_url: str
    token: str
    source: Any

    @property
    def url(self) -> str:
        """The URL ``buildds review`` prints: the queue, with the session token."""
        return f"{self.base_url}/?token={self.token}"


@pytest.fixture
def review_server() -> Iterator[Callable[..., RunningReview]]:
    """Start the review app for an output folder or a source; stopped at the test's end."""
    pytest.importorskip("uvicorn", reason="the review extra is not installed")
    from buildds.review.app import create_app
    from buildds.review.security import new_token
    from buildds.review.server import running
    from buildds.review.sources.base import detect_source

    with ExitStack() as stack:
        def start(out_or_source: Any, *, reviewer: str = "") -> RunningReview:
            source = (detect_source(out_or_source) if isinstance(out_or_source, (str, Path))
                      else out_or_source)
            token = new_token()
            base = stack.enter_context(running(create_app(source, token, reviewer=reviewer)))
            return RunningReview(base_url=base, token=token, source=source)

        yield start


def chromium_binary() -> str:
    for name in (os.environ.get("BUILDDS_CHROMIUM"), "chromium", "chromium-browser"):
        if name and (path := shutil.which(name)):
            return path
    pytest.skip("no chromium binary (apt-get install chromium)")


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """A headless chromium browser (playwright, Debian's binary)."""
    binary = chromium_binary()
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (the dev extra)")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=binary, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def artifacts_dir() -> Path:
    folder = Path(os.environ.get("BUILDDS_ARTIFACTS") or REPO / "artifacts") / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot(page: Any, name: str) -> Path:
    """Save ``page`` as ``<artifacts>/screenshots/<name>.png``."""
    path = artifacts_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
