"""What the runner asks of a task, and the defaults most tasks share.

A task turns an export into requests and the backends' answers into scores::

    data = task.load(path)                                  # .fingerprint, .items_by_id,
                                                            # .fewshot_ids
    items, requests = task.build_requests(data, shots, limit)
    # an item with task.item_error(item) is not sent; its result is that error
    records = [task.sample_record(item, rq, result) ...]    # one SampleRecord per request
    # judged tasks only (task.judged): every judge answers the task's judge requests of
    # its role (task.judge_role: --judge "substance", --form-judge "form")
    jrequests = task.judge_requests(items, records)
    records, files = task.apply_judgments(items, records, jrequests, {judge: results})
    # a failed request has no parsed answer and no score (runner/answered.py)
    metrics = task.score(answered_items, answered_records, seed=seed)  # metrics.json (+ "n")
    task.render_leaderboard(entries, dataset=...)           # leaderboard.md over every run

:class:`TaskBase` gives the defaults: no judges, baselines cross-fitted on the scored items
grouped by :meth:`TaskBase.group_of`, a leaderboard table of :attr:`TaskBase.columns`, a
per-run confusion plot when the metrics hold a binary confusion matrix, and JSON dumps.
Every method is a pure function of its arguments, so the same answers give the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.tables import fmt_metric, leaderboard_head, md_cell, shot_name
from buildds.schema.evaluation import ChatRequest, ChatResult, SampleRecord

__all__ = ["TaskBase"]


class TaskBase:
    """Defaults for a task; subclasses set :attr:`name` and implement load → score."""

    name = "task"
    #: demonstration counts the task accepts (``--shots``)
    shots: tuple[int, ...] = (0,)
    #: the metric that ranks models in the summary line and the leaderboard
    headline = "accuracy"
    #: (key in metrics.json, column title) for the default leaderboard table
    columns: tuple[tuple[str, str], ...] = (("accuracy", "Accuracy"),)
    #: judged tasks need ``--judge`` backends; ``min_judges`` of them at least
    judged = False
    min_judges = 0
    #: tasks whose form is graded by judges of its own (highbar) need ``--form-judge``
    #: backends, ``min_form_judges`` of them at least; they get the requests whose
    #: :meth:`judge_role` is ``"form"``
    min_form_judges = 0
    #: cross-fit baselines over the scored items (False: fit on ``training_items`` only)
    cross_fit = True

    # -- data ------------------------------------------------------------------------
    def load(self, path: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def build_requests(self, data: Any, shots: int, limit: int | None = None
                       ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:  # pragma: no cover
        raise NotImplementedError

    def check_shots(self, shots: int) -> None:
        if shots not in self.shots:
            raise BuildError(f"task {self.name} is evaluated with "
                             f"{' or '.join(map(str, self.shots))} demonstrations; got {shots}")

    def item_error(self, item: Mapping[str, Any]) -> str | None:
        """Why ``item`` cannot be asked (its inputs were refused), else ``None``. The runner
        sends its requests to no backend; their result is this error."""
        return None

    def training_items(self, data: Any) -> list[dict[str, Any]]:
        """What a baseline may learn from besides the cross-fit folds."""
        return []

    def baseline_options(self) -> dict[str, Any]:
        """Options for the offline baselines: ``label_field``, ``text_field``."""
        return {}

    def group_of(self, item: Mapping[str, Any]) -> str:
        """Items of one group share a cross-fit fold (no leakage between near-duplicates)."""
        return str(item["id"])

    def reference_answer(self, item: Mapping[str, Any]) -> str:
        """The gold output as a model would write it (the ``oracle`` backend answers it)."""
        raise BuildError(f"task {self.name} has no reference answers for the oracle backend")

    # -- answers ---------------------------------------------------------------------
    def sample_record(self, item: Mapping[str, Any], request: ChatRequest, result: ChatResult
                      ) -> SampleRecord:  # pragma: no cover - abstract
        raise NotImplementedError

    def judge_requests(self, items: Sequence[Mapping[str, Any]],
                       records: Sequence[SampleRecord]) -> list[ChatRequest]:
        """Requests every judge answers (judged tasks only)."""
        return []

    def judge_role(self, request: ChatRequest) -> str:
        """Which judges answer a judge request: ``"substance"`` (``--judge``) or ``"form"``
        (``--form-judge``, tasks with :attr:`min_form_judges`)."""
        return "substance"

    def unfaithful(self, record: SampleRecord) -> bool:
        """An answered sample in whose output no answer could be read (default: nothing
        parsed). Counted beside the figures; how it is scored is the task's convention."""
        return record.parsed is None

    def apply_judgments(self, items: Sequence[Mapping[str, Any]],
                        records: Sequence[SampleRecord], requests: Sequence[ChatRequest],
                        judgments: Mapping[str, Sequence[ChatResult]]
                        ) -> tuple[list[SampleRecord], dict[str, str]]:
        """Records updated with the judges' verdicts, and extra files for the run folder
        (``{name: text}``, e.g. disagreement logs). A judge's results are aligned with
        ``requests``; a request of a role the judge does not have gets ``None``."""
        return list(records), {}

    def score(self, items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
              seed: int = 0) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def template_hashes(self) -> dict[str, str]:
        return {}

    # -- reports ---------------------------------------------------------------------
    def title(self) -> str:
        return f"{self.name} leaderboard"

    def render_leaderboard(self, entries: Sequence[Mapping[str, Any]], *,
                           dataset: Mapping[str, Any] | None = None) -> str:
        """One row per model and setting, the :attr:`columns` of its metrics."""
        lines = leaderboard_head(self.title(), dataset)
        head = ["Model", "Setting", "n", *(title for _, title in self.columns)]
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for e in sorted(entries, key=lambda e: (-float(e.get(self.headline) or 0.0),
                                                 str(e["model"]), int(e["shots"]))):
            cells = [md_cell(e["model"]), shot_name(int(e["shots"])), str(e.get("n", "–")),
                     *(fmt_metric(e.get(key)) for key, _ in self.columns)]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        return "\n".join(lines)

    def leaderboard_json(self, entries: Sequence[Mapping[str, Any]], *,
                         dataset: Mapping[str, Any] | None = None) -> dict[str, Any]:
        rows = [{k: v for k, v in e.items() if k not in ("backend",)}
                for e in sorted(entries, key=lambda e: (str(e["model"]), int(e["shots"])))]
        return {"task": self.name, "dataset": dict(dataset or {}), "runs": rows}

    def run_plots(self, metrics: Mapping[str, Any], title: str) -> dict[str, bytes]:
        """PNG files for one run folder (default: the binary confusion matrix, if any)."""
        confusion = metrics.get("confusion")
        if not isinstance(confusion, Mapping) or set(confusion) != {"tp", "fp", "fn", "tn"}:
            return {}
        from buildds.evaluate.report import plot_confusion

        return {"confusion.png": plot_confusion(confusion, title)}

    def summary_plots(self, entries: Sequence[Mapping[str, Any]]) -> dict[str, bytes]:
        """PNG files for the output folder, over every run."""
        return {}

    def summary_files(self, entries: Sequence[Mapping[str, Any]], out: Path) -> dict[str, str]:
        """Text files for the output folder, over every run (``out/<slug>/<N>shot/`` holds
        each entry's run files)."""
        return {}
