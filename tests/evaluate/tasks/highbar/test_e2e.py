"""highbar end to end: run_eval with scripted backends, lawyer reviews, and the CLI."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from buildds.cli import main
from buildds.errors import BuildError
from buildds.evaluate.backends.mock import MockBackend
from buildds.evaluate.runner import run_eval
from tests.evaluate.tasks.highbar.helpers import SAMPLE, KeywordJudge, write_task

GOOD = {"t1#run1": "MET:c1 MET:c2", "t1#run2": "MET:c1 MET:c2",
        "t2#run1": "MET:c1 MET:c2 FLIP:c1", "t2#run2": "MET:c1 MET:c2"}
BAD = {"t1#run1": "MET:c1 DID:c3 FLIP:c2", "t1#run2": "MET:c1 MET:c2",
       "t2#run1": "nothing", "t2#run2": "nothing"}
OK = {sid: "MET:c1 MET:c2 (ok)" for sid in GOOD}
ANSWERS = {"script:good": GOOD, "script:bad": BAD, "script:ok": OK}


def factory(spec: str, **options):
    if spec in ANSWERS:
        return MockBackend("echo", answers=ANSWERS[spec])
    if spec == "judge:x":
        return KeywordJudge(spec, score=3)
    if spec == "judge:y":
        return KeywordJudge(spec, score=2, flips=True)
    if spec == "form:x":  # the form pair (seed 002): other judges than the substance pair
        return KeywordJudge(spec, score=3)
    if spec == "form:y":
        return KeywordJudge(spec, score=2)
    raise AssertionError(spec)


FORM = ["form:x", "form:y"]


@pytest.fixture
def taskset(tmp_path: Path) -> Path:
    root = tmp_path / "tasks"
    write_task(root, "t1")
    write_task(root, "t2")
    return root


def _run(taskset: Path, out: Path):
    return run_eval(taskset, task="highbar", models=list(ANSWERS), judges=["judge:x", "judge:y"],
                    form_judges=FORM, out=out, backend_factory=factory)


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_run_eval_scores_logs_and_escalates(taskset, tmp_path):
    out = tmp_path / "out"
    report = _run(taskset, out)
    m = {r.model: r.metrics for r in report.runs}
    assert (m["script:good"]["pass_rate"], m["script:good"]["criteria_met"]) == (0.75,
                                                                                 round(11 / 12, 6))
    assert (m["script:bad"]["pass_rate"], m["script:bad"]["criteria_met"]) == (0.25, 0.5)
    assert m["script:ok"]["pass_rate"] == 1.0
    assert m["script:good"]["per_task"]["t2"]["1"] == {"pass": False, "met": 2,
                                                       "applicable": 3}
    assert m["script:good"]["form"]["clarity"]["mean"] == 2.5  # judges 3 and 2
    assert m["script:good"]["judging"]["escalations_pending"] == 1

    good = out / "script_good" / "0shot"
    esc = _lines(good / "escalations.jsonl")
    assert len(esc) == 1 and esc[0]["criterion"]["id"] == "c1" and esc[0]["task"] == "t2"
    assert esc[0]["answer"] == GOOD["t2#run1"]
    blob = (good / "escalations.jsonl").read_text(encoding="utf-8")
    assert "judge:x" not in blob and "judge:y" not in blob and "script:" not in blob
    dis = _lines(good / "disagreements.jsonl")
    assert [d["target"] for d in dis if d["axis"] == "substance"] == ["c1"]
    assert all(set(d["judges"]) == ({"judge:x", "judge:y"} if d["axis"] == "substance"
                                    else {"form:x", "form:y"}) for d in dis)
    assert {d["axis"] for d in dis} == {"substance", "form"}
    # bad: the c2 dispute cannot flip a pass (c3 fails for both judges) → logged only
    bad = out / "script_bad" / "0shot"
    assert (bad / "escalations.jsonl").read_text(encoding="utf-8") == ""
    # the lawyer's file: every run's escalations merged, one line per escalation, blind
    merged = _lines(out / "escalations.jsonl")
    per_run = [e for run in sorted(out.glob("*/0shot/escalations.jsonl")) for e in _lines(run)]
    assert sorted(e["escalation_id"] for e in merged) == \
        sorted({e["escalation_id"] for e in per_run})
    assert esc[0] in merged
    merged_text = (out / "escalations.jsonl").read_text(encoding="utf-8")
    assert "script" not in merged_text and "judge:" not in merged_text
    assert "form:x" not in merged_text
    bad_dis = [d for d in _lines(bad / "disagreements.jsonl") if d["axis"] == "substance"]
    assert [(d["sample"], d["target"], d["escalated"]) for d in bad_dis] == [
        ("t1#run1", "c2", False)]

    samples = _lines(good / "samples.jsonl")
    assert [s["id"] for s in samples] == ["t1#run1", "t1#run2", "t2#run1", "t2#run2"]
    assert samples[2]["parsed"]["criteria"]["c1"]["source"] == "disputed"
    assert samples[2]["score"] == 0.0 and samples[3]["score"] == 1.0

    # High Bar: t1 completed by 3 applications, t2 by 2 (good in run 2, ok) → subset [t2]
    board = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    assert board["highbar_tasks"] == ["t2"]
    rates = {a["model"]: a["highbar"]["pass_rate"] for a in board["applications"]}
    assert rates == {"script:ok": 1.0, "script:good": 0.5, "script:bad": 0.0}
    md = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "this yields 1 High Bar tasks; each application is scored over 2 attempts" in md
    assert "| script:good | 50.0% |" in md and "Provisional: 1 escalated grade" in md
    for png in ("highbar.png", "form.png", "script_good/0shot/per_task.png"):
        assert (out / png).read_bytes().startswith(b"\x89PNG")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert set(manifest["templates"]) == {"highbar_task.md.j2", "highbar_criterion_judge.md.j2",
                                          "highbar_form_judge.md.j2"}
    assert [j["judge"] for j in manifest["judges"]] == ["judge:x", "judge:y", *FORM]
    assert manifest["form_judges"] == FORM

    # the same answers give the same bytes
    first = {p: p.read_bytes() for p in out.rglob("*") if p.suffix in (".jsonl", ".json",
                                                                       ".md")}
    _run(taskset, out)
    assert {p: p.read_bytes() for p in first} == first


def test_lawyer_verdict_takes_precedence(taskset, tmp_path):
    out = tmp_path / "out"
    _run(taskset, out)
    (esc,) = _lines(out / "script_good" / "0shot" / "escalations.jsonl")
    assert esc["answer_sha256"] == hashlib.sha256(GOOD["t2#run1"].encode()).hexdigest()
    review = {**esc["review"], "verdict": "pass", "reviewer": "A. Lawyer"}
    (taskset / "reviews.yaml").write_text(yaml.safe_dump({"reviews": [review]}), "utf-8")
    report = _run(taskset, out)
    good = next(r for r in report.runs if r.model == "script:good").metrics
    assert good["pass_rate"] == 1.0 and good["judging"]["escalations_pending"] == 0
    assert good["judging"]["lawyer_verdicts"] == 1
    run = out / "script_good" / "0shot"
    assert (run / "escalations.jsonl").read_text(encoding="utf-8") == ""
    (dis,) = [d for d in _lines(run / "disagreements.jsonl") if d["axis"] == "substance"]
    assert dis["status"] == "lawyer" and dis["lawyer"]["verdict"] == "pass"  # kept for audit
    sample = _lines(run / "samples.jsonl")[2]
    assert sample["parsed"]["criteria"]["c1"] == {**sample["parsed"]["criteria"]["c1"],
                                                  "verdict": "pass", "source": "lawyer"}


def test_judges_are_required_and_must_differ(taskset, tmp_path):
    with pytest.raises(BuildError, match="at least 2"):
        run_eval(taskset, task="highbar", models=["script:good"], judges=["judge:x"],
                 out=tmp_path / "o", backend_factory=factory)
    with pytest.raises(BuildError, match="same judge"):
        run_eval(taskset, task="highbar", models=["script:good"],
                 judges=["judge:x", "judge:x"], out=tmp_path / "o", backend_factory=factory)


def test_model_errors_fail_the_attempt_without_judging(taskset, tmp_path):
    def failing(spec: str, **options):
        return MockBackend("error") if spec == "mock:error" else factory(spec, **options)

    report = run_eval(taskset, task="highbar", models=["mock:error"],
                      judges=["judge:x", "judge:y"], form_judges=FORM, out=tmp_path / "o",
                      backend_factory=failing)
    m = report.runs[0].metrics
    # failed attempts are not answers: no pass rate at all, rather than 0.0 (issue 16)
    assert m["n"] == 0 and m["pass_rate"] is None and "criteria_met" not in m
    assert m["samples"] == {"items": 4, "answered": 0, "failed": 4, "refused": 0,
                            "unfaithful": 0}
    samples = _lines(tmp_path / "o" / "mock_error" / "0shot" / "samples.jsonl")
    assert all(s["parsed"] is None and s["score"] is None and s["error"] for s in samples)
    assert report.nothing_evaluated() == ["mock:error 0-shot: all 4 requests failed"]


class _Recording(KeywordJudge):
    """A keyword judge that records the targets it was asked about."""

    def __init__(self, name: str, asked: dict[str, list[str]]):
        super().__init__(name)
        self.asked = asked.setdefault(name, [])

    async def complete(self, request):
        self.asked.append((request.sample_id or "").partition("::")[2])
        return await super().complete(request)


def test_substance_and_form_go_to_their_own_judges(taskset, tmp_path):
    """seed 002: substance by --judge, form by --form-judge; a judge in both gets both."""
    asked: dict[str, list[str]] = {}

    def recording(spec: str, **options):
        return factory(spec) if spec in ANSWERS else _Recording(spec, asked)

    run_eval(taskset, task="highbar", models=["script:good"], judges=["s:a", "s:b"],
             form_judges=["f:a", "f:b"], out=tmp_path / "o", backend_factory=recording,
             use_cache=False)
    assert set(asked) == {"s:a", "s:b", "f:a", "f:b"}
    for judge in ("s:a", "s:b"):
        assert asked[judge] and not any(t.startswith("form:") for t in asked[judge])
    for judge in ("f:a", "f:b"):
        assert asked[judge] and all(t.startswith("form:") for t in asked[judge])
    metrics = json.loads((tmp_path / "o" / "script_good" / "0shot" / "metrics.json")
                         .read_text("utf-8"))
    assert sorted(metrics["form"]["clarity"]["judges"]) == ["f:a", "f:b"]
    assert metrics["judges"] == ["s:a", "s:b"] and metrics["form_judges"] == ["f:a", "f:b"]
    asked.clear()
    run_eval(taskset, task="highbar", models=["script:good"], judges=["s:a", "s:b"],
             form_judges=["s:a", "f:b"], out=tmp_path / "o2", backend_factory=recording,
             use_cache=False)
    assert {t.startswith("form:") for t in asked["s:a"]} == {True, False}
    assert "s:b" in asked and all(not t.startswith("form:") for t in asked["s:b"])


def test_form_judges_are_required_for_highbar_only(taskset, tmp_path, sample_export):
    with pytest.raises(BuildError, match="give at least 2 with --form-judge"):
        run_eval(taskset, task="highbar", models=["script:good"], judges=["judge:x", "judge:y"],
                 form_judges=["form:x"], out=tmp_path / "o", backend_factory=factory)
    with pytest.raises(BuildError, match="has no form judges"):
        run_eval(sample_export, task="jbe", models=["mock"], form_judges=FORM,
                 out=tmp_path / "o", backend_factory=factory)


def _replay_judge(path: Path, verdict_of, score: int) -> str:
    from buildds.evaluate.tasks.highbar import load_taskset

    rows = []
    for t in load_taskset(SAMPLE).tasks:
        for run in (1, 2):
            for c in t.criteria:
                rows.append({"id": f"{t.id}#run{run}::{c.id}",
                             "raw_output": json.dumps({"verdict": verdict_of(t.id, c.id)})})
            for r in ("clarity", "length", "structure"):
                rows.append({"id": f"{t.id}#run{run}::form:{r}",
                             "raw_output": json.dumps({"score": score})})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return f"replay:{path}"


def test_cli_on_the_sample_task_set(tmp_path):
    judge_a = _replay_judge(tmp_path / "a.jsonl", lambda t, c: "pass", 3)
    judge_b = _replay_judge(tmp_path / "b.jsonl",
                            lambda t, c: "fail" if (t, c) == ("nda-review", "residuals")
                            else "pass", 1)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [
        "eval", str(SAMPLE), "--task", "highbar", "--model", "mock:echo", "--model",
        "mock:ones", "--judge", judge_a, "--judge", judge_b, "--form-judge", judge_a,
        "--form-judge", judge_b, "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert "evaluated 2 model(s)" in result.output
    for slug in ("mock_echo", "mock_ones"):
        run = out / slug / "0shot"
        for name in ("samples.jsonl", "metrics.json", "disagreements.jsonl",
                     "escalations.jsonl", "per_task.png"):
            assert (run / name).is_file(), name
        assert len(_lines(run / "samples.jsonl")) == 6
        esc = _lines(run / "escalations.jsonl")
        # nda residuals (answers of both runs are identical: one escalation) + form 3 vs 1
        # on every rubric of the 3 distinct answers
        assert sorted((e["axis"], e["task"]) for e in esc if e["axis"] == "substance") == [
            ("substance", "nda-review")]
        assert len([e for e in esc if e["axis"] == "form"]) == 9
        metrics = json.loads((run / "metrics.json").read_text(encoding="utf-8"))
        assert metrics["pass_rate"] == round(4 / 6, 6)
        assert metrics["criteria_met_count"] == [42, 44]
    md = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert md.startswith("# The High Bar — leaderboard")
    for section in ("## The High Bar", "## Substance", "## Form", "## Grading", "## Tasks"):
        assert section in md
    assert "| nda-review | Review a mutual NDA for the disclosing party | yes | 0 |" in md

    same = CliRunner().invoke(main, [
        "eval", str(SAMPLE), "--task", "highbar", "--model", "mock:echo", "--judge", judge_a,
        "--judge", judge_a, "--form-judge", judge_a, "--form-judge", judge_b,
        "--out", str(tmp_path / "o2"), "-q"])
    assert same.exit_code != 0 and "same judge" in same.output


def test_a_judge_error_is_never_a_pass(tmp_path):
    """The strict rule on the sample task set: judge B has no verdict on one criterion of
    one attempt while judge A says pass — that attempt does not pass, the criterion's
    verdict is missing and escalated, and the run exits 1 (a judge request failed) unless
    --allow-failures."""
    judge_a = _replay_judge(tmp_path / "a.jsonl", lambda t, c: "pass", 3)
    judge_b = _replay_judge(tmp_path / "b.jsonl", lambda t, c: "pass", 3)
    path_b = Path(judge_b.removeprefix("replay:"))
    lines = path_b.read_text("utf-8").splitlines(keepends=True)
    path_b.write_text("".join(x for x in lines if "nda-review#run1::residuals" not in x),
                      encoding="utf-8")
    args = ["eval", str(SAMPLE), "--task", "highbar", "--model", "mock:echo", "--judge",
            judge_a, "--judge", judge_b, "--form-judge", judge_a, "--form-judge", judge_a + "x",
            "-q"]
    form_b = tmp_path / "a.jsonlx"  # a second form judge with judge A's scores
    form_b.write_text((tmp_path / "a.jsonl").read_text("utf-8"), encoding="utf-8")
    strict = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "o")])
    assert strict.exit_code == 1, strict.output
    assert f"judge {judge_b} on mock:echo 0-shot: 1 of" in strict.stderr
    allowed = CliRunner().invoke(main, [*args, "--allow-failures", "--out",
                                        str(tmp_path / "o2")])
    assert allowed.exit_code == 0, allowed.output
    run = tmp_path / "o2" / "mock_echo" / "0shot"
    metrics = json.loads((run / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["pass_count"] == [5, 6]  # all pass but the attempt with the judge error
    sample = next(s for s in _lines(run / "samples.jsonl") if s["id"] == "nda-review#run1")
    residuals = sample["parsed"]["criteria"]["residuals"]
    assert (residuals["verdict"], residuals["source"], residuals["escalated"]) == (
        None, "judge_error", True)
    assert sample["score"] == 0.0
    assert [(e["task"], e["criterion"]["id"]) for e in _lines(run / "escalations.jsonl")] == [
        ("nda-review", "residuals")]
    logged = [d for d in _lines(run / "disagreements.jsonl") if d["axis"] == "substance"]
    assert [(d["sample"], d["target"], d["status"]) for d in logged] == [
        ("nda-review#run1", "residuals", "judge_error")]
