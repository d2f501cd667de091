"""Failures are not answers (issue 16): a sample whose request failed has no parsed answer
and no score, and a run's metrics are computed over the samples that were answered.

A request *failed* when the backend gave no text: an HTTP error, a timeout, a refused item
(its documents were refused, it was never sent), a request abandoned at the deadline. Its
record keeps the error and the raw output (none) but gets ``parsed`` and ``score`` None —
before this, a failed JBE request was parsed as the unfaithful answer "0" and counted as
correct whenever the gold answer was False.

An *answered* sample has an output; it is *unfaithful* when the task could not read an
answer in it (:meth:`~buildds.evaluate.tasks.base.TaskBase.unfaithful`: by default
``parsed`` is None). How an unfaithful answer is scored is the task's convention — for
JBE-QA the seed's: it counts as 0 (False) — and stays inside the metrics; failures never do.

Every run's ``metrics.json`` carries :func:`sample_counts` as ``samples``: ``items``,
``answered``, ``failed`` (refused included), ``refused`` and ``unfaithful``; the
leaderboards show them beside the figures (:func:`samples_table`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from buildds.evaluate.tables import md_cell, shot_name
from buildds.schema.evaluation import ChatResult, SampleRecord

__all__ = ["failed_flags", "sample_counts", "samples_table", "score_answered",
           "without_failed"]


def failed_flags(results: Sequence[ChatResult]) -> list[bool]:
    """Per result: the request failed (no text, or an error)."""
    return [r.error is not None or r.text is None for r in results]


def without_failed(records: Sequence[SampleRecord], failed: Sequence[bool]
                   ) -> list[SampleRecord]:
    """The records, a failed sample's without a parsed answer or a score."""
    return [r.model_copy(update={"parsed": None, "score": None}) if f else r
            for r, f in zip(records, failed, strict=True)]


def sample_counts(task: Any, records: Sequence[SampleRecord], failed: Sequence[bool],
                  refused: Sequence[str | None]) -> dict[str, int]:
    """``items``, ``answered``, ``failed`` (refused included), ``refused``, ``unfaithful``."""
    answered = [r for r, f in zip(records, failed, strict=True) if not f]
    return {"items": len(records), "answered": len(answered), "failed": sum(failed),
            "refused": sum(1 for e in refused if e),
            "unfaithful": sum(1 for r in answered if task.unfaithful(r))}


def score_answered(task: Any, items: Sequence[Mapping[str, Any]],
                   records: Sequence[SampleRecord], failed: Sequence[bool], *,
                   seed: int) -> dict[str, Any]:
    """The task's metrics over the answered samples only (``n`` = answered); with none
    answered, ``n`` 0 and the headline metric None (nothing to score)."""
    keep = [i for i, f in enumerate(failed) if not f]
    if not keep:
        return {"n": 0, task.headline: None}
    out = dict(task.score([items[i] for i in keep], [records[i] for i in keep], seed=seed))
    if "errors" in out:  # a task's count of failed requests: they are not in what it saw
        out["errors"] = sum(failed)
    return out


def samples_table(entries: Sequence[Mapping[str, Any]]) -> list[str]:
    """Markdown lines: per model and setting, the samples behind its figures."""
    lines = ["## Samples behind the figures", "",
             ("Metrics are computed over the answered samples only: a failed request (an HTTP "
             "error, a timeout, a refused or abandoned item) has no answer and no score. "
             "Unfaithful: answered, but no answer could be read in the output (scored as the "
             "task says, e.g. JBE-QA counts it as 0)."), "",
             "| Model | Setting | Items | Answered | Failed | Refused | Unfaithful |",
             "|---|---|---|---|---|---|---|"]
    for e in sorted(entries, key=lambda e: (str(e["model"]), int(e["shots"]))):
        c = e.get("samples") or {}
        cells = [md_cell(e["model"]), shot_name(int(e["shots"])),
                 *(str(c.get(k, "–")) for k in ("items", "answered", "failed", "refused",
                                                "unfaithful"))]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    return lines
