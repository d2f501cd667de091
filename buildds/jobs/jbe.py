"""``buildds jbe``: bar-exam PDFs → one validated XML file per booklet (JBE stage 1).

For each (year, subject) the booklet and its answer key are extracted, parsed, reconciled
(slot numbers must agree, or a :class:`KeyMismatchError` names both files), serialised and
validated against the XSD — in a worker process, one per core. Each pair's result is cached
under ``<out>/.cache`` by the sha256 of both PDFs, the code version (a hash of the modules
involved) and the options, so a re-run with nothing changed does no work.

Outputs (all written atomically, only when their bytes change):

* ``<out>/xml/<year>/<subject>.xml`` — one per booklet that built;
* ``<out>/report.json`` — per pair: status, counts, problems (file and page);
* ``<out>/rejects.jsonl`` — every pair that did not build and every error, with its reason.

The records passed between these steps (:class:`~buildds.schema.jbe_build.JbePairResult`,
``JbeMissingPair``, ``JbeReject``, ``JbeTotals``) live in :mod:`buildds.schema.jbe_build`.

``report.json`` holds no timings, so the same inputs give byte-identical outputs.
"""

from __future__ import annotations

import json
import time
import traceback
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from buildds.code_version import code_files
from buildds.errors import BuildError
from buildds.extract.jbe.raw import FIRST_YEAR, ExamFiles, discover_exam_files
from buildds.jobs.jbe_checks import check_not_dropping, refuse_copies, years_text
from buildds.jobs.jbe_headers import check_printed_pair, read_headers, titles
from buildds.jobs.jbe_ocr import DEFAULT_OCR, OcrSettings, repair_booklet, statement_confidences
from buildds.jobs.jbe_report import JbeReport, render_markdown
from buildds.pipeline import (
    Cache,
    Rejects,
    cache_key,
    canonical_json,
    package_code_version,
    progress_bar,
    run_parallel,
)
from buildds.safeio import LIMITS
from buildds.safeio.hashing import sha256_bytes, sha256_file
from buildds.schema import SUBJECTS, PdfDocument, Problem
from buildds.schema.jbe_build import (
    JbeMissingPair,
    JbePairResult,
    JbeReject,
    PairCounts,
    PrintedPair,
)
from buildds.staging import OutputStaging, clean_stale_staging
from buildds.text import era_fullwidth

if TYPE_CHECKING:
    from buildds.executors import Executor
    from buildds.jobs.jbe_dataset import AsOfOptions

__all__ = ["JbeReport", "PairTask", "build_jbe", "build_pair", "code_version", "jbe_rejects"]

STAGE = "jbe-xml"
#: the code that makes the XML: these modules and every buildds module they import
#: (buildds.code_version), this job's own file and the XML schema
_CODE = (("buildds.extract.jbe", "buildds.extract.pdf", "buildds.export.xml",
          "buildds.schema.jbe_build"),
         ("jobs/jbe.py", "export/schemas/jbe_exam.xsd"))


def code_version() -> str:
    """Hash of the code that produces the XML: editing any of it invalidates the cache."""
    return package_code_version(code_files(*_CODE))


@dataclass(frozen=True)
class PairTask:
    year: int
    subject: str
    mondai: str
    seito: str
    mondai_name: str
    seito_name: str
    #: for encrypted PDFs; not part of the cache key (it does not change the output)
    password: str | None = None
    #: --max-pages: a longer PDF fails (not cached, so not part of the cache key either)
    max_pages: int = LIMITS["pages"].default
    ocr: OcrSettings = DEFAULT_OCR  # --ocr-lang, --ocr-dpi, --ocr-psm
    ocr_processes: int | None = None  # a pair's OCR pool (1 on Ray: one CPU per task)


def build_pair(task: PairTask) -> JbePairResult:
    """Extract, parse, reconcile, serialise and validate one booklet + key. Never raises:
    failures come back as ``status="failed"`` with problems naming the file and page."""
    result = JbePairResult(year=task.year, subject=task.subject, booklet=task.mondai_name,
                           key=task.seito_name)
    problems: list[Problem] = []
    try:
        doc, key_doc = _extract_pair(task)
        # Both files must be what their path says before anything is paired.
        headers = read_headers(doc, key_doc)
        result = result.model_copy(update={"printed": PrintedPair(
            booklet=titles(headers[0]), key=titles(headers[1]))})
        problems += check_printed_pair(task.year, task.subject,
                                       (task.mondai_name, task.seito_name), *headers)
        if not any(p.code == "header-mismatch" for p in problems):
            result = _build_xml(task, doc, key_doc, result, problems)
    except BuildError as exc:
        problems.append(Problem(stage=STAGE, code=type(exc).__name__, message=exc.message,
                                source=exc.source, page=exc.page))
    except Exception as exc:  # noqa: BLE001 - a bug must not stop the other files; reported in full
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        problems.append(Problem(stage=STAGE, code="internal-error",
                                message=f"unexpected error, please report it: {tb}",
                                source=task.mondai_name))
    status = result.status
    if status == "ok" and any(p.severity == "error" for p in problems):
        status = "warning"
    return result.model_copy(update={"status": status, "problems": tuple(problems)})


