"""The report's corpus sections (:mod:`buildds.jobs.judgments_corpus`) from records made
here: rejects per input and reason, injected rows per type and corpus, law dates."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace
from typing import Any

from buildds.jobs.judgments_corpus import CN_AMENDMENTS, corpus_report


def _row(error: str, dataset: str) -> Any:
    return SimpleNamespace(error_type=error, dataset=dataset, label=0 if error == "none" else 1)


def test_sections() -> None:
    rejects = [
        {"stage": "extract", "source": "b.jsonl", "reason": "duplicate_case",
         "message": "line 4: case x is already a.json line 2 (the first is kept)"},
        {"stage": "extract", "source": "b.jsonl", "reason": "multi_defendant", "message": ""},
        {"stage": "inject", "source": "b.jsonl", "reason": "no_fine", "message": ""},
    ]
    rows = [_row("E1", "judge"), _row("E1", "lecard"), _row("E3", "lecard"), _row("none", "judge")]
    judged = [SimpleNamespace(judgment_date=d) for d in
              (date(2014, 5, 1), date(2016, 1, 1), date(2016, 2, 1), date(2024, 5, 1), None)]
    md, data = corpus_report(parsed={"a.json": 3, "b.jsonl": 2}, formats={"a.json": "judge",
                             "b.jsonl": "lecard"}, rejects=rejects, errors=["E1", "E3", "E5"],
                             rows=rows, judgments=judged, in_force=date(2024, 3, 1),  # type: ignore[arg-type]
                             versions=CN_AMENDMENTS)
    assert data["inputs"]["b.jsonl"] == {
        "parsed": 2, "rejected": {"duplicate_case": 1, "multi_defendant": 1},
        "duplicates_of": {"duplicate_case of a.json": 1}}
    assert data["error_types"]["E1"] == {"rows": 2, "by_dataset": {"judge": 1, "lecard": 1}}
    assert data["error_types"]["E5"] == {"rows": 0, "by_dataset": {}}
    assert data["error_types"]["normal"] == 1
    assert data["law_dates"] == {"text_in_force_from": "2024-03-01", "judgments": 5,
                                 "dated_before": 3, "undated": 1,
                                 "by_text_in_force": {"Amendment VIII": 1, "Amendment IX": 2}}
    assert "| E1 | Erroneous Charge | 2 | 1 | 1 |" in md
    assert "| all | normal 1 + injected 3 | 4 | 2 | 2 | 8,700 decisions" in md
    assert "Pass --law-store" in md


def test_no_dates_section_when_a_law_store_chose_the_versions() -> None:
    md, data = corpus_report(parsed={}, formats={}, rejects=[], errors=["E1"], rows=[],
                             judgments=[], in_force=None)
    assert "law_dates" not in data and "--law-store" not in md
