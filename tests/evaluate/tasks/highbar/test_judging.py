"""highbar: strict verdict parsing, resolution, disagreement and escalation logic."""

from __future__ import annotations

import pytest

from buildds.evaluate.tasks.highbar.escalations import blind_labels, sample_logs
from buildds.evaluate.tasks.highbar.formats import Criterion, Review, default_rubrics
from buildds.evaluate.tasks.highbar.judging import (
    Grade,
    parse_criterion_verdict,
    parse_form_score,
    resolve_criteria,
    resolve_form,
    task_passes,
)

P, F, NA = Grade("pass"), Grade("fail"), Grade("not_applicable")
ERR = Grade(None, error="not a JSON object")


@pytest.mark.parametrize("text,conditional,value,error", [
    ('{"verdict": "pass", "reason": "ok"}', False, "pass", None),
    ('  {"verdict": "fail"}\n', False, "fail", None),
    ('```json\n{"verdict": "pass"}\n```', False, "pass", None),
    ('{"verdict": "not_applicable"}', True, "not_applicable", None),
    ('{"verdict": "not_applicable"}', False, None, "verdict must be one of pass, fail"),
    ('{"verdict": "PASS"}', False, None, "verdict must be one of"),
    ('{"verdict": "yes"}', False, None, "verdict must be one of"),
    ('{"verdict": true}', False, None, "verdict must be one of"),
    ('{"reason": "no verdict"}', False, None, "missing 'verdict'"),
    ('{"verdict": "pass", "score": 3}', False, None, "unexpected key(s) 'score'"),
    ('{"verdict": "pass", "reason": 5}', False, None, "'reason' must be a string"),
    ('Verdict: pass', False, None, "not a JSON object"),
    ('The answer passes. {"verdict": "pass"}', False, None, "not a JSON object"),
    ('["pass"]', False, None, "not a JSON object"),
    ('', False, None, "empty output"),
    (None, False, None, "no output"),
])
def test_criterion_verdict_parsing(text, conditional, value, error):
    grade = parse_criterion_verdict(text, conditional=conditional)
    assert grade.value == value
    assert (grade.error is None) if error is None else (error in grade.error)


def test_backend_error_is_recorded():
    grade = parse_criterion_verdict(None, error="http 500")
    assert grade.value is None and grade.error == "judge error: http 500"


@pytest.mark.parametrize("text,value,error", [
    ('{"score": 3, "reason": "clear"}', 3, None),
    ('{"score": 1}', 1, None),
    ('```\n{"score": 2}\n```', 2, None),
    ('{"score": 4}', None, "score must be the integer 1, 2 or 3"),
    ('{"score": 0}', None, "score must be"),
    ('{"score": 2.5}', None, "score must be"),
    ('{"score": "2"}', None, "score must be"),
    ('{"score": true}', None, "score must be"),
    ('{"verdict": "pass"}', None, "missing 'score'"),
    ('2', None, "not a JSON object"),
])
def test_form_score_parsing(text, value, error):
    grade = parse_form_score(text)
    assert grade.value == value
    assert (grade.error is None) if error is None else (error in grade.error)


def _crit(cid: str, kind: str = "must_include", applies_when: str | None = None) -> Criterion:
    return Criterion(id=cid, kind=kind, text=f"criterion {cid}", applies_when=applies_when)


CRITERIA = [_crit("c1"), _crit("c2"), _crit("c3", "must_avoid", "the answer quotes a fee")]
SHA = "b" * 64


def _review(cid: str, verdict: str) -> Review:
    return Review(task="t1", criterion=cid, answer_sha256=SHA, verdict=verdict)


# (judge A, judge B) per criterion c1, c2, c3; lawyer reviews; expected per criterion
# (verdict, source, escalate), logged ids, task passes
CASES = [
    pytest.param([(P, P), (P, P), (P, P)], {}, [("pass", "judges", False)] * 3, [], True,
                 id="all-agree-pass"),
    pytest.param([(P, F), (P, P), (P, P)], {},
                 [("fail", "disputed", True), ("pass", "judges", False),
                  ("pass", "judges", False)], ["c1"], False,
                 id="only-dispute-could-flip-escalates"),
    pytest.param([(P, F), (F, F), (P, P)], {},
                 [("fail", "disputed", False), ("fail", "judges", False),
                  ("pass", "judges", False)], ["c1"], False,
                 id="another-criterion-fails-for-both-log-only"),
    pytest.param([(P, F), (F, P), (P, P)], {},
                 [("fail", "disputed", True), ("fail", "disputed", True),
                  ("pass", "judges", False)], ["c1", "c2"], False,
                 id="two-disputes-both-escalate"),
    pytest.param([(P, P), (P, P), (P, NA)], {},
                 [("pass", "judges", False), ("pass", "judges", False),
                  ("pass", "disputed", False)], ["c3"], True,
                 id="pass-vs-not-applicable-cannot-flip"),
    pytest.param([(P, P), (P, P), (F, NA)], {},
                 [("pass", "judges", False), ("pass", "judges", False),
                  ("fail", "disputed", True)], ["c3"], False,
                 id="fail-vs-not-applicable-escalates"),
    # the strict rule (issue 16): a judge error leaves the verdict missing, never a pass
    pytest.param([(P, ERR), (P, P), (P, P)], {},
                 [(None, "judge_error", True), ("pass", "judges", False),
                  ("pass", "judges", False)], ["c1"], False,
                 id="judge-error-escalates-never-guessed"),
    pytest.param([(ERR, ERR), (P, P), (P, P)], {},
                 [(None, "judge_error", True), ("pass", "judges", False),
                  ("pass", "judges", False)], ["c1"], False,
                 id="both-judges-error-missing-not-pass"),
    pytest.param([(F, ERR), (F, F), (P, P)], {},
                 [(None, "judge_error", False), ("fail", "judges", False),
                  ("pass", "judges", False)], ["c1"], False,
                 id="judge-error-beside-a-definite-fail-log-only"),
    pytest.param([(P, F), (P, P), (P, P)], {"c1": "pass"},
                 [("pass", "lawyer", False), ("pass", "judges", False),
                  ("pass", "judges", False)], ["c1"], True,
                 id="lawyer-verdict-takes-precedence-and-removes-escalation"),
    pytest.param([(P, F), (P, F), (P, P)], {"c2": "fail"},
                 [("fail", "disputed", False), ("fail", "lawyer", False),
                  ("pass", "judges", False)], ["c1", "c2"], False,
                 id="lawyer-fail-turns-other-dispute-log-only"),
    pytest.param([(P, P), (P, P), (P, P)], {"c2": "fail"},
                 [("pass", "judges", False), ("fail", "lawyer", False),
                  ("pass", "judges", False)], [], False,
                 id="lawyer-overrides-agreeing-judges"),
    pytest.param([(NA, NA), (P, P), (P, P)], {},
                 [("not_applicable", "judges", False), ("pass", "judges", False),
                  ("pass", "judges", False)], [], True,
                 id="not-applicable-is-not-counted"),
]


