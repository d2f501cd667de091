"""The High Bar's judges: prompts, strict verdict parsing, disagreements and escalation.

* **Requests.** One judge request per (answer, criterion) — ``highbar_criterion_judge.md.j2``
  — and per (answer, form rubric) — ``highbar_form_judge.md.j2``; both templates are files in
  :mod:`buildds.evaluate.prompts`, rendered sandboxed. The request's ``sample_id`` is
  ``<sample>::<criterion id>`` or ``<sample>::form:<rubric id>``.
* **Parsing** is strict: the output must be one JSON object (alone, or alone in one
  fenced ```json block) with ``verdict`` ∈ {pass, fail, not_applicable} (``not_applicable``
  only for a criterion with ``applies_when``) or an integer ``score`` 1–3, and an optional
  string ``reason``; nothing else. Anything else is recorded as an error, never guessed.
* **Substance.** A criterion's verdict is, in order of precedence: the lawyer's recorded
  verdict (``source="lawyer"``); the judges' common verdict (``"judges"``); while the judges
  disagree (``"disputed"``), provisionally ``fail`` when either judge said fail (else
  ``pass``, a pass vs not_applicable dispute); when a judge failed to answer or gave no
  valid verdict (``"judge_error"``), *missing* (``None``) — never a pass, whatever the
  other judge said (the strict rule) — so the task does not pass until a lawyer records
  the verdict. A criterion counts as met only when every judge (or a lawyer) says so.
* **Escalation (substance).** Every disagreement is logged. An unresolved criterion is
  escalated when its outcome could flip the task's pass: it could end either way (pass vs
  fail, or a judge error) *and* no other criterion of the answer definitely fails (both
  judges or a lawyer say fail). A pass vs not_applicable dispute never flips a pass.
* **Form.** Scores differing by one point are logged; by two points (1 vs 3) escalated. A
  rubric's score is the lawyer's, else the mean of the two judges; a judge error leaves it
  empty (logged).
* **Blind review** (:mod:`.escalations`). An escalation holds the task, the criterion or rubric, the instructions,
  the answer and its sha256, and the two verdicts as ``A``/``B`` (which judge is A is decided
  by a hash of the escalation, so it is not always the same judge) — no model name, no judge
  name. ``disagreements.jsonl`` holds every disagreement with the judges' names and the A/B
  labels, for audit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from buildds.evaluate.prompts import render_template
from buildds.evaluate.tasks.highbar.formats import Criterion, FormRubric, Review
from buildds.evaluate.tasks.highbar.taskset import HighBarTaskSpec
from buildds.schema.evaluation import ChatMessage, ChatRequest

__all__ = [
    "CRITERION_TEMPLATE",
    "FORM_TEMPLATE",
    "CriterionOutcome",
    "FormOutcome",
    "Grade",
    "criterion_request",
    "form_request",
    "parse_criterion_verdict",
    "parse_form_score",
    "resolve_criteria",
    "resolve_form",
    "split_judge_id",
]

CRITERION_TEMPLATE = "highbar_criterion_judge.md.j2"
FORM_TEMPLATE = "highbar_form_judge.md.j2"
JUDGE_MAX_TOKENS = 1000
#: form scores this far apart go to a lawyer
FORM_ESCALATION_GAP = 2
_FENCE = re.compile(r"^```(?:json)?[ \t]*\n(.*)\n```$", re.DOTALL)

Source = Literal["lawyer", "judges", "disputed", "judge_error"]


def _docs(task: HighBarTaskSpec) -> list[dict[str, str]]:
    return [{"name": d.name, "text": d.text} for d in task.documents]


def criterion_request(sample_id: str, task: HighBarTaskSpec, criterion: Criterion,
                      answer: str) -> ChatRequest:
    """The request asking a judge for one criterion's verdict on one answer."""
    text = render_template(CRITERION_TEMPLATE, instructions=task.instructions,
                           documents=_docs(task), answer=answer, kind=criterion.kind,
                           criterion=criterion.text, applies_when=criterion.applies_when)
    return ChatRequest(messages=(ChatMessage(role="user", content=text),), temperature=0.0,
                       max_tokens=JUDGE_MAX_TOKENS, sample_id=f"{sample_id}::{criterion.id}")


