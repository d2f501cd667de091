"""Step "shortcut audit" of ``buildds judgments`` (:func:`audit_step`): the surface-cue
detectors of :mod:`buildds.validate.shortcut_audit` run on the build's rows (a capped
seeded sample of each type: :mod:`.judgments_audit_sample`), their figures into the report."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from buildds.jobs.judgments_inputs import JudgmentsRun
    from buildds.schema.arbench import ArbenchRow

__all__ = ["audit_step"]


def audit_step(run: JudgmentsRun, rows: list[ArbenchRow], statutes: Any) -> None:
    """Step "shortcut audit": surface-cue detectors on the rows
    (:mod:`buildds.validate.shortcut_audit`), into the report; a failing audit fails
    ``--strict`` but does not stop the export."""
    from buildds.jobs.judgments_audit_sample import audit_sample, sample_note
    from buildds.pipeline import release_freed_memory
    from buildds.validate.shortcut_audit import audit_rows
    from buildds.validate.shortcut_report import shortcut_markdown

    used = audit_sample(rows, seed=run.seed)  # bounded: at most a cap of rows per type
    result = audit_rows(used, profile=statutes, seed=run.seed)
    run.report.shortcut_audit = result.as_json()
    note = sample_note(rows, used)
    if note is not None:
        run.report.shortcut_audit["sample"] = note
    run.report.shortcut_md = shortcut_markdown(result, level=2)
    del used, result
    release_freed_memory()  # the sample and the detectors' matrices, before the export
