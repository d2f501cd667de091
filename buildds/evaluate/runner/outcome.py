"""What a run produced, as the command and the manifest read it: per model and setting a
:class:`ModelRun` (its metrics, settings, refused items and :class:`FailedRequests`), the
manifest's entry of each model and judge (:class:`ModelEntry`, :class:`JudgeEntry`), and the
run's :class:`EvalReport`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.schema.evaluation import ChatRequest, ChatResult

__all__ = ["EvalReport", "FailedRequests", "JudgeEntry", "ModelEntry", "ModelRun",
           "failed_requests"]


@dataclass
class FailedRequests:
    """The requests of one backend in one run (model/setting) that got no answer: the
    sample id and the error of each, in request order."""

    #: who was asked: the model spec, or ``judge <spec>``
    who: str
    #: requests sent (items the task refused are not sent)
    sent: int
    failures: list[tuple[str, str]] = field(default_factory=list)

    @property
    def all_failed(self) -> bool:
        return self.sent > 0 and len(self.failures) == self.sent

    def reason_lines(self) -> list[str]:
        """One line per distinct reason, in order of first occurrence: ``<first sample>
        [and N others]: <reason>`` (a reason on one line)."""
        by_reason: dict[str, list[str]] = {}
        for sid, error in self.failures:
            by_reason.setdefault(" ".join(error.split()), []).append(sid)
        lines = []
        for reason, sids in by_reason.items():
            more = len(sids) - 1
            who = sids[0] + (f" and {more} other{'s' if more > 1 else ''}" if more else "")
            lines.append(f"{who}: {reason}")
        return lines


@dataclass
class ModelRun:
    model: str
    slug: str
    shots: int
    dir: Path
    metrics: dict[str, Any]
    settings: dict[str, Any]
    #: items of the run, and how many of them the task refused (never sent)
    items: int = 0
    refused: int = 0
    #: the model's failed requests, then each judge's (judged tasks)
    failed: list[FailedRequests] = field(default_factory=list)

    @property
    def samples(self) -> Path:
        return self.dir / "samples.jsonl"

    def nothing_evaluated(self) -> str | None:
        """Why nothing of this run was evaluated (every item refused or failed, or every
        judge failed every request), else None."""
        model = self.failed[0] if self.failed else None
        failed = len(model.failures) if model is not None else 0
        if self.items and self.refused + failed >= self.items:
            if not failed:
                what = f"every one of its {self.refused} items was refused"
            elif not self.refused:
                what = f"all {failed} requests failed"
            else:
                what = (f"{self.refused} of {self.items} items were refused and the other "
                        f"{failed} requests failed")
            return f"{self.model} {self.shots}-shot: {what}"
        judges = self.failed[1:]
        if judges and all(j.all_failed for j in judges):
            return (f"{self.model} {self.shots}-shot: every judge failed every request, "
                    "nothing was graded")
        return None


@dataclass
class EvalReport:
    out: Path
    task: str
    #: the metric the summary line ranks by
    headline: str = "f1"
    runs: list[ModelRun] = field(default_factory=list)
    leaderboard_md: Path | None = None
    leaderboard_json: Path | None = None
    manifest: Path | None = None
    #: the self-contained HTML report (None: not written)
    report_html: Path | None = None
    plots: list[Path] = field(default_factory=list)
    #: requests abandoned at the deadline (over every backend and setting)
    abandoned: int = 0
    #: what the user should hear besides the summary (deadline reached, refused items)
    warnings: list[str] = field(default_factory=list)

    def with_failures(self) -> list[str]:
        """The runs (model/setting) with failed samples or failed judge requests:
        ``<model> <N>-shot: <n> failed`` each (the command exits 1 for them unless
        ``--allow-failures``)."""
        out = []
        for r in self.runs:
            parts = [f"{len(f.failures)} of {f.sent} requests to {f.who} failed"
                     for f in r.failed if f.failures]
            if r.refused:
                parts.insert(0, f"{r.refused} item(s) refused")
            if parts:
                out.append(f"{r.model} {r.shots}-shot: " + ", ".join(parts))
        return out

    def nothing_evaluated(self) -> list[str]:
        """The runs (model/setting) in which nothing was evaluated (see
        :meth:`ModelRun.nothing_evaluated`): a failed run, whatever was written."""
        return [why for r in self.runs if (why := r.nothing_evaluated()) is not None]

    def summary_line(self) -> str:
        if not self.runs:
            return f"nothing evaluated — see {self.out}"
        n = self.runs[0].items
        h = self.headline
        best = max(self.runs, key=lambda r: (float(r.metrics.get(h) or 0.0), r.model))
        name = "F1" if h == "f1" else h
        return (f"evaluated {len({r.model for r in self.runs})} model(s) × "
                f"{len({r.shots for r in self.runs})} setting(s) on {n} items; best {name} "
                f"{float(best.metrics.get(h) or 0.0):.3f} ({best.model}, {best.shots}-shot) — "
                f"see {self.leaderboard_md}")


def failed_requests(who: str, requests: Sequence[ChatRequest], results: Sequence[ChatResult],
            refused: Sequence[str | None] | None = None) -> FailedRequests:
    """The requests of ``results`` that failed (those refused were not sent: not counted)."""
    out = FailedRequests(who, sent=0)
    for i, (rq, rs) in enumerate(zip(requests, results, strict=True)):
        if refused and refused[i]:
            continue
        out.sent += 1
        if rs.error is not None:
            out.failures.append((rq.sample_id or f"#{i + 1}", rs.error))
    return out


@dataclass(frozen=True)
class ModelEntry:
    """A model of the run as the manifest lists it."""

    model: str
    slug: str
    #: the backend's settings, secrets scrubbed
    settings: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "slug": self.slug, "settings": self.settings}


@dataclass(frozen=True)
class JudgeEntry:
    """A judge of the run as the manifest lists it."""

    judge: str
    #: the backend's settings, secrets scrubbed
    settings: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"judge": self.judge, "settings": self.settings}
