"""Loading and validating a High Bar task set: a folder of task folders (seed 002).

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
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from buildds.errors import BuildError, ExtractError
from buildds.pipeline import canonical_json
from buildds.safeio import LIMITS, check_regular_file, load_yaml_strict, read_bytes_limited
from buildds.safeio.names import printable_name

__all__ = [
    "CRITERION_KINDS",
    "Criterion",
    "Document",
    "FormRubric",
    "FormRubrics",
    "HighBarTaskSpec",
    "Review",
    "TaskSet",
    "answer_sha256",
    "default_rubrics",
    "load_taskset",
    "review_key",
]

CRITERION_KINDS = ("must_include", "must_avoid")
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"
TEXT_SUFFIXES = {".md": "text/markdown", ".txt": "text/plain"}
NATIVE_SUFFIXES = {
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".pdf": "application/pdf",
    ".odt": "application/vnd.oasis.opendocument.text",
    ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
    ".tif": "image/tiff", ".tiff": "image/tiff",
}
RESERVED_FILES = ("taskset.yaml", "form_rubrics.yaml", "reviews.yaml")
#: bytes of one file of a task set, at most (``--max-document-bytes``)
DEFAULT_MAX_DOCUMENT_BYTES = LIMITS["document_bytes"].default
_LIMIT_OPTION = LIMITS["document_bytes"].option

log = logging.getLogger(__name__)


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


# --------------------------------------------------------------------------- loaded task set
@dataclass(frozen=True)
class Document:
    """A source document: the original file and its text as the extract stage reads it."""

    name: str
    path: Path
    sha256: str
    media_type: str
    format: str
    text: str


@dataclass(frozen=True)
class HighBarTaskSpec:
    id: str
    title: str
    instructions: str
    criteria: tuple[Criterion, ...]
    documents: tuple[Document, ...]
    jurisdiction: str | None = None
    area: str | None = None
    max_tokens: int = 4096
    answer_key: str | None = None
    #: why the task cannot be asked (a refused document, named); it then has no documents
    error: str | None = None

    def criterion(self, cid: str) -> Criterion:
        for c in self.criteria:
            if c.id == cid:
                return c
        raise KeyError(cid)


@dataclass
class TaskSet:
    root: Path
    tasks: list[HighBarTaskSpec]
    rubrics: FormRubrics
    meta: TaskSetMeta = field(default_factory=TaskSetMeta)
    #: review_key → Review
    reviews: dict[tuple[str, str, str], Review] = field(default_factory=dict)
    #: content hashes (the tasks' files; reviews hashed apart so recording one keeps the key)
    fingerprint: dict[str, Any] = field(default_factory=dict)

    @property
    def items_by_id(self) -> dict[str, Any]:
        """Attempt id (``<task>#run<n>``) → ``{"id", "task_id", "run", "spec"}``."""
        return {f"{t.id}#run{r}": {"id": f"{t.id}#run{r}", "task_id": t.id, "run": r,
                                   "spec": t} for t in self.tasks for r in (1, 2)}

    @property
    def fewshot_ids(self) -> set[str]:
        return set()


# --------------------------------------------------------------------------- reading
def _read_bytes(path: Path, root: Path, max_bytes: int) -> bytes:
    """The bytes of a regular file inside ``root`` (:class:`ExtractError` otherwise)."""
    try:
        return read_bytes_limited(path, max_bytes=max_bytes, root=root, option=_LIMIT_OPTION)
    except OSError as exc:
        raise ExtractError(f"cannot read ({exc.strerror or exc})", source=str(path)) from exc


def _read_utf8(path: Path, root: Path, max_bytes: int) -> str:
    try:
        return _read_bytes(path, root, max_bytes).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BuildError("not UTF-8 text", source=str(path)) from exc


def _exists(path: Path) -> bool:
    """Whether there is anything at ``path`` (a dangling link or a FIFO too: those are
    refused by name rather than taken for missing)."""
    return os.path.lexists(path)


def _read_yaml(path: Path, root: Path, max_bytes: int) -> Any:
    text = _read_utf8(path, root, max_bytes)
    try:
        return load_yaml_strict(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise BuildError(f"invalid YAML{where}: {problem}", source=str(path)) from exc


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


def _parse(model: type[BaseModel], path: Path, default: Any = None, *,
           max_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES) -> Any:
    """``model`` validated from the YAML file at ``path`` (``default`` when absent), a
    regular file inside ``path``'s folder."""
    if not _exists(path):
        if default is not None:
            return default
        raise BuildError("missing file", source=str(path))
    data = _read_yaml(path, path.parent, max_bytes)
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise BuildError(f"expected a YAML mapping at the top level, got "
                         f"{type(data).__name__}", source=str(path))
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        raise BuildError(_describe(exc), source=str(path)) from exc


def default_rubrics() -> FormRubrics:
    """The packaged task-agnostic form rubrics (clarity, length, structure and formatting)."""
    text = resources.files(__package__).joinpath("form_rubrics.yaml").read_text("utf-8")
    return FormRubrics.model_validate(yaml.safe_load(text))


def _document_text(path: Path, real: Path, data: bytes) -> tuple[str, str]:
    """(format, normalised text) of a source document: ``data`` are its bytes, ``real`` its
    resolved path (checked to be a regular file inside its task folder)."""
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        try:
            return suffix.lstrip("."), data.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            raise BuildError("not UTF-8 text", source=str(path)) from exc
    from buildds.extract.contracts.reader import read_document

    doc = read_document(real, source_path=str(path))
    lines = [(b.redline or b.text).strip() for b in doc.blocks if b.part == "body"]
    lines = [ln for ln in lines if ln]
    for c in doc.comments:
        who = f" by {c.author}" if c.author else ""
        lines.append(f"[Comment{who} on “{c.anchor}”: {c.text}]")
    return doc.format, "\n".join(lines)


class DocumentRefused(Exception):
    """A document that is not a regular file inside its task folder, or is too large."""


def _load_document(path: Path, name: str, root: Path, max_bytes: int) -> Document:
    """One document of the task folder ``root``; :class:`DocumentRefused` when safeio
    refuses it (then nothing of it has been read)."""
    suffix = path.suffix.lower()
    media = TEXT_SUFFIXES.get(suffix) or NATIVE_SUFFIXES.get(suffix)
    if media is None:
        known = ", ".join(sorted({*TEXT_SUFFIXES, *NATIVE_SUFFIXES}))
        raise BuildError(f"unsupported document type {suffix or '(none)'!r} (supported: "
                         f"{known})", source=str(path))
    if not _exists(path):
        raise BuildError("missing document (listed in task.yaml)", source=str(path))
    try:
        real = check_regular_file(path, root=root)
        data = _read_bytes(real, root, max_bytes)
    except ExtractError as exc:
        raise DocumentRefused(printable_name(str(exc))) from exc
    fmt, text = _document_text(path, real, data)
    if not text:
        raise BuildError("the document has no text", source=str(path))
    sha = hashlib.sha256(data).hexdigest()
    return Document(name=printable_name(name), path=real, sha256=sha, media_type=media,
                    format=fmt, text=text)


def _document_names(folder: Path, meta: TaskMeta, task_yaml: Path) -> list[str]:
    docs = folder / "documents"
    if meta.documents is not None:
        names = list(meta.documents)
    elif docs.is_dir():
        # everything but folders: a FIFO or a dangling link is listed, and refused by name
        names = sorted(p.name for p in docs.iterdir()
                       if not p.is_dir() and not p.name.startswith(".") and p.suffix != ".py")
    else:
        names = []
    if not names:
        raise BuildError("the task has no documents (put them in documents/ or list them "
                         "under 'documents')", source=str(task_yaml))
    return names


def _check_document_name(name: str, task_yaml: Path) -> None:
    """A listed document must be a file name inside documents/ (no folders, no ``..``):
    :class:`DocumentRefused` otherwise, nothing read."""
    if not name or Path(name).name != name or name in (".", ".."):
        raise DocumentRefused(f"{printable_name(str(task_yaml))}: document {name!r} is not a "
                              "file name inside documents/; refused, nothing read")


def _read_text_file(path: Path, *, required: bool,
                    max_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES) -> str | None:
    if not _exists(path):
        if required:
            raise BuildError("missing file", source=str(path))
        return None
    text = _read_utf8(path, path.parent, max_bytes).strip()
    if required and not text:
        raise BuildError("empty file", source=str(path))
    return text or None


def load_task(folder: Path, *, max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES
              ) -> HighBarTaskSpec:
    """One task folder (see the module doc)."""
    if not re.match(ID_PATTERN, folder.name):
        raise BuildError("a task folder name must be letters, digits, '.', '_' or '-'",
                         source=str(folder))
    limit = max_document_bytes
    task_yaml = folder / "task.yaml"
    meta: TaskMeta = _parse(TaskMeta, task_yaml, max_bytes=limit)
    criteria: CriteriaFile = _parse(CriteriaFile, folder / "criteria.yaml", max_bytes=limit)
    instructions = _read_text_file(folder / "instructions.md", required=True,
                                   max_bytes=limit) or ""
    error = None
    try:
        names = _document_names(folder, meta, task_yaml)
        for n in names:
            _check_document_name(n, task_yaml)
        documents = tuple(_load_document(folder / "documents" / n, n, folder, limit)
                          for n in names)
    except DocumentRefused as exc:
        documents = ()
        error = f"task {folder.name}: document refused, the task is not asked: {exc}"
        log.warning("%s", error)
    return HighBarTaskSpec(
        id=folder.name, title=meta.title, instructions=instructions,
        criteria=tuple(criteria.criteria), documents=documents,
        jurisdiction=meta.jurisdiction, area=meta.area, max_tokens=meta.max_tokens,
        answer_key=_read_text_file(folder / "answer_key.md", required=False, max_bytes=limit),
        error=error)


def _task_folders(root: Path) -> list[Path]:
    folders = []
    for sub in sorted(root.iterdir()):
        if not sub.is_dir() or sub.name.startswith((".", "_")):
            continue
        if _exists(sub / "task.yaml"):  # a FIFO or a link is refused by name when read
            folders.append(sub)
        elif _exists(sub / "criteria.yaml") or _exists(sub / "instructions.md"):
            raise BuildError("missing file", source=str(sub / "task.yaml"))
    return folders


def _check_reviews(reviews: ReviewsFile, tasks: list[HighBarTaskSpec], rubrics: FormRubrics,
                   path: Path) -> dict[tuple[str, str, str], Review]:
    by_id = {t.id: t for t in tasks}
    rubric_ids = {r.id for r in rubrics.rubrics}
    out: dict[tuple[str, str, str], Review] = {}
    for i, rv in enumerate(reviews.reviews):
        where = f"reviews.{i}"
        task = by_id.get(rv.task)
        if task is None:
            raise BuildError(f"{where}: unknown task {rv.task!r}", source=str(path))
        if rv.criterion is not None and rv.criterion not in {c.id for c in task.criteria}:
            raise BuildError(f"{where}: task {rv.task!r} has no criterion {rv.criterion!r}",
                             source=str(path))
        if rv.rubric is not None and rv.rubric not in rubric_ids:
            raise BuildError(f"{where}: unknown form rubric {rv.rubric!r}", source=str(path))
        if rv.key in out:
            raise BuildError(f"{where}: a second verdict for {rv.task}/{rv.target} on the "
                             "same answer", source=str(path))
        out[rv.key] = rv
    return out


def _fingerprint(root: Path, tasks: list[HighBarTaskSpec], rubrics: FormRubrics,
                 reviews_path: Path, max_bytes: int) -> dict[str, Any]:
    payload = {
        "tasks": [{"id": t.id, "title": t.title, "instructions": t.instructions,
                   "criteria": [c.model_dump() for c in t.criteria],
                   "documents": [[d.name, d.sha256] for d in t.documents],
                   "max_tokens": t.max_tokens, "answer_key": t.answer_key,
                   # refused: a task without its documents (not the message: it holds
                   # absolute paths, and the key must not change when the set is moved)
                   **({"refused": True} if t.error else {})} for t in tasks],
        "rubrics": rubrics.model_dump(),
    }
    digest = hashlib.sha256(canonical_json(payload).encode("utf-8")).hexdigest()
    fp: dict[str, Any] = {"kind": "highbar", "test_sha256": digest, "tasks": len(tasks)}
    if _exists(reviews_path):
        data = _read_bytes(reviews_path, root, max_bytes)
        fp["reviews_sha256"] = hashlib.sha256(data).hexdigest()
    return fp


def load_taskset(path: str | Path, *, max_document_bytes: int | None = None) -> TaskSet:
    """Load and validate the task set at ``path`` (see the module doc); every file is read
    at most ``max_document_bytes`` long (default :data:`DEFAULT_MAX_DOCUMENT_BYTES`)."""
    root = Path(path)
    limit = max_document_bytes or DEFAULT_MAX_DOCUMENT_BYTES
    if not root.is_dir():
        raise BuildError("a High Bar task set is a folder of task folders", source=str(root))
    meta: TaskSetMeta = _parse(TaskSetMeta, root / "taskset.yaml", default=TaskSetMeta(),
                               max_bytes=limit)
    rubrics: FormRubrics = _parse(FormRubrics, root / "form_rubrics.yaml",
                                  default=default_rubrics(), max_bytes=limit)
    tasks = [load_task(f, max_document_bytes=limit) for f in _task_folders(root)]
    if not tasks:
        raise BuildError("no task folders (a task folder holds task.yaml, instructions.md, "
                         "criteria.yaml and documents/)", source=str(root))
    reviews_path = root / "reviews.yaml"
    reviews_file: ReviewsFile = _parse(ReviewsFile, reviews_path, default=ReviewsFile(),
                                       max_bytes=limit)
    reviews = _check_reviews(reviews_file, tasks, rubrics, reviews_path)
    return TaskSet(root=root, tasks=tasks, rubrics=rubrics, meta=meta, reviews=reviews,
                   fingerprint=_fingerprint(root, tasks, rubrics, reviews_path, limit))
