"""`buildds review` on a contracts build in a real headless browser (Debian's chromium driven
by playwright; skipped without either): a .docx made here with a tracked change (an insertion
holding a script tag, a deletion) and an empty article. The clause is shown as a redline
(``<ins>`` / ``<del>``, the script as text), edited with the keyboard, the entry is found in
the corrections folder, and after a rebuild the clause has the new text. Screenshots go to
$BUILDDS_ARTIFACTS or artifacts/screenshots/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from buildds.jobs.contracts import build_contracts
from tests.review.conftest import screenshot
from tests.review.sources.helpers import SCRIPT, make_contract_docx

FIXED = "報酬は月額とする。"


def _build(docx: Path, out: Path, corrections: Path) -> None:
    build_contracts([docx], out=out, progress=False, corrections=corrections)


def _clause_text(out: Path, clause_id: str) -> str:
    rows = [json.loads(line) for line in (out / "clauses.jsonl").read_text("utf-8").splitlines()]
    return next(r["text"] for r in rows if r["id"] == clause_id)


# long: one reviewing session, then a rebuild
def test_review_a_contract_clause_in_the_browser(tmp_path: Path, chromium: Any,
                                                 review_server: Any) -> None:
    docx = make_contract_docx(tmp_path / "c.docx")
    out, corrections = tmp_path / "out", tmp_path / "corrections" / "contracts"
    _build(docx, out, corrections)
    server = review_server(out, reviewer="e2e")
    changed = next(i for i in server.source.items() if "tracked_changes" in i.reasons)
    clause_id = changed.evidence["clause_id"]
    assert _clause_text(out, clause_id) == f"報酬は月額{SCRIPT}とする。"
    page = chromium.new_page(viewport={"width": 1360, "height": 900})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        page.goto(server.url)
        assert page.locator("#queue tr.row").count() == 2
        with page.expect_navigation():
            page.select_option("select[name=reason]", "tracked_changes")
        assert page.locator("#queue tr.row").count() == 1
        screenshot(page, "review-contracts-01-queue")
        page.keyboard.press("o")
        page.wait_for_selector("#verdict-form")
        assert page.url.split("?")[0].endswith(f"/item/{changed.key}")

        # the redline: the insertion (with the script as text) and the deletion
        assert page.locator(".ev-clause ins").all_inner_texts() == [f"月額{SCRIPT}"]
        assert page.locator(".ev-clause del").all_inner_texts() == ["年額"]
        assert page.locator(".ev-clause script").count() == 0
        assert "Tracked changes (2)" in page.inner_text(".ev-revisions summary")
        screenshot(page, "review-contracts-02-item-redline")

        # e: edit the clause; select its text, type the new one, Tab to the reason, Enter
        page.keyboard.press("e")
        assert page.evaluate("document.activeElement.id") == "field-text"
        page.keyboard.press("Control+A")
        page.keyboard.type(FIXED)
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "note"
        page.keyboard.type("the inserted script is not contract text")
        screenshot(page, "review-contracts-03-edit")
        with page.expect_navigation():
            page.keyboard.press("Enter")
    finally:
        page.close()
    assert dialogs == []

    entries = yaml.safe_load((corrections / "review.yaml").read_text("utf-8"))
    (entry,) = [e for e in entries if e["id"] == clause_id]
    assert entry["action"] == "text" and entry["text"] == FIXED
    assert entry["reason"] == "the inserted script is not contract text"
    assert entry["expect"]

    # the rebuild applies the entry: the clause has the new text, in the data and the app
    _build(docx, out, corrections)
    assert _clause_text(out, clause_id) == FIXED
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["corrections"]["applied"] == ["review.yaml#1"]
    assert report["corrections"]["stale"] == []
    page = chromium.new_page(viewport={"width": 1360, "height": 900})
    try:  # the same app, still running: it reads the rebuilt output
        page.goto(server.url)
        page.goto(f"{server.base_url}/item/{changed.key}")
        assert page.inner_text("#fields .field-text").strip() == FIXED
        assert "Verdict stored" in page.inner_text("#verdict")
        screenshot(page, "review-contracts-04-item-after-rebuild")
    finally:
        page.close()


REAL = (("tc_pandoc", "paragraph_insertion_deletion.docx"),
        ("tc_openxml-powertools", "RA001-Tracked-Revisions-01.docx"),
        ("tc_openxml-powertools", "DA024-TrackedRevisions.docx"),
        ("tc_openxml-powertools", "RevisionTracking.docx"))


def test_real_tracked_changes_show_as_a_redline(tmp_path: Path, chromium: Any,
                                                review_server: Any) -> None:
    """Real .docx files with tracked changes (../shared tc_* folders): every changed clause
    is queued and its page shows as many ``<ins>``/``<del>`` as the source has; an accept
    given with the keyboard is applied by the rebuild."""
    from tests.conftest import shared_path

    files = [shared_path("realdata", "contracts", folder, name) for folder, name in REAL]
    out, corrections = tmp_path / "out", tmp_path / "corrections"
    build_contracts(files, out=out, progress=False, corrections=corrections)
    server = review_server(out)
    items = [i for i in server.source.items() if "tracked_changes" in i.reasons]
    assert {i.evidence["document"] for i in items} == {f"{f}/{name}" for f, name in REAL}
    page = chromium.new_page(viewport={"width": 1360, "height": 900})
    try:
        page.goto(server.url)
        for n, item in enumerate(items):
            page.goto(f"{server.base_url}/item/{item.key}")
            ops = [s["op"] for p in item.evidence["paragraphs"] for s in p["segments"]]
            assert page.locator(".ev-clause ins").count() == ops.count("ins"), item.key
            assert page.locator(".ev-clause del").count() == ops.count("del"), item.key
            assert ops.count("ins") + ops.count("del") > 0
            screenshot(page, f"review-contracts-real-{n}")
        with page.expect_navigation():
            page.keyboard.press("a")
    finally:
        page.close()
    entries = yaml.safe_load((corrections / "review.yaml").read_text("utf-8"))
    assert [(e["id"], e["action"]) for e in entries] == [
        (items[-1].evidence["clause_id"], "accept")]
    build_contracts(files, out=out, progress=False, corrections=corrections)
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["corrections"]["applied"] == ["review.yaml#1"]
