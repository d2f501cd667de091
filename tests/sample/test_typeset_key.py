"""Answer-key typesetter: deterministic bytes, a clear error without the font, and keys
that extract like the official ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from buildds.errors import MissingDependency
from buildds.extract.jbe.answers import parse_answer_key
from buildds.extract.pdf.lines import extract_pdf
from buildds.sample import typeset_key
from buildds.sample.typeset_key import default_left_questions, typeset_answer_key
from buildds.schema import AnswerSlot
from tests.conftest import shared_path

ROWS = [
    AnswerSlot(no=1, question=1, answer="2", points=2),
    AnswerSlot(no=2, question=2, answer="1", points=3, note="順不同（部分点なし）", unordered=True),
    AnswerSlot(no=3, question=2, answer="4", points=3, note="順不同（部分点なし）", unordered=True),
    AnswerSlot(no=4, question=3, answer="5", points=2),
]


def test_two_runs_give_identical_bytes(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for path in (a, b):
        typeset_answer_key(path, subject_jp="民法", full_marks=7, rows=ROWS)
    assert a.read_bytes() == b.read_bytes()
    assert b"IPAMincho" in a.read_bytes()


def test_missing_font_names_the_package(monkeypatch):
    monkeypatch.setattr(typeset_key, "_DEBIAN_FONT", Path("/nonexistent/ipam.ttf"))
    monkeypatch.setattr(typeset_key.shutil, "which", lambda name: None)
    with pytest.raises(MissingDependency, match="fonts-ipafont-mincho"):
        typeset_key.find_ipa_mincho()


def test_rows_of_a_question_must_be_consecutive(tmp_path):
    rows = [ROWS[1], ROWS[0], ROWS[2]]
    with pytest.raises(ValueError, match="consecutive"):
        typeset_answer_key(tmp_path / "x.pdf", subject_jp="民法", full_marks=7, rows=rows)


def test_left_block_split_follows_the_real_keys():
    one = [[ROWS[0]]] * 37
    assert default_left_questions(one, "民法") == 19
    assert default_left_questions([[ROWS[0]] * 2] * 20, "憲法") == 10
    assert default_left_questions([[ROWS[0]] * 5] + [[ROWS[0]]] * 30, "刑法") == 21


@pytest.mark.shared
@pytest.mark.parametrize("subject, jp", [("kenpo", "憲法"), ("minpo", "民法"), ("keiho", "刑法")])
@pytest.mark.parametrize("year, folder", [(2023, "reiwa_05"), (2024, "reiwa_06")])
def test_retypeset_key_extracts_like_the_official_key(tmp_path, year, folder, subject, jp):
    """Parse a key, typeset it again, and compare pdfplumber's text with the real text of
    the official key: line for line, so the merged cells scramble the rows the same way."""
    pdfplumber = pytest.importorskip("pdfplumber")
    (real,) = shared_path("jbe", "real-text", folder, "seito").glob(f"{jp}_*.txt")
    pdf = shared_path("jbe", "pdf", str(year), f"{subject}-seito.pdf")
    key = parse_answer_key(extract_pdf(pdf, words=True, source_path=pdf.name), year=year,
                           subject=subject)
    out = tmp_path / "key.pdf"
    typeset_answer_key(out, subject_jp=jp, full_marks=key.full_marks or 0, rows=key.slots)
    with pdfplumber.open(out) as doc:
        text = doc.pages[0].extract_text()
    expected = [ln for ln in real.read_text("utf-8").splitlines() if not ln.startswith("--- Page")]
    assert text.splitlines() == expected
