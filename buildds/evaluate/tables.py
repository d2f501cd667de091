"""Markdown-table helpers every leaderboard shares: setting names, number cells, escaped
text cells, the samples behind a figure (answered / failed / unfaithful, issue 16) and a
leaderboard's title lines.

Below both :mod:`buildds.evaluate.report` and the tasks' reports, so neither imports the
other for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["SAMPLES_HEAD", "fmt_metric", "leaderboard_head", "md_cell", "samples_cell",
           "shot_name"]

SAMPLES_HEAD = "Answered / failed / unfaithful"


def shot_name(shots: int) -> str:
    """``0`` → ``Zero-shot``; other counts → ``4-shot``."""
    return {0: "Zero-shot", 4: "Four-shot", 8: "Eight-shot"}.get(shots, f"{shots}-shot")


def fmt_metric(value: Any, digits: int = 3) -> str:
    """A number for a markdown table; ``–`` for a missing value."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    return f"{float(value):.{digits}f}"


def md_cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def leaderboard_head(title: str, dataset: Mapping[str, Any] | None, *,
                     label: str = "Dataset") -> list[str]:
    """A leaderboard's first lines: ``# title`` and, with a ``dataset``, a line of its plain
    values (``Dataset: key `…`, limit `…```; None and dict values left out)."""
    lines = [f"# {title}", ""]
    if dataset:
        lines += [f"{label}: " + ", ".join(f"{k} `{v}`" for k, v in dataset.items()
                                           if v is not None and not isinstance(v, dict)), ""]
    return lines


def samples_cell(metrics: Mapping[str, Any] | None) -> str:
    """``answered / failed / unfaithful`` of a run's ``metrics["samples"]``, the counts beside
    its figures (``–`` for a run written before the counts were kept)."""
    c = (metrics or {}).get("samples")
    if not c:
        return "–"
    return f"{c.get('answered', '–')} / {c.get('failed', '–')} / {c.get('unfaithful', '–')}"
