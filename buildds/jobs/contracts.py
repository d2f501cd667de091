"""``buildds contracts``: contract files → clauses → LegalRikai-style datasets (seed 000).

For each input (.docx, .pdf, scans, images, .odt —
:func:`buildds.extract.contracts.reader.read_documents`) the normalised document is written
for inspection (its line in the report a :class:`~buildds.schema.contracts.ContractFileEntry`),
its clauses are cut in the chosen view (``accepted``: tracked changes accepted;
``original``: rejected) and collected into one clause table
(:class:`~buildds.schema.contracts.ClauseRow`). With an annotation file the task dataset is
exported (``classification`` or ``revision``, splits ``evaluation``/``development``); without
one, the clause table itself (for annotation).

Outputs under ``out`` (staged, swapped in together at the end — :mod:`buildds.staging`):

* ``documents/<file name>.json`` — each :class:`ContractDocument` that was read;
* ``clauses.jsonl`` — the clause table, one row per clause;
* ``dataset/``, ``data/*.parquet``, ``README.md`` — the export (:mod:`buildds.export.rikai`);
* ``rejects.jsonl`` — unreadable files, document errors, unknown labels, clauses without
  labels, annotations without a clause, incomplete revision rows — each with its reason;
* ``report.json`` / ``report.md`` — per file: format, pages, paragraphs, clauses, articles,
  revisions, comments, OCR confidence, seconds; label frequencies for classification.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from buildds.code_version import code_files
from buildds.errors import BuildError
from buildds.jobs.contracts_corrections import apply_corrections, load_corrections
from buildds.jobs.contracts_labels import read_label_inventory
from buildds.jobs.contracts_markdown import contracts_markdown
from buildds.pipeline import (
    Rejects,
    canonical_json,
    package_code_version,
    progress_bar,
)
from buildds.safeio import LIMITS
from buildds.safeio.hashing import sha256_bytes
from buildds.schema import Problem
from buildds.schema.clause_flags import ClauseFlag
from buildds.schema.contracts import (
    Clause,
    ClauseRow,
    ContractDocument,
    ContractFileEntry,
    RikaiItem,
)
from buildds.staging import OutputStaging, clean_stale_staging

if TYPE_CHECKING:
    from buildds.executors import Executor
    from buildds.transform.rikai import Annotation, ItemsResult

__all__ = ["ContractsReport", "build_contracts", "code_version"]

STAGE = "contracts"
Task = Literal["classification", "revision"]
View = Literal["accepted", "original"]
ItemT = TypeVar("ItemT", bound=RikaiItem)
#: the code of the build: this job and every buildds module it imports (buildds.code_version),
#: and the card's template
_CODE = (("buildds.jobs.contracts", "buildds.evaluate.peers.render"),
         ("export/cards/rikai.md.j2", *(f"evaluate/peers/templates/rikai_{n}" for n in (
             "core.py.j2", "inspect.py.j2", "lm_eval.yaml.j2", "lm_eval_utils.py.j2"))))


def code_version() -> str:
    return package_code_version(code_files(*_CODE))


@dataclass
class ContractsReport:
    out: Path
    task: str | None
    view: str
    files: list[ContractFileEntry] = field(default_factory=list)
    clauses: int = 0
    items: dict[str, int] = field(default_factory=dict)
    label_frequencies: dict[str, int] | None = None
    problems: Counter[str] = field(default_factory=Counter)
    exported: str | None = None
    #: the export's data fingerprint (:mod:`buildds.export.data_fingerprint`), "" when none
    data_fingerprint: str = ""
    seconds: float = 0.0
    #: what :func:`buildds.validate.clause_checks.check_clauses` found, per document in order
    clause_flags: list[ClauseFlag] = field(default_factory=list)
    #: the corrections folder and what its entries did (:mod:`.contracts_corrections`)
    corrections: dict[str, Any] | None = None
    #: the folder the recorded file names are relative to (absolute; for ``buildds review``)
    input_root: Path | None = None

    @property
    def failed(self) -> int:
        return sum(1 for f in self.files if f.status == "failed")

    @property
    def rejected(self) -> int:
        return sum(self.problems.values())

    def summary_line(self) -> str:
        line = (f"processed {len(self.files)} files, {self.clauses} clauses, "
                f"{self.rejected} rejected")
        if self.failed:
            line += f" ({self.failed} files failed)"
        if self.clause_flags:
            line += f", {len(self.clause_flags)} clause flags"
        if self.items:
            line += "; " + ", ".join(f"{n} {s}" for s, n in self.items.items())
        return line + f" — see {self.out / 'report.md'}"

    def failure_lines(self) -> list[str]:
        """``<file>[, page N]: <reason>`` for each file that could not be read (its first
        problem)."""
        from buildds.jobs.failures import failure_line

        lines = []
        for f in self.files:
            if f.status != "failed":
                continue
            if not f.problems:
                lines.append(failure_line(f.file, None, "could not be read"))
                continue
            p = f.problems[0]
            lines.append(failure_line(p.source or f.file, p.page, p.message))
        return lines

    def as_json(self) -> dict[str, Any]:
        return {
            "stage": STAGE, "code_version": code_version(), "task": self.task,
            "view": self.view,
            "totals": {"files": len(self.files), "failed": self.failed,
                       "clauses": self.clauses, "rejected": self.rejected,
                       "items": self.items},
            "rejects_by_reason": dict(sorted(self.problems.items())),
            "label_frequencies": self.label_frequencies,
            "exported": self.exported, "data_fingerprint": self.data_fingerprint,
            "files": [f.as_dict() for f in self.files],
            "clause_flags": [f.model_dump() for f in self.clause_flags],
            **({"corrections": self.corrections} if self.corrections is not None else {}),
            **({"input_root": str(self.input_root)} if self.input_root is not None else {}),
        }


def _root(inputs: Sequence[Path]) -> Path | None:
    """The folder the recorded names are relative to: the inputs' common parent, unless that
    is the filesystem root (names then stay absolute, not '/'-less)."""
    parents = [str(p.parent) for p in inputs]
    if not parents:
        return None
    common = Path(os.path.commonpath(parents))
    return None if common == Path(common.anchor) else common


def _file_entry(name: str, doc: ContractDocument, clauses: Sequence[Clause],
                problems: Sequence[Problem], seconds: float) -> ContractFileEntry:
    """A file that was read: ``warning`` when reading it met an error problem."""
    body = [b for b in doc.blocks if b.part == "body"]
    return ContractFileEntry(
        file=name, status="warning" if any(p.severity == "error" for p in problems) else "ok",
        format=doc.format, sha256=doc.source.sha256, pages=doc.pages, paragraphs=len(body),
        clauses=len(clauses), articles=sum(1 for c in clauses if c.kind in ("article", "section")),
        revisions=doc.revision_count, changed_clauses=sum(1 for c in clauses if c.changed),
        comments=len(doc.comments), ocr_confidence=doc.ocr_confidence,
        ocr_page_confidence=doc.ocr_page_confidence, ocr_page_lang=doc.ocr_page_lang,
        seconds=round(seconds, 3), problems=tuple(problems),
    )


@dataclass
class _Run:
    """What the steps of one run write to: its report, its rejects and its staged outputs
    (swapped in at once, at the end)."""

    out: Path
    report: ContractsReport
    rejects: Rejects
    staging: OutputStaging

    def reject(self, problems: Sequence[Problem], name: str) -> None:
        """Each problem becomes a reject (named ``name`` when it names no file)."""
        for p in problems:
            self.rejects.add(stage=p.stage, reason=p.code, message=p.message,
                             source=p.source or name, page=p.page)
            self.report.problems[p.code] += 1


def _check_options(inputs: Sequence[Path], task: str, view: str) -> None:
    if not inputs:
        raise BuildError("no input files given")
    if task not in ("classification", "revision"):
        raise BuildError(f"unknown task {task!r} (classification or revision)")
    if view not in ("accepted", "original"):
        raise BuildError(f"unknown view {view!r} (accepted or original)")


def _read_inputs(run: _Run, inputs: Sequence[Path], view: View, options: dict[str, Any], *,
                 progress: bool, on_file: Callable[[Path], None] | None,
                 executor: Executor | None = None
                 ) -> list[tuple[ContractDocument, list[Clause]]]:
    """Read every input and cut its clauses in ``view``; record each file in the report (and
    its error problems as rejects) and stage its normalised document."""
    from buildds.extract.contracts.reader import read_documents
    from buildds.transform.clauses import split_clauses
    from buildds.transform.rikai import view_blocks
    from buildds.validate.clause_checks import check_clauses

    pairs = []
    # absolute, not resolved: a link is named (and checked by the reader) as the user gave it
    inputs = [Path(os.path.abspath(p)) for p in inputs]
    root = _root(inputs)
    with progress_bar("contracts", enabled=progress) as bar:
        handle = bar.add_task("reading", total=len(inputs))
        tick = time.perf_counter()
        for path, doc, problems in read_documents(inputs, root=root, executor=executor,
                                                  **options):
            name = doc.source.path if doc is not None else (
                path.relative_to(root).as_posix() if root else str(path))
            if doc is None:
                run.report.files.append(ContractFileEntry(file=name, status="failed",
                                                          problems=tuple(problems)))
                run.reject(problems, name)
            else:
                clauses = split_clauses(view_blocks(doc.blocks, view), source=name)
                pairs.append((doc, clauses))
                run.report.clause_flags += check_clauses(clauses, source=name)
                entry = _file_entry(name, doc, clauses, problems, time.perf_counter() - tick)
                run.reject([p for p in problems if p.severity == "error"], name)
                run.report.files.append(entry)
                # the relative path, flattened: two inputs may share a file name
                run.staging.write_text(run.out / "documents" / f"{name.replace('/', '__')}.json",
                                       doc.model_dump_json(indent=1) + "\n")
            bar.update(handle, advance=1, description=Path(name).name)
            if on_file is not None:
                on_file(path)
            tick = time.perf_counter()
    return pairs


def _provenance(pairs: Sequence[tuple[ContractDocument, Sequence[Clause]]],
                task: str | None, view: str, seed: int, eval_share: float,
                annotations: Path | None) -> dict[str, Any]:
    return {
        "inputs": [{"path": p, "sha256": s}
                   for p, s in sorted({(d.source.path, d.source.sha256) for d, _ in pairs})],
        "code_version": code_version(),
        "options": {"task": task, "view": view, "seed": seed, "eval_share": eval_share,
                    "annotations": Path(annotations).name if annotations else None},
    }


def _reject_and_split(run: _Run, task: Task, result: ItemsResult[ItemT], *,
                      provenance: dict[str, Any], seed: int,
                      eval_share: float) -> tuple[dict[str, list[ItemT]], str]:
    """Reject what did not join, split the items (``--split-like`` when given); the splits
    and the export's fingerprint."""
    from buildds.transform.rikai import split_items, split_like

    for prob in result.problems:
        run.rejects.add(stage="rikai-items", reason=prob.reason, message=prob.message,
                        source=prob.source, page=prob.page, id=prob.id, line=prob.line)
        run.report.problems[prob.reason] += 1
    like = provenance["options"].get("split_like")
    splits = (split_like(result.items, name=like, task=task, seed=seed) if like
              else split_items(result.items, eval_share=eval_share, seed=seed))
    run.report.items = {s: len(v) for s, v in splits.items()}
    fingerprint = sha256_bytes(canonical_json({
        "task": task, "items": [it.as_dict() for it in result.items],
        "inventory": result.label_inventory,
        "seed": seed, "eval_share": eval_share, "provenance": provenance,
    }).encode("utf-8"))[:32]
    return splits, fingerprint