def _extract_pair(task: PairTask) -> tuple[PdfDocument, PdfDocument]:
    """The booklet's lines and the key's lines and words."""
    from buildds.extract.pdf.lines import extract_pdf

    ocr = {**task.ocr.extract_kwargs(), "ocr_processes": task.ocr_processes}
    doc = extract_pdf(task.mondai, source_path=task.mondai_name, password=task.password,
                      max_pages=task.max_pages, columns=True, **ocr)
    key_doc = extract_pdf(task.seito, source_path=task.seito_name, words=True,
                          password=task.password, max_pages=task.max_pages, **ocr)
    return doc, key_doc


def _build_xml(task: PairTask, doc: PdfDocument, key_doc: PdfDocument, result: JbePairResult,
               problems: list[Problem]) -> JbePairResult:
    """Parse both files, reconcile them (adding to ``problems``), serialise and validate the
    XML: ``result`` built, with its counts."""
    from buildds.export.xml import booklet_to_xml, validate_exam_xml
    from buildds.extract.jbe.answers import parse_answer_key
    from buildds.extract.jbe.booklet import parse_booklet
    from buildds.extract.jbe.key_checks import check_points, reconcile
    from buildds.text import era_of

    subject = SUBJECTS[task.subject]
    doc, repairs = repair_booklet(doc)  # OCR'd lines: labels, headers, markers
    booklet = parse_booklet(doc, year=task.year, era=era_of(task.year), subject=subject)
    problems.extend(booklet.problems)
    key = parse_answer_key(key_doc, year=task.year, subject=task.subject)
    problems.extend(key.problems)
    slot_owner = {no: q.number for q in booklet.questions for no in q.slots}
    problems.extend(reconcile(slot_owner, key, booklet_name=task.mondai_name))
    problems.extend(check_points({q.number: q.points for q in booklet.questions}, key,
                                 booklet_name=task.mondai_name))
    xml = booklet_to_xml(booklet, key, era=era_fullwidth(task.year))
    validate_exam_xml(xml, source=f"xml/{task.year}/{task.subject}.xml")
    ocr_pages = [p for p in doc.pages if p.ocr]
    conf = [p.ocr_confidence or 0.0 for p in ocr_pages]
    counts = PairCounts(
        pages=len(doc.pages),
        ocr_pages=len(ocr_pages),
        questions=len(booklet.questions),
        slots=len(booklet.slots),
        statements=sum(len(q.statements) for q in booklet.questions),
        options=sum(len(q.options) for q in booklet.questions),
        ocr_confidence_pct=round(sum(conf) / len(conf)) if ocr_pages else None,
        ocr_repairs=len(repairs) if ocr_pages else None,
    )
    return result.model_copy(update={
        "status": "ok",
        "xml": xml.decode("utf-8"),
        "booklet_sha256": doc.source.sha256,
        "key_sha256": key_doc.source.sha256,
        # what the key says, slot by slot: another year's key is refused by it
        "key_answers": sha256_bytes(canonical_json(
            [[s.no, s.answer] for s in key.slots]).encode("utf-8")),
        "counts": counts,
        "ocr_statements": statement_confidences(doc, booklet) if ocr_pages else None,
    })


