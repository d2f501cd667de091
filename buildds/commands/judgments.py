"""``buildds judgments``: a thin click shell over :func:`buildds.jobs.judgments.build_judgments`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from buildds.cli_types import Utf8Path
from buildds.commands.executor_options import executor_options, executor_spec
from buildds.commands.failures import echo_failures
from buildds.errors import BuildError
from buildds.safeio.limits import LIMITS

if TYPE_CHECKING:
    from buildds.schema.judgments_report import JudgmentsReport

__all__ = ["judgments"]

_ERRORS = ("E1", "E2", "E3", "E4", "E5", "E6")


def _encoding(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from buildds.safeio.text_decoding import check_encoding

    if value is None:
        return None
    try:
        check_encoding(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _input_format(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from buildds.extract.judgments import resolve_field_map

    try:
        resolve_field_map(value)
    except BuildError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _error_list(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    items = tuple(dict.fromkeys(e.strip().upper() for e in value.split(",") if e.strip()))
    bad = [e for e in items if e not in _ERRORS]
    if bad or not items:
        raise click.BadParameter(f"{', '.join(bad) or 'nothing'}: choose from {','.join(_ERRORS)}")
    return items


@click.command("judgments", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("inputs", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--out", type=Utf8Path(file_okay=False, path_type=Path), required=True,
              help="Output folder.")
@click.option("--profile", type=click.Choice(["cn", "jp"]), default="cn", show_default=True,
              help="Statute profile: cn (PRC Criminal Law; JuDGE / CAIL inputs) or jp (the "
              "Japanese 刑法; courts.go.jp precedent JSON files or folders of them, --law a "
              "folder with penal_code_articles.jsonl [default: data_raw/judgments/"
              "jp-penal-code]; E3/E5 only, the other types are skipped with a reason).")
@click.option("--errors", default=",".join(_ERRORS), show_default=True, callback=_error_list,
              help="Error types to inject, comma-separated.")
@click.option("--seed", type=int, default=0, show_default=True, help="Injection seed.")
@click.option("--law", "law_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, help="Folder with criminal_law_PRC_2023_amendment12.md and "
              "interp_*.md [default: data_raw/judgments/cn-criminal-law].")
@click.option("--law-store", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="A law store (buildds laws import) with PRC versions: each judgment is "
              "judged under the version in force at its judgment date (none: the latest); "
              "--law then gives only interp_*.md. The choice is in statute_versions.jsonl and "
              "each injected row's rationale (statute_version).")
@click.option("--law-date", type=click.Choice(["judgment", "offence"]), default="judgment",
              show_default=True, help="With --law-store: the judgment date, or the offence "
              "date with PRC art. 12 (the later law when it is lighter for the charges).")
@click.option("--confusable", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="LegalAttack legalattack_sheet1_similar_charges.csv [default: "
              "data_raw/judgments/cn-confusable-charges/legalattack_sheet1_similar_charges.csv].")
@click.option("--input-format", default=None, metavar="NAME|FILE.yaml", callback=_input_format,
              help="How every input is read: judge, cail, lecard, caseformer, or a field "
              "mapping YAML (name, detect, id, case_key, full_text, facts, reasoning, "
              "judgment, date, charges, procedure; dotted paths allowed) [default: detected "
              "per file from the built-in mappings].")
@click.option("--keep-appeals", is_flag=True,
              help="Read appeal (二审) and retrial (再审) judgments too; by default only "
              "first-instance ones are read, the others rejected as not_first_instance (the "
              "procedure from the title, else the case number: 刑终, 刑再 …).")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Only the first N judgments of each input.")
@click.option("--encoding", default=None, metavar="NAME", callback=_encoding,
              help="Encoding of the inputs (e.g. gbk, gb18030, utf-16) [default: detected per "
              "file: UTF-8, a BOM (UTF-8/16/32), or GB18030].")
@click.option("--max-line-bytes", type=click.IntRange(min=1), default=None,
              help=f"Longest input line (one record) read [default: "
              f"{LIMITS['line_bytes'].default:,}]; a longer one is rejected.")
@click.option("--review-sample", type=click.IntRange(min=1), default=None, metavar="N",
              help="Write N seeded injected rows per error type for a reviewer under "
              "review/ (review_sample.md, review_sample.html: original vs injected with the "
              "statute tier that makes it wrong; verdicts_template.csv: id,valid,note).")
@click.option("--review-verdicts", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, metavar="FILE.csv", help="A reviewer's verdicts (id,valid,note; "
              "valid yes/no, empty: not judged): the validity rate per error type goes into "
              "report.md and the card [default: OUT/review/verdicts.csv when it exists — the "
              "file `buildds review OUT` writes — so a rebuild picks the verdicts up].")
@click.option("--no-audit", "no_audit", is_flag=True,
              help="Skip the shortcut audit (surface-consistency rules and a text-only "
              "classifier on the rows, the 'Shortcut audit' section of report.md).")
@click.option("--shard-bytes", type=click.IntRange(min=0), default=4 << 20, show_default=True,
              metavar="N", help="Read, inject and make rows shard by shard, about N bytes of "
              "input each (JSON lines split at line ends, .gz by lines, .parquet by row "
              "groups): parsing and injection never hold the corpus, a killed run resumes from "
              "the finished shards (OUT/.shards), the outputs are the same for any N. 0: the "
              "whole corpus at once (--profile jp and --law-store always are).")
@click.option("--shard-workers", type=click.IntRange(min=1), default=1, show_default=True,
              metavar="N", help="Processes that build the shards (1: this process).")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
@click.option("--strict", is_flag=True,
              help="Exit 1 if validation fails, the shortcut audit fails (a surface cue "
              "finds the injected rows) or any input record is rejected as defective.")
@executor_options
def judgments(inputs: tuple[Path, ...], out: Path, profile: str, errors: tuple[str, ...],
              seed: int, law_dir: Path | None, law_store: Path | None, law_date: str,
              confusable: Path | None, input_format: str | None, keep_appeals: bool,
              limit: int | None, encoding: str | None, max_line_bytes: int | None,
              review_sample: int | None, review_verdicts: Path | None, no_audit: bool,
              shard_bytes: int, shard_workers: int, quiet: bool, strict: bool) -> None:
    """Criminal judgments (JuDGE test.json, CAIL data_train.json, LeCaRD candidates,
    Caseformer legal_documents.jsonl, or any corpus by a field mapping; with --profile jp
    Japanese courts.go.jp precedents) → AR-Bench.

    Parses the judgments (format detected by content), injects errors E1–E6 against the
    statute profile, and writes the dataset (dataset/ for load_from_disk, data/<task>.parquet
    with splits detection / classification / correction, README.md card; input settings
    S1–S5 are the columns input_s1 … input_s5), rejects.jsonl, report.json and report.md
    under --out. An unchanged rebuild writes nothing.

    Inputs are read strictly: a record that cannot be used (undecodable bytes, bad JSON,
    a missing or empty field, a duplicate id …) is rejected with its line number and
    reason, and the rest is built. Several defendants, an appeal or retrial judgment, or a
    case another input already gave (JuDGE's text_id is LeCaRD's ajId; case numbers) are
    rejected too. Exit status: 0 built; 1 an input file gave no judgment
    (the others are still built), nothing could be read, or --strict and a record was
    rejected, validation failed or the shortcut audit failed; 2 bad options.

    The shortcut audit (on by default) runs surface-consistency rules (刑期 date notes vs
    terms, combined sentences and fines vs the charges, numeral styles, cited articles) and
    a cross-validated char n-gram classifier on the judgment part, and reports how often
    they find the injected rows next to the untouched ones (report.md, "Shortcut audit").

    \b
    Example:
      buildds judgments data_raw/judgments/judge-benchmark/test.json --out build/arbench
      buildds judgments test.json data_train.json --out build/arbench --seed 1 \\
          --law ../shared/realdata/judgments/cn-criminal-law \\
          --confusable ../shared/realdata/judgments/cn-confusable-charges/legalattack_sheet1_similar_charges.csv
      buildds judgments test.json --out build/e3 --errors E3,E4 --limit 100 -q
      buildds judgments ../shared/realdata/judgments/jp-precedents-sample --profile jp \\
          --out build/jp --law ../shared/realdata/judgments/jp-penal-code
      buildds judgments test.json --out build/arbench --review-sample 8
      buildds judgments test.json --out build/arbench --review-verdicts verdicts.csv
    """
    from buildds.jobs.judgments import DEFAULT_CONFUSABLE, DEFAULT_LAW_DIR, build_judgments
    from buildds.jobs.judgments_sharded import local_map

    review_verdicts = review_verdicts or _verdicts_in(out)
    spec = executor_spec(click.get_current_context())  # --executor ray: the shards on Ray
    if profile == "jp":
        return _judgments_jp(inputs, out, errors, seed, law_dir, law_store, limit, review_sample,
                             review_verdicts, quiet, strict, max_line_bytes)
    law_dir = law_dir or DEFAULT_LAW_DIR
    confusable = confusable or DEFAULT_CONFUSABLE
    missing = []
    if law_store is not None and not law_store.is_dir():
        missing.append(f"--law-store DIR (a law store folder; {law_store} is none)")
    if law_store is None and not (law_dir / "criminal_law_PRC_2023_amendment12.md").is_file():
        missing.append(f"--law DIR (a folder holding criminal_law_PRC_2023_amendment12.md; "
                       f"{law_dir} has none)")
    if not confusable.is_file():
        missing.append(f"--confusable FILE (legalattack_sheet1_similar_charges.csv; "
                       f"{confusable} does not exist)")
    if missing:
        raise click.UsageError("the statute files are required: pass " + " and ".join(missing))
    if any(p.is_dir() for p in inputs):
        raise click.UsageError("a folder is an input only with --profile jp; pass the "
                               "JuDGE / CAIL files")
    try:
        report = build_judgments(list(inputs), profile=profile, errors=errors, seed=seed, out=out,
                                 law_dir=law_dir, confusable=confusable, limit=limit,
                                 progress=not quiet, encoding=encoding,
                                 max_line_bytes=max_line_bytes, law_store=law_store,
                                 law_date=law_date, review_sample=review_sample,
                                 review_verdicts=review_verdicts, input_format=input_format,
                                 keep_appeals=keep_appeals, audit=not no_audit,
                                 shard_bytes=shard_bytes, executor=spec,
                                 map_fn=local_map(shard_workers) if spec.name == "local" else None)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    _finish(report, out, strict)


def _verdicts_in(out: Path) -> Path | None:
    """``OUT/review/verdicts.csv`` when it exists (the verdicts ``buildds review`` writes),
    said on stderr so the reader knows where the card's validity rate comes from."""
    path = out / "review" / "verdicts.csv"
    if not path.is_file():
        return None
    click.echo(f"review verdicts: {path} (the default --review-verdicts)", err=True)
    return path