@pytest.mark.parametrize("grades,reviews,expected,logged,passes", CASES)
def test_resolution_and_escalation(grades, reviews, expected, logged, passes):
    by_criterion = {c.id: {"judge-x": a, "judge-y": b}
                    for c, (a, b) in zip(CRITERIA, grades, strict=True)}
    outcomes = resolve_criteria(CRITERIA, by_criterion,
                                {cid: _review(cid, v) for cid, v in reviews.items()})
    assert [(o.verdict, o.source, o.escalate) for o in outcomes] == expected
    assert [o.criterion.id for o in outcomes if o.logged] == logged
    assert task_passes(outcomes) is passes


def test_no_applicable_criterion_does_not_pass():
    outcomes = resolve_criteria(CRITERIA[:1], {"c1": {"x": NA, "y": NA}})
    assert task_passes(outcomes) is False


RUBRICS = default_rubrics().rubrics


@pytest.mark.parametrize("a,b,review,score,source,escalate,logged", [
    (3, 3, None, 3.0, "judges", False, False),
    (3, 2, None, 2.5, "disputed", False, True),
    (1, 3, None, 2.0, "disputed", True, True),
    (3, 1, 2, 2.0, "lawyer", False, True),
    (3, None, None, None, "judge_error", False, True),
])
def test_form_resolution(a, b, review, score, source, escalate, logged):
    rubric = RUBRICS[0]
    grades = {rubric.id: {"x": Grade(a), "y": Grade(b, error=None if b else "bad")}}
    reviews = ({rubric.id: Review(task="t1", rubric=rubric.id, answer_sha256=SHA, score=review)}
               if review else {})
    (out,) = resolve_form([rubric], grades, reviews)
    assert (out.score, out.source, out.escalate, out.logged) == (score, source, escalate,
                                                                 logged)


def test_escalations_are_blind_and_disagreements_name_the_judges():
    from buildds.evaluate.tasks.highbar.taskset import HighBarTaskSpec

    task = HighBarTaskSpec(id="t1", title="T", instructions="Do.", criteria=tuple(CRITERIA),
                           documents=())
    grades = {"c1": {"openai:judge-one": P, "openai:judge-two": F},
              "c2": {"openai:judge-one": P, "openai:judge-two": P},
              "c3": {"openai:judge-one": P, "openai:judge-two": P}}
    crit = resolve_criteria(CRITERIA, grades)
    form = resolve_form(RUBRICS[:1], {RUBRICS[0].id: {"openai:judge-one": Grade(1),
                                                      "openai:judge-two": Grade(3)}})
    logs = sample_logs("t1#run1", task, "ANSWER", SHA, crit, form)
    assert [e["axis"] for e in logs.escalations] == ["substance", "form"]
    for e in logs.escalations:
        text = repr(e)
        assert "judge-one" not in text and "judge-two" not in text and "#run" not in text
        assert set(e["verdicts"]) == {"A", "B"} and e["answer"] == "ANSWER"
        assert e["answer_sha256"] == SHA and e["review"]["answer_sha256"] == SHA
    assert logs.escalations[0]["review"] == {"task": "t1", "criterion": "c1",
                                             "answer_sha256": SHA, "verdict": None}
    audit = logs.disagreements
    assert [d["target"] for d in audit] == ["c1", "form:clarity"]
    assert set(audit[0]["judges"]) == {"openai:judge-one", "openai:judge-two"}
    assert audit[0]["escalated"] and set(audit[0]["labels"].values()) == set(audit[0]["judges"])


def test_blind_labels_are_not_always_the_same_judge():
    firsts = {blind_labels(["j1", "j2"], f"{i:016x}")["A"] for i in range(20)}
    assert firsts == {"j1", "j2"}
    assert blind_labels(["j1", "j2"], "abc") == blind_labels(["j2", "j1"], "abc")
