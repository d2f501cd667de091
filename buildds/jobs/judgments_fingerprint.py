"""The judgments build's fingerprint, and the no-change rebuild it allows.

The fingerprint covers the inputs' and the law files' content, the options, the code and
the provenance declared for every input and law file (:func:`.input_sources.declared_source`:
a ``buildds-sources.yaml`` or ``PROVENANCE.md`` beside them), so adding or editing such a
record rebuilds the card instead of keeping the old one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from buildds.jobs.input_sources import declared_source
from buildds.jobs.judgments_inputs import JudgmentsRun, sha256_regular
from buildds.pipeline import canonical_json
from buildds.safeio.hashing import sha256_bytes
from buildds.safeio.names import printable_name
from buildds.schema.judgments_report import JudgmentsReport

__all__ = ["MARKER", "build_fingerprint", "restore_unchanged"]

MARKER = ".dataset-fingerprint"


def _declared(paths: Sequence[Path]) -> list[list[str]]:
    records = []
    for p in paths:
        found = declared_source(p)
        records.append([printable_name(p.name), found.publisher, found.licence, found.url,
                        found.basis])
    return records


def build_fingerprint(run: JudgmentsRun, law_files: Sequence[Path],
                      inputs: Sequence[Path] = ()) -> str:
    """Over the inputs' and the law files' content, the options, the code and the
    provenance declared for the inputs and law files."""
    report = run.report
    laws = [p for p in law_files if p.is_file()]
    return sha256_bytes(canonical_json({
        "inputs": [i.as_json() for i in report.inputs],
        "failed": [f.as_json() for f in report.failed], "options": run.options,
        "code": report.code_version,
        "law": [[printable_name(p.name), sha256_regular(p)] for p in laws],
        "declared": _declared([*(Path(p) for p in inputs), *laws]),
    }).encode())[:32]


def restore_unchanged(report: JudgmentsReport, out: Path) -> bool:
    """Whether the export under ``out`` was made with this fingerprint; if so the report
    takes its counts from the ``report.json`` beside it."""
    marker = out / MARKER
    if not (marker.exists() and marker.read_text("utf-8").strip() == report.fingerprint
            and (out / "report.json").is_file() and (out / "dataset").is_dir()):
        return False
    report.restore(json.loads((out / "report.json").read_text("utf-8")))
    return True
