"""What a ``buildds jbe`` run reports: :class:`JbeReport` (``report.json`` is its
``as_json()``, the console's summary and failure lines) and :func:`render_markdown`
(``report.md``, what a person reads after a build).

Deterministic (no timings, no dates), so an unchanged rebuild rewrites nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from buildds.jobs.failures import failure_line
from buildds.schema import SUBJECTS
from buildds.schema.jbe_build import JbeMissingPair, JbePairResult, JbeTotals, PrintedTitles

if TYPE_CHECKING:
    from buildds.jobs.jbe_dataset import DatasetOutcome

__all__ = ["JbeReport", "render_markdown"]

STAGE = "jbe-xml"


@dataclass
class JbeReport:
    """What a ``buildds jbe`` run did: every pair's result, the inputs that were missing, the
    dataset stage's outcome; ``as_json()`` is ``report.json``."""

    out: Path
    #: the stage's code version (:func:`buildds.jobs.jbe.code_version`)
    code_version: str
    pairs: list[JbePairResult] = field(default_factory=list)
    missing: list[JbeMissingPair] = field(default_factory=list)
    cached: int = 0
    built: int = 0
    seconds: float = 0.0
    dataset: DatasetOutcome | None = None

    @property
    def xml_files(self) -> int:
        return sum(1 for p in self.pairs if not p.failed)

    @property
    def problem_count(self) -> int:
        errors = sum(1 for p in self.pairs for x in p.problems if x.severity == "error")
        if self.dataset is not None:
            errors += len(self.dataset.stale) + self.dataset.validation_errors
        return errors + len(self.missing)

    def total(self, name: str) -> int:
        return sum(p.count(name) for p in self.pairs)

    def totals(self) -> JbeTotals:
        return JbeTotals(
            pairs=len(self.pairs),
            xml=self.xml_files,
            failed=sum(1 for p in self.pairs if p.failed),
            missing=len(self.missing),
            questions=self.total("questions"),
            slots=self.total("slots"),
            statements=self.total("statements"),
            problems=self.problem_count,
        )

    def summary_line(self) -> str:
        files = 2 * len(self.pairs) + len(self.missing)
        failed = sum(1 for p in self.pairs if p.failed) + len(self.missing)
        line = (f"processed {files} files: {self.xml_files} XML, {self.total('questions')} "
                f"questions, {self.total('slots')} slots; {failed} failed, "
                f"{self.problem_count} problems")
        if self.cached:
            line += f" ({self.cached} from cache)"
        d = self.dataset
        if d is not None:
            state = ("unchanged" if d.unchanged else "exported" if d.exported
                     else "NOT exported (no items)" if not d.items
                     else "NOT exported (validation failed)")
            line += (f"; {len(d.items)} items, {len(d.exclusions)} questions excluded, "
                     f"{d.applied} corrections applied, {len(d.stale)} stale; dataset {state}")
            if d.as_of is not None:
                c = d.as_of.counts()
                line += (f"; as of {d.as_of.as_of.isoformat()}: {c['current']} current, "
                         f"{c['terminology_only']} terminology only, {c['needs_review']} "
                         f"need review")
        line += f" in {self.seconds:.1f}s — see {self.out / 'report.md'}"
        return line

    def failure_lines(self) -> list[str]:
        """``<file>[, page N]: <reason>`` for what failed each pair that did not build (its
        other errors are in the report) and for every missing input, in year and subject
        order."""
        entries: list[JbePairResult | JbeMissingPair] = [p for p in self.pairs if p.failed]
        entries += self.missing
        entries.sort(key=lambda e: (e.year, list(SUBJECTS).index(e.subject)
                                    if e.subject in SUBJECTS else 9))
        lines = []
        for entry in entries:
            errors = [x for x in entry.problems if x.severity == "error"]
            # what failed the pair (a wrong header, a copy, the exception that stopped it)
            # before what was merely noticed on the way
            errors = [x for x in errors if x.stage in (STAGE, "header")
                      and x.code != "header-not-found"] or errors
            if errors:
                lines += [failure_line(x.source, x.page, x.message) for x in errors]
            else:
                booklet = entry.booklet if isinstance(entry, JbePairResult) else None
                lines.append(failure_line(booklet or f"{entry.year}/{entry.subject}", None,
                                          "failed (no reason recorded)"))
        return lines

    def as_json(self) -> dict[str, Any]:
        return {
            "stage": STAGE,
            "code_version": self.code_version,
            "totals": self.totals().to_json(),
            "pairs": [p.to_json(xml=False) for p in self.pairs],
            "missing": [m.to_json() for m in self.missing],
            "dataset": self.dataset.as_json() if self.dataset is not None else None,
        }


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def _printed(pair: JbePairResult) -> str:
    """``民法 / 民法``: the subject and year each file prints in its header."""
    printed = pair.printed
    if printed is None:
        return "—"

    def one(h: PrintedTitles) -> str:
        from buildds.text import era_of

        return " ".join([era_of(y) for y in h.years] + list(h.subjects)) or "nothing"

    return f"{one(printed.booklet)} / {one(printed.key)}"


def _printed_note(pairs: list[JbePairResult]) -> str:
    headers = [h for p in pairs if p.printed for h in (p.printed.booklet, p.printed.key)]
    with_subject = sum(1 for h in headers if h.subjects)
    with_year = sum(1 for h in headers if h.years)
    note = (f"Headers read on {len(headers)} files: {with_subject} print their subject, "
            f"{with_year} their year; both are checked against the path.")
    if with_year < len(headers):
        note += (" Where no year is printed (as on the official booklets and keys), the key "
                 "is checked by content only: its slots and 配点 against the booklet, its "
                 "bytes and answers against the other keys of the run.")
    return note


