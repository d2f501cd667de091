"""The ``buildds`` command line: a thin click layer over the library.

Each command parses its options, calls one library function and maps
:class:`buildds.errors.BuildError` to :class:`click.ClickException`; the group
(:class:`buildds.cli_group.MainGroup`) turns any OSError into a one-line error and Ctrl-C
into exit 130.
"""

from __future__ import annotations

import os
import sys
from datetime import date, datetime
from pathlib import Path
from typing import Any

import click

from buildds import __version__
from buildds.cli_group import EXIT_INTERRUPTED, MainGroup
from buildds.cli_types import Utf8Path, YearsType
from buildds.commands.executor_options import command_executor, executor_options
from buildds.commands.jbe_ocr import ocr_options, ocr_settings
from buildds.errors import BuildError
from buildds.safeio import LIMITS

__all__ = ["main", "run"]


@click.group(cls=MainGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="buildds")
def main() -> None:
    """Build legal-LLM benchmark datasets from the documents lawyers really handle.

    \b
    Example:
      buildds jbe --years 2015-2024 --raw data_raw/jbe --out build/jbe

    \b
    Exit codes (every command):
      0    done
      1    errors: a failed build or validation, --strict problems, an output that
           cannot be written (its path and the reason are printed; a build keeps
           its previous outputs whole)
      2    usage: a bad option, argument or path
      130  interrupted (Ctrl-C): workers stopped, nothing half-written; run again
    """


def _balance_bounds(ctx: click.Context, param: click.Parameter, value: str) -> tuple[float, float]:
    try:
        lo, hi = (float(x) for x in value.split(","))
    except ValueError:
        raise click.BadParameter(f"{value!r}: expected two shares, e.g. 0.25,0.75") from None
    if not 0.0 <= lo <= hi <= 1.0:
        raise click.BadParameter(f"{value!r}: need 0 <= low <= high <= 1, e.g. 0.25,0.75")
    return lo, hi


def _exam_dates(ctx: click.Context, param: click.Parameter,
                value: tuple[str, ...]) -> tuple[tuple[int, date], ...]:
    from buildds.laws.exam_dates import parse_exam_date

    out = []
    for text in value:
        try:
            out.append(parse_exam_date(text))
        except ValueError as exc:
            raise click.BadParameter(f"{exc}; expected YEAR=YYYY-MM-DD, e.g. "
                                     f"2025=2025-05-14") from None
    return tuple(sorted(out))


def _as_of_options(ctx: click.Context, as_of: datetime | None, law_store: Path,
                   exam_dates: tuple[tuple[int, date], ...]) -> Any:
    """``--as-of`` with its store and exam dates (usage errors: a store that is not there; a
    store or exam dates given without a date), or None."""
    given = ctx.get_parameter_source("law_store") is not click.core.ParameterSource.DEFAULT
    if as_of is None:
        for name, used in (("--law-store", given), ("--exam-date", bool(exam_dates))):
            if used:
                raise click.BadParameter(f"{name} is read only by an --as-of build; add "
                                         f"--as-of DATE", param_hint=f"'{name}'")
        return None
    if not law_store.is_dir():
        raise click.BadParameter(f"{law_store}: no law store there (an --as-of build needs "
                                 f"one: buildds laws import FILE --store {law_store})",
                                 param_hint="'--law-store'")
    from buildds.jobs.jbe_dataset import AsOfOptions

    return AsOfOptions(day=as_of.date(), store=law_store, exam_dates=exam_dates)


@main.command()
@click.option("--years", type=YearsType(), required=True,
              help="Exam years: 2019, 2015-2024, or 2015,2017.")
@click.option("--raw", "raw", type=click.Path(file_okay=False, path_type=Path),
              default=Path("data_raw/jbe"), show_default=True,
              help="Folder with <year>/<subject>-<mondai|seito>.pdf (see data_raw/jbe/README.md).")
@click.option("--out", type=Utf8Path(file_okay=False, path_type=Path),
              default=Path("build/jbe"), show_default=True, help="Output folder.")
@click.option("--subjects", default="kenpo,minpo,keiho", show_default=True,
              help="Comma-separated subset of kenpo, minpo, keiho.")
@click.option("--strict", is_flag=True,
              help="Also exit 1 when any file had a problem (failed booklets and an "
                   "unexported dataset exit 1 anyway).")
@click.option("--processes", "-j", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: one per core).")
@click.option("--no-cache", is_flag=True, help="Ignore cached stage outputs and redo all work.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--password", default=None, help="Password for encrypted PDFs.")
@click.option("--corrections", type=click.Path(file_okay=False, path_type=Path),
              default=Path("corrections/jbe"), show_default=True,
              help="Folder of correction files (*.yaml), applied on every build.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the few-shot selection (2 true + 2 false).")
@click.option("--balance", default="0.25,0.75", show_default=True, callback=_balance_bounds,
              metavar="LOW,HIGH",
              help="Allowed share of True items per subject and year (LOW,HIGH).")
