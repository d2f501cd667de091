"""``buildds judgments``: JuDGE / CAIL2018 judgments → injected errors → AR-Bench (seed 003).

Steps: detect each input's format by content (JuDGE lines carry ``fd``/``text_id``, CAIL
lines ``fact``/``meta``), parse (:mod:`buildds.extract.judgments`), build the statute
profile (:func:`buildds.inject_errors.statutes.build_cn_profile`), inject every requested
error into every judgment (:func:`buildds.inject_errors.base.inject_all`, every parsed
judgment is the E1 donor corpus), make the rows (:mod:`buildds.transform.arbench`), validate
them (:mod:`buildds.validate.arbench`) and export (:mod:`buildds.export.arbench`).

Outputs under ``out``: ``dataset/``, ``data/<task>.parquet``, ``README.md`` (the export),
``rejects.jsonl`` (every rejected judgment, every skipped injection, every judgment that
cannot be a normal row — each with stage and reason), ``report.json`` / ``report.md``.

The build has a fingerprint over the inputs' and the law files' content, the options and
the code; when it equals the one recorded with the existing export, nothing is parsed or
written (``report.unchanged``). A dataset that fails validation is not exported.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.inject_errors.base import ALL_ERRORS, SkipInjection, charge_profile
from buildds.pipeline import (
    Rejects,
    canonical_json,
    package_code_version,
    progress_bar,
    sha256_bytes,
)
from buildds.staging import OutputStaging, clean_stale_staging

__all__ = ["DEFAULT_CONFUSABLE", "DEFAULT_LAW_DIR", "JudgmentsReport", "build_judgments",
           "code_version", "detect_format"]

STAGE = "judgments"
MARKER = ".dataset-fingerprint"
DEFAULT_LAW_DIR = Path("data_raw/judgments/cn-criminal-law")
DEFAULT_CONFUSABLE = Path("data_raw/judgments/cn-confusable-charges/"
                          "legalattack_sheet1_similar_charges.csv")
_CODE_FILES = (
    "schema/judgments.py", "schema/statutes.py", "extract/judgments.py", "extract/json_lines.py",
    "safeio/text_decoding.py", "safeio/json_strict.py",
    "transform/judgment_parse.py", "inject_errors/base.py", "inject_errors/statutes/*.py",
    "inject_errors/e[1-6]_*.py", "transform/arbench.py", "validate/arbench.py",
    "export/common.py", "export/arbench.py", "export/cards/arbench.md.j2", "jobs/judgments.py",
)
#: reject reasons that are about the case, not a defect of the record
_CASE_REASONS = ("multi_defendant", "no_defendant")
_FIELDS = ("facts", "reasoning", "judgment", "charges", "articles", "sentence", "term", "fine",
           "amount", "factors", "defendant")


def code_version() -> str:
    return package_code_version(_CODE_FILES)


@dataclass
class JudgmentsReport:
    out: Path
    inputs: list[dict[str, Any]] = field(default_factory=list)
    #: inputs that gave no judgment: {"path", "error"}
    failed: list[dict[str, str]] = field(default_factory=list)
    parsed: dict[str, int] = field(default_factory=dict)
    rejected: dict[str, int] = field(default_factory=dict)
    coverage: dict[str, dict[str, float]] = field(default_factory=dict)
    injections: dict[str, dict[str, int]] = field(default_factory=dict)
    profile: dict[str, Any] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    validation: dict[str, Any] | None = None
    validation_md: str = ""
    fingerprint: str = ""
    exported: bool = False
    unchanged: bool = False
    #: rows that failed validation and were left out of the export (see rejects.jsonl)
    dropped: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.validation is None or bool(self.validation.get("ok", True))

    @property
    def bad_records(self) -> int:
        """Input records that are defective (every reject reason but the case's own:
        several defendants, none named)."""
        return sum(n for k, n in self.rejected.items() if k not in _CASE_REASONS)

    def rejected_line(self) -> str:
        """``12 rejected: encoding 2, multi_defendant 10`` (or ``0 rejected``)."""
        line = f"{sum(self.rejected.values())} rejected"
        if self.rejected:
            line += ": " + ", ".join(f"{k} {n}" for k, n in self.rejected.items())
        return line

    def failure_lines(self) -> list[str]:
        """One line per input that gave no judgment: ``<file>: <why>``."""
        return [f"{f['path']}: {f['error']}" for f in self.failed]

    def summary_line(self) -> str:
        if self.unchanged:
            return f"unchanged (fingerprint {self.fingerprint}) — see {self.out / 'report.md'}"
        done = sum(v.get("succeeded", 0) for v in self.injections.values())
        skipped = sum(v.get("skipped", 0) for v in self.injections.values())
        line = (f"parsed {sum(self.parsed.values())} judgments ({self.rejected_line()}), "
                f"{done} injections ({skipped} skipped); rows: "
                + ", ".join(f"{n} {t}" for t, n in self.rows.items()))
        if self.failed:
            line += f"; {len(self.failed)} input file(s) FAILED"
        if self.dropped:
            line += f"; {self.dropped} rows dropped by validation"
        if not self.ok:
            line += f"; VALIDATION FAILED ({len(self.validation['errors'])} errors, not exported)"  # type: ignore[index]
        elif not done:
            line += "; nothing to export: no injection could be made (reasons in the report)"
        return line + f" — see {self.out / 'report.md'}"

    def as_json(self) -> dict[str, Any]:
        return {
            "stage": STAGE, "code_version": code_version(), "fingerprint": self.fingerprint,
            "inputs": self.inputs, "failed": self.failed, "parsed": self.parsed,
            "rejected": self.rejected, "dropped_rows": self.dropped,
            "parse_coverage": self.coverage, "injections": self.injections,
            "profile": self.profile, "rows": self.rows, "exported": self.exported,
            "validation": self.validation,
        }


def detect_format(path: Path, *, encoding: str | None = None) -> str:
    """``judge`` or ``cail`` from the first JSON object with one format's keys (read as the
    parse reads, :func:`buildds.extract.judgments.detect_format`); :class:`BuildError`
    otherwise."""
    from buildds.extract.judgments import detect_format as probe

    found = probe(path, encoding=encoding)
    if found.format is None:
        raise BuildError(_no_format(found.rejects), source=found.name)
    return found.format


def _no_format(rejects: Sequence[tuple[int, str, str]]) -> str:
    if not rejects:
        return "empty file: no JSON lines"
    reasons = Counter(reason for _, reason, _ in rejects)
    return (f"no JuDGE ({{text_id, text, fd}}) or CAIL ({{fact, meta}}) record: all "
            f"{len(rejects)} lines rejected ("
            + ", ".join(f"{k} {n}" for k, n in sorted(reasons.items())) + f"; first: {rejects[0][2]})")


def _sha256_regular(path: Path) -> str:
    """sha256 of a statute file, read only if it is a regular file (a FIFO cannot hang)."""
    from buildds.pipeline import sha256_stream
    from buildds.safeio.files import open_regular

    with open_regular(path) as fh:
        return sha256_stream(fh)


def _coverage(judgments: Sequence[Any]) -> dict[str, float]:
    if not judgments:
        return {}
    tests = {
        "facts": lambda j: bool(j.facts.strip()), "reasoning": lambda j: bool(j.reasoning),
        "judgment": lambda j: bool(j.judgment), "charges": lambda j: bool(j.charges),
        "articles": lambda j: bool(j.articles), "sentence": lambda j: j.sentence.kind != "none",
        "term": lambda j: j.sentence.months is not None,
        "fine": lambda j: j.sentence.fine_yuan is not None,
        "amount": lambda j: j.amount_involved_yuan is not None,
        "factors": lambda j: bool(j.factors), "defendant": lambda j: bool(j.defendants),
    }
    return {name: round(sum(1 for j in judgments if tests[name](j)) / len(judgments), 4)
            for name in _FIELDS}


def build_judgments(
    inputs: Sequence[Path], *, profile: str = "cn", errors: Sequence[str] = ALL_ERRORS,
    seed: int = 0, out: Path, law_dir: Path, confusable: Path, limit: int | None = None,
    normal_share: float = 0.5, progress: bool = True, encoding: str | None = None,
    max_line_bytes: int | None = None,
) -> JudgmentsReport:
    """Build AR-Bench under ``out`` (see the module docstring). ``limit``: first N parsed
    judgments per input; ``encoding``: of every input (else detected per file);
    ``max_line_bytes``: the longest line read (else the ``line_bytes`` limit).

    Raises :class:`BuildError` for an unusable run (no inputs or none that gives a judgment,
    missing law files, an unknown error type or profile, an export that could not be
    written). Rejected records, inputs that give no judgment (``report.failed``: not a
    regular file, neither JuDGE nor CAIL, every record rejected), skipped injections and
    rows that fail validation (left out, ``report.dropped``) are data."""
    started = time.perf_counter()
    out = Path(out)
    if profile != "cn":
        raise BuildError(f"unknown profile {profile!r} (only 'cn' is supported)")
    unknown = [e for e in errors if e not in ALL_ERRORS]
    if unknown or not errors:
        raise BuildError(f"unknown error types {unknown} (choose from {', '.join(ALL_ERRORS)})")
    if not inputs:
        raise BuildError("no input files")
    law_dir, confusable = Path(law_dir), Path(confusable)
    law_file = law_dir / "criminal_law_PRC_2023_amendment12.md"
    if not law_file.is_file():
        raise BuildError("the law folder has no criminal_law_PRC_2023_amendment12.md "
                         "(pass --law DIR)", source=str(law_dir))
    if not confusable.is_file():
        raise BuildError("no confusable-charge table here (pass --confusable "
                         "legalattack_sheet1_similar_charges.csv)", source=str(confusable))

    from buildds.errors import ExtractError
    from buildds.extract.judgments import JudgmentInput
    from buildds.extract.judgments import detect_format as probe
    from buildds.safeio.names import printable_name

    report = JudgmentsReport(out=out)
    clean_stale_staging(out)  # what an interrupted run left
    rejects = Rejects()
    probed: list[JudgmentInput] = []
    for path in map(Path, inputs):
        try:
            found = probe(path, encoding=encoding, max_line_bytes=max_line_bytes)
        except ExtractError as exc:
            report.failed.append({"path": printable_name(path.name), "error": exc.message})
            continue
        if found.format is None:
            report.failed.append({"path": found.name, "error": _no_format(found.rejects)})
            for line, reason, message in found.rejects:
                rejects.add(stage="extract", reason=reason, message=message, source=found.name,
                            id=None, line=line, dataset=None)
            continue
        probed.append(found)
        report.inputs.append({"path": found.name, "format": found.format,
                              "sha256": found.sha256, "encoding": found.encoding.name,
                              "encoding_from": found.encoding.found_by})
    law_files = sorted([law_file, *law_dir.glob("interp_*.md"), confusable,
                        confusable.parent / "jurex_crime2article.json"])
    options: dict[str, Any] = {"profile": profile, "errors": list(errors), "seed": seed,
                               "limit": limit, "normal_share": normal_share}
    if max_line_bytes is not None:
        options["max_line_bytes"] = max_line_bytes
    report.fingerprint = sha256_bytes(canonical_json({
        "inputs": report.inputs, "failed": report.failed, "options": options,
        "code": code_version(),
        "law": [[printable_name(p.name), _sha256_regular(p)] for p in law_files if p.is_file()],
    }).encode())[:32]

    marker = out / MARKER
    if (probed and marker.exists() and marker.read_text("utf-8").strip() == report.fingerprint
            and (out / "report.json").is_file() and (out / "dataset").is_dir()):
        previous = json.loads((out / "report.json").read_text("utf-8"))
        report.parsed, report.rejected = previous["parsed"], previous["rejected"]
        report.coverage, report.injections = previous["parse_coverage"], previous["injections"]
        report.profile, report.rows = previous["profile"], previous["rows"]
        report.validation, report.exported = previous["validation"], True
        report.dropped = previous.get("dropped_rows", 0)
        report.failed = previous.get("failed", report.failed)  # inputs found bad while parsing
        report.unchanged = True
        report.seconds = time.perf_counter() - started
        return report

    import itertools

    from buildds.extract.judgments import load_cail, load_judge
    from buildds.inject_errors.base import inject_all
    from buildds.inject_errors.statutes import build_cn_profile
    from buildds.schema.judgments import JudgmentReject
    from buildds.transform.arbench import arbench_rows, load_article_texts, select_normals
    from buildds.validate.arbench import validate_arbench

    judgments = []
    seen: dict[str, str] = {}  # judgment id -> where it was first read, across the inputs
    with progress_bar("judgments", enabled=progress, spinner=True) as bar:
        task = bar.add_task("parsing", total=None)
        for found in probed:
            got: list[JudgmentReject] = []
            loader = load_judge if found.format == "judge" else load_cail
            try:
                mine = list(itertools.islice(
                    loader(found.path, got, encoding=encoding, max_line_bytes=max_line_bytes,
                           seen=seen), limit))
            except ExtractError as exc:  # unreadable half-way: the file counts as failed
                report.failed.append({"path": found.name, "error": exc.message})
                continue
            for r in got:
                rejects.add(stage="extract", reason=r.reason, message=r.message, source=r.source,
                            id=r.id, line=r.line, dataset=r.dataset)
            if not mine:
                why = Counter(str(r.reason) for r in got)
                report.failed.append({"path": found.name, "error": (
                    f"no usable judgment: all {len(got)} records rejected ("
                    + ", ".join(f"{k} {n}" for k, n in sorted(why.items())) + ")")})
            report.parsed[found.name] = len(mine)
            report.coverage[found.name] = _coverage(mine)
            judgments.extend(mine)
            bar.update(task, advance=len(mine))
        report.rejected = dict(sorted(Counter(r["reason"] for r in rejects.rows).items()))
        if not judgments:
            _write_reports(report, rejects, out, started)
            raise BuildError("no judgment could be read from the inputs:\n  "
                             + "\n  ".join(report.failure_lines())
                             + f"\nevery reject is listed in {out / 'rejects.jsonl'}")

        bar.update(task, description="profile")
        statutes = build_cn_profile(law_dir, confusable)
        known = sum(1 for j in judgments
                    if j.charges and all(_charge_known(statutes, c) for c in j.charges))
        report.profile = {**statutes.coverage, "judgments": len(judgments),
                          "judgments_all_charges_known": known,
                          "judgments_known_share": round(known / len(judgments), 4)
                          if judgments else 0.0}

        bar.update(task, description="injecting")
        done, skipped = inject_all(judgments, errors=list(errors), profile=statutes, seed=seed,
                                   corpus=judgments)
        for s in skipped:
            rejects.add(stage="inject", reason=s.reason, message=s.message, id=s.source_id,
                        error_type=s.error_type)
        for etype in errors:
            reasons = Counter(s.reason for s in skipped if s.error_type == etype)
            report.injections[etype] = {
                "succeeded": sum(1 for d in done if d.error_type == etype),
                "skipped": sum(reasons.values()),
                **{f"skipped:{k}": v for k, v in sorted(reasons.items())}}
        normals = {j.id for j in select_normals(judgments, normal_share, seed)}
        for j in judgments:
            if not j.judgment.strip():
                rejects.add(stage="arbench", reason="no_judgment_part", id=j.id,
                            message="no judgment text: cannot be a normal row",
                            dataset=j.dataset)

        bar.update(task, description="rows")
        texts = load_article_texts(law_dir)
        rows = arbench_rows(judgments, done, texts=texts, profile=statutes, seed=seed,
                            normal_share=normal_share)
        assert sum(1 for r in rows if r["label"] == 0) == len(normals)
        bar.update(task, description="validating")
        validation = validate_arbench(rows, profile=statutes, injected=done)
        failing = None if validation.ok else validation.failing_rows()
        if failing:  # leave those rows out, each a reject with its check, and check the rest
            for row in rows:
                if row["id"] in failing:
                    check, message = failing[row["id"]]
                    rejects.add(stage="validate", reason=check, message=message, id=row["id"],
                                source_id=row["source_id"], dataset=row["dataset"])
            rows = [r for r in rows if r["id"] not in failing]
            report.dropped = len(failing)
            validation = validate_arbench(rows, profile=statutes, injected=done)
        report.validation = json.loads(validation.to_json())
        report.validation_md = validation.to_markdown(level=2)
        report.rows = dict(validation.counts.get("by_task", {}))

        staging = OutputStaging(out)  # every output is swapped in at once, at the end
        staging.write_text(out / "rejects.jsonl", rejects.jsonl())
        if validation.ok and rows:
            from buildds.errors import ExportError
            from buildds.export.arbench import export_arbench

            bar.update(task, description="exporting")
            provenance = {"code_version": code_version(), "options": options,
                          "inputs": [{"path": i["path"], "sha256": i["sha256"]}
                                     for i in report.inputs]}
            try:
                export_arbench(rows, out=out, fingerprint=report.fingerprint,
                               provenance=provenance, seed=seed, validation=report.validation,
                               staging=staging)
            except ExportError as exc:
                raise BuildError(exc.message, source=exc.source or str(out)) from exc
            report.exported = True
    _write_reports(report, None, out, started, staging)
    return report


def _write_reports(report: JudgmentsReport, rejects: Rejects | None, out: Path,
                   started: float, staging: OutputStaging | None = None) -> None:
    """report.json, report.md (and rejects.jsonl when given); the fingerprint marker when
    the dataset was exported, else it is removed (so the next run builds again). All of it
    joins what the run staged (``staging``) and is swapped in together."""
    marker = out / MARKER
    staging = staging or OutputStaging(out)
    if rejects is not None:
        staging.write_text(out / "rejects.jsonl", rejects.jsonl())
    if not report.exported:
        staging.remove(marker)
    report.seconds = time.perf_counter() - started
    staging.write_text(out / "report.json", json.dumps(report.as_json(), ensure_ascii=False,
                                                       sort_keys=True, indent=2) + "\n")
    staging.write_text(out / "report.md", _markdown(report))
    if report.exported:  # last in the swap: it vouches for the dataset beside it
        staging.write_text(marker, report.fingerprint + "\n", last=True)
    staging.commit()


def _markdown(report: JudgmentsReport) -> str:
    lines = ["# AR-Bench build (buildds judgments)", "", report.summary_line(), "",
             f"fingerprint `{report.fingerprint}`; exported: {report.exported}", "",
             "## Inputs", "", "| input | format | encoding | parsed |", "|---|---|---|---:|"]
    lines += [f"| {i['path']} | {i['format']} | {i['encoding']} ({i['encoding_from']}) | "
              f"{report.parsed.get(i['path'], 0)} |" for i in report.inputs]
    if report.failed:
        lines += ["", "Failed inputs (no judgment read from them):", ""]
        lines += [f"- {line}" for line in report.failure_lines()]
    lines += ["", "Rejected records: " + (", ".join(f"{k} {v}" for k, v in report.rejected.items())
                                          or "none")
              + " (each with its file and line in rejects.jsonl)", ""]
    if report.dropped:
        lines += [(f"Rows left out because they failed validation: {report.dropped} (stage "
                  "`validate` in rejects.jsonl)"), ""]
    lines += ["## Parse coverage (share of parsed judgments with the field)", "",
              "| input | " + " | ".join(_FIELDS) + " |", "|---|" + "---:|" * len(_FIELDS)]
    for name, cov in report.coverage.items():
        lines.append(f"| {name} | " + " | ".join(f"{cov.get(f, 0):.2f}" for f in _FIELDS) + " |")
    lines += ["", "## Injections", "", "| error | succeeded | skipped | skip reasons |",
              "|---|---:|---:|---|"]
    for etype, c in report.injections.items():
        reasons = ", ".join(f"{k.removeprefix('skipped:')} {v}" for k, v in c.items()
                            if k.startswith("skipped:"))
        lines.append(f"| {etype} | {c['succeeded']} | {c['skipped']} | {reasons} |")
    lines += ["", "## Statute profile coverage", "", "| measure | value |", "|---|---:|"]
    lines += [f"| {k} | {v} |" for k, v in report.profile.items()]
    lines += ["", report.validation_md or "", ""]
    return "\n".join(lines)


def _charge_known(profile: Any, charge: str) -> bool:
    """Whether ``charge`` resolves to a charge of the profile (through its alias index:
    bracketed alternatives, 罪, renamed charges), as the injectors resolve it."""
    try:
        charge_profile(profile, charge)
    except SkipInjection:
        return False
    return True
