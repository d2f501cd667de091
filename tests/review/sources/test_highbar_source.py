"""The High Bar review source: escalations as a blind queue, lawyer verdicts into the task
set's ``reviews.yaml`` — which the runner applies on the next run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from buildds.evaluate.tasks.highbar.formats import ReviewsFile
from buildds.review.sources.base import StaleVerdict, Verdict, detect_source
from buildds.review.sources.highbar import HighBarSource, probe
from tests.evaluate.tasks.highbar.helpers import write_task
from tests.evaluate.tasks.highbar.test_e2e import _run
from tests.review.sources.helpers import SCRIPT

SHA = "a" * 64
APP = "acme-legal-gpt"


def _fake_run(tmp_path: Path) -> Path:
    """A run folder with a substance and a form escalation whose texts name the application
    and a judge (as an answer or a reason may)."""
    taskset = tmp_path / "tasks"
    write_task(taskset, "t1")
    out = tmp_path / "run"
    out.mkdir()
    manifest = {"task": "highbar", "dataset": {"path": str(taskset)},
                "models": [{"model": APP, "slug": APP.replace("-", "_"), "settings": {}}],
                "judges": [{"judge": "judge:alpha", "settings": {"name": "judge:alpha"}},
                           {"judge": "judge:beta", "settings": {}}],
                "form_judges": ["form:gamma", "form:delta"]}
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    base = {"task": "t1", "task_title": "Task t1", "instructions": "Summarise.",
            "documents": ["contract.md"], "answer_sha256": SHA,
            "answer": f"As {APP} I say: 30 days. {SCRIPT}", "why": "they disagree"}
    sub = {**base, "escalation_id": "0000000000000001", "axis": "substance",
           "criterion": {"id": "c1", "kind": "must_include", "text": "States 30 days."},
           "verdicts": {"A": {"verdict": "pass", "reason": "judge:alpha thinks so",
                              "judge": "judge:alpha"},
                        "B": {"verdict": "fail", "reason": "no"}},
           "review": {"task": "t1", "criterion": "c1", "answer_sha256": SHA, "verdict": None}}
    form = {**base, "escalation_id": "0000000000000002", "axis": "form",
            "rubric": {"id": "clarity", "title": "Clarity", "question": "Clear?",
                       "levels": {"1": "no", "2": "partly", "3": "yes"}},
            "verdicts": {"A": {"score": 1, "reason": "muddled"}, "B": {"score": 3, "reason": "ok"}},
            "review": {"task": "t1", "rubric": "clarity", "answer_sha256": SHA, "score": None}}
    (out / "escalations.jsonl").write_text(
        "".join(json.dumps(e) + "\n" for e in (sub, form)), encoding="utf-8")
    return out


def test_the_queue_is_blind(tmp_path: Path) -> None:
    out = _fake_run(tmp_path)
    assert probe(tmp_path) is None
    source = detect_source(out)
    assert isinstance(source, HighBarSource) and source.kind == "highbar"
    sub, form = source.items()
    assert (sub.key, sub.reasons, sub.facets, sub.fields) == (
        "0000000000000001", ("judge_disagreement",),
        {"task": "t1", "axis": "substance", "criterion": "c1"}, {"verdict": ""})
    assert form.fields == {"score": ""} and form.evidence["rubric"]["levels"]["2"] == "partly"
    blob = json.dumps([sub.evidence, form.evidence])
    for name in (APP, "acme_legal_gpt", "judge:alpha", "judge:beta", "form:gamma"):
        assert name not in blob
    assert "[redacted]" in sub.evidence["answer"]
    assert set(sub.evidence["verdicts"]["A"]) == {"verdict", "reason"}  # no judge field
    assert sub.evidence["choices"] == ["pass", "fail", "not_applicable"]
    assert form.evidence["choices"] == ["1", "2", "3"]
    assert (sub.evidence["actions"], form.evidence["actions"]) == (["accept", "reject", "edit"],
                                                                   ["edit"])


def test_verdicts_become_reviews_yaml_entries(tmp_path: Path) -> None:
    out = _fake_run(tmp_path)
    source = detect_source(out)
    reviews = tmp_path / "tasks" / "reviews.yaml"
    sub, form = "0000000000000001", "0000000000000002"
    with pytest.raises(ValueError, match="form score"):
        source.record(Verdict(key=form, action="accept"), source.version(form))
    with pytest.raises(ValueError, match="score 1, 2 or 3"):
        source.record(Verdict(key=form, action="edit", changes={"score": "5"}, note="n"),
                      source.version(form))
    with pytest.raises(ValueError, match="one of pass"):
        source.record(Verdict(key=sub, action="edit", changes={"verdict": "maybe"}, note="n"),
                      source.version(sub))
    with pytest.raises(ValueError, match="takes accept"):
        source.record(Verdict(key=sub, action="exclude", note="n"), source.version(sub))
    with pytest.raises(KeyError):
        source.version("ffffffffffffffff")
    assert not reviews.exists()
    source.record(Verdict(key=form, action="edit", changes={"score": "2"}, note="partly clear",
                          reviewer="A. Lawyer"), source.version(form))
    source.record(Verdict(key=sub, action="reject", note="30 days is not stated"),
                  source.version(sub))
    data = yaml.safe_load(reviews.read_text("utf-8"))
    ReviewsFile.model_validate(data)
    assert data["reviews"] == [
        {"task": "t1", "rubric": "clarity", "answer_sha256": SHA, "score": 2,
         "reviewer": "A. Lawyer", "note": "partly clear"},
        {"task": "t1", "criterion": "c1", "answer_sha256": SHA, "verdict": "fail",
         "note": "30 days is not stated"}]
    assert source.verdict_for(sub) == Verdict(key=sub, action="edit",
                                              changes={"verdict": "fail"},
                                              note="30 days is not stated")
    # a changed mind replaces the entry in place
    source.record(Verdict(key=sub, action="edit", changes={"verdict": "not_applicable"},
                          note="no notice clause"), source.version(sub))
    data = yaml.safe_load(reviews.read_text("utf-8"))
    assert [r.get("verdict") for r in data["reviews"]] == [None, "not_applicable"]


def test_two_tabs_the_stale_one_is_refused(tmp_path: Path) -> None:
    out = _fake_run(tmp_path)
    tab1, tab2 = detect_source(out), detect_source(out)
    key = "0000000000000001"
    seen1, seen2 = tab1.version(key), tab2.version(key)
    tab1.record(Verdict(key=key, action="accept", reviewer="one"), seen1)
    with pytest.raises(StaleVerdict):
        tab2.record(Verdict(key=key, action="reject", note="two"), seen2)
    assert tab2.verdict_for(key) == Verdict(key=key, action="edit",
                                            changes={"verdict": "pass"}, reviewer="one")


def test_the_runner_applies_the_verdict_on_the_next_run(tmp_path: Path) -> None:
    taskset = tmp_path / "tasks"
    write_task(taskset, "t1")
    write_task(taskset, "t2")
    out = tmp_path / "out"
    _run(taskset, out)
    source = detect_source(out)
    assert isinstance(source, HighBarSource)
    (item,) = source.items()
    blob = json.dumps(item.evidence)
    assert "script" not in blob and "judge:" not in blob
    source.record(Verdict(key=item.key, action="accept", reviewer="A. Lawyer"),
                  source.version(item.key))
    report = _run(taskset, out)
    good = next(r for r in report.runs if r.model == "script:good").metrics
    assert good["pass_rate"] == 1.0 and good["judging"]["escalations_pending"] == 0
    assert good["judging"]["lawyer_verdicts"] == 1
    assert detect_source(out).items() == []  # settled: no longer escalated
