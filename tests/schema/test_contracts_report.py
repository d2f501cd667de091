"""The contracts run's report records (buildds.schema.contracts): ``as_dict`` is the JSON the
report has always held, keys in the same order."""

from __future__ import annotations

from buildds.schema import Problem
from buildds.schema.contracts import ContractFileEntry, ItemProblem


def test_failed_file_entry_holds_file_status_problems() -> None:
    problem = Problem(stage="extract", code="no_text", message="no text found", source="a.pdf")
    entry = ContractFileEntry(file="a.pdf", status="failed", problems=(problem,))
    assert entry.as_dict() == {"file": "a.pdf", "status": "failed",
                               "problems": [problem.model_dump()]}
    assert list(entry.as_dict()) == ["file", "status", "problems"]


def test_read_file_entry_keys_in_report_order() -> None:
    entry = ContractFileEntry(file="b.docx", status="ok", format="docx", sha256="ab", pages=None,
                              paragraphs=3, clauses=2, articles=1, revisions=0,
                              changed_clauses=0, comments=0, ocr_confidence=None, seconds=0.012)
    assert list(entry.as_dict()) == [
        "file", "status", "format", "sha256", "pages", "paragraphs", "clauses", "articles",
        "revisions", "changed_clauses", "comments", "ocr_confidence", "ocr_page_confidence",
        "ocr_page_lang", "seconds", "problems"]
    assert entry.as_dict()["seconds"] == 0.012 and entry.as_dict()["problems"] == []


def test_item_problem_as_dict() -> None:
    prob = ItemProblem("unknown-label", "label 'x' is not in the label inventory", "a.csv",
                       "doc-1", 3, 2)
    assert prob.as_dict() == {"reason": "unknown-label",
                              "message": "label 'x' is not in the label inventory",
                              "source": "a.csv", "id": "doc-1", "line": 3, "page": 2}