def _judgments_jp(inputs: tuple[Path, ...], out: Path, errors: tuple[str, ...], seed: int,
                  law_dir: Path | None, law_store: Path | None, limit: int | None,
                  review_sample: int | None, review_verdicts: Path | None, quiet: bool,
                  strict: bool, max_line_bytes: int | None) -> None:
    """``--profile jp``: the Japanese precedents against the 刑法 profile."""
    from buildds.jobs.judgments import build_judgments
    from buildds.jobs.judgments_jp import DEFAULT_JP_LAW_DIR

    law_dir = law_dir or DEFAULT_JP_LAW_DIR
    if law_store is not None:
        raise click.UsageError("--law-store holds PRC versions: it cannot be used with "
                               "--profile jp")
    if not (law_dir / "penal_code_articles.jsonl").is_file():
        raise click.UsageError(f"the statute files are required: pass --law DIR (a folder "
                               f"holding penal_code_articles.jsonl; {law_dir} has none)")
    try:
        report = build_judgments(list(inputs), profile="jp", errors=errors, seed=seed, out=out,
                                 law_dir=law_dir, confusable=law_dir, limit=limit,
                                 progress=not quiet, review_sample=review_sample,
                                 review_verdicts=review_verdicts, max_line_bytes=max_line_bytes,
                                 executor=executor_spec(click.get_current_context()))
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    _finish(report, out, strict)


def _finish(report: JudgmentsReport, out: Path, strict: bool) -> None:
    """The summary, the failures, and the exit status (see the command's help)."""
    click.echo(report.summary_line())
    echo_failures(report.failure_lines(), report=out / "report.md")
    if strict and (not report.ok or report.bad_records or report.dropped
                   or not report.audit_ok):
        why = [f"{n} {what}" for n, what in ((report.bad_records, "defective record(s) rejected"),
                                             (report.dropped, "row(s) dropped by validation"))
               if n]
        if not report.ok:
            why.append("validation failed")
        if not report.audit_ok:
            why.append("the shortcut audit failed (see the Shortcut audit section of "
                       f"{out / 'report.md'})")
        click.echo(f"--strict: {', '.join(why)} (see {out / 'rejects.jsonl'})", err=True)
        sys.exit(1)
    if report.failed:
        sys.exit(1)
