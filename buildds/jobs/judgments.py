"""``buildds judgments``: JuDGE / CAIL2018 / LeCaRD / Caseformer (or a user's corpus by a
field mapping) judgments → injected errors → AR-Bench (seed 003).

Steps, each a function: read (:func:`~buildds.jobs.judgments_inputs.read_inputs`: format by
content), parse (``_parse``, :mod:`buildds.extract.judgments`: ids and cases de-duplicated
across the inputs; by default parse, inject and rows run shard by shard,
:mod:`.judgments_sharded`), build the statute profile
(:func:`buildds.inject_errors.statutes.build_cn_profile`), inject (``_inject``: every requested
error into every judgment, :func:`buildds.inject_errors.inject_all`, every parsed judgment is
the E1 donor corpus), make the rows (``_rows``, :mod:`buildds.inject_errors.arbench_rows`,
:class:`~buildds.schema.arbench.ArbenchRow` records), validate them (``_validate``,
:mod:`buildds.validate.arbench`), audit them for surface cues (``audit_step``,
:mod:`buildds.validate.shortcut_audit`), export (``_export``, :mod:`buildds.export.arbench`)
and report (``_write_reports``; the corpus tables: :mod:`buildds.jobs.judgments_corpus`). The
report, its entries and the rejects are the records of :mod:`buildds.schema.judgments_report`.

Outputs under ``out``: ``dataset/``, ``data/<task>.parquet`` (or its parts, past 50,000
rows: :mod:`buildds.export.split_parts`), ``README.md`` (the export),
``rejects.jsonl`` (every rejected judgment, skipped injection and judgment that cannot be a
normal row, each with stage and reason), ``report.json`` / ``report.md``.

``--profile jp`` (Japanese courts.go.jp precedents against the 刑法) swaps in the read, parse,
profile, inject and rows steps of :mod:`.judgments_jp`; ``--review-sample`` /
``--review-verdicts`` add ``review/`` and the validity rates (:mod:`.judgments_review`).

The build has a fingerprint (:mod:`.judgments_fingerprint`) over the inputs' and the law
files' content, the options, the code and the inputs' declared provenance; when it equals the one recorded with the existing export, nothing is parsed or
written (``report.unchanged``). A dataset that fails validation is not exported.
"""

from __future__ import annotations

import gc
import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.code_version import code_files
from buildds.errors import BuildError
from buildds.inject_errors import ALL_ERRORS
from buildds.jobs import judgments_sharded as sharding
from buildds.jobs.judgments_audit import audit_step
from buildds.jobs.judgments_corpus import corpus_step
from buildds.jobs.judgments_fingerprint import MARKER, build_fingerprint, restore_unchanged
from buildds.jobs.judgments_inputs import (
    LAW_FILE,
    JudgmentsRun,
    check_options,
    detect_format,
    read_inputs,
    sha256_regular,
    take_records,
)
from buildds.jobs.judgments_jp import (
    JP_NOTES,
    check_jp_options,
    jp_law_files,
    jp_rows,
    parse_jp,
    read_jp_inputs,
)
from buildds.jobs.judgments_rejects_spill import stage_rejects
from buildds.jobs.judgments_review import apply_review, review_options
from buildds.pipeline import Rejects, package_code_version, progress_bar
from buildds.schema.judgments_report import (
    FailedInput,
    InjectionCounts,
    InjectReject,
    JudgmentsReport,
    NormalRowReject,
    ProfileSummary,
    ValidationReject,
)
from buildds.staging import OutputStaging, clean_stale_staging

if TYPE_CHECKING:
    from buildds.executors import ExecutorSpec
    from buildds.extract.judgments import JudgmentInput
    from buildds.jobs.judgments_versions import VersionPlan
    from buildds.schema.arbench import ArbenchRow
    from buildds.schema.judgments import InjectedJudgment, Judgment

__all__ = ["DEFAULT_CONFUSABLE", "DEFAULT_LAW_DIR", "JudgmentsReport", "build_judgments",
           "code_version", "detect_format"]

DEFAULT_LAW_DIR = Path("data_raw/judgments/cn-criminal-law")
DEFAULT_CONFUSABLE = Path("data_raw/judgments/cn-confusable-charges/"
                          "legalattack_sheet1_similar_charges.csv")