def build_jbe(*, years: list[int], raw: Path, out: Path, subjects: list[str] | None = None,
              processes: int | None = None, use_cache: bool = True,
              progress: bool = True, password: str | None = None, xml_only: bool = False,
              corrections: Path | None = None, seed: int = 0,
              balance: tuple[float, float] = (0.25, 0.75),
              max_pages: int = LIMITS["pages"].default, replace: bool = False,
              as_of: AsOfOptions | None = None, ocr: OcrSettings = DEFAULT_OCR,
              executor: Executor | None = None) -> JbeReport:
    """Build ``<out>/xml/<year>/<subject>.xml`` for every requested booklet, then (unless
    ``xml_only``) the JBE-QA dataset: items, corrections from ``corrections/*.yaml``,
    validation and export. ``password`` opens encrypted PDFs (tried on every file); a PDF
    of more than ``max_pages`` pages fails (``--max-pages``).

    A pair fails when a file is not what its path says (printed subject or year), when the
    key disagrees with the booklet (slots, 配点), or when a file or a key's answers are
    another pair's. Raises :class:`BuildError` when the dataset in ``out`` holds years or
    subjects this run does not build, unless ``replace``. ``as_of``: built as of a date
    (:mod:`buildds.jobs.jbe_as_of`); its store is checked before anything is written.
    ``ocr``: OCR settings and flag (:class:`~buildds.jobs.jbe_ocr.OcrSettings`). ``executor``
    builds the pairs (:mod:`buildds.executors`, ``--executor``; default: ``processes`` local
    workers); the outputs are the same bytes whichever ran them."""
    started = time.perf_counter()
    raw, out = Path(raw), Path(out)
    if as_of is not None and not xml_only:
        from buildds.jobs.jbe_as_of import check_as_of
        check_as_of(as_of.store, as_of.day, [SUBJECTS[s].jp for s in subjects or SUBJECTS])
    report = JbeReport(out=out, code_version=code_version())
    clean_stale_staging(out)  # what an interrupted run left
    entries = discover_exam_files(raw, years, subjects)
    _check_found(entries, years, raw)
    if not (xml_only or replace):
        check_not_dropping(out, years, subjects or list(SUBJECTS))
    cache = Cache(out / ".cache", enabled=use_cache)
    version = report.code_version
    tasks, shas = _plan(entries, report, version, password=password, max_pages=max_pages,
                        ocr=ocr)
    report.pairs = refuse_copies(_run_pairs(tasks, cache, report, processes=processes,
                                            progress=progress, executor=executor), shas)
    staging = OutputStaging(out)  # every output below is swapped in at once, at the end
    if not xml_only:
        from buildds.jobs.jbe_dataset import build_jbe_dataset
        from buildds.jobs.jbe_sources import annotate_inputs
        from buildds.transform.corrections import load_corrections

        provenance: dict[str, Any] = {
            "inputs": annotate_inputs(_inputs(report.pairs), raw),
            "code_version": version,
            "options": {"years": years_text(years), "subjects": subjects or list(SUBJECTS),
                        "seed": seed, "balance": list(balance)},
        }
        if as_of is not None:  # a default build's options stay as they were
            provenance["options"]["as_of"] = as_of.day.isoformat()
        report.dataset = build_jbe_dataset(
            report.pairs, out, corrections=load_corrections(corrections), cache=cache,
            seed=seed, balance=balance, provenance=provenance, staging=staging, as_of=as_of,
            ocr=ocr)
    _write_outputs(report, out, staging)
    report.seconds = time.perf_counter() - started
    return report


def _inputs(pairs: list[JbePairResult]) -> list[dict[str, str]]:
    """The files of every pair that built, with their sha256, sorted by path."""
    inputs = [{"path": name, "sha256": sha} for p in pairs if not p.failed
              for name, sha in ((p.booklet, p.booklet_sha256), (p.key, p.key_sha256))
              if sha is not None]
    return sorted(inputs, key=lambda d: d["path"])


def _check_found(entries: list[ExamFiles], years: list[int], raw: Path) -> None:
    """Raise :class:`BuildError` when no requested year has a single exam PDF: an unknown
    year, or a wrong ``--raw``."""
    if any(e.mondai or e.seito for e in entries):
        return
    unknown = [y for y in years if y < FIRST_YEAR]
    known = [y for y in years if y >= FIRST_YEAR]
    reasons = []
    if unknown:
        reasons.append(f"year {years_text(unknown)} is not supported (unknown-year: the "
                       f"parsers know {FIRST_YEAR} onwards)")
    if known:
        folder = raw / str(known[0]) if len(known) == 1 else raw / "<year>"
        reasons.append(f"no exam PDFs for {years_text(known)} under {raw}: expected "
                       f"{folder}/<subject>-mondai.pdf and -seito.pdf (run "
                       f"'buildds fetch jbe --years …', or pass --raw)")
    raise BuildError("; ".join(reasons))


def _plan(entries: list[ExamFiles], report: JbeReport, version: str, *,
          password: str | None, max_pages: int,
          ocr: OcrSettings) -> tuple[list[tuple[PairTask, str]],
                                                          dict[str, str]]:
    """A task and its cache key per complete pair, and every file's sha256 by name; an
    incomplete or failing pair goes to ``report.missing``."""
    tasks: list[tuple[PairTask, str]] = []
    shas: list[tuple[str, str]] = []
    for e in entries:
        if e.problems or not (e.mondai and e.seito):
            report.missing.append(JbeMissingPair(year=e.year, subject=e.subject,
                                                 problems=tuple(e.problems)))
            continue
        task = PairTask(e.year, e.subject, str(e.mondai), str(e.seito),
                        e.mondai_name or "", e.seito_name or "", password,
                        max_pages=max_pages, ocr=ocr)
        shas += [(task.mondai_name, sha256_file(e.mondai)),
                 (task.seito_name, sha256_file(e.seito))]
        key = cache_key(STAGE, version, [shas[-2][1], shas[-1][1]],
                        {"mondai": task.mondai_name, "seito": task.seito_name,
                         **ocr.cache_options()})
        tasks.append((task, key))
    return tasks, dict(shas)


