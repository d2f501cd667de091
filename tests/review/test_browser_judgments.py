"""`buildds review` on a judgments (AR-Bench) build in a real headless browser (Debian's
chromium driven by playwright; skipped without either): the queue filtered by error type,
original vs injected with the edits marked and the statute tier, a verdict given with the
keyboard (accept; reject with a note), the row in ``OUT/review/verdicts.csv``, and — on 40
real JuDGE judgments (../shared) — a rebuild *without* ``--review-verdicts`` that puts the
validity rate in the card. A hand-made output (``tests/review/sources/helpers.py``) runs the
browser part without ../shared. Screenshots go to $BUILDDS_ARTIFACTS or
artifacts/screenshots/."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import shared_path
from tests.review.conftest import screenshot
from tests.review.sources.helpers import SCRIPT, make_judgments_out


def _judgments_args(out: Path, *extra: str) -> list[str]:
    shared = shared_path("realdata", "judgments")
    return [str(shared / "judge-benchmark" / "test.json"), "--out", str(out),
            "--law", str(shared / "cn-criminal-law"),
            "--confusable",
            str(shared / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv"),
            "--limit", "40", "--no-audit", "-q", *extra]


def _build(out: Path, *extra: str) -> str:
    from buildds.commands.judgments import judgments

    result = CliRunner().invoke(judgments, _judgments_args(out, *extra))
    assert result.exit_code == 0, result.output
    return result.output


def _verdicts(out: Path) -> dict[str, tuple[str, str]]:
    with (out / "review" / "verdicts.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    return {r["id"]: (r["valid"], r["note"]) for r in rows}


def _filter(page: Any, name: str, value: str) -> None:
    """Choose ``value`` in the queue's ``name`` filter (it submits on change)."""
    with page.expect_navigation():
        page.select_option(f"select[name={name}]", value)
    assert f"{name}={value}" in page.url


def _check_side_by_side(page: Any) -> None:
    """Original and injected are shown side by side, the edits marked as <del> / <ins>."""
    changed = page.locator(".ev-part.ev-changed").first
    original, injected = changed.locator(".ev-original"), changed.locator(".ev-injected")
    assert original.locator("del").count() >= 1 and injected.locator("ins").count() >= 1
    left, right = original.bounding_box(), injected.bounding_box()
    assert left is not None and right is not None
    assert left["x"] + left["width"] <= right["x"] + 1  # beside, not under
    assert page.locator(".ev-injected ins").first.evaluate(
        "e => getComputedStyle(e).textDecorationLine") == "underline"


# long: one reviewing session on the hand-made output, screen after screen
def test_review_injections_in_the_browser(tmp_path: Path, chromium: Any,
                                          review_server: Any) -> None:
    out = make_judgments_out(tmp_path / "out")
    server = review_server(out, reviewer="e2e")
    page = chromium.new_page(viewport={"width": 1360, "height": 900})
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.url)
        assert page.locator("#queue tr.row").count() == 3
        assert "0</strong> done" in page.inner_html("#progress")
        _filter(page, "error_type", "E1")
        titles = page.locator("#queue tr.row td:nth-child(2)").all_inner_texts()
        assert titles == ["E1 · a-1-E1-0", "E1 · c-3-E1-0"]
        screenshot(page, "review-judgments-01-queue-E1")

        page.keyboard.press("o")
        page.wait_for_selector("#verdict-form")
        assert page.url.split("?")[0].endswith("/item/a-1-E1-0")
        assert "error_type=E1" in page.url  # the filter goes along
        assert "数额较大" in page.inner_text(".ev-tier")
        _check_side_by_side(page)
        assert SCRIPT in page.inner_text(".ev-injected")  # untrusted text shown as text
        screenshot(page, "review-judgments-02-item")
        # only the verdicts an injected row takes; the header names OUT, not its temp path
        assert page.locator("button.action").all_text_contents() == ["accept (a)", "reject (r)"]
        assert page.locator("#edit-panel").count() == 0
        assert page.inner_text("header.top .out") == "judgment · out"
        assert str(tmp_path) not in page.inner_text("header.top")

        # a: the injection is a real error; the next E1 row opens
        with page.expect_navigation():
            page.keyboard.press("a")
        assert page.url.split("?")[0].endswith("/item/c-3-E1-0")
        assert "E1_not_confusable" in page.inner_text(".ev-flags")
        # r: it is not; the reason typed, Enter sends
        page.keyboard.press("r")
        assert page.evaluate("document.activeElement.id") == "note"
        page.keyboard.type("the two charges are not confusable")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert _verdicts(out) == {"a-1-E1-0": ("yes", ""),
                                  "c-3-E1-0": ("no", "the two charges are not confusable")}
        page.goto(f"{server.base_url}/")
        assert "2</strong> done" in page.inner_html("#progress")
        screenshot(page, "review-judgments-03-queue-after")
    finally:
        page.close()
    assert dialogs == [] and errors == []


