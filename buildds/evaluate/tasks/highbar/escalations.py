"""The High Bar's disagreement and escalation logs for one answer (:func:`sample_logs`).

* every disagreement between the judges goes to ``disagreements.jsonl`` with the judges'
  names and the A/B labels, for audit;
* an escalation (:mod:`.judging` decides which) is a blind review entry: the task, the
  criterion or rubric, the instructions, the answer and its sha256, and the two verdicts as
  ``A``/``B`` — which judge is A is decided by a hash of the escalation
  (:func:`blind_labels`), so it is not always the same judge; no model name, no judge name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from buildds.evaluate.tasks.highbar.formats import Criterion, Review
from buildds.evaluate.tasks.highbar.judging import CriterionOutcome, FormOutcome, Grade
from buildds.evaluate.tasks.highbar.taskset import HighBarTaskSpec
from buildds.safeio.hashing import sha256_bytes

__all__ = ["SampleLogs", "blind_labels", "escalation_id", "sample_logs"]


def escalation_id(task_id: str, target: str, answer_sha: str) -> str:
    return sha256_bytes(f"{task_id}\x1f{target}\x1f{answer_sha}".encode())[:16]


def blind_labels(judges: Sequence[str], esc_id: str) -> dict[str, str]:
    """``{"A": judge, "B": judge}``: which judge is A depends on the escalation's hash."""
    ordered = sorted(judges)
    if int(hashlib.sha256(f"ab:{esc_id}".encode()).hexdigest(), 16) % 2:
        ordered.reverse()
    return {chr(ord("A") + i): j for i, j in enumerate(ordered)}


@dataclass
class SampleLogs:
    """The log lines of one answer: audit (with judge names) and blind escalations."""

    disagreements: list[dict[str, Any]] = field(default_factory=list)
    escalations: list[dict[str, Any]] = field(default_factory=list)


_WHY_SUBSTANCE = ("the judges disagree (or one gave no valid verdict) and no other criterion "
                  "definitely fails, so this verdict decides whether the task passes")
_WHY_FORM = "the judges' scores differ by 2 points"


def _criterion_target(c: Criterion) -> dict[str, Any]:
    return {"id": c.id, "kind": c.kind, "text": c.text,
            **({"applies_when": c.applies_when} if c.applies_when else {})}


def _blind_entry(task: HighBarTaskSpec, answer: str, answer_sha: str, target: str,
                 judges: Mapping[str, Grade], what: dict[str, Any]) -> dict[str, Any]:
    esc = escalation_id(task.id, target, answer_sha)
    labels = blind_labels(list(judges), esc)
    form = target.startswith("form:")
    review: dict[str, Any] = {"task": task.id, "answer_sha256": answer_sha}
    if form:
        review.update(rubric=target.removeprefix("form:"), score=None)
    else:
        review.update(criterion=target, verdict=None)
    return {"escalation_id": esc, "axis": "form" if form else "substance", "task": task.id,
            "task_title": task.title, "instructions": task.instructions,
            "documents": [d.name for d in task.documents],
            ("rubric" if form else "criterion"): what, "answer_sha256": answer_sha,
            "answer": answer,
            "verdicts": {k: judges[j].as_dict() for k, j in labels.items()},
            "why": _WHY_FORM if form else _WHY_SUBSTANCE, "review": review}


def _audit_entry(sample_id: str, task: HighBarTaskSpec, answer_sha: str, target: str,
                 judges: Mapping[str, Grade], source: str, escalated: bool,
                 review: Review | None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "sample": sample_id, "task": task.id, "axis": "form" if target.startswith("form:")
        else "substance", "target": target, "answer_sha256": answer_sha,
        "judges": {j: g.as_dict() for j, g in judges.items()}, "status": source,
        "escalated": escalated}
    if escalated:
        esc = escalation_id(task.id, target, answer_sha)
        entry["escalation_id"] = esc
        entry["labels"] = blind_labels(list(judges), esc)
    if review is not None:
        entry["lawyer"] = review.model_dump(exclude_none=True)
    return entry


def sample_logs(sample_id: str, task: HighBarTaskSpec, answer: str, answer_sha: str,
                criteria: Sequence[CriterionOutcome], form: Sequence[FormOutcome]
                ) -> SampleLogs:
    """The disagreement and escalation lines for one judged answer."""
    logs = SampleLogs()
    for o in criteria:
        if o.logged:
            logs.disagreements.append(_audit_entry(sample_id, task, answer_sha, o.criterion.id,
                                                   o.judges, o.source, o.escalate, o.review))
        if o.escalate:
            logs.escalations.append(_blind_entry(task, answer, answer_sha, o.criterion.id,
                                                 o.judges, _criterion_target(o.criterion)))
    for f in form:
        target = f"form:{f.rubric.id}"
        if f.logged:
            logs.disagreements.append(_audit_entry(sample_id, task, answer_sha, target,
                                                   f.judges, f.source, f.escalate, f.review))
        if f.escalate:
            logs.escalations.append(_blind_entry(
                task, answer, answer_sha, target, f.judges,
                {"id": f.rubric.id, "title": f.rubric.title, "question": f.rubric.question,
                 "levels": {str(k): v for k, v in sorted(f.rubric.levels.items())}}))
    return logs
