"""`buildds review` on a High Bar eval run in a real headless browser (Debian's chromium driven
by playwright; skipped without either). The run is made offline with scripted backends (as in
``tests/evaluate/tasks/highbar``): one application whose answers name it, substance judges
that disagree on one criterion and form judges three points apart, so the run escalates a
criterion verdict and a form score. The lawyer opens each escalation — blind: no
application, judge or backend name anywhere in the page — gives the verdicts with the
keyboard, finds them in the task set's ``reviews.yaml``, and the next run applies them (no
escalation left, the lawyer's verdicts counted). Screenshots go to $BUILDDS_ARTIFACTS or
artifacts/screenshots/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from buildds.evaluate.backends.mock import MockBackend
from buildds.evaluate.runner import run_eval
from buildds.review.sources.highbar import blind_names
from tests.evaluate.tasks.highbar.helpers import KeywordJudge, write_task
from tests.review.conftest import screenshot

APP = "acme:legal-gpt"
ANSWERS = {"t1#run1": f"MET:c1 MET:c2 FLIP:c1 (drafted by {APP})",
           "t1#run2": "MET:c1 MET:c2"}
JUDGES = ["judge:strict", "judge:lenient"]
FORM_JUDGES = ["form:harsh", "form:kind"]


def _factory(spec: str, **options: Any) -> Any:
    if spec == APP:
        return MockBackend("echo", answers=ANSWERS)
    return {"judge:strict": KeywordJudge(spec, score=3),
            "judge:lenient": KeywordJudge(spec, score=3, flips=True),
            "form:harsh": KeywordJudge(spec, score=1),
            "form:kind": KeywordJudge(spec, score=3)}[spec]


def _run(taskset: Path, out: Path) -> Any:
    """The eval, in a thread of its own: playwright's sync API keeps an event loop running
    in this one, and the runner starts its own with asyncio.run."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run_eval, taskset, task="highbar", models=[APP], judges=JUDGES,
                           form_judges=FORM_JUDGES, out=out,
                           backend_factory=_factory).result()


def _secret_names(out: Path) -> list[str]:
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    names = {*blind_names(manifest), APP, *JUDGES, *FORM_JUDGES, "acme", "keyword-judge"}
    return sorted(names)


def _check_blind(page: Any, names: list[str]) -> None:
    html = page.content()
    text = page.inner_text("body")
    for name in names:
        assert name not in html and name not in text, name
    assert "[redacted]" in page.inner_text(".ev-answer-text")


# long: one reviewing session, then the next run
def test_review_escalations_in_the_browser(tmp_path: Path, chromium: Any,
                                           review_server: Any) -> None:
    taskset = tmp_path / "tasks"
    write_task(taskset, "t1")
    out = tmp_path / "run"
    first = _run(taskset, out)
    assert first.runs[0].metrics["judging"]["escalations_pending"] >= 2
    server = review_server(out, reviewer="A. Lawyer")
    items = server.source.items()
    substance = next(i for i in items if i.facets["axis"] == "substance")
    form = next(i for i in items if i.facets["axis"] == "form")
    names = _secret_names(out)
    page = chromium.new_page(viewport={"width": 1360, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.url)
        assert page.locator("#queue tr.row").count() == len(items)
        _check_blind_queue = page.content()
        assert all(n not in _check_blind_queue for n in names)
        screenshot(page, "review-highbar-01-queue")

        # the criterion escalation: both judges, A and B, the answer — blind
        page.goto(f"{server.base_url}/item/{substance.key}")
        page.wait_for_selector("#verdict-form")
        assert page.locator(".ev-judge").count() == 2
        judges = page.locator(".ev-judge h4").all_text_contents()
        assert judges == ["Judge A", "Judge B"]
        verdicts = {v.strip() for v in page.locator(".ev-judge .ev-verdict").all_inner_texts()}
        assert verdicts == {"pass", "fail"}
        assert "30 days" in page.inner_text(".ev-criterion")
        _check_blind(page, names)
        # the README's picture (docs/review-highbar.png): this screen, one viewport high
        page.screenshot(path=str(screenshot(page, "review-highbar-02-item").with_name(
            "review-highbar-02-item-viewport.png")))
        # r: the answer does not meet the criterion; the reason, Enter sends
        page.keyboard.press("r")
        page.keyboard.type("the notice period is not stated")
        with page.expect_navigation():
            page.keyboard.press("Enter")

        # the form escalation: e opens the score, chosen with the keyboard
        page.goto(f"{server.base_url}/item/{form.key}")
        _check_blind(page, names)
        assert page.locator("#action-accept").count() == 0  # a score is edited, not accepted
        page.keyboard.press("e")
        assert page.evaluate("document.activeElement.id") == "field-score"
        assert page.locator("#field-score option").all_inner_texts() == ["1", "2", "3"]
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        assert page.eval_on_selector("#field-score", "e => e.value") == "3"
        page.focus("#note")
        page.keyboard.type("clear enough")
        screenshot(page, "review-highbar-03-form-score")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        page.goto(f"{server.base_url}/")
        assert "2</strong> done" in page.inner_html("#progress")
        screenshot(page, "review-highbar-04-queue-after")
    finally:
        page.close()
    assert errors == []

    reviews = yaml.safe_load((taskset / "reviews.yaml").read_text("utf-8"))["reviews"]
    by_target = {r.get("criterion") or r.get("rubric"): r for r in reviews}
    crit = by_target[substance.facets["criterion"]]
    assert (crit["verdict"], crit["note"], crit["reviewer"]) == (
        "fail", "the notice period is not stated", "A. Lawyer")
    assert (by_target[form.facets["criterion"]]["score"],
            by_target[form.facets["criterion"]]["note"]) == (3, "clear enough")
    assert all(not any(n in json.dumps(r) for n in names) for r in reviews)

    # the next run applies the lawyer's verdicts ahead of the judges: nothing escalated
    second = _run(taskset, out)
    judging = second.runs[0].metrics["judging"]
    assert judging["lawyer_verdicts"] == 2
    assert judging["escalations_pending"] == len(items) - 2
    assert second.runs[0].metrics["per_task"]["t1"]["1"]["pass"] is False  # c1 failed
    left = {i.key for i in server.source.items()}  # the running app reads the new run
    assert left == {i.key for i in items} - {substance.key, form.key}
    page = chromium.new_page()
    try:
        page.goto(server.url)
        shown = page.locator("#queue tr.row td:nth-child(2) a").evaluate_all(
            "links => links.map(a => a.getAttribute('href').split('/').pop())")
        assert set(shown) == left and "0</strong> done" in page.inner_html("#progress")
        screenshot(page, "review-highbar-05-queue-after-rerun")
    finally:
        page.close()
