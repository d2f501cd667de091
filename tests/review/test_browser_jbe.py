"""`buildds review` on the JBE sample build in a real headless browser (Debian's chromium
driven by playwright, no browser download; skipped without either): the queue, the item with
its page image and the statement highlighted, a label corrected with the keyboard, the entry
in the corrections folder, a stale second tab refused, and after a rebuild the item changed.
Screenshots of each screen go to $BUILDDS_ARTIFACTS or artifacts/screenshots/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from buildds.transform.corrections import load_corrections
from tests.review.conftest import build_sample, jbe_source, screenshot


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    return box


def _check_highlight(page: Any) -> None:
    """The page image has loaded and the highlight stands on it, a band of text lines."""
    page.wait_for_function(
        "() => { const i = document.getElementById('page-image');"
        " return i && i.complete && i.naturalWidth > 0; }")
    image, mark = _box(page, "#page-image"), _box(page, "#highlight")
    assert image["width"] > 300
    assert mark["width"] > image["width"] * 0.3 and mark["height"] > 8
    assert image["x"] <= mark["x"] and mark["x"] + mark["width"] <= image["x"] + image["width"] + 1
    assert image["y"] <= mark["y"] and mark["y"] + mark["height"] <= image["y"] + image["height"]


# long: one reviewing session, screen after screen
def test_review_a_jbe_build_in_the_browser(tmp_path: Path, chromium: Any,
                                           review_server: Any) -> None:
    sample = build_sample(tmp_path)
    source = jbe_source(sample, sample.corrections, spot_check=5)
    server = review_server(source, reviewer="e2e")
    context = chromium.new_context(viewport={"width": 1360, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    # the queue: five spot-check items, none done
    page.goto(server.url)
    assert "token=" not in page.url  # the token went into a cookie
    assert "0</strong> done" in page.inner_html("#progress")
    assert page.locator("#queue tr.row").count() == 5
    screenshot(page, "review-01-queue")

    # j moves the selection, o opens the item beside its page image
    page.keyboard.press("j")
    page.keyboard.press("k")
    page.keyboard.press("o")
    page.wait_for_selector("#verdict-form")
    first = source.items()[0]
    assert page.url.endswith(f"/item/{first.key}")
    _check_highlight(page)
    assert page.inner_text("#stem").strip()
    assert page.locator("#key-rows tr.this-slot").count() <= 1
    label_before = page.inner_text("#label").strip()
    assert label_before in ("Y", "N")
    # the README's picture (docs/review-jbe.png) is this screen, one viewport high
    page.screenshot(path=str(screenshot(page, "review-02-item-jbe").with_name(
        "review-02-item-jbe-viewport.png")))

    # a second tab opens the same item before the first one writes
    other = context.new_page()
    other.goto(f"{server.base_url}/item/{first.key}")
    other.wait_for_selector("#verdict-form")

    # r: the label is wrong; type the reason, Enter sends; the next item opens
    page.keyboard.press("r")
    assert page.evaluate("document.activeElement.id") == "note"
    page.keyboard.type("the answer key says the opposite")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith(f"/item/{source.items()[1].key}")
    entries = [c for c in load_corrections(sample.corrections) if c.id == first.title]
    assert len(entries) == 1
    assert entries[0].action == "label" and entries[0].expect == label_before
    assert entries[0].label != label_before
    assert entries[0].reason == "the answer key says the opposite"
    assert source.verdict_for(first.key).reviewer == "e2e"

    # the second tab's verdict is stale: refused with a message, nothing overwritten
    other.keyboard.press("a")
    other.wait_for_selector("#error")
    assert "Not saved" in other.inner_text("#error")
    screenshot(other, "review-03-stale-409")
    assert source.verdict_for(first.key).action == "reject"

    # u: back to the queue, one done
    page.keyboard.press("u")
    page.wait_for_selector("#queue")
    assert "1</strong> done" in page.inner_html("#progress")
    screenshot(page, "review-04-queue-after")

    # a rebuild applies the correction: the item shows the new label and where it came from
    build_sample(tmp_path, sample.corrections)
    page.goto(f"{server.base_url}/item/{first.key}")
    assert page.inner_text("#label").strip() != label_before
    assert ".yaml#1" in page.inner_text(".meta")
    _check_highlight(page)
    screenshot(page, "review-05-item-after-rebuild")
    assert errors == []
    context.close()


def test_the_help_lists_the_keys(tmp_path: Path, chromium: Any, review_server: Any,
                                 jbe_sample: Any) -> None:
    server = review_server(jbe_source(jbe_sample, tmp_path / "c", spot_check=1))
    page = chromium.new_page()
    try:
        page.goto(server.url)
        assert page.locator("#help").is_hidden()
        page.keyboard.press("?")
        assert page.locator("#help").is_visible()
        text = page.inner_text("#help")
        for key in ("accept", "reject", "edit", "exclude", "next item", "previous item"):
            assert key in text
        screenshot(page, "review-00-help")
    finally:
        page.close()


@pytest.mark.parametrize("bad", ["", "?token=wrong"])
def test_the_browser_without_the_token_sees_403(chromium: Any, review_server: Any,
                                                jbe_sample: Any, tmp_path: Path,
                                                bad: str) -> None:
    server = review_server(jbe_source(jbe_sample, tmp_path / "c", spot_check=1))
    page = chromium.new_page()
    try:
        response = page.goto(f"{server.base_url}/{bad}")
        assert response is not None and response.status == 403
        assert "token" in page.inner_text("body")
    finally:
        page.close()


def test_edit_the_label_and_the_text_in_the_browser(tmp_path: Path, chromium: Any,
                                                    review_server: Any,
                                                    jbe_sample: Any) -> None:
    """e opens the edit panel on the first value; the changed label and text become a
    ``label`` and a ``text`` entry, both with the reason typed."""
    folder = tmp_path / "corrections"
    source = jbe_source(jbe_sample, folder, spot_check=2)
    item = source.items()[0]
    server = review_server(source)
    page = chromium.new_page()
    try:
        page.goto(f"{server.url}")
        page.goto(f"{server.base_url}/item/{item.key}")
        page.keyboard.press("e")
        assert page.evaluate("document.activeElement.id") == "field-label"
        other = "N" if item.fields["label"] == "Y" else "Y"
        page.select_option("#field-label", other)
        text = item.fields["question"]
        page.fill("#field-question", text.replace("。", "．", 1))
        page.focus("#note")
        page.keyboard.type("the key and a stray stop")
        screenshot(page, "review-06-edit")
        with page.expect_navigation():
            page.keyboard.press("Enter")
    finally:
        page.close()
    entries = [c for c in load_corrections(folder) if c.id == item.title]
    assert [c.action for c in entries] == ["label", "text"]
    assert entries[0].label == other and entries[0].expect == item.fields["label"]
    assert text.replace(entries[1].find, entries[1].replace) == text.replace("。", "．", 1)
    assert {c.reason for c in entries} == {"the key and a stray stop"}
    assert source.verdict_for(item.key).action == "edit"
