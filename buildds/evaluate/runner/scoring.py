"""How a run scores: generatively (the task parses the answer the model writes, the default)
or by log-probabilities (``--scoring logprob``, :mod:`buildds.evaluate.logprob`).

A logprob setting asks the same prompts with the item's allowed answers
(``task.answer_choices(item)``) through :class:`LogprobScoring`, a wrapper outside the
response cache (so the cache key holds the choices and the logprob parameters); each result's
text becomes the most probable answer, which the task's own parser and scorer read. The run
is written as its own model row: ``<spec> (logprob)`` in ``<slug>.logprob/<N>shot/``, each
sample with its ``choice_probs``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.backends.base import BackendBase, OnResult, report_result
from buildds.evaluate.logprob import SCORINGS, choice_probs, logprob_request, scored_result
from buildds.schema.evaluation import ChatRequest, ChatResult, SampleRecord

__all__ = ["LOGPROB_KINDS", "LogprobScoring", "check_scorings", "scoring_label",
           "scoring_slug", "supports_logprob", "with_choice_probs"]

#: backend kinds that can score answers by log-probability
LOGPROB_KINDS = ("openai", "hf")


def check_scorings(task: Any, scorings: Sequence[str]) -> list[str]:
    """The scorings in :data:`SCORINGS` order; raises :class:`BuildError` for an unknown one
    or ``logprob`` on a task without closed answers."""
    unknown = [s for s in scorings if s not in SCORINGS]
    if unknown:
        raise BuildError(f"unknown scoring {unknown[0]!r}: expected one of {', '.join(SCORINGS)}")
    if "logprob" in scorings and not callable(getattr(task, "answer_choices", None)):
        raise BuildError(f"task {task.name} has no closed set of answers to score by "
                         "log-probability (logprob scoring: jbe, appellate-review:detection, "
                         "appellate-review:classification)")
    return [s for s in SCORINGS if s in scorings] or ["generate"]


def supports_logprob(spec: str) -> bool:
    return spec.partition(":")[0].strip().lower() in LOGPROB_KINDS


def scoring_label(spec: str, scoring: str) -> str:
    """The model as the leaderboard names it: ``openai:qwen (logprob)``."""
    return spec if scoring == "generate" else f"{spec} ({scoring})"


def scoring_slug(slug: str, scoring: str) -> str:
    return slug if scoring == "generate" else f"{slug}.{scoring}"


class LogprobScoring(BackendBase):
    """``backend`` asked for the allowed answers' log-probabilities; each result's text is
    the most probable answer (:func:`~buildds.evaluate.logprob.scored_result`)."""

    cacheable = False

    def __init__(self, backend: Any, task: Any, items_by_id: Mapping[str, Any]):
        self.backend, self.task, self.items_by_id = backend, task, items_by_id
        self.name = getattr(backend, "name", "backend")

    def settings(self) -> dict[str, Any]:
        return {**self.backend.settings(), "scoring": "logprob"}

    def request(self, request: ChatRequest) -> ChatRequest:
        item = self.items_by_id.get(request.sample_id or "")
        if item is None:
            raise BuildError(f"no item {request.sample_id!r} to take the allowed answers from")
        return logprob_request(request, self.task.answer_choices(item))

    async def complete(self, request: ChatRequest) -> ChatResult:
        return scored_result(await self.backend.complete(self.request(request)))[0]

    async def complete_many(self, requests: Sequence[ChatRequest], *,
                            on_result: OnResult | None = None) -> list[ChatResult]:
        async def scored(i: int, result: ChatResult) -> None:
            await report_result(on_result, i, scored_result(result)[0])

        results = await self.backend.complete_many([self.request(r) for r in requests],
                                                   on_result=scored)
        return [scored_result(r)[0] for r in results]


def with_choice_probs(record: SampleRecord, result: ChatResult) -> SampleRecord:
    """The record with its answers' probabilities (logprob scoring), else as it is."""
    if result.choice_logprobs is None:
        return record
    return record.model_copy(update={"choice_probs": choice_probs(result.choice_logprobs)})