#: the code of the build: this job and every buildds module it imports (buildds.code_version),
#: the card's template, the reviewer's sample template and the peers' task files
#: (buildds.evaluate.peers)
_CODE = (("buildds.jobs.judgments", "buildds.evaluate.peers.render"),
         ("export/cards/arbench.md.j2", "export/templates/review_sample.html.j2",
          *(f"evaluate/peers/templates/ar_{n}.j2" for n in ("core.py", "inspect.py", "lm_eval.yaml",
              "lm_eval_utils.py", "correction_core.py", "lm_eval_correction.yaml"))))


def code_version() -> str:
    return package_code_version(code_files(*_CODE))


# long: the steps in order, each one call to a helper (the profile choice is a hook)
def build_judgments(
    inputs: Sequence[Path], *, profile: str = "cn", errors: Sequence[str] = ALL_ERRORS,
    seed: int = 0, out: Path, law_dir: Path, confusable: Path, limit: int | None = None,
    normal_share: float = 0.5, progress: bool = True, encoding: str | None = None,
    max_line_bytes: int | None = None, law_store: Path | None = None,
    law_date: str = "judgment", review_sample: int | None = None,
    review_verdicts: Path | None = None, input_format: str | None = None,
    keep_appeals: bool = False, audit: bool = True,
    shard_bytes: int = sharding.DEFAULT_SHARD_BYTES, map_fn: sharding.MapFn | None = None,
    executor: ExecutorSpec | None = None,
) -> JudgmentsReport:
    """Build AR-Bench under ``out`` (see the module docstring). ``limit``: first N parsed
    judgments per input; ``encoding``: of every input (else detected per file);
    ``max_line_bytes``: the longest line read (else the ``line_bytes`` limit). ``law_store``:
    a law store with PRC versions — each judgment is judged under the version of its date
    (``law_date`` ``judgment``, or ``offence``: PRC art. 12), :mod:`.judgments_versions`;
    ``law_dir`` then gives only the interpretations. ``review_sample`` /
    ``review_verdicts``: the reviewer's sample and verdicts (:mod:`.judgments_review`).
    ``input_format``: a built-in mapping
    name or a mapping YAML file for every input (else detected per file); ``keep_appeals``:
    read appeal and retrial judgments too (else each is a ``not_first_instance`` reject).
    ``audit``: the shortcut audit (:func:`~buildds.jobs.judgments_audit.audit_step`).
    ``shard_bytes``: shard size (:mod:`.judgments_sharded`; 0, ``jp``, ``law_store``: the
    corpus at once); ``map_fn(fn, shards)``: runs the shards (default: the built-in map).
    ``executor``: where the shards run (``--executor``, :mod:`buildds.executors`) when
    no ``map_fn`` is given.

    Raises :class:`BuildError` for an unusable run (no inputs or none that gives a judgment,
    missing law files, an unknown error type or profile, an export that could not be
    written). Rejected records, inputs that give no judgment (``report.failed``: not a
    regular file, neither JuDGE nor CAIL, every record rejected), skipped injections and
    rows that fail validation (left out, ``report.dropped``) are data."""
    started = time.perf_counter()
    out, law_dir, confusable = Path(out), Path(law_dir), Path(confusable)
    jp = profile == "jp"  # Japanese precedents and 刑法: the steps of .judgments_jp
    (check_jp_options if jp else check_options)(
        profile, errors, inputs, law_dir if law_store is None else None, confusable)
    options: dict[str, Any] = {"profile": profile, "errors": list(errors), "seed": seed,
                               "limit": limit, "normal_share": normal_share,
                               **({} if audit else {"audit": False})}
    if law_store is not None:
        options["law_date"] = law_date
    if max_line_bytes is not None:
        options["max_line_bytes"] = max_line_bytes
    verdicts = review_options(options, review_sample, review_verdicts)
    run = JudgmentsRun(out=out, errors=list(errors), seed=seed, limit=limit,
                       normal_share=normal_share, encoding=encoding,
                       max_line_bytes=max_line_bytes, options=options,
                       report=JudgmentsReport(out=out, code_version=code_version()),
                       input_format=input_format, keep_appeals=keep_appeals,
                       executor=executor)
    clean_stale_staging(out)  # what an interrupted run left
    probed: Sequence[Any] = read_jp_inputs(run, inputs) if jp else read_inputs(run, inputs)
    law_files = jp_law_files(law_dir) if jp else sorted([
        law_dir / LAW_FILE, *law_dir.glob("interp_*.md"), confusable,
        confusable.parent / "jurex_crime2article.json",
        *(sorted(Path(law_store).glob("CN-CRIMINAL-LAW/*")) if law_store else [])])
    run.report.fingerprint = build_fingerprint(run, law_files, inputs)
    if probed and restore_unchanged(run.report, out):
        run.report.seconds = time.perf_counter() - started
        return run.report

    from buildds.inject_errors.statutes import build_cn_profile
    from buildds.jobs.judgments_versions import plan_versions

    sharded = shard_bytes > 0 and not jp and law_store is None
    with progress_bar("judgments", enabled=progress, spinner=True) as bar:
        task = bar.add_task("parsing", total=None)
        done = roundtrip = None
        rows: Any  # a list, or a sharded run's stream (MergedRows: read again per step)
        if sharded:  # survey, shards, merge: no step holds the corpus (.judgments_sharded)
            with sharding.shard_runner(map_fn, executor) as run_shards:
                statutes, judgments, rows, roundtrip = sharding.sharded_rows(
                    run, probed, law_dir=law_dir, confusable=confusable,
                    shard_bytes=shard_bytes, map_fn=run_shards)
        else:
            judgments = (parse_jp if jp else _parse)(run, probed,
                                                     lambda n: bar.update(task, advance=n))
        if not judgments:
            _write_reports(run.report, run.rejects, out, started)
            raise BuildError("no judgment could be read from the inputs:\n  "
                             + "\n  ".join(run.report.failure_lines())
                             + f"\nevery reject is listed in {out / 'rejects.jsonl'}")
        plan = None if law_store is None else plan_versions(
            judgments, store=law_store, law_dir=law_dir, confusable=confusable, rule=law_date)
        if not sharded:
            statutes = (_jp_profile(law_dir) if jp else build_cn_profile(law_dir, confusable)
                        if plan is None else plan.latest())
            run.report.profile = ProfileSummary.of(
                statutes.coverage, judgments, lambda c: sharding.charge_known(statutes, c))
            bar.update(task, description="injecting")
            done = _inject(run, judgments, statutes, plan)
            bar.update(task, description="rows")
            rows = _rows(run, judgments, done, statutes, law_dir, plan)
        bar.update(task, description="validating")
        rows, exportable = _validate(run, rows, statutes, done,
                                     plan.profiles() if plan else None, roundtrip)
        corpus_step(run, judgments, rows, None if plan else statutes)
        staging = OutputStaging(out)  # every output is swapped in at once, at the end
        if plan is not None:
            staging.write_text(out / "statute_versions.jsonl", plan.jsonl(judgments))
        del judgments, done  # the rest needs only the rows: not held through audit, export
        gc.collect()  # (the parsed records are in reference cycles)
        if audit:
            bar.update(task, description="shortcut audit")
            audit_step(run, rows, statutes)
        apply_review(run, rows, staging, sample=review_sample, verdicts=verdicts,
                     verdicts_path=review_verdicts, lang="ja" if jp else "zh")
        stage_rejects(staging, out, run.rejects)  # a sharded run's: copied from its file
        if exportable and rows:
            bar.update(task, description="exporting")
            _export(run, rows, staging, law_files, inputs)
    _write_reports(run.report, None, out, started, staging)
    if sharded and run.report.exported:
        sharding.remove_shards(out)
    return run.report


