"""The exit status of ``buildds jbe``, so that a script can trust it.

A run *fails* (exit 1, with or without ``--strict``) when it did not deliver what was
asked for:

* a requested year or subject has no files (``missing``);
* a booklet/key pair failed as a whole (a file that is not what its path says, a key that
  disagrees with its booklet, an unreadable PDF …);
* a booklet built but holds no question, or (in a dataset build) gives no item at all — a
  layout the parser could not read is a failed booklet, never a silent 0;
* no XML at all was built;
* the dataset was not exported (no items, or validation failed).

``--strict`` keeps its meaning on top of that: it also fails a run in which any file had a
problem (an error-severity problem of a pair that built, a stale correction, a validation
error). Everything else exits 0.

:func:`run_failures` gives the reasons (the console prints them, one line each), and
:func:`exit_code` the status.
"""

from __future__ import annotations

from buildds.jobs.jbe_report import JbeReport

__all__ = ["EXIT_FAILED", "EXIT_OK", "empty_booklets", "exit_code", "run_failures"]

EXIT_OK = 0
EXIT_FAILED = 1


def empty_booklets(report: JbeReport) -> list[str]:
    """The booklets that built but hold no question, or (when the dataset stage ran) gave
    no item."""
    out = []
    dataset = report.dataset
    with_items = {i.source for i in dataset.items} if dataset is not None else set()
    for pair in report.pairs:
        if pair.failed:
            continue
        questions = pair.counts.questions if pair.counts is not None else 0
        if questions == 0:
            out.append(f"{pair.booklet}: no question found (is the layout readable?)")
        elif dataset is not None and pair.booklet not in with_items:
            excluded = sum(1 for e in dataset.exclusions if e.source == pair.booklet)
            out.append(f"{pair.booklet}: {questions} questions read but no item built "
                       f"({excluded} excluded)")
    return out


def _dataset_reason(report: JbeReport) -> str | None:
    dataset = report.dataset
    if dataset is None or dataset.exported or dataset.unchanged:
        return None
    if not dataset.items:
        return "dataset NOT exported: no items"
    return "dataset NOT exported: validation failed (see report.md)"


def run_failures(report: JbeReport) -> list[str]:
    """Why the run failed regardless of ``--strict`` (empty when it did not)."""
    reasons = []
    if report.missing:
        reasons.append(f"{len(report.missing)} requested booklet/key pair(s) have no files")
    failed = [p.booklet for p in report.pairs if p.failed]
    if failed:
        reasons.append(f"{len(failed)} booklet(s) failed: {', '.join(failed)}")
    reasons += empty_booklets(report)
    if report.pairs and report.xml_files == 0 and not failed:
        reasons.append("no XML built")
    if (reason := _dataset_reason(report)) is not None:
        reasons.append(reason)
    return reasons


def exit_code(report: JbeReport, *, strict: bool) -> int:
    """1 when :func:`run_failures` has a reason, or ``strict`` and any problem; else 0."""
    if run_failures(report) or (strict and report.problem_count):
        return EXIT_FAILED
    return EXIT_OK