def form_request(sample_id: str, task: HighBarTaskSpec, rubric: FormRubric,
                 answer: str) -> ChatRequest:
    """The request asking a judge for one form rubric's score on one answer."""
    text = render_template(FORM_TEMPLATE, instructions=task.instructions, answer=answer,
                           rubric=rubric.model_dump())
    return ChatRequest(messages=(ChatMessage(role="user", content=text),), temperature=0.0,
                       max_tokens=JUDGE_MAX_TOKENS, sample_id=f"{sample_id}::form:{rubric.id}")


def split_judge_id(judge_sample_id: str) -> tuple[str, str]:
    """``t1#run1::c2`` → (``t1#run1``, ``c2``); ``t1#run1::form:clarity`` → (…, ``form:clarity``)."""
    sample, sep, target = judge_sample_id.partition("::")
    if not sep or not target:
        raise ValueError(f"not a judge request id: {judge_sample_id!r}")
    return sample, target


# --------------------------------------------------------------------------- parsing
@dataclass(frozen=True)
class Grade:
    """One judge's answer on one criterion (``value`` a verdict) or rubric (a score)."""

    value: str | int | None
    reason: str | None = None
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if isinstance(self.value, str):
            out["verdict"] = self.value
        elif self.value is not None:
            out["score"] = self.value
        if self.reason is not None:
            out["reason"] = self.reason
        if self.error is not None:
            out["error"] = self.error
        return out


