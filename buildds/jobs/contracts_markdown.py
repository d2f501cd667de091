"""``report.md`` of ``buildds contracts`` (:func:`contracts_markdown`), from the run's
:class:`~buildds.jobs.contracts.ContractsReport`."""

from __future__ import annotations

from typing import Any

from buildds.jobs.contracts_ocr import ocr_pages_markdown

__all__ = ["contracts_markdown"]


def _cell(value: object) -> str:
    if value is None:
        return "–"
    return " ".join(str(value).split()).replace("|", "\\|")


def contracts_markdown(report: Any) -> str:
    """``report.md`` of a contracts build (``report``: its ``ContractsReport``, typed loosely
    as that module imports this one): per file, rejects, the export, clause flags and label
    frequencies."""
    lines = [f"# Contracts build ({report.view} view)", "", report.summary_line(), "",
             ("| file | status | format | pages | paragraphs | clauses | articles | revisions "
             "| comments | OCR confidence | seconds |"),
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for f in report.files:
        if f.status == "failed":
            why = "; ".join(p.message for p in f.problems)
            lines.append(f"| {_cell(f.file)} | failed: {_cell(why)} |  |  |  |  |  |  |  |  |  |")
            continue
        lines.append("| " + " | ".join(_cell(getattr(f, k)) for k in (
            "file", "status", "format", "pages", "paragraphs", "clauses", "articles",
            "revisions", "comments", "ocr_confidence", "seconds")) + " |")
    lines += ocr_pages_markdown(report.files)
    if report.problems:
        lines += ["", "## Rejected (see rejects.jsonl)", "", "| reason | count |", "|---|---:|"]
        lines += [f"| {r} | {n} |" for r, n in sorted(report.problems.items())]
    if report.items:
        lines += ["", f"## Export: {report.exported}", "",
                  (f"data fingerprint: `{report.data_fingerprint or '–'}` (of `data/*.parquet`:"
                   " the card, `buildds validate` and the eval leaderboard's dataset key show "
                   "the same)"), "", "| split | rows |", "|---|---:|"]
        lines += [f"| {s} | {n} |" for s, n in report.items.items()]
    if report.clause_flags:
        from buildds.validate.clause_checks import flags_markdown

        lines += ["", *flags_markdown(report.clause_flags)]
    if report.label_frequencies is not None:
        lines += ["", "## Label frequencies", "", "| label | items |", "|---|---:|"]
        lines += [f"| {_cell(k)} | {v} |" for k, v in report.label_frequencies.items()]
    return "\n".join(lines) + "\n"
