"""The records of a ``buildds jbe`` run (buildds/schema/jbe_build.py) write exactly the JSON
the report and the cache have always held, and read it back."""

from __future__ import annotations

from buildds.pipeline import canonical_json
from buildds.schema import Problem
from buildds.schema.jbe_build import (
    JbeMissingPair,
    JbePairResult,
    JbeReject,
    PairCounts,
    PrintedPair,
    PrintedTitles,
)

PROBLEM = Problem(stage="booklet", code="unplaced-text", message="text kept",
                  source="2019/minpo-mondai.pdf", page=4, severity="warning")


def built() -> JbePairResult:
    titles = PrintedTitles(subjects=("民法",), years=(), page=1, text="［民法］")
    return JbePairResult(
        year=2019, subject="minpo", booklet="2019/minpo-mondai.pdf", key="2019/minpo-seito.pdf",
        status="ok", xml="<exam/>", problems=(PROBLEM,),
        counts=PairCounts(pages=30, ocr_pages=0, questions=36, slots=40, statements=120,
                          options=50),
        printed=PrintedPair(booklet=titles, key=titles),
        booklet_sha256="a" * 64, key_sha256="b" * 64, key_answers="c" * 64)


def test_a_built_pair_writes_the_keys_in_their_order_and_round_trips() -> None:
    pair = built()
    data = pair.to_json()
    assert list(data) == ["year", "subject", "booklet", "key", "status", "xml", "counts",
                          "problems", "printed", "booklet_sha256", "key_sha256",
                          "key_answers"]
    assert list(data["counts"]) == ["pages", "ocr_pages", "questions", "slots", "statements",
                                    "options"]
    assert data["problems"] == [PROBLEM.model_dump()]
    assert data["printed"]["booklet"] == {"subjects": ["民法"], "years": [], "page": 1,
                                          "text": "［民法］"}
    back = JbePairResult.from_json(data)
    assert back == pair and canonical_json(back.to_json()) == canonical_json(data)
    assert "xml" not in pair.to_json(xml=False)


def test_a_failed_pair_has_empty_counts_and_no_hashes() -> None:
    pair = JbePairResult(year=2019, subject="kenpo", booklet="b.pdf", key="k.pdf",
                         problems=(PROBLEM,))
    data = pair.to_json()
    assert data == {"year": 2019, "subject": "kenpo", "booklet": "b.pdf", "key": "k.pdf",
                    "status": "failed", "xml": None, "counts": {},
                    "problems": [PROBLEM.model_dump()]}
    assert JbePairResult.from_json(data) == pair
    assert pair.count("questions") == 0 and built().count("questions") == 36


def test_ocr_confidence_is_written_only_with_ocr_pages() -> None:
    counts = PairCounts(pages=2, ocr_pages=2, questions=1, slots=1, statements=5, options=0,
                        ocr_confidence_pct=91)
    assert list(counts.to_json())[-1] == "ocr_confidence_pct"


def test_missing_pairs_and_rejects() -> None:
    missing = JbeMissingPair(year=2018, subject="keiho", problems=(PROBLEM,))
    assert missing.to_json() == {"year": 2018, "subject": "keiho",
                                 "problems": [PROBLEM.model_dump()]}
    reject = JbeReject(stage="jbe-xml", reason="pair-failed", message="failed", id="2019-minpo")
    assert list(reject.to_json()) == ["stage", "reason", "message", "source", "page", "id"]