def _parse(run: JudgmentsRun, probed: Sequence[JudgmentInput], advance: Callable[[int], Any]
           ) -> list[Judgment]:
    """Step "parse": the judgments of every input (the first ``limit`` of each), their
    rejects, and the counts and coverage per input."""
    import itertools

    from buildds.errors import ExtractError
    from buildds.extract.judgments import CaseRegistry, load_input
    from buildds.schema.judgments import JudgmentReject

    report = run.report
    judgments: list[Judgment] = []
    seen: dict[str, str] = {}  # judgment id -> where it was first read, across the inputs
    cases = CaseRegistry()  # case keys -> where the case was first read, across the inputs
    for found in probed:
        got: list[JudgmentReject] = []
        assert found.field_map is not None
        try:
            mine = list(itertools.islice(
                load_input(found.path, found.field_map, got, encoding=run.encoding,
                           max_line_bytes=run.max_line_bytes, seen=seen, cases=cases,
                           first_instance_only=not run.keep_appeals),
                run.limit))
        except ExtractError as exc:  # unreadable half-way: the file counts as failed
            report.failed.append(FailedInput(path=found.name, error=exc.message))
            continue
        take_records(run, found.name, mine, got, judgments)
        advance(len(mine))
    report.rejected = dict(sorted(Counter(r["reason"] for r in run.rejects.rows).items()))
    return judgments


