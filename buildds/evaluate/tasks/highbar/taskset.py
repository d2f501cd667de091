"""Loading and validating a High Bar task set: a folder of task folders (seed 002).

The layout and the file formats are described in :mod:`.formats`; the files are read by
:mod:`.files`. :func:`load_taskset` reads a task set into a :class:`TaskSet`."""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.tasks.highbar.files import (
    DEFAULT_MAX_DOCUMENT_BYTES,
    Document,
    DocumentRefused,
    check_document_name,
    document_names,
    load_document,
    parse_yaml_file,
    path_exists,
    read_file_bytes,
    read_text_file,
)
from buildds.evaluate.tasks.highbar.formats import (
    ID_PATTERN,
    CriteriaFile,
    Criterion,
    FormRubrics,
    Review,
    ReviewsFile,
    TaskMeta,
    TaskSetMeta,
    default_rubrics,
)
from buildds.pipeline import canonical_json

__all__ = ["HighBarTaskSpec", "TaskSet", "load_taskset"]

log = logging.getLogger(__name__)


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


def load_task(folder: Path, *, max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES
              ) -> HighBarTaskSpec:
    """One task folder (see the module doc)."""
    if not re.match(ID_PATTERN, folder.name):
        raise BuildError("a task folder name must be letters, digits, '.', '_' or '-'",
                         source=str(folder))
    limit = max_document_bytes
    task_yaml = folder / "task.yaml"
    meta: TaskMeta = parse_yaml_file(TaskMeta, task_yaml, max_bytes=limit)
    criteria: CriteriaFile = parse_yaml_file(CriteriaFile, folder / "criteria.yaml",
                                             max_bytes=limit)
    instructions = read_text_file(folder / "instructions.md", required=True,
                                  max_bytes=limit) or ""
    error = None
    try:
        names = document_names(folder, meta, task_yaml)
        for n in names:
            check_document_name(n, task_yaml)
        documents = tuple(load_document(folder / "documents" / n, n, folder, limit)
                          for n in names)
    except DocumentRefused as exc:
        documents = ()
        error = f"task {folder.name}: document refused, the task is not asked: {exc}"
        log.warning("%s", error)
    return HighBarTaskSpec(
        id=folder.name, title=meta.title, instructions=instructions,
        criteria=tuple(criteria.criteria), documents=documents,
        jurisdiction=meta.jurisdiction, area=meta.area, max_tokens=meta.max_tokens,
        answer_key=read_text_file(folder / "answer_key.md", required=False, max_bytes=limit),
        error=error)


def _task_folders(root: Path) -> list[Path]:
    folders = []
    for sub in sorted(root.iterdir()):
        if not sub.is_dir() or sub.name.startswith((".", "_")):
            continue
        if path_exists(sub / "task.yaml"):  # a FIFO or a link is refused by name when read
            folders.append(sub)
        elif path_exists(sub / "criteria.yaml") or path_exists(sub / "instructions.md"):
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
    if path_exists(reviews_path):
        data = read_file_bytes(reviews_path, root, max_bytes)
        fp["reviews_sha256"] = hashlib.sha256(data).hexdigest()
    return fp


def load_taskset(path: str | Path, *, max_document_bytes: int | None = None) -> TaskSet:
    """Load and validate the task set at ``path`` (see the module doc); every file is read
    at most ``max_document_bytes`` long (default :data:`DEFAULT_MAX_DOCUMENT_BYTES`)."""
    root = Path(path)
    limit = max_document_bytes or DEFAULT_MAX_DOCUMENT_BYTES
    if not root.is_dir():
        raise BuildError("a High Bar task set is a folder of task folders", source=str(root))
    meta: TaskSetMeta = parse_yaml_file(TaskSetMeta, root / "taskset.yaml", default=TaskSetMeta(),
                                        max_bytes=limit)
    rubrics: FormRubrics = parse_yaml_file(FormRubrics, root / "form_rubrics.yaml",
                                           default=default_rubrics(), max_bytes=limit)
    tasks = [load_task(f, max_document_bytes=limit) for f in _task_folders(root)]
    if not tasks:
        raise BuildError("no task folders (a task folder holds task.yaml, instructions.md, "
                         "criteria.yaml and documents/)", source=str(root))
    reviews_path = root / "reviews.yaml"
    reviews_file: ReviewsFile = parse_yaml_file(ReviewsFile, reviews_path, default=ReviewsFile(),
                                                max_bytes=limit)
    reviews = _check_reviews(reviews_file, tasks, rubrics, reviews_path)
    return TaskSet(root=root, tasks=tasks, rubrics=rubrics, meta=meta, reviews=reviews,
                   fingerprint=_fingerprint(root, tasks, rubrics, reviews_path, limit))
