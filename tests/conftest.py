"""Shared test helpers.

``shared_dir`` points at ../shared (or $BUILDDS_SHARED); tests that need it skip cleanly
when it is absent, as in a user's fresh clone. Golden files are regenerated only when
BUILDDS_REGEN_GOLDEN=1 is set (tests/test_golden_flag.py asserts it is off in CI).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("BUILDDS_SHARED", REPO.parent / "shared"))
GOLDEN = Path(__file__).resolve().parent / "golden"
REGEN_GOLDEN = os.environ.get("BUILDDS_REGEN_GOLDEN") == "1"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test when it is not there."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not present (needs ../shared)")
    return path


@pytest.fixture
def jbe_pdf_dir() -> Path:
    return shared_path("jbe", "pdf")


def check_golden(name: str, text: str) -> None:
    """Compare ``text`` with tests/golden/<name>; write it instead when regenerating."""
    path = GOLDEN / name
    if REGEN_GOLDEN or not path.exists():
        if not REGEN_GOLDEN and os.environ.get("CI"):
            raise AssertionError(f"golden file {path} is missing; regenerate with BUILDDS_REGEN_GOLDEN=1")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"output differs from golden file {path}"


def simple_pdf_bytes(*lines: str, **canvas_kw: object) -> bytes:
    """A one-page A4 PDF with a text layer (Helvetica lines), made with reportlab;
    ``canvas_kw`` goes to the Canvas (e.g. ``encrypt=``)."""
    import io

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, invariant=1, **canvas_kw)  # type: ignore[arg-type]
    c.setFont("Helvetica", 12)
    for i, line in enumerate(lines):
        c.drawString(72, 700 - 20 * i, line)
    c.showPage()
    c.save()
    return buf.getvalue()
