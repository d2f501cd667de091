"""The files of a High Bar task set (seed 002) and their YAML schemas.

Layout (every name below is fixed)::

    <taskset>/
      taskset.yaml          optional: name, description, max_completers (2), applications
      form_rubrics.yaml     optional: replaces the packaged 1–3 form rubrics
      reviews.yaml          optional: lawyers' verdicts on escalated grades (take precedence)
      <task-id>/            one folder per task (a folder with a task.yaml)
        task.yaml           title, jurisdiction, area, documents (default: every file)
        instructions.md     what the application is asked to do
        criteria.yaml       the lawyer-authored binary criteria (must_include / must_avoid)
        documents/          the source documents in their native formats
        answer_key.md       optional: a reference answer (the ``oracle`` backend answers it)

``criteria.yaml``::

    criteria:
      - id: residuals                 # letters, digits, '.', '_', '-'; unique in the task
        kind: must_include            # or must_avoid ("must include" / "must-avoid" accepted)
        text: Identifies that clause 5 ...
        applies_when: ...             # optional: judges may then answer not_applicable

``reviews.yaml`` (a lawyer's verdicts; copy the ``review`` stub of an escalation)::

    reviews:
      - task: nda-review
        criterion: residuals          # substance: verdict pass | fail | not_applicable
        answer_sha256: 3f…            # sha256 of the answer's UTF-8 text (in escalations.jsonl)
        verdict: fail
        reviewer: A. Lawyer           # optional, with note
      - task: nda-review
        rubric: length                # form: score 1-3
        answer_sha256: 3f…
        score: 2

A verdict applies to that exact answer on every later evaluation, taking precedence over the
judges (re-run ``buildds eval``: cached answers cost nothing). Its file is hashed apart from
the tasks, so recording verdicts keeps the task set's key (the leaderboard keeps every run).

Documents are normalised to text by the extract stage (:func:`read_document` for .docx,
.pdf, scans, images, .odt; .md/.txt are read as UTF-8); the original files go with each
request as :class:`~buildds.schema.evaluation.Attachment`.

Every problem raises :class:`BuildError` naming the file: bad YAML, a field of the wrong
type, an unknown criterion kind, a duplicate id, a missing or unreadable document.

Every file is read only when it is a regular file inside its folder (the task set's files
inside the task set, a task's files inside its task folder; symlinks are resolved and refused
when they lead out; FIFOs, devices and sockets are refused) and at most
``max_document_bytes`` long (default 64 MiB, ``--max-document-bytes``). A refused
*document* fails only its task: the task is kept with :attr:`HighBarTaskSpec.error` set and
no documents, its attempts are sent to no backend (their result is that error, naming the
file) and the other tasks go on. A document that task.yaml lists by a path rather than a
file name inside documents/ (``../../etc/passwd``) is refused the same way. A refused YAML
or instructions file stops the load.

A document whose file name is not UTF-8 is read by its real name and known by its
printable one (each undecodable byte written ``\\xNN``:
:func:`~buildds.safeio.names.printable_name`) in prompts, attachments, messages and the
task set's key.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = [
    "CRITERION_KINDS",
    "ID_PATTERN",
    "CriteriaFile",
    "Criterion",
    "FormRubric",
    "FormRubrics",
    "Review",
    "ReviewsFile",
    "TaskMeta",
    "TaskSetMeta",
    "answer_sha256",
    "default_rubrics",
    "review_key",
]

CRITERION_KINDS = ("must_include", "must_avoid")
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- schemas
class Criterion(_Strict):
    """One lawyer-authored binary criterion. A ``must_avoid`` criterion passes when the
    answer avoids what it describes."""

    id: str = Field(pattern=ID_PATTERN)
    kind: Literal["must_include", "must_avoid"]
    text: str = Field(min_length=1)
    #: when set, the criterion applies only under this condition (judges may answer
    #: ``not_applicable``); otherwise it always applies
    applies_when: str | None = None

    @field_validator("kind", mode="before")
    @classmethod
    def _normalise_kind(cls, value: Any) -> Any:
        """``must include`` / ``must-include`` / ``Must_Include`` → ``must_include``."""
        if isinstance(value, str):
            return value.strip().lower().replace(" ", "_").replace("-", "_")
        return value


class CriteriaFile(_Strict):
    criteria: list[Criterion] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> CriteriaFile:
        _check_unique([c.id for c in self.criteria], "criterion")
        return self


class TaskMeta(_Strict):
    title: str = Field(min_length=1)
    jurisdiction: str | None = None
    area: str | None = None
    #: document file names under documents/, in prompt order (default: every file, sorted)
    documents: list[str] | None = None
    #: output token budget of the application's answer
    max_tokens: int = Field(default=4096, ge=1)


class FormRubric(_Strict):
    id: str = Field(pattern=ID_PATTERN)
    title: str
    question: str
    #: what each score means, best (3) first
    levels: dict[int, str]

    @model_validator(mode="after")
    def _levels(self) -> FormRubric:
        if sorted(self.levels) != [1, 2, 3]:
            raise ValueError(f"rubric {self.id!r}: levels must be exactly 1, 2 and 3 "
                             f"(3 best), got {sorted(self.levels)}")
        return self


class FormRubrics(_Strict):
    rubrics: list[FormRubric] = Field(min_length=1, max_length=3)

    @model_validator(mode="after")
    def _unique(self) -> FormRubrics:
        _check_unique([r.id for r in self.rubrics], "rubric")
        return self


class TaskSetMeta(_Strict):
    name: str | None = None
    description: str | None = None
    #: a task is in the High Bar when at most this many applications completed it
    max_completers: int = Field(default=2, ge=0)
    #: model spec → category ("legal" or "general"), for the leaderboard's averages
    applications: dict[str, Literal["legal", "general"]] = Field(default_factory=dict)


class Review(_Strict):
    """A lawyer's verdict on one escalated grade; it takes precedence over the judges."""

    task: str
    criterion: str | None = None
    rubric: str | None = None
    answer_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    verdict: Literal["pass", "fail", "not_applicable"] | None = None
    score: int | None = Field(default=None, ge=1, le=3)
    reviewer: str | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _one_target(self) -> Review:
        if (self.criterion is None) == (self.rubric is None):
            raise ValueError("give either 'criterion' (substance) or 'rubric' (form)")
        if self.criterion is not None and (self.verdict is None or self.score is not None):
            raise ValueError("a substance review gives 'verdict' (pass, fail, not_applicable)")
        if self.rubric is not None and (self.score is None or self.verdict is not None):
            raise ValueError("a form review gives 'score' (1-3)")
        return self

    @property
    def key(self) -> tuple[str, str, str]:
        return review_key(self.task, self.target, self.answer_sha256)

    @property
    def target(self) -> str:
        """``<criterion id>`` or ``form:<rubric id>``."""
        return self.criterion if self.criterion is not None else f"form:{self.rubric}"


class ReviewsFile(_Strict):
    reviews: list[Review] = Field(default_factory=list)


def _check_unique(ids: list[str], what: str) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            raise ValueError(f"duplicate {what} id {i!r}")
        seen.add(i)


def review_key(task: str, target: str, sha: str) -> tuple[str, str, str]:
    """What a lawyer's verdict is keyed by: task id, criterion id (or ``form:<rubric>``)
    and the sha256 of the answer, so a verdict applies to that exact answer only."""
    return (task, target, sha)


def answer_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def default_rubrics() -> FormRubrics:
    """The packaged task-agnostic form rubrics (clarity, length, structure and formatting)."""
    text = resources.files(__package__).joinpath("form_rubrics.yaml").read_text("utf-8")
    return FormRubrics.model_validate(yaml.safe_load(text))
