"""One line per thing a build could not use: ``<file>[, page N]: <reason>``.

The jobs' reports build their ``failure_lines()`` with :func:`failure_line`; the console
(:mod:`buildds.commands.failures`) prints them.
"""

from __future__ import annotations

__all__ = ["failure_line"]


def failure_line(source: str | None, page: int | None, message: str) -> str:
    """``2019/minpo-seito.pdf, page 1: <message>`` (the parts that are known)."""
    where = source or ""
    if page:
        where += f", page {page}" if where else f"page {page}"
    return f"{where}: {message}" if where else message
