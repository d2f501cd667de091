"""The contracts review source: flagged clauses with their redline, verdicts into
corrections/contracts/review.yaml — which the next ``buildds contracts`` applies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from buildds.jobs.contracts import build_contracts
from buildds.review.sources.base import StaleVerdict, Verdict, detect_source
from buildds.review.sources.contracts import ContractsSource, probe
from tests.conftest import shared_path
from tests.review.sources.helpers import SCRIPT, make_contract_docx, make_scan_out


def _build(tmp_path: Path, docx: Path) -> Path:
    out = tmp_path / "out"
    build_contracts([docx], out=out, progress=False, corrections=tmp_path / "corr")
    return out


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    docx = make_contract_docx(tmp_path / "c.docx")
    return _build(tmp_path, docx), docx


def _rows(out: Path) -> dict[str, dict]:
    lines = (out / "clauses.jsonl").read_text("utf-8").splitlines()
    return {r["id"]: r for r in map(json.loads, lines)}


def test_queue_and_redline(built: tuple[Path, Path], tmp_path: Path) -> None:
    out, _ = built
    assert probe(tmp_path) is None
    source = detect_source(out)
    assert isinstance(source, ContractsSource) and source.kind == "contract"
    assert source.corrections == tmp_path / "corr"  # where the build reads them
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["input_root"] == str(tmp_path) and source.files() == []  # a .docx: no pages
    changed, empty = source.items()
    assert changed.reasons == ("tracked_changes",) and empty.reasons == (
        "validation:empty_clause",)
    assert changed.facets == {"document": "c.docx", "kind": "article",
                              "reason": "tracked_changes"}
    assert changed.fields == {"text": f"報酬は月額{SCRIPT}とする。"}
    ev = changed.evidence
    assert ev["paragraphs"][1]["segments"] == [
        {"op": "same", "text": "報酬は"}, {"op": "ins", "text": f"月額{SCRIPT}"},
        {"op": "del", "text": "年額"}, {"op": "same", "text": "とする。"}]
    assert [r["kind"] for r in ev["revisions"]] == ["insertion", "deletion"]
    assert ev["actions"] == ["accept", "edit", "exclude"]
    assert ev["before"] == "業務委託契約書" and ev["after"] == "第2条（遂行）"
    assert empty.evidence["flags"] == [{"code": "empty_clause",
                                        "message": "the clause has no text"}]


def test_verdicts_are_applied_by_the_next_build(built: tuple[Path, Path], tmp_path: Path) -> None:
    out, docx = built
    source = detect_source(out)
    changed, empty = source.items()
    with pytest.raises(ValueError, match="takes accept, edit, exclude"):
        source.record(Verdict(key=changed.key, action="reject", note="n"), "x")
    with pytest.raises(ValueError, match="its text"):
        source.record(Verdict(key=changed.key, action="edit", changes={"label": "x"},
                              note="n"), source.version(changed.key))
    with pytest.raises(KeyError):
        source.version("c-e02cc79f-2")  # not flagged, not in the queue
    v1 = source.record(Verdict(key=changed.key, action="edit", changes={
        "text": "報酬は月額とする。"}, note="script injected by the test", reviewer="R"),
        source.version(changed.key))
    # a second verdict before any rebuild is made on the text the first one leaves
    v2 = source.record(Verdict(key=changed.key, action="accept"), v1)
    assert source.current_text(changed.key) == "報酬は月額とする。"
    source.record(Verdict(key=empty.key, action="exclude", note="heading only"),
                  source.version(empty.key))
    entries = yaml.safe_load((tmp_path / "corr" / "review.yaml").read_text("utf-8"))
    assert [e["action"] for e in entries] == ["text", "accept", "exclude"]
    assert source.version(changed.key) == v2

    rebuilt = _build(tmp_path, docx)
    rows = _rows(rebuilt)
    assert rows[changed.key]["text"] == "報酬は月額とする。"
    assert empty.key not in rows
    report = json.loads((rebuilt / "report.json").read_text("utf-8"))
    assert report["corrections"]["applied"] == ["review.yaml#1", "review.yaml#2",
                                                "review.yaml#3"]
    assert report["corrections"]["stale"] == []
    rejects = [json.loads(x) for x in (rebuilt / "rejects.jsonl").read_text("utf-8").splitlines()]
    assert [(r["reason"], r["id"]) for r in rejects] == [("correction_exclude", empty.key)]
    again = detect_source(rebuilt)
    assert again.current_text(changed.key) == "報酬は月額とする。"
    assert again.verdict_for(changed.key) == Verdict(key=changed.key, action="accept",
                                                     note="checked in buildds review")


def test_a_changed_document_makes_the_entries_stale(built: tuple[Path, Path],
                                                    tmp_path: Path) -> None:
    out, _ = built
    source = detect_source(out)
    changed, _ = source.items()
    source.record(Verdict(key=changed.key, action="accept"), source.version(changed.key))
    docx2 = make_contract_docx(tmp_path / "c.docx", body2="受託者は、業務を遂行する。")
    rebuilt = _build(tmp_path, docx2)  # new content: new document id, the entry is stale
    rejects = [json.loads(x) for x in (rebuilt / "rejects.jsonl").read_text("utf-8").splitlines()]
    assert [r["reason"] for r in rejects] == ["stale_correction"]
    assert rejects[0]["source"] == "review.yaml#1"


def test_two_tabs_the_stale_one_is_refused(built: tuple[Path, Path]) -> None:
    out, _ = built
    tab1, tab2 = detect_source(out), detect_source(out)
    key = tab1.items()[0].key
    seen1, seen2 = tab1.version(key), tab2.version(key)
    tab1.record(Verdict(key=key, action="accept"), seen1)
    with pytest.raises(StaleVerdict):
        tab2.record(Verdict(key=key, action="exclude", note="wrong"), seen2)
    verdict = tab2.verdict_for(key)
    assert verdict is not None and verdict.action == "accept"


def test_cli_corrections_option(tmp_path: Path) -> None:
    from buildds.commands.contracts import contracts

    docx = make_contract_docx(tmp_path / "c.docx")
    runner = CliRunner()
    bad = runner.invoke(contracts, [str(docx), "--out", str(tmp_path / "o"), "-q",
                                    "--corrections", str(tmp_path / "missing")])
    assert bad.exit_code == 2 and "--corrections" in bad.output
    (tmp_path / "corr").mkdir()
    (tmp_path / "corr" / "x.yaml").write_text("- nonsense\n", encoding="utf-8")
    broken = runner.invoke(contracts, [str(docx), "--out", str(tmp_path / "o"), "-q",
                                       "--corrections", str(tmp_path / "corr")])
    assert broken.exit_code == 1 and "x.yaml" in broken.output


def test_real_redlines_show_as_segments(tmp_path: Path) -> None:
    docx = shared_path("realdata", "contracts", "en_superdoc-redlines", "SG.docx")
    out = tmp_path / "out"
    build_contracts([docx], out=out, progress=False)
    source = ContractsSource(out, corrections=tmp_path / "corr")
    items = source.items()
    tracked = [i for i in items if "tracked_changes" in i.reasons]
    assert len(tracked) == sum(1 for r in _rows(out).values() if r["changed"]) > 0
    ops = {s["op"] for i in tracked for p in i.evidence["paragraphs"] for s in p["segments"]}
    assert ops == {"same", "ins", "del"}
    for item in tracked:  # the segments give back both views of each block
        for p in item.evidence["paragraphs"]:
            assert all(s["text"] for s in p["segments"])


def test_clauses_on_low_confidence_ocr_pages_are_queued(tmp_path: Path) -> None:
    """A scan read at 42 % on page 2: its clauses are in the queue with the page's
    confidence and the scan's page (the input file the app may serve); page 1 (91 %) is
    not."""
    out, scan = make_scan_out(tmp_path)
    source = ContractsSource(out, corrections=tmp_path / "corr")
    (item,) = source.items()
    assert source.files() == [scan] and item.evidence["source_file"] == str(scan)
    assert (item.key, item.reasons) == ("scan-1234abcd-2", ("ocr_low_confidence",))
    assert item.evidence["ocr"] == {"page": 2, "confidence": 42.0}
    assert item.evidence["paragraphs"] == [{"index": 2, "page": 2, "kind": "paragraph",
                                            "segments": [{"op": "same", "text": "第2条 本文2"}],
                                            "bbox": [10, 20, 300, 40]}]
    assert item.evidence["before"] == "第1条 本文1" and item.evidence["after"] == ""