def _export_task(run: _Run, task: Task, rows: list[ClauseRow], notes: list[Annotation],
                 inventory: list[str] | None, *, provenance: dict[str, Any], seed: int,
                 eval_share: float) -> None:
    """Join the annotations to the clause rows, reject what did not join, split and export."""
    from buildds.evaluate.peers import peer_task_files
    from buildds.export.rikai import export_classification, export_revision
    from buildds.transform.rikai import classification_items, label_frequencies, revision_items

    if task == "classification":
        result = classification_items(rows, notes, label_inventory=inventory)
        run.report.label_frequencies = label_frequencies(result.items)
        splits, fingerprint = _reject_and_split(run, task, result, provenance=provenance,
                                                seed=seed, eval_share=eval_share)
        done = export_classification(
            splits, out=run.out, label_inventory=result.label_inventory,
            fingerprint=fingerprint, provenance=provenance, seed=seed, staging=run.staging,
            extra_files=peer_task_files("clause-classification"))
    else:
        revisions = revision_items(rows, notes)
        rev_splits, fingerprint = _reject_and_split(run, task, revisions,
                                                    provenance=provenance, seed=seed,
                                                    eval_share=eval_share)
        done = export_revision(rev_splits, out=run.out, fingerprint=fingerprint,
                               provenance=provenance, seed=seed, staging=run.staging)
    run.report.exported, run.report.data_fingerprint = task, done.data_fingerprint


