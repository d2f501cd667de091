"""The JBE-QA task object the runner uses (:class:`JbeTask`) and its requests: the scored
items (few-shot exemplars left out) with zero or four exemplars before each; temperature 0 and
at most 1,000 output tokens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.tasks.base import TaskBase
from buildds.evaluate.tasks.jbe.data import JbeData, load_jbe_data
from buildds.evaluate.tasks.jbe.prompt import build_messages, gold_answer, template_hashes
from buildds.evaluate.tasks.jbe.score import sample_record, score_jbe
from buildds.schema.evaluation import ChatRequest, ChatResult, SampleRecord

__all__ = ["MAX_TOKENS", "NAME", "SHOTS", "TEMPERATURE", "JbeTask", "build_requests"]

NAME = "jbe"
SHOTS = (0, 4)
TEMPERATURE = 0.0
MAX_TOKENS = 1000


# --------------------------------------------------------------------------- requests
def build_requests(data: JbeData, shots: int = 0, *, limit: int | None = None
                   ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
    """The scored items (few-shot exemplars left out, then the first ``limit``) and one
    request per item."""
    if shots not in SHOTS:
        raise BuildError(f"JBE-QA is evaluated zero-shot or four-shot; got shots={shots}")
    exemplars: list[dict[str, Any]] = []
    if shots:
        exemplars = list(data.fewshot)
        if len(exemplars) != shots:
            raise BuildError(f"four-shot needs {shots} exemplars in the fewshot split; the "
                             f"export has {len(exemplars)}")
    items = data.scored()
    if limit is not None:
        items = items[:max(0, limit)]
    requests = [ChatRequest(messages=build_messages(it, exemplars), temperature=TEMPERATURE,
                            max_tokens=MAX_TOKENS, sample_id=str(it["id"])) for it in items]
    return items, requests


# --------------------------------------------------------------------------- task object
class JbeTask(TaskBase):
    """The JBE-QA task as the runner uses it."""

    name = NAME
    shots = SHOTS
    headline = "f1"

    def load(self, path: str | Path) -> JbeData:
        return load_jbe_data(path)

    def build_requests(self, data: JbeData, shots: int, limit: int | None = None
                       ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
        return build_requests(data, shots, limit=limit)

    def sample_record(self, item: Mapping[str, Any], request: ChatRequest,
                      result: ChatResult) -> SampleRecord:
        return sample_record(item, request, result)

    def score(self, items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
              seed: int = 0) -> dict[str, Any]:
        return score_jbe(items, records, seed=seed)

    def template_hashes(self) -> dict[str, str]:
        return template_hashes()

    def training_items(self, data: JbeData) -> list[dict[str, Any]]:
        """What a baseline may learn from: the few-shot exemplars only (never scored items)."""
        return list(data.fewshot)

    def baseline_options(self) -> dict[str, Any]:
        return {"label_field": "answer", "text_field": "question"}

    def group_of(self, item: Mapping[str, Any]) -> str:
        """``令和７年-憲法-1-3`` → ``令和７年-憲法-1``: statements of one question share a fold."""
        parts = str(item["id"]).split("-")
        return "-".join(parts[:3]) if len(parts) >= 4 else str(item["id"])

    def reference_answer(self, item: Mapping[str, Any]) -> str:
        return "1" if gold_answer(item) else "0"

    def answer_choices(self, item: Mapping[str, Any]) -> tuple[str, ...]:
        """``--scoring logprob``: the two answers the prompt allows."""
        return ("1", "0")

    def title(self) -> str:
        return "JBE-QA leaderboard"

    def render_leaderboard(self, entries: Sequence[Mapping[str, Any]], *,
                           dataset: Mapping[str, Any] | None = None) -> str:
        from buildds.evaluate.report import render_leaderboard_md

        return render_leaderboard_md(entries, title=self.title(), dataset=dataset)

    def leaderboard_json(self, entries: Sequence[Mapping[str, Any]], *,
                         dataset: Mapping[str, Any] | None = None) -> dict[str, Any]:
        from buildds.evaluate.report import leaderboard_json

        return leaderboard_json(entries, task=self.name, dataset=dataset)

    def summary_plots(self, entries: Sequence[Mapping[str, Any]]) -> dict[str, bytes]:
        from buildds.evaluate.report import plot_subject_f1

        return {"subject_f1.png": plot_subject_f1(entries)}