def _cached(cache: Cache, key: str) -> JbePairResult | None:
    hit = cache.get(STAGE, key)
    if hit is None:
        return None
    try:
        return JbePairResult.from_json(hit)
    except ValidationError:
        return None  # not a result this code wrote: built again, like an unreadable entry


def _run_pairs(tasks: list[tuple[PairTask, str]], cache: Cache, report: JbeReport, *,
               processes: int | None, progress: bool,
               executor: Executor | None = None) -> list[JbePairResult]:
    """Every task's result, in order: from the cache, else built on the process pool or
    ``executor`` (and cached when it built)."""
    results: dict[int, JbePairResult] = {}
    todo: list[int] = []
    for i, (_, key) in enumerate(tasks):
        hit = _cached(cache, key)
        if hit is not None:
            results[i] = hit
            report.cached += 1
        else:
            todo.append(i)

    if todo:
        with progress_bar("jbe", enabled=progress) as bar:
            handle = bar.add_task("PDF → XML", total=len(todo))

            def done(_: int, res: JbePairResult) -> None:
                bar.update(handle, advance=1, description=f"{res.year} {res.subject}")

            todo_tasks = [replace(tasks[i][0], ocr_processes=1) if getattr(
                executor, "name", "") == "ray" else tasks[i][0] for i in todo]
            built = (executor.map(build_pair, todo_tasks) if executor is not None else
                     run_parallel(build_pair, todo_tasks, processes=processes, on_done=done))
            for n, (i, res) in enumerate(zip(todo, built)):
                if executor is not None:
                    done(n, res)
                results[i] = res
                report.built += 1
                if not res.failed:
                    cache.put(STAGE, tasks[i][1], res.to_json())
    return [results[i] for i in range(len(tasks))]


def jbe_rejects(report: JbeReport) -> list[JbeReject]:
    """The lines of ``rejects.jsonl``: every pair that failed (with its first error), every
    error of a pair that built, every problem of a missing pair, every excluded question
    and every stale correction."""
    rejects: list[JbeReject] = []
    for pair in report.pairs:
        pair_id = f"{pair.year}-{pair.subject}"
        if pair.failed:
            first = next((p for p in pair.problems if p.severity == "error"), None)
            # the file at fault (the key, say), else the pair's booklet
            source = (first.source if first else None) or pair.booklet
            rejects.append(JbeReject(stage=STAGE, reason="pair-failed", source=source,
                                     message=first.message if first else "failed",
                                     page=first.page if first else None, id=pair_id))
        rejects += [JbeReject(stage=p.stage, reason=p.code, message=p.message, source=p.source,
                              page=p.page, id=pair_id)
                    for p in pair.problems if p.severity == "error" and not pair.failed]
    for m in report.missing:
        rejects += [JbeReject(stage=p.stage, reason=p.code, message=p.message, source=p.source,
                              page=p.page, id=f"{m.year}-{m.subject}") for p in m.problems]
    if report.dataset is not None:
        rejects += [JbeReject(stage="jbe-items", reason=e.reason, message=e.message,
                              source=e.source, page=e.page, id=e.id)
                    for e in report.dataset.exclusions]
        rejects += [JbeReject(stage="corrections", reason="stale-correction",
                              message=st.message, source=st.origin, id=st.id)
                    for st in report.dataset.stale]
        if report.dataset.as_of is not None:
            from buildds.jobs.jbe_as_of import review_rejects
            rejects += review_rejects(report.dataset.items, report.dataset.as_of)
    return rejects


def _write_outputs(report: JbeReport, out: Path, staging: OutputStaging) -> None:
    """Stage the XML, rejects and reports beside what stage 2 staged, then swap them all in:
    a failure (disk full …) leaves the previous outputs whole."""
    for pair in report.pairs:
        path = out / "xml" / str(pair.year) / f"{pair.subject}.xml"
        if pair.failed or pair.xml is None:
            # a stale XML from an earlier build must not pass for current
            staging.remove(path)
        else:
            staging.write_bytes(path, pair.xml.encode("utf-8"))
    for m in report.missing:
        # its input is gone or fails its checksum now
        staging.remove(out / "xml" / str(m.year) / f"{m.subject}.xml")
    rejects = Rejects()
    for reject in jbe_rejects(report):
        rejects.add(**reject.to_json())
    staging.write_text(out / "rejects.jsonl", rejects.jsonl())
    data = report.as_json()
    staging.write_text(out / "report.md", render_markdown(report))
    staging.write_text(out / "report.json",
                       json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    staging.commit()