def _export_clause_table(run: _Run, rows: list[ClauseRow], *,
                         provenance: dict[str, Any], seed: int) -> None:
    """No annotations: the clause table itself is the export (for annotation)."""
    from buildds.export.rikai import export_clauses

    fingerprint = sha256_bytes(canonical_json({"rows": [r.as_dict() for r in rows],
                                               "provenance": provenance}).encode("utf-8"))[:32]
    done = export_clauses(rows, out=run.out, fingerprint=fingerprint, provenance=provenance,
                          seed=seed, staging=run.staging)
    run.report.items = {"clauses": len(rows)}
    run.report.exported, run.report.data_fingerprint = "clauses", done.data_fingerprint


def _write_reports(run: _Run) -> None:
    """rejects.jsonl, report.json and report.md, then every staged output swapped in."""
    out, report = run.out, run.report
    run.staging.write_text(out / "rejects.jsonl", run.rejects.jsonl())
    run.staging.write_text(out / "report.json", json.dumps(report.as_json(), ensure_ascii=False,
                                                           indent=1, sort_keys=True) + "\n")
    run.staging.write_text(out / "report.md", contracts_markdown(report))
    run.staging.commit()


def build_contracts(
    inputs: Sequence[Path], *, out: Path, annotations: Path | None = None,
    task: Task = "classification", view: View = "accepted", password: str | None = None,
    seed: int = 0, eval_share: float = 0.2, labels: Path | None = None,
    ocr_lang: str = "auto", progress: bool = True,
    on_file: Callable[[Path], None] | None = None, max_pages: int | None = None,
    split_like: str | None = None, corrections: Path | None = None,
    executor: Executor | None = None,
) -> ContractsReport:
    """Read ``inputs``, cut their clauses in ``view`` and export (see the module docstring).

    ``labels`` is a label inventory file (one label a line; default: every label in the
    annotations); ``split_like`` a published split layout used instead of ``eval_share``
    (:func:`~buildds.transform.rikai.split_like`); ``ocr_lang`` ``auto`` (chosen per page) or
    a tesseract language. A document of more than ``max_pages`` pages or image frames
    (default: the ``pages`` limit, ``--max-pages``) is a failed file. ``corrections``: a
    folder of clause corrections applied to the clause table
    (:mod:`buildds.jobs.contracts_corrections`). ``executor`` (``--executor``,
    :mod:`buildds.executors`) reads the documents and OCRs their pages as its tasks (default:
    one file after another here, each file's pages on a local pool); the outputs are the
    same bytes but for the per-file ``seconds``. Per-file failures are data (in the
    report and ``rejects.jsonl``); raises
    :class:`BuildError` for an unusable run (no inputs, a bad annotation file, an export that
    could not be written)."""
    from buildds.jobs.input_sources import annotate_sources
    from buildds.transform.rikai import clause_table, load_annotations

    started = time.perf_counter()
    inputs = [Path(p) for p in inputs]
    _check_options(inputs, task, view)
    out = Path(out)
    # read the annotations first: a bad file should fail before any slow extraction
    notes = load_annotations(annotations) if annotations is not None else None
    inventory = read_label_inventory(labels) if labels is not None else None
    fixes = load_corrections(corrections)
    report = ContractsReport(out=out, task=task if notes is not None else None, view=view)
    clean_stale_staging(out)  # what an interrupted run left
    run = _Run(out=out, report=report, rejects=Rejects(), staging=OutputStaging(out))
    options: dict[str, Any] = {"password": password, "ocr_lang": ocr_lang,
                               "max_pages": LIMITS["pages"].default if max_pages is None
                               else max_pages}
    pairs = _read_inputs(run, inputs, view, options, progress=progress, on_file=on_file,
                         executor=executor)
    report.input_root = _root([Path(os.path.abspath(p)) for p in inputs])

    rows, report.corrections = apply_corrections(report.problems, run.rejects,
                                                 clause_table(pairs, view=view), fixes)
    report.clauses = len(rows)
    run.staging.write_text(out / "clauses.jsonl",
                           "".join(canonical_json(r.as_dict()) + "\n" for r in rows))
    provenance = _provenance(pairs, report.task, view, seed, eval_share, annotations)
    provenance["options"].update(split_like=split_like, ocr_lang=ocr_lang)
    provenance["inputs"] = annotate_sources(provenance["inputs"], inputs)  # publisher, licence
    if notes is not None:
        _export_task(run, task, rows, notes, inventory, provenance=provenance, seed=seed,
                     eval_share=eval_share)
    elif rows:
        _export_clause_table(run, rows, provenance=provenance, seed=seed)

    report.seconds = time.perf_counter() - started
    _write_reports(run)
    return report