def _inject(run: JudgmentsRun, judgments: list[Judgment], statutes: Any,
            plan: VersionPlan | None) -> list[InjectedJudgment]:
    """Step "inject": every requested error into every judgment (the judgments are the E1
    donor corpus; with a ``plan``, against each judgment's version); each skip is a reject
    and counted."""
    from buildds.inject_errors import inject_all
    from buildds.inject_errors.jp_injectors import inject_jp
    from buildds.jobs.judgments_versions import inject_by_version

    inject = inject_jp if run.options["profile"] == "jp" else inject_all
    done, skipped = (inject(judgments, errors=list(run.errors), profile=statutes,
                            seed=run.seed, corpus=judgments) if plan is None else
                     inject_by_version(plan, judgments, errors=run.errors, seed=run.seed))
    for s in skipped:
        run.reject(InjectReject(reason=s.reason, message=s.message, id=s.source_id,
                                error_type=s.error_type))
    for etype in run.errors:
        reasons = Counter(s.reason for s in skipped if s.error_type == etype)
        run.report.injections[etype] = InjectionCounts(
            succeeded=sum(1 for d in done if d.error_type == etype),
            skipped=sum(reasons.values()), skip_reasons=dict(sorted(reasons.items())))
    return done


def _rows(run: JudgmentsRun, judgments: list[Judgment], done: list[InjectedJudgment], statutes: Any,
          law_dir: Path, plan: VersionPlan | None) -> list[ArbenchRow]:
    """The AR-Bench rows; a judgment without a judgment part cannot be a normal row; the
    others are matched to the injected rows (:mod:`.judgments_matched_normals`; jp: not)."""
    from buildds.inject_errors.arbench_rows import arbench_rows, load_article_texts, select_normals
    from buildds.jobs.judgments_matched_normals import match_corpus
    from buildds.jobs.judgments_versions import rows_by_version

    injected, jp = {r.source_id for r in done}, run.options["profile"] == "jp"
    for j in judgments:
        if not j.judgment.strip():
            run.reject(NormalRowReject(id=j.id, dataset=j.dataset))
        elif jp and j.id not in injected:  # untouched rows come from the injected rows' judgments
            run.reject(NormalRowReject(id=j.id, dataset=j.dataset, reason="no_injection",
                                       message="no error type applies: not a normal row"))
    chosen, left_out = ({}, set()) if jp else match_corpus(run, judgments, done, statutes)
    normals = (set(chosen) if not jp else
               {j.id for j in select_normals(judgments, run.normal_share, run.seed, done)})
    if jp:
        rows = jp_rows(run, judgments, done, statutes, law_dir)
    elif plan is not None:
        rows = rows_by_version(plan, judgments, done, seed=run.seed, normals=chosen)
    else:
        rows = arbench_rows(judgments, done, texts=load_article_texts(law_dir),
                            profile=statutes, seed=run.seed, normals=chosen)
    rows = [r for r in rows if r.id not in left_out]  # no untouched row matches them
    assert sum(1 for r in rows if r.label == 0) == len(normals)
    return rows


