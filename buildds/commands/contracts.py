"""``buildds contracts``: a thin click shell over :func:`buildds.jobs.contracts.build_contracts`."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from buildds.cli_types import Utf8Path
from buildds.commands.executor_options import command_executor, executor_options
from buildds.errors import BuildError
from buildds.safeio import LIMITS

__all__ = ["contracts"]


@click.command("contracts", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("inputs", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", type=Utf8Path(file_okay=False, path_type=Path), required=True,
              help="Output folder.")
@click.option("--annotations", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Annotation file (.csv or .jsonl). Without one, the clause "
              "table is exported for annotation.")
@click.option("--task", type=click.Choice(["classification", "revision"]),
              default="classification", show_default=True, help="What the annotations hold.")
@click.option("--view", type=click.Choice(["accepted", "original"]), default="accepted",
              show_default=True,
              help="Tracked changes accepted (what a reader sees) or rejected (the original).")
@click.option("--labels", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Label inventory, one label a line (default: the labels the "
              "annotations use).")
@click.option("--password", default=None, help="Password for encrypted PDFs.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the evaluation/development split.")
@click.option("--eval-share", type=click.FloatRange(0.0, 1.0), default=0.2, show_default=True,
              help="Share of the items in the evaluation split.")
@click.option("--split-like", type=click.Choice(["legalrikai"]), default=None,
              help="Split as a published dataset does, by name (instead of --eval-share): "
              "legalrikai = revision 8 development items (its few-shot examples) and the rest "
              "evaluation (378/8 of 386); classification 21.7%% evaluation (12,876/46,477).")
@click.option("--ocr-lang", default="auto", show_default=True,
              help="Tesseract language for scans and images (jpn, eng, chi_tra, jpn+eng …); "
              "auto chooses it per page with a quick probe (Japanese → jpn, Traditional "
              "Chinese → chi_tra, Latin → eng).")
@click.option("--max-pages", type=click.IntRange(min=1), default=LIMITS["pages"].default,
              show_default=True, help="Pages (or image frames) a document may have; a longer "
              "one is a failed file.")
@click.option("--strict", is_flag=True, help="Exit 1 if any file could not be read (without it, "
              "only when none could) or any clause was flagged (empty, TOC-like, far too long, "
              "numbering gap or duplicate, text outside any clause — listed in report.md).")
@click.option("--corrections", type=click.Path(file_okay=False, path_type=Path),
              default=Path("corrections/contracts"), show_default=True,
              help="Folder of clause corrections (*.yaml: text, exclude or accept a clause by "
              "id, with expect) applied on every build; stale entries are rejects. The "
              "default folder may be missing.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@executor_options
def contracts(inputs: tuple[Path, ...], out: Path, annotations: Path | None, task: str,
              view: str, labels: Path | None, password: str | None, seed: int,
              eval_share: float, split_like: str | None, ocr_lang: str, max_pages: int,
              strict: bool, corrections: Path, quiet: bool) -> None:
    """Contracts (.docx, .pdf, scans, images, .odt) → clauses → LegalRikai-style datasets.

    Writes documents/<file>.json (each normalised document), clauses.jsonl, the dataset
    (dataset/ for load_from_disk, data/*.parquet, README.md card), report.json, report.md and
    rejects.jsonl under --out. With --annotations the splits are evaluation and development
    (clause classification: labels per clause; clause revision: ai_alert, guidelines,
    reference_revision); without, one split "clauses" to annotate.

    Every document's clauses are checked (buildds.validate.clause_checks); the flags are
    listed per document in report.md.

    Exit codes: 0 built (failed files and clause flags are named here and in the report;
    they fail the run only with --strict); 1 no file could be read, or --strict and a file
    failed or a clause was flagged; 2 a bad option or a missing input path.

    \b
    Example:
      buildds contracts contracts/*.docx contracts/*.pdf --out build/contracts
      buildds contracts contracts/*.docx --out build/rikai --annotations labels.csv
      buildds contracts a.docx --out build/rev --annotations rev.jsonl --task revision
      buildds contracts *.docx --out build/rev --annotations rev.jsonl --task revision \
          --split-like legalrikai
      buildds contracts scan.pdf --out build/scan --ocr-lang jpn
      buildds contracts archive/*.pdf --out build/archive --executor ray --ray-address auto
    """
    from buildds.jobs.contracts import build_contracts

    ctx = click.get_current_context()
    if split_like and ctx.get_parameter_source("eval_share") != ParameterSource.DEFAULT:
        raise click.UsageError("--split-like and --eval-share exclude each other")
    if not re.fullmatch(r"[A-Za-z_]+(\+[A-Za-z_]+)*", ocr_lang):
        raise click.BadParameter(f"{ocr_lang!r} is not a tesseract language (jpn, jpn+eng, "
                                 "auto …)", param_hint="--ocr-lang")
    if (not corrections.is_dir() and ctx.get_parameter_source("corrections")
            != ParameterSource.DEFAULT):
        raise click.BadParameter(f"{corrections} is not a folder of correction files",
                                 param_hint="'--corrections'")
    try:
        with command_executor(ctx) as executor:
            report = build_contracts(list(inputs), out=out, annotations=annotations,
                                     task=task,  # type: ignore[arg-type]
                                     view=view,  # type: ignore[arg-type]
                                     password=password, seed=seed, eval_share=eval_share,
                                     labels=labels, progress=not quiet, max_pages=max_pages,
                                     ocr_lang=ocr_lang, split_like=split_like,
                                     corrections=corrections, executor=executor)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    from buildds.commands.failures import echo_failures

    click.echo(report.summary_line())
    echo_failures(report.failure_lines(), report=out / "report.md")
    if report.failed and (strict or report.failed == len(report.files)):
        sys.exit(1)  # --strict: any failed file; always: when no file could be read
    if strict and report.clause_flags:
        click.echo(f"--strict: {len(report.clause_flags)} clause flag(s), see "
                   f"{out / 'report.md'}", err=True)
        sys.exit(1)
