"""The AR-Bench card's provenance comes from the build's records (issue 19, point 1): the
statute versions the injected rows were made under (their rationale), and each source file
with the publisher, licence and record the build annotated it with."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from buildds.export.arbench import export_arbench
from tests.evaluate.tasks.appellate_review.test_task import _synthetic_rows

INPUTS = [{"path": "test.json", "sha256": "1" * 64, "format": "judge", "publisher": "Court A",
           "licence": "CC0", "basis": "buildds-sources.yaml, entry 1 (`*.json`)"}]


def test_the_card_names_statute_versions_and_declared_sources(tmp_path: Path) -> None:
    rows = _synthetic_rows()
    export_arbench(rows, out=tmp_path / "plain", fingerprint="a" * 32,
                   provenance={"inputs": INPUTS}, seed=0)
    card = (tmp_path / "plain" / "README.md").read_text("utf-8")
    assert "- statute versions: one statute text for every row" in card
    assert ("| test.json | judge | Court A | CC0 | buildds-sources.yaml, entry 1 (`*.json`) | "
            f"`{'1' * 64}` |") in card

    versioned = [dataclasses.replace(r, rationale={
        **r.rationale, "statute_version": "CN-2015" if i % 3 else "CN-2021"})
        if r.error_type != "none" else r for i, r in enumerate(rows)]
    export_arbench(versioned, out=tmp_path / "versions", fingerprint="b" * 32,
                   provenance={"inputs": INPUTS}, seed=0)
    card = (tmp_path / "versions" / "README.md").read_text("utf-8")
    injected = [r for r in versioned if r.error_type != "none"]
    n2015 = sum(r.rationale["statute_version"] == "CN-2015" for r in injected)
    assert (f"- statute versions: `CN-2015` ({n2015} injected rows), `CN-2021` "
            f"({len(injected) - n2015} injected rows)") in card
