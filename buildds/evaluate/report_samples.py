"""The samples of ``report.html`` as data: every sample of every run (model × setting), with
its prompt, raw answer, parsed answer, gold answer, score, error, its group (the task's
grouping field: JBE's subject …) and its status — ``correct``, ``wrong``, ``unscored`` or
``failed``.

The page's script filters these rows; :func:`page_data` is what it reads (JSON, prompts
stored once however many runs share them). Everything here is a pure function of the
records a run wrote to ``samples.jsonl`` and the requests it sent, so the page and the
markdown leaderboard describe the same samples.

Status of a sample (:func:`sample_status`), in the words of the run's ``samples`` counts
(:mod:`buildds.evaluate.runner.answered`, issue 16: a failure is never an answer):

* ``failed`` — no answer: the request failed, was refused or abandoned (no raw output); it
  has no parsed answer and no score, and its error is shown;
* ``unscored`` — answered, but without a score (a judged task whose judges erred, or whose
  grade awaits a lawyer);
* ``correct`` — a score of 1 (every criterion met, for a judged task);
* ``wrong`` — any other score, an unparseable (unfaithful) answer scored 0 included.

The per-run totals count the records of ``samples.jsonl`` (``items``), not the metrics'
``n`` — since issue 16 ``n`` is the number of *answered* samples.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from buildds.evaluate.tables import shot_name
from buildds.schema.evaluation import ChatRequest

__all__ = ["GROUP_FIELDS", "MAX_TEXT_CHARS", "STATUSES", "Prompt", "RunSamples", "clip",
           "group_field", "page_data", "prompt_parts", "prompt_text",
           "sample_status"]

#: statuses in the order the page lists them
STATUSES = ("correct", "wrong", "unscored", "failed")

#: an item's grouping field, the first of these it has: (field, title on the page)
GROUP_FIELDS = (("subject", "Subject"), ("error_class", "Error class"), ("task_id", "Task"),
                ("category", "Category"))

#: a prompt or answer longer than this is cut on the page (samples.jsonl has the answer
#: whole; a High Bar prompt holds whole documents)
MAX_TEXT_CHARS = 20_000


@dataclass
class RunSamples:
    """One run (model × setting) as the page shows it."""

    model: str
    shots: int
    #: the records of ``samples.jsonl``, as dicts, in file order
    records: list[dict[str, Any]]
    #: the prompt sent for each sample id (missing: the page says it is not available)
    prompts: Mapping[str, Prompt] = field(default_factory=dict)
    #: each sample id's group (see :func:`group_field`)
    groups: Mapping[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.model} — {shot_name(self.shots)}"


def sample_status(record: Mapping[str, Any]) -> str:
    """``correct``, ``wrong``, ``unscored`` or ``failed`` (see the module doc)."""
    score = record.get("score")
    if record.get("raw_output") is None:
        return "failed"
    if score is None:
        return "unscored"
    return "correct" if float(score) >= 1.0 else "wrong"


def group_field(items: Sequence[Mapping[str, Any]]) -> tuple[str, str] | None:
    """The first of :data:`GROUP_FIELDS` some item has (field, title), else None."""
    for name, title in GROUP_FIELDS:
        if any(it.get(name) not in (None, "") for it in items):
            return name, title
    return None


#: a prompt as the page stores it: (role, text) per message, then ("attachments", names)
Prompt = tuple[tuple[str, str], ...]


def prompt_parts(request: ChatRequest) -> Prompt:
    """What was sent, part by part: each message (role, content), then the attachments'
    names. Stored part by part, the exemplars every four-shot prompt repeats are on the
    page once."""
    parts: list[tuple[str, str]] = [(m.role, m.content) for m in request.messages]
    if request.attachments:
        parts.append(("attachments", ", ".join(a.name for a in request.attachments)))
    return tuple(parts)


def prompt_text(parts: Prompt) -> str:
    """The prompt as the page shows it: a lone user message as is, else each part under
    its role (the page's script joins the parts the same way)."""
    if len(parts) == 1 and parts[0][0] == "user":
        return parts[0][1]
    return "\n\n".join(f"[{role}]\n{text}" for role, text in parts)


def clip(text: str | None, limit: int = MAX_TEXT_CHARS) -> str | None:
    """``text`` cut to ``limit`` characters, saying how many were left out."""
    if text is None or len(text) <= limit:
        return text
    return f"{text[:limit]}\n… [{len(text) - limit} more characters not shown]"


def _shown(value: Any) -> str | None:
    """A parsed or gold value as the page shows it: text as is, anything else as JSON."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def page_data(runs: Sequence[RunSamples], *, group_title: str | None) -> dict[str, Any]:
    """What the page's script reads: the runs, the distinct prompt parts (``parts``: [role,
    text]) and prompts (``prompts``: lists of part indices), and one row per sample (``r``
    run index, ``i`` id, ``g`` group, ``p`` prompt index or -1, ``o`` raw output, ``a``
    parsed answer, ``y`` gold, ``s`` score, ``e`` error, ``c`` status), plus the counts per
    run and status the page starts with."""
    index: dict[Prompt, int] = {}
    rows: list[dict[str, Any]] = []
    summary = []
    for r, run in enumerate(runs):
        counts = dict.fromkeys(STATUSES, 0)
        errors = 0
        for rec in run.records:
            sid = str(rec.get("id"))
            prompt = run.prompts.get(sid)
            p = -1 if prompt is None else index.setdefault(prompt, len(index))
            status = sample_status(rec)
            counts[status] += 1
            errors += rec.get("error") is not None
            rows.append({"r": r, "i": sid, "g": run.groups.get(sid, ""), "p": p,
                         "o": clip(rec.get("raw_output")), "a": _shown(rec.get("parsed")),
                         "y": _shown(rec.get("gold")), "s": rec.get("score"),
                         "e": clip(rec.get("error")), "c": status})
        summary.append({"label": run.label, "items": len(run.records), **counts,
                        "errors": errors})
    parts: dict[tuple[str, str], int] = {}
    prompts = [[parts.setdefault(part, len(parts)) for part in prompt] for prompt in index]
    return {"runs": [{"label": run.label, "model": run.model, "shots": run.shots}
                     for run in runs],
            "group": group_title, "statuses": list(STATUSES),
            "parts": [[role, clip(text)] for role, text in parts], "prompts": prompts,
            "samples": rows, "summary": summary}

