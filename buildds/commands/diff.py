"""``buildds diff OLD NEW``: a thin click shell over
:func:`buildds.validate.dataset_diff.diff_exports` and
:func:`buildds.validate.dataset_diff_report.write_diff`. Exit codes follow diff(1): 0 the
same, 1 different, 2 trouble (so a failure is never mistaken for "changed")."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from buildds.cli_group import os_error_message
from buildds.cli_types import Utf8Path
from buildds.errors import BuildError

__all__ = ["EXIT_CHANGED", "EXIT_SAME", "EXIT_TROUBLE", "diff"]

EXIT_SAME, EXIT_CHANGED, EXIT_TROUBLE = 0, 1, 2


@click.command("diff", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("old", type=Utf8Path(exists=True, path_type=Path))
@click.argument("new", type=Utf8Path(exists=True, path_type=Path))
@click.option("--out", type=Utf8Path(file_okay=False, path_type=Path), default=None,
              help="Folder for diff.json and diff.md (default: print the summary only).")
@click.option("--show", type=click.IntRange(min=0), default=50, show_default=True,
              help="Changed items shown with their fields in diff.md (all are in diff.json).")
def diff(old: Path, new: Path, out: Path | None, show: int) -> None:
    """Compare two exports of the same kind item by item: items added, removed, with text,
    label or status changed, moved to another split, or with other columns changed, and
    why where the exports say so (corrections applied, status columns, rejects.jsonl).

    OLD and NEW are export folders (data/*.parquet), folders written by save_to_disk, or
    .parquet files, of the same kind: JBE-QA, AR-Bench (buildds judgments) or one contracts
    export. Items are matched by id. Writes diff.json (every change, sorted by id) and
    diff.md (counts per class, split, subject and year; the first --show items) under
    --out, and prints one summary line.

    Exit codes (like diff(1)): 0 no changes; 1 something changed; 2 trouble — a bad option,
    an unreadable export, two exports of different kinds, an output that cannot be written.

    \b
    Examples:
      buildds diff build/jbe-2025-01 build/jbe --out build/jbe-diff
      buildds diff old/data/test.parquet new/data/test.parquet
    """
    from buildds.validate.dataset_diff import diff_exports
    from buildds.validate.dataset_diff_report import write_diff

    try:
        result = diff_exports(old, new)
        written = write_diff(result, out, limit=show) if out is not None else None
    except BuildError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(EXIT_TROUBLE)
    except OSError as exc:
        click.echo(f"Error: {os_error_message(exc)}", err=True)
        sys.exit(EXIT_TROUBLE)
    line = result.summary_line()
    if written is not None:
        line += f" — see {written[1]}"
    click.echo(line)
    sys.exit(EXIT_CHANGED if result.changed else EXIT_SAME)
