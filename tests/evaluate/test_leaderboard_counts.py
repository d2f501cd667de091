"""Issue 16: every leaderboard shows answered / failed / unfaithful beside its figures, in the
main table itself (not only in the appended samples table)."""

from __future__ import annotations

from typing import Any

from buildds.evaluate import report as jbe_report
from buildds.evaluate.tables import SAMPLES_HEAD, samples_cell
from buildds.evaluate.tasks.appellate_review import report as ar_report
from buildds.evaluate.tasks.appellate_review.task import Variant
from buildds.evaluate.tasks.highbar import report as hb_report
from buildds.evaluate.tasks.rikai import classification_report, revision_report

SAMPLES = {"items": 10, "answered": 7, "failed": 3, "refused": 1, "unfaithful": 2}


def _table_rows(md: str, heading: str) -> list[str]:
    """The markdown table lines right after ``heading`` (its header first)."""
    section = md.split(heading + "\n", 1)[1].split("\n#", 1)[0]
    table = next(b for b in section.split("\n\n") if b.strip().startswith("|"))
    return [line for line in table.strip().splitlines() if line.startswith("|")]


def _assert_counts_beside(rows: list[str], model: str) -> None:
    assert SAMPLES_HEAD in rows[0] or "| Samples " in rows[0]  # JBE: one per setting
    row = next(r for r in rows if r.startswith(f"| {model} |"))
    assert "| 7 / 3 / 2 |" in row, row


def test_samples_cell() -> None:
    assert samples_cell({"samples": SAMPLES}) == "7 / 3 / 2"
    assert samples_cell({}) == "–" and samples_cell(None) == "–"


def test_jbe_main_table() -> None:
    m: dict[str, Any] = {"model": "m1", "shots": 0, "n": 7, "f1": 0.5, "accuracy": 0.6,
                         "faithfulness": 0.7, "samples": SAMPLES}
    md = jbe_report.render_leaderboard_md([m])
    _assert_counts_beside(_table_rows(md, "## F1 and faithfulness"), "m1")


def test_appellate_review_main_tables() -> None:
    m = {"model": "m1", "shots": 0, "n": 7, "accuracy": 0.5, "macro_f1": 0.4, "if_rate": 0.8,
         "samples": SAMPLES, "per_target": {"charge": {"n": 7, "accuracy": 0.5}},
         "per_setting": {"S3": {"accuracy": 0.5}, "S4": {"accuracy": 0.5}}}
    md = ar_report.render_leaderboard(
        [m], title="AR", heading="Correction",
        variant=Variant(subtask="correction", settings=("S3", "S4")),
        setting_titles={"S3": "three", "S4": "four"})
    for heading in ("## Correction (Table 3 layout)", "## Correction per target",
                    "## Input settings (Table 5 layout)"):
        _assert_counts_beside(_table_rows(md, heading), "m1")


def test_clause_classification_main_table() -> None:
    m = {"model": "m1", "shots": 0, "n": 7, "f1": 0.5, "precision": 0.5, "recall": 0.5,
         "hallucinations": 4, "samples": SAMPLES}
    md = classification_report.render_leaderboard([m])
    _assert_counts_beside(_table_rows(md, "## Zero-shot"), "m1")


def test_clause_revision_main_table() -> None:
    m = {"model": "m1", "shots": 0, "n": 7, "overall": 50.0, "samples": SAMPLES,
         "per_judge": {"j1": {"overall": 50.0}}}
    md = revision_report.render_leaderboard([m])
    _assert_counts_beside(_table_rows(md, "## Zero-shot (judge `j1`)"), "m1")


def test_highbar_main_tables() -> None:
    m = {"model": "m1", "shots": 0, "n": 7, "pass_rate": 0.5, "criteria_met": 0.6,
         "per_task": {}, "samples": SAMPLES}
    md = hb_report.render_leaderboard([m], title="HB")
    for heading in ("## The High Bar", "## Substance"):
        _assert_counts_beside(_table_rows(md, heading), "m1")
