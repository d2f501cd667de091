"""Publisher and licence of a judgments / contracts build's inputs, read from the records
beside them (``buildds-sources.yaml``, ``PROVENANCE.md``) — issue 19, point 1 — and shown in
the card with the record that declared them; "not declared" with how to declare it."""

from __future__ import annotations

from pathlib import Path

import pytest

from buildds.errors import BuildError
from buildds.jobs.input_sources import (
    NOT_DECLARED,
    SIDECAR,
    annotate_sources,
    declared_source,
    provenance_rows,
)
from buildds.safeio.hashing import sha256_file
from tests.conftest import shared_path

PROVENANCE_MD = """# Data — provenance

| dir | source repo @ commit | licence | contents |
|---|---|---|---|
| `court-a/` | `org/court-a` @ `abc123` | MIT, © 2024 Someone | 10 judgments |
| `court-b/` | `org/court-b` @ `def456` | CC0 | 3 judgments |

## Files

| dir | source repo (licence) | what |
|---|---|---|
| `contracts/` | acme/contracts (no licence) | templates |

| file | repo | path |
|---|---|---|
| `contracts/nda.docx` | acme/nda-kit | `kit/nda.docx` |

| note | text |
|---|---|
| `court-a/` | a table without a source or licence column is not a record |
"""


def test_provenance_tables_are_read() -> None:
    rows = provenance_rows(PROVENANCE_MD)
    assert (["court-a/"], "org/court-a @ abc123", "MIT, © 2024 Someone") in rows
    assert (["contracts/"], "acme/contracts", "no licence") in rows
    assert (["contracts/nda.docx"], "acme/nda-kit", "") in rows
    assert len(rows) == 4


def test_the_nearest_and_most_specific_record_wins(tmp_path: Path) -> None:
    (tmp_path / "PROVENANCE.md").write_text(PROVENANCE_MD, encoding="utf-8")
    for rel in ("court-a/test.json", "court-b/x.jsonl", "contracts/nda.docx", "contracts/b.pdf",
                "other/y.json"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("{}", encoding="utf-8")
    a = declared_source(tmp_path / "court-a" / "test.json")
    assert (a.publisher, a.licence) == ("org/court-a @ abc123", "MIT, © 2024 Someone")
    assert a.basis == "PROVENANCE.md above the input, row `court-a/`"
    assert declared_source(tmp_path / "court-b").licence == "CC0"  # a folder input
    nda = declared_source(tmp_path / "contracts" / "nda.docx")  # file row + folder's licence
    assert (nda.publisher, nda.licence) == ("acme/nda-kit", "no licence")
    assert declared_source(tmp_path / "contracts" / "b.pdf").publisher == "acme/contracts"
    other = declared_source(tmp_path / "other" / "y.json")
    assert (other.publisher, other.licence) == (NOT_DECLARED, NOT_DECLARED)
    assert "PROVENANCE.md above the input: no row or entry names it" in other.basis
    assert SIDECAR in other.basis

    # a sidecar nearer the input wins over the PROVENANCE.md above it
    (tmp_path / "court-a" / SIDECAR).write_text(
        "sources:\n  - match: '*.csv'\n    publisher: nobody\n    licence: none\n"
        "  - match: 'test.*'\n    publisher: Court A Press\n    licence: CC BY 4.0\n"
        "    url: https://example.org/a\n", encoding="utf-8")
    a = declared_source(tmp_path / "court-a" / "test.json")
    assert (a.publisher, a.licence, a.url) == ("Court A Press", "CC BY 4.0",
                                              "https://example.org/a")
    assert a.basis == f"{SIDECAR}, entry 2 (`test.*`)"


def test_nothing_declared_says_how_to_declare(tmp_path: Path) -> None:
    (tmp_path / "in.json").write_text("{}", encoding="utf-8")
    record = declared_source(tmp_path / "in.json")
    assert record.publisher == NOT_DECLARED and record.licence == NOT_DECLARED
    assert f"declare its publisher and licence in a {SIDECAR}" in record.basis


@pytest.mark.parametrize("text, why", [
    ("sources: 3\n", "a list `sources:`"),
    ("sources:\n  - match: '*'\n    publisher: x\n", "entry 1: needs the texts match"),
    ("sources: [\n", "cannot read the sources file"),
])
def test_a_bad_sidecar_is_an_error_naming_it(tmp_path: Path, text: str, why: str) -> None:
    (tmp_path / SIDECAR).write_text(text, encoding="utf-8")
    (tmp_path / "in.json").write_text("{}", encoding="utf-8")
    with pytest.raises(BuildError) as err:
        declared_source(tmp_path / "in.json")
    assert why in err.value.message and err.value.source == str(tmp_path / SIDECAR)


def test_entries_are_matched_by_recorded_name(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / SIDECAR).write_text("sources:\n  - match: 'a/*'\n    publisher: A\n"
                                    "    licence: MIT\n", encoding="utf-8")
    paths = [tmp_path / "a" / "x.docx", tmp_path / "b" / "y.docx"]
    rows = annotate_sources([{"path": "a/x.docx", "sha256": "1"},
                             {"path": "y.docx", "sha256": "2"},
                             {"path": "unknown", "sha256": "3", "publisher": "kept"}], paths)
    assert [(r.get("publisher"), r.get("licence")) for r in rows] == [
        ("A", "MIT"), (NOT_DECLARED, NOT_DECLARED), ("kept", None)]


def test_contracts_card_names_the_declared_source(tmp_path: Path) -> None:
    from buildds.jobs.contracts import build_contracts
    from tests.jobs.test_contracts_job import make_docx

    folder = tmp_path / "in"
    folder.mkdir()
    doc = make_docx(folder / "委託.docx")
    (folder / SIDECAR).write_text("sources:\n  - match: '*.docx'\n    publisher: Example LLP\n"
                                  "    licence: CC BY 4.0\n", encoding="utf-8")
    out = tmp_path / "out"
    build_contracts([doc], out=out, progress=False)
    card = (out / "README.md").read_text("utf-8")
    assert (f"| 委託.docx |  | Example LLP | CC BY 4.0 | {SIDECAR}, entry 1 (`*.docx`) | "
            f"`{sha256_file(doc)}` |") in card
    assert "not recorded" not in card


def test_shared_corpora_are_credited_from_their_provenance() -> None:
    judgments = shared_path("realdata", "judgments")
    record = declared_source(judgments / "caseformer-demo" / "legal_documents.jsonl")
    assert record.publisher.startswith("oneal2000/Caseformer @ 96dd33aa")
    assert record.licence == "Apache-2.0 (LICENSE included)"
    contracts = shared_path("realdata", "contracts")
    record = declared_source(contracts / "tc_pandoc" / "comments.docx")
    assert (record.publisher, record.licence) == ("jgm/pandoc", "GPL-2.0-or-later")