def _pairs_section(report: JbeReport) -> list[str]:
    """The PDF → XML table, the note on printed headers and every problem."""
    out = ["## PDF → XML", ""]
    rows = []
    for p in report.pairs:
        c = p.counts
        ocr = (f"{c.ocr_pages} ({c.ocr_confidence_pct}%)" if c is not None and c.ocr_pages
               else f"{c.ocr_pages if c is not None else 0}")
        rows.append([p.year, p.subject, p.status, _printed(p),
                     c.pages if c is not None else "", ocr,
                     c.questions if c is not None else "", c.slots if c is not None else "",
                     len(p.problems)])
    out += _table(["year", "subject", "status", "printed (booklet / key)", "pages",
                   "OCR pages (conf.)", "questions", "slots", "problems"], rows)
    out += ["", _printed_note(report.pairs)]
    problems = [(p.year, p.subject, x) for p in report.pairs for x in p.problems]
    problems += [(m.year, m.subject, x) for m in report.missing for x in m.problems]
    if problems:
        out += ["", "### Problems", ""]
        out += [f"- {y} {s} — {x.severity} `{x.code}`: {x.source or ''}"
                f"{', page ' + str(x.page) if x.page else ''}: {x.message}"
                for y, s, x in problems]
    return out


def _dataset_section(d: DatasetOutcome) -> list[str]:
    """Items per subject beside the seed's, excluded questions, corrections, the few-shot
    exemplars, the fingerprint and the validation report."""
    from buildds.transform.jbe_paper import paper_comparison_markdown
    from buildds.transform.jbe_summary import SEED_COUNTS, summarize

    s, ref = summarize(d.items, d.exclusions), cast(dict[str, Any], SEED_COUNTS)
    out = ["", "## Items (JBE-QA)", ""]
    subjects = ["Civil Code", "Penal Code", "Constitution"]
    rows = [[name, s.per_subject.get(name, 0), ref["per_subject"].get(name, ""),
             s.excluded_per_subject.get(name, 0), ref["excluded_per_subject"].get(name, "")]
            for name in subjects]
    rows.append(["total", s.total, ref["total"], s.excluded_total, ref["excluded_total"]])
    out += _table(["subject", "items", "seed items", "excluded questions", "seed excluded"],
                  rows)
    out += ["", f"True: {s.percent_true}% (seed: {ref['percent_true']}%). "
            f"By question type: " + ", ".join(f"{k} {v}" for k, v in
                                             s.per_question_type.items()) + ".", ""]
    out += paper_comparison_markdown(d.items, d.exclusions, level=3)
    out += ["### Excluded questions", ""]
    out += _table(["id", "reason", "why", "source", "page"],
                  [[e.id, e.reason, e.message, e.source, e.page or ""] for e in d.exclusions])
    out += ["", "### Corrections", "", f"{d.applied} applied, {len(d.stale)} stale."]
    if d.stale:
        out += [""] + [f"- STALE {x.origin} ({x.action} {x.id}): {x.message}" for x in d.stale]
    out += ["", (f"Few-shot exemplars (excluded from scoring): "
            f"{', '.join(d.fewshot_ids) or '—'}"), ""]
    if d.as_of is not None:
        out += _as_of_section(d)
    out += [(f"Build fingerprint: `{d.fingerprint}`; data fingerprint: `{d.data_fingerprint}` "
             "(the card, `buildds validate` and the eval leaderboard's dataset key show it)"), ""]
    if d.validation_md:
        out += [d.validation_md.rstrip(), ""]
    return out


def _as_of_section(d: DatasetOutcome) -> list[str]:
    """The statute versions an as-of build used, its items per status and the held-back ones."""
    info = d.as_of
    assert info is not None
    c = info.counts()
    out = [f"### As of {info.as_of.isoformat()}", "",
           f"Law store content hash `{info.store_sha256}`.", ""]
    out += _table(["law", "title", "revision", "in force from", "source sha256"],
                  [[v.law_id, v.law_title, v.revision_id, v.valid_from.isoformat(), v.sha256]
                   for v in info.laws])
    out += ["", (f"{c['current']} current, {c['terminology_only']} terminology only, "
                 f"{c['needs_review']} need review ({c['impact_unknown']} not assessable: "
                 f"no grounds, or no law text held for a date), {len(info.pending)} corrections pending (revision not yet in "
                 f"force)."), ""]
    held = [s for s in info.statuses if s.status != "current" or s.revisions]
    if held:
        out += _table(["id", "status", "why"], [[s.id, s.status, s.reason or ""] for s in held])
        out += [""]
    return out


def render_markdown(report: JbeReport) -> str:
    """``report.md``: the totals, every pair, every problem and (when stage 2 ran) the
    dataset."""
    t = report.totals()
    out = ["# buildds jbe — build report", ""]
    out += [(f"{t.pairs} booklet/key pairs: {t.xml} XML files, {t.failed} failed, "
            f"{t.missing} missing; {t.questions} questions, {t.slots} answer slots, "
            f"{t.statements} statements; {t.problems} problems."), ""]
    out += _pairs_section(report)
    if report.dataset is not None:
        out += _dataset_section(report.dataset)
        if report.dataset.ocr_flagged is not None:
            from buildds.jobs.jbe_ocr import ocr_flag_section
            out += ocr_flag_section(report.dataset.items, report.dataset.ocr_flagged)
    return "\n".join(out).rstrip() + "\n"