@click.option("--xml-only", is_flag=True, help="Stop after the XML (stage 1).")
@click.option("--max-pages", type=click.IntRange(min=1), default=LIMITS["pages"].default,
              show_default=True, help="Pages a PDF may have; a longer one is a failed file.")
@click.option("--replace", is_flag=True,
              help="Let this run replace an --out whose dataset holds years or subjects that "
                   "this run does not build (without it, that is an error).")
@click.option("--as-of", "as_of", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              metavar="DATE",
              help="Build the dataset as of DATE (YYYY-MM-DD): items a law revision in force "
                   "by then may have made wrong go to a needs_review split (needs --law-store).")
@click.option("--law-store", type=click.Path(file_okay=False, path_type=Path),
              default=Path("data_raw/laws/store"), show_default=True,
              help="The law store (buildds laws import) an --as-of build reads.")
@click.option("--exam-date", "exam_dates", multiple=True, metavar="YEAR=DATE",
              callback=_exam_dates,
              help="With --as-of: the day YEAR's exam was sat (the law it assumed), where the "
                   "shipped table has none, e.g. 2025=2025-05-14; repeatable.")
@ocr_options
@executor_options
@click.pass_context
def jbe(ctx: click.Context, years: list[int], raw: Path, out: Path, subjects: str, strict: bool,
        processes: int | None, no_cache: bool, quiet: bool, password: str | None,
        corrections: Path, seed: int, balance: tuple[float, float], xml_only: bool,
        replace: bool, max_pages: int, as_of: datetime | None, law_store: Path,
        exam_dates: tuple[tuple[int, date], ...]) -> None:
    """Japanese bar exam PDFs → validated XML → JBE-QA true/false items → HF dataset.

    Writes xml/<year>/<subject>.xml, the dataset (dataset/ for load_from_disk, data/*.parquet,
    README.md card), report.json, report.md and rejects.jsonl under --out. Each booklet and
    key is checked against its path (the subject and year they print) and against each other;
    the first failed files are named here with their reason.

    \b
    Exit codes (each reason for a 1 is printed as "run failed: …"):
      0  every requested booklet built and gave items, and the dataset was exported
         (or is unchanged); with --xml-only, every XML built
      1  the run failed, with or without --strict: a requested year/subject has no
         files; a booklet/key pair failed as a whole (wrong file, key that disagrees,
         unreadable PDF); a booklet built but holds no question or gives no item (a
         layout it could not read); no XML at all; the dataset was NOT exported (no
         items, or validation failed); or the run could not start (no inputs, an --out
         that would lose years without --replace, an --as-of date before a code's first
         version in the store).
         With --strict, 1 also when any file had a problem (an error in a booklet that
         built, a stale correction, a validation error).
      2  a bad option (--balance, --subjects, a missing --corrections folder, --as-of
         without a law store, --law-store without --as-of)
      130 interrupted (Ctrl-C)

    \b
    Examples:
      buildds jbe --years 2015-2024 --raw ../shared/jbe/pdf --out build/jbe
      buildds jbe --years 2019 --raw data_raw/jbe --strict
      buildds jbe --years 2015-2024 --as-of 2026-01-01 --law-store data_raw/laws/store
      buildds jbe --years 2024 --raw scans --ocr-dpi 400 --ocr-psm 4 --ocr-flag-below 85
      buildds jbe --years 2015-2024 --executor ray --ray-address auto
    """
    from buildds.jobs.jbe import build_jbe

    wanted = [s.strip() for s in subjects.split(",") if s.strip()]
    bad = [s for s in wanted if s not in ("kenpo", "minpo", "keiho")]
    if bad:
        raise click.BadParameter(f"unknown subject(s): {', '.join(bad)}", param_hint="--subjects")
    if (not corrections.is_dir() and ctx.get_parameter_source("corrections")
            is not click.core.ParameterSource.DEFAULT):
        raise click.BadParameter(f"{corrections} is not a folder of correction files",
                                 param_hint="'--corrections'")
    as_of_options = _as_of_options(ctx, as_of, law_store, exam_dates)
    try:
        with command_executor(ctx, processes) as executor:
            report = build_jbe(years=years, raw=raw, out=out, subjects=wanted,
                               processes=processes, use_cache=not no_cache,
                               progress=not quiet, password=password, xml_only=xml_only,
                               corrections=corrections, seed=seed, balance=balance,
                               replace=replace, max_pages=max_pages, as_of=as_of_options,
                               ocr=ocr_settings(ctx), executor=executor)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    from buildds.commands.failures import echo_failures
    from buildds.jobs.jbe_exit import exit_code, run_failures

    click.echo(report.summary_line())
    echo_failures(report.failure_lines(), report=out / "report.md")
    for reason in run_failures(report):
        click.echo(f"run failed: {reason}", err=True)
    code = exit_code(report, strict=strict)
    if code:
        sys.exit(code)


@main.group()
def fetch() -> None:
    """Download raw inputs into the layout the build commands read.

    \b
    Example:
      buildds fetch jbe --years 2015-2024 --dest data_raw/jbe
    """


