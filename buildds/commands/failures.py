"""The console's list of what a build could not use: the first few files with their reasons,
then how many more there are and where the full list is.

A line is ``<file>[, page N]: <reason>``, as a report's ``failure_lines()`` gives it
(:func:`buildds.jobs.failures.failure_line`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

__all__ = ["echo_failures"]


def echo_failures(lines: Sequence[str], limit: int = 5, *,
                  report: str | Path = "report.md") -> None:
    """Print the first ``limit`` lines to stderr, then ``… and N more (see <report>)``."""
    for line in lines[:limit]:
        click.echo(f"failed: {line}", err=True)
    if len(lines) > limit:
        click.echo(f"… and {len(lines) - limit} more (see {report})", err=True)
