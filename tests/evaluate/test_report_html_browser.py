"""report.html in a real headless browser (Debian's chromium, driven by playwright without
any browser download): the leaderboard renders, the sample count shows, the filters (run,
subject, correctness, error, search, rows per page) show the expected rows, and the hostile
answers and errors are shown as text, never run.

Skipped when there is no chromium binary (or playwright); CI installs both
(scripts/setup.sh, the dev extra)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.evaluate.report_helpers import HOSTILE, hostile_run, page_json

ROWS = "#sample-rows tr.sample"


def _chromium() -> str:
    for name in (os.environ.get("BUILDDS_CHROMIUM"), "chromium", "chromium-browser"):
        if name and (path := shutil.which(name)):
            return path
    pytest.skip("no chromium binary (apt-get install chromium)")


@pytest.fixture(scope="module")
def browser_page(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """The hostile run's report.html open in headless chromium (one page for the module)."""
    binary = _chromium()
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (the dev extra)")
    sample_export: Path = request.getfixturevalue("sample_export")
    out = tmp_path_factory.mktemp("report_browser") / "eval"
    report = hostile_run(sample_export, out)
    data = page_json(report.report_html.read_text(encoding="utf-8"))
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=binary, headless=True)
        try:
            pg = browser.new_page()
            errors: list[str] = []
            pg.on("pageerror", lambda exc: errors.append(str(exc)))
            pg.goto(report.report_html.as_uri())
            pg.wait_for_selector("body[data-ready='1']")
            yield pg, data, errors, sync_api.expect
        finally:
            browser.close()


@pytest.fixture
def page(browser_page):
    """The page with every filter cleared and 100 rows per page, whatever a test left."""
    pg = browser_page[0]
    pg.fill("#f-search", "")
    for sel in ("#f-run", "#f-group", "#f-status", "#f-error"):
        pg.select_option(sel, "")
    pg.select_option("#f-size", "100")
    return browser_page


def _count(samples: list[dict[str, Any]], **want: Any) -> int:
    def key(s: dict[str, Any], name: str) -> str:
        return {"run": str(s["r"]), "group": s["g"], "status": s["c"],
                "error": "none" if s["e"] is None else "error"}[name]
    return sum(all(key(s, k) == v for k, v in want.items()) for s in samples)


def _show(pg: Any, expect: Any, n: int) -> None:
    expect(pg.locator("#count-visible")).to_have_text(str(n))
    expect(pg.locator(ROWS)).to_have_count(n)


def test_page_renders_the_leaderboard_and_counts(page):
    pg, data, errors, expect = page
    n = len(data["samples"])
    expect(pg.locator("#leaderboard table").first).to_be_visible()
    expect(pg.locator("#leaderboard th").first).to_have_text("Model")
    expect(pg.locator("#count-total")).to_have_text(str(n))
    expect(pg.locator("#count-visible")).to_have_text(str(n))
    assert pg.locator("#plots img").count() >= 1
    # 100 rows per page: the first page is full, the last one holds the rest
    expect(pg.locator(ROWS)).to_have_count(min(100, n))
    assert not errors


def test_filters_show_the_expected_rows(page):
    pg, data, errors, expect = page
    samples = data["samples"]
    pg.select_option("#f-size", "all")
    _show(pg, expect, len(samples))
    subject = min(s["g"] for s in samples)
    pg.select_option("#f-group", subject)
    _show(pg, expect, _count(samples, group=subject))
    for status in ("correct", "wrong", "failed"):
        pg.select_option("#f-status", status)
        _show(pg, expect, _count(samples, group=subject, status=status))
        for row in pg.locator(ROWS).all()[:5]:
            assert row.get_attribute("data-status") == status
    pg.select_option("#f-status", "")
    pg.select_option("#f-error", "error")
    _show(pg, expect, _count(samples, group=subject, error="error"))
    # the option counts follow the other filters
    option = pg.locator("#f-status option[value='failed']")
    n = _count(samples, group=subject, error="error", status="failed")
    expect(option).to_have_text(f"Failed ({n})")
    pg.select_option("#f-group", "")
    pg.select_option("#f-run", "1")
    _show(pg, expect, _count(samples, run="1", error="error"))
    pg.select_option("#f-error", "none")
    _show(pg, expect, _count(samples, run="1", error="none"))
    pg.select_option("#f-run", "")
    pg.select_option("#f-error", "")
    pg.fill("#f-search", "window.__pwned")       # the hostile answers and errors
    _show(pg, expect, sum(s["o"] in HOSTILE or (s["e"] or "").endswith(HOSTILE[1])
                          for s in samples))
    pg.fill("#f-search", "")
    _show(pg, expect, len(samples))
    assert not errors


def test_pages_of_rows(page):
    pg, data, _, expect = page
    n = len(data["samples"])
    pg.select_option("#f-size", "50")
    expect(pg.locator(ROWS)).to_have_count(min(50, n))
    pg.click("#page-next")
    expect(pg.locator(ROWS)).to_have_count(min(50, n - 50))
    expect(pg.locator("#page-info")).to_contain_text("rows 51–")
    pg.select_option("#f-size", "all")


def test_hostile_text_is_shown_never_run(page):
    pg, _, errors, expect = page
    pg.select_option("#f-size", "all")
    pg.fill("#f-search", "window.__pwned")
    rows = pg.locator(ROWS)
    expect(rows.first).to_be_visible()
    for i in range(min(rows.count(), 10)):
        rows.nth(i).locator("summary").click()
    expect(pg.locator("#sample-rows pre").first).to_be_visible()
    shown = pg.locator("#sample-rows").inner_text()
    assert HOSTILE[0] in shown or HOSTILE[1] in shown
    assert pg.evaluate("() => window.__pwned") is None
    assert pg.locator("#sample-table img, #sample-table script").count() == 0
    assert pg.locator("#leaderboard img, #leaderboard script").count() == 0
    pg.fill("#f-search", "")
    assert not errors


def test_a_sample_opens_its_prompt_and_raw_answer(page):
    pg, data, errors, expect = page
    from buildds.evaluate.report_samples import prompt_text

    pg.select_option("#f-size", "100")
    pg.select_option("#f-run", "0")
    pg.select_option("#f-status", "correct")
    first = pg.locator(ROWS).first
    sample = next(s for s in data["samples"] if s["r"] == 0 and s["c"] == "correct")
    expect(first.locator("td").first).to_have_text(sample["i"])
    first.locator("summary").click()
    pre = first.locator("pre")
    expect(pre).to_have_count(2)
    want = prompt_text(tuple(tuple(data["parts"][i]) for i in data["prompts"][sample["p"]]))
    assert pre.nth(0).text_content() == want
    assert pre.nth(1).text_content() == sample["o"]
    pg.select_option("#f-run", "")
    pg.select_option("#f-status", "")
    assert not errors


def test_the_row_shows_the_sample_fields(page):
    pg, data, _, expect = page
    first = pg.locator(ROWS).first
    s = data["samples"][0]
    cells = first.locator("td")
    run = data["runs"][s["r"]]["label"]
    status = {"correct": "Correct", "wrong": "Wrong", "unscored": "Unscored",
              "failed": "Failed"}[s["c"]]
    shown = [s["i"], run, s["g"], status, s["o"], s["a"], s["y"], s["s"], s["e"]]
    want = ["—" if v is None else (f"{v:g}" if isinstance(v, float) else str(v))
            for v in shown]
    expect(cells).to_have_count(len(want) + 1)
    assert [cells.nth(i).text_content() for i in range(len(want))] == want
