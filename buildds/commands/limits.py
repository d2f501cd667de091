"""``buildds limits``: every limit on work an input can multiply, its value for this run and
how to raise it (see :mod:`buildds.safeio.limits`)."""

from __future__ import annotations

import click

from buildds.safeio.limits import DEFAULTS, ENV_VAR, LIMITS

__all__ = ["limits", "limits_table"]


def limits_table() -> str:
    """The Markdown table of the limits (the README carries the same table)."""
    rows = ["| limit | default | what it bounds | raise it with |", "|---|---|---|---|"]
    for name, lim in DEFAULTS.items():
        value = f"{lim.default:,}" + (f" {lim.unit}" if lim.unit else "")
        rows.append(f"| `{name}` | {value} | {lim.what} | `{lim.how_to_raise}` |")
    return "\n".join(rows)


@click.command("limits", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--markdown", is_flag=True, help="Print the README's Markdown table instead.")
def limits(markdown: bool) -> None:
    """List the limits on work an input can multiply: archive members, pages, pixels, list
    numbers, JSON depth, line and response sizes. Each has a default; an input past it fails
    alone with a message naming the limit. Set any of them for a run with the environment
    variable BUILDDS_LIMITS (name=value,… with K/M/G suffixes); the common ones also have a
    command option, e.g. --max-pages.

    \b
    Example:
      buildds limits
      BUILDDS_LIMITS=page_pixels=80M,archive_member_bytes=500M buildds contracts scans/*.pdf --out build/c
    """
    if markdown:
        click.echo(limits_table())
        return
    width = max(len(n) for n in LIMITS)
    for name, lim in LIMITS.items():
        changed = "" if lim.default == DEFAULTS[name].default else \
            f"  (set by {ENV_VAR}; default {DEFAULTS[name].default:,})"
        unit = f" {lim.unit}" if lim.unit else ""
        click.echo(f"{name:<{width}}  {lim.default:>14,}{unit:<11} {lim.how_to_raise}{changed}")
        click.echo(f"{'':<{width}}  {lim.what}")
