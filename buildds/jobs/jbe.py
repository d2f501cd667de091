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

``report.json`` holds no timings, so the same inputs give byte-identical outputs.
"""

from __future__ import annotations

import json
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.errors import BuildError
from buildds.extract.jbe.raw import FIRST_YEAR, discover_exam_files, era_fullwidth
from buildds.jobs.jbe_checks import check_not_dropping, refuse_copies
from buildds.pipeline import (
    Cache,
    Rejects,
    cache_key,
    canonical_json,
    package_code_version,
    progress_bar,
    run_parallel,
    sha256_bytes,
    sha256_file,
)
from buildds.safeio import LIMITS
from buildds.schema import SUBJECTS, Problem
from buildds.staging import OutputStaging, clean_stale_staging

if TYPE_CHECKING:
    from buildds.jobs.jbe_dataset import DatasetOutcome

__all__ = ["JbeReport", "build_jbe", "build_pair", "code_version"]

STAGE = "jbe-xml"
_CODE_FILES = (
    "schema/core.py",
    "extract/pdf/lines.py",
    "extract/sniff.py",
    "extract/ocr/*.py",
    "extract/jbe/booklet.py",
    "extract/jbe/answers.py",
    "extract/jbe/header.py",
    "extract/jbe/raw.py",
    "export/xml.py",
    "export/schemas/jbe_exam.xsd",
    "jobs/jbe.py",
)


def code_version() -> str:
    """Hash of the code that produces the XML: editing any of it invalidates the cache."""
    return package_code_version(_CODE_FILES)


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


def build_pair(task: PairTask) -> dict[str, Any]:
    """Extract, parse, reconcile, serialise and validate one booklet + key. Never raises:
    failures come back as ``status="failed"`` with problems naming the file and page."""
    from buildds.export.xml import booklet_to_xml, validate_exam_xml
    from buildds.extract.jbe.answers import check_points, parse_answer_key, reconcile
    from buildds.extract.jbe.booklet import parse_booklet
    from buildds.extract.jbe.header import check_printed, read_booklet_header, read_key_header
    from buildds.extract.jbe.raw import era_of
    from buildds.extract.pdf.lines import extract_pdf

    subject = SUBJECTS[task.subject]
    problems: list[Problem] = []
    result: dict[str, Any] = {"year": task.year, "subject": task.subject,
                              "booklet": task.mondai_name, "key": task.seito_name,
                              "status": "failed", "xml": None, "counts": {}, "problems": []}
    try:
        doc = extract_pdf(task.mondai, source_path=task.mondai_name, password=task.password,
                          max_pages=task.max_pages)
        key_doc = extract_pdf(task.seito, source_path=task.seito_name, words=True,
                              password=task.password, max_pages=task.max_pages)
        # Both files must be what their path says before anything is paired.
        printed = read_booklet_header(doc), read_key_header(key_doc)
        result["printed"] = {"booklet": printed[0].as_json(), "key": printed[1].as_json()}
        problems += check_printed(printed[0], kind="booklet", source=task.mondai_name,
                                  year=task.year, subject=subject, other=printed[1])
        problems += check_printed(printed[1], kind="key", source=task.seito_name,
                                  year=task.year, subject=subject, other=printed[0])
        if any(p.code == "header-mismatch" for p in problems):
            result["problems"] = [p.model_dump() for p in problems]
            return result
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
        result.update(
            status="ok",
            xml=xml.decode("utf-8"),
            booklet_sha256=doc.source.sha256,
            key_sha256=key_doc.source.sha256,
            # what the key says, slot by slot: another year's key is refused by it
            key_answers=sha256_bytes(canonical_json(
                [[s.no, s.answer] for s in key.slots]).encode("utf-8")),
            counts={
                "pages": len(doc.pages),
                "ocr_pages": len(ocr_pages),
                "questions": len(booklet.questions),
                "slots": len(booklet.slots),
                "statements": sum(len(q.statements) for q in booklet.questions),
                "options": sum(len(q.options) for q in booklet.questions),
            },
        )
        if ocr_pages:
            conf = [p.ocr_confidence or 0.0 for p in ocr_pages]
            result["counts"]["ocr_confidence_pct"] = round(sum(conf) / len(conf))
    except BuildError as exc:
        problems.append(Problem(stage=STAGE, code=type(exc).__name__, message=exc.message,
                                source=exc.source, page=exc.page))
    except Exception as exc:  # noqa: BLE001 - a bug must not stop the other files; reported in full
        tb = traceback.format_exception_only(type(exc), exc)[-1].strip()
        problems.append(Problem(stage=STAGE, code="internal-error",
                                message=f"unexpected error, please report it: {tb}",
                                source=task.mondai_name))
    if result["status"] == "ok" and any(p.severity == "error" for p in problems):
        result["status"] = "warning"
    result["problems"] = [p.model_dump() for p in problems]
    return result


@dataclass
class JbeReport:
    out: Path
    pairs: list[dict[str, Any]] = field(default_factory=list)
    missing: list[dict[str, Any]] = field(default_factory=list)
    cached: int = 0
    built: int = 0
    seconds: float = 0.0
    dataset: DatasetOutcome | None = None

    @property
    def xml_files(self) -> int:
        return sum(1 for p in self.pairs if p["status"] != "failed")

    @property
    def problem_count(self) -> int:
        errors = sum(1 for p in self.pairs for x in p["problems"] if x["severity"] == "error")
        if self.dataset is not None:
            errors += len(self.dataset.stale) + self.dataset.validation_errors
        return errors + len(self.missing)

    def total(self, name: str) -> int:
        return sum(p["counts"].get(name, 0) for p in self.pairs)

    def summary_line(self) -> str:
        files = 2 * len(self.pairs) + len(self.missing)
        failed = sum(1 for p in self.pairs if p["status"] == "failed") + len(self.missing)
        line = (f"processed {files} files: {self.xml_files} XML, {self.total('questions')} "
                f"questions, {self.total('slots')} slots; {failed} failed, "
                f"{self.problem_count} problems")
        if self.cached:
            line += f" ({self.cached} from cache)"
        d = self.dataset
        if d is not None:
            state = ("unchanged" if d.unchanged else "exported" if d.exported
                     else "NOT exported (validation failed)")
            line += (f"; {len(d.items)} items, {len(d.exclusions)} questions excluded, "
                     f"{d.applied} corrections applied, {len(d.stale)} stale; dataset {state}")
        line += f" in {self.seconds:.1f}s — see {self.out / 'report.md'}"
        return line

    def failure_lines(self) -> list[str]:
        """``<file>[, page N]: <reason>`` for what failed each pair that did not build (its
        other errors are in the report) and for every missing input, in year and subject
        order."""
        from buildds.jobs.failures import failure_line

        entries = [(p, p["problems"]) for p in self.pairs if p["status"] == "failed"]
        entries += [(m, m["problems"]) for m in self.missing]
        entries.sort(key=lambda e: (e[0]["year"], list(SUBJECTS).index(e[0]["subject"])
                                    if e[0]["subject"] in SUBJECTS else 9))
        lines = []
        for entry, problems in entries:
            errors = [x for x in problems if x["severity"] == "error"]
            # what failed the pair (a wrong header, a copy, the exception that stopped it)
            # before what was merely noticed on the way
            errors = [x for x in errors if x["stage"] in (STAGE, "header")
                      and x["code"] != "header-not-found"] or errors or [
                {"source": entry.get("booklet") or f"{entry['year']}/{entry['subject']}",
                 "page": None, "message": "failed (no reason recorded)"}]
            lines += [failure_line(x["source"], x["page"], x["message"]) for x in errors]
        return lines

    def as_json(self) -> dict[str, Any]:
        pairs = [{k: v for k, v in p.items() if k != "xml"} for p in self.pairs]
        return {
            "stage": STAGE,
            "code_version": code_version(),
            "totals": {
                "pairs": len(self.pairs),
                "xml": self.xml_files,
                "failed": sum(1 for p in self.pairs if p["status"] == "failed"),
                "missing": len(self.missing),
                "questions": self.total("questions"),
                "slots": self.total("slots"),
                "statements": self.total("statements"),
                "problems": self.problem_count,
            },
            "pairs": pairs,
            "missing": self.missing,
            "dataset": self.dataset.as_json() if self.dataset is not None else None,
        }


def build_jbe(*, years: list[int], raw: Path, out: Path, subjects: list[str] | None = None,
              processes: int | None = None, use_cache: bool = True,
              progress: bool = True, password: str | None = None, xml_only: bool = False,
              corrections: Path | None = None, seed: int = 0,
              balance: tuple[float, float] = (0.25, 0.75),
              max_pages: int = LIMITS["pages"].default, replace: bool = False) -> JbeReport:
    """Build ``<out>/xml/<year>/<subject>.xml`` for every requested booklet, then (unless
    ``xml_only``) the JBE-QA dataset: items, corrections from ``corrections/*.yaml``,
    validation and export. ``password`` opens encrypted PDFs (tried on every file); a PDF
    of more than ``max_pages`` pages fails (``--max-pages``).

    A pair fails when a file is not what its path says (printed subject or year), when the
    key disagrees with the booklet (slots, 配点), or when a file or a key's answers are
    another pair's. Raises :class:`BuildError` when the dataset in ``out`` holds years or
    subjects this run does not build, unless ``replace``."""
    started = time.perf_counter()
    raw, out = Path(raw), Path(out)
    report = JbeReport(out=out)
    clean_stale_staging(out)  # what an interrupted run left
    entries = discover_exam_files(raw, years, subjects)
    if not any(e.mondai or e.seito for e in entries):
        unknown = [y for y in years if y < FIRST_YEAR]
        known = [y for y in years if y >= FIRST_YEAR]
        reasons = []
        if unknown:
            reasons.append(f"year {_years_text(unknown)} is not supported (unknown-year: the "
                           f"parsers know {FIRST_YEAR} onwards)")
        if known:
            folder = raw / str(known[0]) if len(known) == 1 else raw / "<year>"
            reasons.append(f"no exam PDFs for {_years_text(known)} under {raw}: expected "
                           f"{folder}/<subject>-mondai.pdf and -seito.pdf (run "
                           f"'buildds fetch jbe --years …', or pass --raw)")
        raise BuildError("; ".join(reasons))
    if not (xml_only or replace):
        check_not_dropping(out, years, subjects or list(SUBJECTS))
    cache = Cache(out / ".cache", enabled=use_cache)
    version = code_version()
    tasks: list[tuple[PairTask, str]] = []
    shas: list[tuple[str, str]] = []
    for e in entries:
        if e.problems or not (e.mondai and e.seito):
            report.missing.append({"year": e.year, "subject": e.subject,
                                   "problems": [p.model_dump() for p in e.problems]})
            continue
        task = PairTask(e.year, e.subject, str(e.mondai), str(e.seito),
                        e.mondai_name or "", e.seito_name or "", password,
                        max_pages=max_pages)
        shas += [(task.mondai_name, sha256_file(e.mondai)),
                 (task.seito_name, sha256_file(e.seito))]
        key = cache_key(STAGE, version, [shas[-2][1], shas[-1][1]],
                        {"mondai": task.mondai_name, "seito": task.seito_name})
        tasks.append((task, key))

    results: dict[int, dict[str, Any]] = {}
    todo: list[int] = []
    for i, (_, key) in enumerate(tasks):
        hit = cache.get(STAGE, key)
        if hit is not None:
            results[i] = hit
            report.cached += 1
        else:
            todo.append(i)

    if todo:
        with progress_bar("jbe", enabled=progress) as bar:
            handle = bar.add_task("PDF → XML", total=len(todo))

            def done(_: int, res: dict[str, Any]) -> None:
                bar.update(handle, advance=1, description=f"{res['year']} {res['subject']}")

            for i, res in zip(todo, run_parallel(build_pair, [tasks[i][0] for i in todo],
                                                  processes=processes, on_done=done)):
                results[i] = res
                report.built += 1
                if res["status"] != "failed":
                    cache.put(STAGE, tasks[i][1], res)

    report.pairs = [results[i] for i in range(len(tasks))]
    refuse_copies(report.pairs, dict(shas))
    staging = OutputStaging(out)  # every output below is swapped in at once, at the end
    if not xml_only:
        from buildds.jobs.jbe_dataset import build_jbe_dataset
        from buildds.transform.corrections import load_corrections

        provenance = {
            "inputs": sorted(
                [{"path": p[k], "sha256": p[f"{k}_sha256"]} for p in report.pairs
                 if p["status"] != "failed" for k in ("booklet", "key")],
                key=lambda d: d["path"]),
            "code_version": version,
            "options": {"years": _years_text(years), "subjects": subjects or list(SUBJECTS),
                        "seed": seed, "balance": list(balance)},
        }
        report.dataset = build_jbe_dataset(
            report.pairs, out, corrections=load_corrections(corrections), cache=cache,
            seed=seed, balance=balance, provenance=provenance, staging=staging)
    _write_outputs(report, out, staging)
    report.seconds = time.perf_counter() - started
    return report


def _years_text(years: list[int]) -> str:
    """2015–2024 for a contiguous run, else 2015, 2017."""
    if len(years) > 1 and years == list(range(years[0], years[-1] + 1)):
        return f"{years[0]}–{years[-1]}"
    return ", ".join(str(y) for y in years)


def _write_outputs(report: JbeReport, out: Path, staging: OutputStaging) -> None:
    """Stage the XML, rejects and reports beside what stage 2 staged, then swap them all in:
    a failure (disk full …) leaves the previous outputs whole."""
    rejects = Rejects()
    for pair in report.pairs:
        path = out / "xml" / str(pair["year"]) / f"{pair['subject']}.xml"
        if pair["status"] == "failed":
            # a stale XML from an earlier build must not pass for current
            staging.remove(path)
            first = next((p for p in pair["problems"] if p["severity"] == "error"), None)
            # the file at fault (the key, say), else the pair's booklet
            source = (first["source"] if first else None) or pair["booklet"]
            rejects.add(stage=STAGE, reason="pair-failed", source=source,
                        message=first["message"] if first else "failed",
                        page=first["page"] if first else None,
                        id=f"{pair['year']}-{pair['subject']}")
        else:
            staging.write_bytes(path, pair["xml"].encode("utf-8"))
        for p in pair["problems"]:
            if p["severity"] == "error" and pair["status"] != "failed":
                rejects.add(stage=p["stage"], reason=p["code"], message=p["message"],
                            source=p["source"], page=p["page"],
                            id=f"{pair['year']}-{pair['subject']}")
    for m in report.missing:
        stale = out / "xml" / str(m["year"]) / f"{m['subject']}.xml"
        staging.remove(stale)  # its input is gone or fails its checksum now
        for p in m["problems"]:
            rejects.add(stage=p["stage"], reason=p["code"], message=p["message"],
                        source=p["source"], page=p["page"], id=f"{m['year']}-{m['subject']}")
    if report.dataset is not None:
        for e in report.dataset.exclusions:
            rejects.add(stage="jbe-items", reason=e.reason, message=e.message, source=e.source,
                        page=e.page, id=e.id)
        for st in report.dataset.stale:
            rejects.add(stage="corrections", reason="stale-correction", message=st.message,
                        source=st.origin, id=st.id)
    staging.write_text(out / "rejects.jsonl", rejects.jsonl())
    from buildds.jobs.jbe_report import render_markdown

    data = report.as_json()
    staging.write_text(out / "report.md", render_markdown(report, data))
    staging.write_text(out / "report.json",
                       json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    staging.commit()