def _validate(run: JudgmentsRun, rows: Any, statutes: Any,
              done: list[InjectedJudgment] | None, versions: dict[str, Any] | None = None,
              roundtrip: dict[str, str | None] | None = None) -> tuple[Any, bool]:
    """Step "validate": rows that fail a check are left out (each a reject with its check)
    and the rest is checked again; (the rows kept, whether they passed). ``roundtrip``: the
    edit checks a sharded run made beside its records (``done`` None). ``rows``: a list, or
    a sharded run's stream (validated chunk by chunk, :mod:`buildds.validate.arbench_stream`;
    the failing rows left out by id)."""
    from buildds.validate.arbench import validate_arbench
    from buildds.validate.arbench_stream import validate_arbench_stream

    report = run.report
    how = {"profile": statutes, "injected": done, "versions": versions, "roundtrip": roundtrip}
    # a sharded run's rows are a stream (MergedRows): validated chunk by chunk
    validate = validate_arbench if isinstance(rows, list) else validate_arbench_stream
    validation = validate(rows, **how)
    failing = None if validation.ok else validation.failing_rows()
    if failing:
        for row in rows:
            if row.id in failing:
                check, message = failing[row.id]
                run.reject(ValidationReject(reason=check, message=message, id=row.id,
                                            source_id=row.source_id, dataset=row.dataset))
        rows = (rows.without(set(failing)) if hasattr(rows, "without")
                else [r for r in rows if r.id not in failing])
        report.dropped = len(failing)
        validation = validate(rows, **how)
    report.validation = json.loads(validation.to_json())
    report.validation_md = validation.to_markdown(level=2)
    report.rows = dict(validation.counts.get("by_task", {}))
    return rows, validation.ok


def _export(run: JudgmentsRun, rows: list[ArbenchRow], staging: OutputStaging,
            law_files: Sequence[Path] = (), inputs: Sequence[Path] = ()) -> None:
    """Step "export": the dataset, parquet files and card, into ``staging``; the card lists
    the inputs and the statute files read (format ``statute``) with their sha256."""
    from buildds.errors import ExportError
    from buildds.evaluate.peers import peer_task_files
    from buildds.export.arbench import export_arbench
    from buildds.jobs.input_sources import annotate_sources
    from buildds.safeio.names import printable_name

    report = run.report
    recorded = ([{"path": i.path, "sha256": i.sha256, "format": i.format}
                 for i in report.inputs]
                + [{"path": printable_name(p.name), "sha256": sha256_regular(p),
                    "format": "statute"} for p in law_files if p.is_file()])
    provenance = {"code_version": report.code_version, "options": run.options,
                  "inputs": annotate_sources(recorded, [*inputs, *law_files])}
    try:
        result = export_arbench(rows, out=run.out, fingerprint=report.fingerprint,
                       provenance=provenance, seed=run.seed, validation=report.validation,
                       staging=staging, review=report.review,
                       notes=JP_NOTES if run.options["profile"] == "jp" else (),
                       jurisdiction=run.options["profile"],
                       extra_files=peer_task_files("appellate-review"))
    except ExportError as exc:
        raise BuildError(exc.message, source=exc.source or str(run.out)) from exc
    report.exported, report.data_fingerprint = True, result.data_fingerprint


def _write_reports(report: JudgmentsReport, rejects: Rejects | None, out: Path,
                   started: float, staging: OutputStaging | None = None) -> None:
    """Step "report": report.json, report.md (and rejects.jsonl when given); the fingerprint
    marker when the dataset was exported, else it is removed (so the next run builds
    again). All of it joins what the run staged (``staging``) and is swapped in together."""
    marker = out / MARKER
    staging = staging or OutputStaging(out)
    if rejects is not None:
        staging.write_text(out / "rejects.jsonl", rejects.jsonl())
    if not report.exported:
        staging.remove(marker)
    report.seconds = time.perf_counter() - started
    staging.write_text(out / "report.json", json.dumps(report.as_json(), ensure_ascii=False,
                                                       sort_keys=True, indent=2) + "\n")
    staging.write_text(out / "report.md", report.to_markdown())
    if report.exported:  # last in the swap: it vouches for the dataset beside it
        staging.write_text(marker, report.fingerprint + "\n", last=True)
    staging.commit()


def _jp_profile(law_dir: Path) -> Any:
    """The Japanese 刑法 profile (:func:`buildds.inject_errors.jp_profile.load_jp_profile`)."""
    from buildds.errors import ExtractError
    from buildds.inject_errors.jp_profile import load_jp_profile

    try:
        return load_jp_profile(law_dir)
    except ExtractError as exc:
        raise BuildError(exc.message, source=exc.source) from exc