# long: build, review, rebuild — the whole loop on real judgments
def test_a_verdict_reaches_the_card_on_a_rebuild(tmp_path: Path, chromium: Any,
                                                 review_server: Any) -> None:
    out = tmp_path / "arbench"
    _build(out, "--review-sample", "2")
    card = (out / "README.md").read_text("utf-8")
    assert "Reviewer's validity rate" not in card
    server = review_server(out, reviewer="e2e")
    items = server.source.items()
    tiered = next(i for i in items if i.evidence["tier"])
    etype = tiered.facets["error_type"]
    page = chromium.new_page(viewport={"width": 1360, "height": 900})
    try:
        page.goto(server.url)
        assert page.locator("#queue tr.row").count() == len(items)
        _filter(page, "error_type", etype)
        rows = page.locator("#queue tr.row")
        assert rows.count() == sum(1 for i in items if i.facets["error_type"] == etype)
        keys = [i.key for i in items if i.facets["error_type"] == etype]
        for _ in range(keys.index(tiered.key)):
            page.keyboard.press("j")
        page.keyboard.press("o")
        page.wait_for_selector("#verdict-form")
        assert page.url.split("?")[0].endswith(f"/item/{tiered.key}")
        assert tiered.evidence["tier"] in page.inner_text(".ev-tier")
        _check_side_by_side(page)
        # the README's picture (docs/review-judgments.png): this screen, one viewport high
        page.screenshot(path=str(screenshot(page, "review-judgments-04-item-real").with_name(
            "review-judgments-04-item-real-viewport.png")))
        with page.expect_navigation():
            page.keyboard.press("a")
        other = next(i for i in items if i.key != tiered.key)
        page.goto(f"{server.base_url}/item/{other.key}")
        page.keyboard.press("r")
        page.keyboard.type("reads as a typo, not a legal error")
        with page.expect_navigation():
            page.keyboard.press("Enter")
    finally:
        page.close()
    ids = {i.key: i.evidence["id"] for i in items}
    judged = {k: v for k, v in _verdicts(out).items() if v[0]}
    assert judged == {ids[tiered.key]: ("yes", ""),
                      ids[other.key]: ("no", "reads as a typo, not a legal error")}

    # the rebuild finds OUT/review/verdicts.csv by itself
    output = _build(out, "--review-sample", "2")
    assert "review verdicts:" in output and "verdicts.csv" in output
    card = (out / "README.md").read_text("utf-8")
    assert "Reviewer's validity rate" in card
    section = card.split("Reviewer's validity rate", 1)[1]
    rows = {line.split("|")[1].strip(): line.split("|")[2].strip()
            for line in section.split("\n\n## ", 1)[0].splitlines()
            if line.startswith("| ") and "/" in line}
    expected: dict[str, list[int]] = {}
    for item, valid in ((tiered, 1), (other, 0)):
        got = expected.setdefault(item.facets["error_type"], [0, 0])
        got[0] += valid
        got[1] += 1
    for etype, (valid, judged) in expected.items():
        assert rows[etype].startswith(f"{valid}/{judged} = "), rows
    assert rows["all"].startswith("1/2 = 50.0%"), rows
    # the running app reads the rebuilt output: the same queue, both verdicts shown
    page = chromium.new_page()
    try:
        page.goto(server.url)
        assert page.locator("#queue tr.row").count() == len(items)
        assert "2</strong> done" in page.inner_html("#progress")
        page.goto(f"{server.base_url}/item/{other.key}")
        assert "reads as a typo" in page.inner_text("#verdict")
    finally:
        page.close()


@pytest.mark.parametrize("given", [False, True])
def test_the_rebuild_reads_the_review_folders_verdicts(tmp_path: Path, given: bool) -> None:
    """Without ``--review-verdicts``, ``OUT/review/verdicts.csv`` is read when it exists; an
    explicit file wins."""
    out = tmp_path / "arbench"
    _build(out, "--review-sample", "1")
    template = (out / "review" / "verdicts_template.csv").read_text("utf-8").splitlines()
    first = template[1].split(",")[0]
    (out / "review" / "verdicts.csv").write_text(f"id,valid,note\n{first},no,odd\n", "utf-8")
    other = tmp_path / "mine.csv"
    other.write_text(f"id,valid,note\n{first},yes,\n", encoding="utf-8")
    output = _build(out, "--review-sample", "1",
                    *(["--review-verdicts", str(other)] if given else []))
    assert ("review verdicts:" in output) is not given
    rate = f"| {first.rsplit('-', 2)[1]} | {'1/1 = 100.0%' if given else '0/1 = 0.0%'}"
    assert rate in (out / "report.md").read_text("utf-8")


def test_the_help_names_the_default_verdicts_file() -> None:
    from buildds.commands.judgments import judgments

    result = CliRunner().invoke(judgments, ["--help"])
    assert result.exit_code == 0
    assert "OUT/review/verdicts.csv when it exists" in " ".join(result.output.split())