@fetch.command("jbe")
@click.option("--years", type=YearsType(), required=True, help="Exam years: 2015-2024 etc.")
@click.option("--dest", type=click.Path(file_okay=False, path_type=Path),
              default=Path("data_raw/jbe"), show_default=True, help="Where to put the PDFs.")
@click.option("--manifest", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None,
              help="Manifest of official URLs (default: data_raw/jbe/manifest.json).")
@click.option("--timeout", type=float, default=30.0, show_default=True,
              help="Seconds per request.")
@click.option("--update-lock", is_flag=True,
              help="Download the files recorded in <dest>/jbe.lock.json again and accept "
                   "their new sha256 (when the Ministry replaced a file on purpose).")
def fetch_jbe_cmd(years: list[int], dest: Path, manifest: Path | None, timeout: float,
                  update_lock: bool) -> None:
    """Download the official bar-exam PDFs with checksums.

    \b
    Example:
      buildds fetch jbe --years 2015-2024 --dest data_raw/jbe
    """
    from buildds.fetch import fetch_jbe
    from buildds.fetch.lock import LOCK_NAME

    try:
        result = fetch_jbe(years=years, dest=dest, manifest=manifest, timeout=timeout,
                           update_lock=update_lock)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(result.summary_line())
    for line in result.failure_lines():
        click.echo(line, err=True)
    for line in result.lock_changes:
        click.echo(f"lock updated: {line}")
    for line in result.hand_lines(LOCK_NAME):
        click.echo(line, err=True)
    if missing := result.missing():
        click.echo(f"missing {len(missing)} file(s): {', '.join(missing)}", err=True)
    if result.failed:
        sys.exit(1)


# --------------------------------------------------------------------------- validate
@main.command("validate")
@click.argument("path", type=Utf8Path(exists=True, path_type=Path))
@click.option("--out", type=Utf8Path(file_okay=False, path_type=Path), default=None,
              help="Folder for report.json and report.md (default: validation/ beside the data).")
@click.option("--balance", default="0.25,0.75", show_default=True, callback=_balance_bounds,
              metavar="LOW,HIGH",
              help="Allowed share of true items per year and subject: LOW,HIGH.")
@click.option("--rejects", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="rejects.jsonl with the excluded questions (default: the "
                                 "export's own, when there is one).")
def validate(path: Path, out: Path | None, balance: tuple[float, float],
             rejects: Path | None) -> None:
    """Validate an exported JBE-QA dataset: schema, artefacts, label balance, exclusions.

    PATH is an export folder (data/test.parquet, optional rejects.jsonl), a folder written
    by datasets' save_to_disk (its test split), or a single .parquet file. Writes
    report.json and report.md; exits 1 when there are errors (flags alone do not fail).
    An AR-Bench (buildds judgments) or contracts (buildds contracts) export is checked too:
    ids, empty texts and, for AR-Bench, the rows' schema (--balance/--rejects are JBE-only).
    Every report names the export's data fingerprint (as its card and eval runs do).

    \b
    Examples:
      buildds validate build/jbe
      buildds validate build/jbe/data/test.parquet --out build/validation --balance 0.3,0.7
    """
    from buildds.validate.load import load_export
    from buildds.validate.other_exports import validate_other_export_cli
    from buildds.validate.report import validate_jbe, write_report

    try:
        if (ok := validate_other_export_cli(path, out, click.echo)) is not None:
            sys.exit(0 if ok else 1)
        loaded = load_export(path, rejects=rejects)
        report = validate_jbe(loaded.items, loaded.exclusions, balance_bounds=balance)
        report.data_fingerprint = loaded.data_fingerprint
        _, md_path = write_report(report, out if out is not None else loaded.default_out)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    for line in report.error_lines():
        click.echo(line, err=True)
    click.echo(report.summary_line(md_path))
    if not report.ok:
        sys.exit(1)


from buildds.commands.contracts import contracts as contracts_command
from buildds.commands.diff import diff as diff_command
from buildds.commands.eval import eval_cmd
from buildds.commands.judgments import judgments as judgments_command
from buildds.commands.laws import laws as laws_command
from buildds.commands.limits import limits as limits_command
from buildds.commands.review import review as review_command

main.add_command(contracts_command)
main.add_command(diff_command)
main.add_command(eval_cmd)
main.add_command(judgments_command)
main.add_command(laws_command)
main.add_command(limits_command)
main.add_command(review_command)


def run() -> None:
    """The ``buildds`` program (console script and ``python -m buildds``): :func:`main`, and
    after a Ctrl-C, once the pools are stopped and "interrupted" is printed, an immediate
    exit. A process pool whose workers were terminated can leave its manager thread waiting
    for ever on some CPython 3.11 releases (Debian 12's 3.11.2), and interpreter shutdown
    joins that thread — the command would print "interrupted" and hang. In-process callers
    (tests, notebooks) call :func:`main` and get exit code 130 as a SystemExit."""
    try:
        main()
    except SystemExit as exc:
        if exc.code == EXIT_INTERRUPTED:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(EXIT_INTERRUPTED)
        raise


if __name__ == "__main__":  # pragma: no cover
    run()