def _json_object(text: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON object the output consists of, or (None, why not)."""
    if text is None:
        return None, "no output"
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    if not body:
        return None, "empty output"
    try:
        obj = json.loads(body)
    except ValueError:
        return None, "not a JSON object"
    if not isinstance(obj, dict):
        return None, "not a JSON object"
    return obj, None


def _reason(obj: Mapping[str, Any]) -> tuple[str | None, str | None]:
    reason = obj.get("reason")
    if reason is not None and not isinstance(reason, str):
        return None, "'reason' must be a string"
    return reason, None


def _check_keys(obj: Mapping[str, Any], required: str) -> str | None:
    if required not in obj:
        return f"missing {required!r}"
    extra = sorted(set(obj) - {required, "reason"})
    if extra:
        return f"unexpected key(s) {', '.join(map(repr, extra))}"
    return None


def parse_criterion_verdict(text: str | None, *, conditional: bool = False,
                            error: str | None = None) -> Grade:
    """A judge's criterion verdict, strictly (see the module doc). ``conditional``: the
    criterion has ``applies_when``, so ``not_applicable`` is allowed. ``error``: the
    backend's own error (no output)."""
    if error is not None and text is None:
        return Grade(None, error=f"judge error: {error}")
    obj, why = _json_object(text)
    if obj is None:
        return Grade(None, error=why)
    why = _check_keys(obj, "verdict")
    reason, bad_reason = _reason(obj)
    if why or bad_reason:
        return Grade(None, error=why or bad_reason)
    verdict = obj["verdict"]
    allowed = ("pass", "fail", "not_applicable") if conditional else ("pass", "fail")
    if not isinstance(verdict, str) or verdict not in allowed:
        return Grade(None, reason=reason,
                     error=f"verdict must be one of {', '.join(allowed)}; got {verdict!r}")
    return Grade(verdict, reason=reason)


def parse_form_score(text: str | None, *, error: str | None = None) -> Grade:
    """A judge's form score, strictly: an integer 1, 2 or 3 (3 best)."""
    if error is not None and text is None:
        return Grade(None, error=f"judge error: {error}")
    obj, why = _json_object(text)
    if obj is None:
        return Grade(None, error=why)
    why = _check_keys(obj, "score")
    reason, bad_reason = _reason(obj)
    if why or bad_reason:
        return Grade(None, error=why or bad_reason)
    score = obj["score"]
    if isinstance(score, bool) or not isinstance(score, int) or score not in (1, 2, 3):
        return Grade(None, reason=reason, error=f"score must be the integer 1, 2 or 3; "
                                                f"got {score!r}")
    return Grade(score, reason=reason)


# --------------------------------------------------------------------------- substance
@dataclass
class CriterionOutcome:
    """A criterion's grade on one answer, after the judges and any lawyer's verdict."""

    criterion: Criterion
    judges: dict[str, Grade]
    #: pass / fail / not_applicable (provisional while disputed); None (missing) when a
    #: judge errored and no lawyer has decided
    verdict: str | None
    source: Source
    review: Review | None = None
    escalate: bool = False

    @property
    def unresolved(self) -> bool:
        return self.source in ("disputed", "judge_error")

    @property
    def definite_fail(self) -> bool:
        return self.verdict == "fail" and not self.unresolved

    @property
    def could_fail_or_pass(self) -> bool:
        """An unresolved criterion whose final verdict could still go either way."""
        if self.source == "judge_error":
            return True
        values = {g.value for g in self.judges.values()}
        return self.source == "disputed" and "fail" in values

    @property
    def logged(self) -> bool:
        """Goes to disagreements.jsonl: the judges disagreed or one failed to answer."""
        return self.unresolved or self._judges_disagreed()

    def _judges_disagreed(self) -> bool:
        grades = list(self.judges.values())
        return any(g.error for g in grades) or len({g.value for g in grades}) > 1


def _criterion_verdict(grades: Sequence[Grade], review: Review | None
                       ) -> tuple[str | None, Source]:
    values = [g.value for g in grades]
    if review is not None and review.verdict is not None:
        return review.verdict, "lawyer"
    if any(g.error for g in grades) or not grades:
        return None, "judge_error"  # missing: never a pass (the strict rule)
    provisional = "fail" if "fail" in values else "pass"
    if len(set(values)) == 1:
        return str(values[0]), "judges"
    return provisional, "disputed"


def resolve_criteria(criteria: Sequence[Criterion],
                     grades: Mapping[str, Mapping[str, Grade]],
                     reviews: Mapping[str, Review] | None = None) -> list[CriterionOutcome]:
    """Outcomes of every criterion of one answer. ``grades``: criterion id → judge → Grade;
    ``reviews``: criterion id → the lawyer's Review of this answer."""
    reviews = reviews or {}
    outcomes = []
    for c in criteria:
        judges = dict(grades.get(c.id, {}))
        verdict, source = _criterion_verdict(list(judges.values()), reviews.get(c.id))
        outcomes.append(CriterionOutcome(c, judges, verdict, source, reviews.get(c.id)))
    for o in outcomes:
        others_fail = any(x.definite_fail for x in outcomes if x is not o)
        o.escalate = o.could_fail_or_pass and not others_fail
    return outcomes


def task_passes(outcomes: Sequence[CriterionOutcome]) -> bool:
    """A task passes only when every applicable criterion passes (provisional verdicts
    included: an unresolved criterion with a fail verdict fails; a missing verdict — a
    judge error — is not a pass)."""
    return all(o.verdict in ("pass", "not_applicable") for o in outcomes) and any(
        o.verdict == "pass" for o in outcomes)


# --------------------------------------------------------------------------- form
@dataclass
class FormOutcome:
    rubric: FormRubric
    judges: dict[str, Grade]
    #: the lawyer's score, else the judges' mean; None when a judge gave no score
    score: float | None
    source: Source
    review: Review | None = None
    escalate: bool = False

    @property
    def logged(self) -> bool:
        grades = list(self.judges.values())
        return any(g.error for g in grades) or len({g.value for g in grades}) > 1


def resolve_form(rubrics: Sequence[FormRubric], grades: Mapping[str, Mapping[str, Grade]],
                 reviews: Mapping[str, Review] | None = None) -> list[FormOutcome]:
    """Outcomes of every form rubric of one answer (``grades``: rubric id → judge → Grade;
    ``reviews``: rubric id → Review)."""
    reviews = reviews or {}
    outcomes = []
    for r in rubrics:
        judges = dict(grades.get(r.id, {}))
        review = reviews.get(r.id)
        scores = [g.value for g in judges.values()]
        ok = bool(scores) and all(isinstance(s, int) for s in scores)
        gap = (max(scores) - min(scores)) if ok else 0  # type: ignore[type-var,operator]
        if review is not None and review.score is not None:
            outcomes.append(FormOutcome(r, judges, float(review.score), "lawyer", review))
        elif not ok:
            outcomes.append(FormOutcome(r, judges, None, "judge_error"))
        else:
            mean = sum(scores) / len(scores)  # type: ignore[arg-type]
            outcomes.append(FormOutcome(r, judges, round(mean, 6),
                                        "judges" if gap == 0 else "disputed",
                                        escalate=gap >= FORM_ESCALATION_GAP))
    return outcomes
