"""LegalRikai clause revision (seed 000, 条文修正): revise a clause as an AI alert asks,
graded by LLM judges against a lawyer's reference revision.

* data: a ``buildds contracts --task revision --annotations …`` export
  (:mod:`.data`): ``evaluation`` is scored, ``development`` holds the demonstrations;
* prompt: the seed's Jinja template verbatim (``prompts/clause_revision.md.j2``) with
  ``text``, ``ai_alert``, ``guidelines``, ``n_demonstrations`` and ``demonstrations``, one
  user turn, rendered sandboxed; temperature 0, at most 2,000 output tokens (a clause can be
  long; the seed gives no limit);
* zero-shot, or eight-shot: the first 8 development items in id order, the same for every
  scored item (as in the seed); an item is never its own demonstration (a development item
  with the scored item's id, or its clause and alert, is skipped for the next one);
* the model's answer, stripped, is the revision (``parsed.revision``); an empty answer or a
  backend error is not judged (``error`` says why) and is left out of the means — the
  leaderboard's details show how many items were judged;
* judges (``--judge``, one or more): each answers the judge prompt
  (``prompts/clause_revision_judge.md.j2``: the seed's five aspects, judged against the
  reference, step by step, one JSON object with integer scores 0–100).
  :func:`~buildds.evaluate.tasks.rikai.revision_judging.parse_judgment` reads a JSON object
  (a ```json block, or the first object in prose) with all five aspects as numbers in 0–100;
  anything else is an error recorded for that judge and item — no score
  is ever made up. Every judge's raw answer is in ``judgments.jsonl`` of the run folder;
* scorer (:func:`score_revision`): per judge, the mean of each aspect over the items it
  judged; the headline scores are the per-item mean over the judges that judged it, then
  averaged over items; ``overall`` is the mean of the five aspects; seeded percentile-bootstrap
  95% intervals (items resampled);
* ``--model oracle`` answers each item's reference revision: the judge's ceiling, the seed's
  **Oracle** row, printed last in every table;
* leaderboard: the seed's tables — Model | アラートへの対応 | 意味の保持 | 文法 | 自然さ |
  論理の流れ, two decimals — one per setting (zero-shot, eight-shot), for the judges' mean and,
  with several judges, for each judge; then the details with the intervals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.prompts import render_prompt, template_sha256
from buildds.evaluate.tasks.base import TaskBase
from buildds.evaluate.tasks.jbe import prompt_sha256
from buildds.evaluate.tasks.rikai.data import RikaiData, load_rikai_data
from buildds.evaluate.tasks.rikai.revision_judging import (
    JUDGE_TEMPLATE,
    apply_judgments,
    build_judge_request,
    required_text,
    revision_of,
    score_revision,
)
from buildds.evaluate.tasks.rikai.revision_report import plot_run, plot_summary, render_leaderboard
from buildds.schema.evaluation import ChatMessage, ChatRequest, ChatResult, SampleRecord

__all__ = [
    "NAME",
    "ClauseRevisionTask",
    "build_messages",
    "build_requests",
    "demonstrations_for",
    "sample_record",
]

NAME = "clause-revision"
SHOTS = (0, 8)
TEMPERATURE = 0.0
MAX_TOKENS = 2000
TEMPLATE = "clause_revision"


# --------------------------------------------------------------------------- prompts
def _demo(item: Mapping[str, Any]) -> dict[str, str]:
    return {k: required_text(item, k) for k in ("ai_alert", "guidelines", "text",
                                                 "reference_revision")}


def demonstrations_for(item: Mapping[str, Any], pool: Sequence[Mapping[str, Any]], k: int
                       ) -> list[Mapping[str, Any]]:
    """The first ``k`` items of ``pool`` (the development split, id order) that are not
    ``item`` itself (same id, or same clause and alert)."""
    if k == 0:
        return []

    def same(d: Mapping[str, Any]) -> bool:
        return str(d["id"]) == str(item["id"]) or (
            d.get("text") == item.get("text") and d.get("ai_alert") == item.get("ai_alert"))

    chosen = [d for d in pool if not same(d)][:k]
    if len(chosen) < k:
        raise BuildError(f"{k}-shot needs {k} demonstrations from the development split; "
                         f"it has {len(chosen)} usable for item {item.get('id')!r}")
    return chosen


def build_messages(item: Mapping[str, Any], demonstrations: Sequence[Mapping[str, Any]] = ()
                   ) -> tuple[ChatMessage, ...]:
    """The seed's template for one item (and its demonstrations), as one user turn."""
    demos = [_demo(d) for d in demonstrations]
    prompt = render_prompt(TEMPLATE, text=required_text(item, "text"),
                           ai_alert=required_text(item, "ai_alert"),
                           guidelines=required_text(item, "guidelines"),
                           n_demonstrations=len(demos), demonstrations=demos)
    return (ChatMessage(role="user", content=prompt),)


def build_requests(data: RikaiData, shots: int = 0, *, limit: int | None = None
                   ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
    """The evaluation items (the first ``limit`` in id order) and one request per item.
    With demonstrations, their ids are recorded in ``data.fewshot_ids`` (the manifest)."""
    if shots not in SHOTS:
        raise BuildError(f"clause revision is evaluated with 0 or 8 demonstrations (the "
                         f"seed's settings); got shots={shots}")
    items = list(data.evaluation)
    if limit is not None:
        items = items[:max(0, limit)]
    requests = []
    for it in items:
        demos = demonstrations_for(it, data.development, shots)
        data.fewshot_ids.update(str(d["id"]) for d in demos)
        requests.append(ChatRequest(messages=build_messages(it, demos), temperature=TEMPERATURE,
                                    max_tokens=MAX_TOKENS, sample_id=str(it["id"])))
    return items, requests


# --------------------------------------------------------------------------- answers
def sample_record(item: Mapping[str, Any], request: ChatRequest, result: ChatResult
                  ) -> SampleRecord:
    """The model's answer, stripped, is the revision; scores come with the judges."""
    text = result.text.strip() if isinstance(result.text, str) else None
    error = result.error or (None if text else "empty output")
    return SampleRecord(id=str(item["id"]), prompt_sha256=prompt_sha256(request),
                        raw_output=result.text, parsed={"revision": text or None}, score=None,
                        error=error, gold=item.get("reference_revision"), cached=result.cached)


# --------------------------------------------------------------------------- task object
class ClauseRevisionTask(TaskBase):
    """Clause revision as the runner uses it (see the module doc)."""

    name = NAME
    shots = SHOTS
    headline = "overall"
    judged = True
    min_judges = 1
    cross_fit = False

    def load(self, path: str | Path) -> RikaiData:
        return load_rikai_data(path, "revision")

    def build_requests(self, data: RikaiData, shots: int, limit: int | None = None
                       ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
        return build_requests(data, shots, limit=limit)

    def training_items(self, data: RikaiData) -> list[dict[str, Any]]:
        """The majority baseline answers the development split's most common revision."""
        return list(data.development)

    def baseline_options(self) -> dict[str, Any]:
        return {"label_field": "reference_revision", "text_field": "text"}

    def reference_answer(self, item: Mapping[str, Any]) -> str:
        return required_text(item, "reference_revision")

    def sample_record(self, item: Mapping[str, Any], request: ChatRequest,
                      result: ChatResult) -> SampleRecord:
        return sample_record(item, request, result)

    def judge_requests(self, items: Sequence[Mapping[str, Any]],
                       records: Sequence[SampleRecord]) -> list[ChatRequest]:
        """One request per item that has a revision (an unanswered item is not judged)."""
        out = []
        for item, record in zip(items, records, strict=True):
            revision = revision_of(record)
            if revision is not None:
                out.append(build_judge_request(item, revision))
        return out

    def apply_judgments(self, items: Sequence[Mapping[str, Any]],
                        records: Sequence[SampleRecord], requests: Sequence[ChatRequest],
                        judgments: Mapping[str, Sequence[ChatResult]]
                        ) -> tuple[list[SampleRecord], dict[str, str]]:
        return apply_judgments(records, requests, judgments)

    def score(self, items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
              seed: int = 0) -> dict[str, Any]:
        return score_revision(items, records, seed=seed)

    def template_hashes(self) -> dict[str, str]:
        return {f"{TEMPLATE}.md.j2": template_sha256(f"{TEMPLATE}.md.j2"),
                JUDGE_TEMPLATE: template_sha256(JUDGE_TEMPLATE)}

    def title(self) -> str:
        return "LegalRikai clause revision leaderboard"

    def render_leaderboard(self, entries: Sequence[Mapping[str, Any]], *,
                           dataset: Mapping[str, Any] | None = None) -> str:
        return render_leaderboard(entries, title=self.title(), dataset=dataset)

    def run_plots(self, metrics: Mapping[str, Any], title: str) -> dict[str, bytes]:
        return {"aspects.png": plot_run(metrics, title)}

    def summary_plots(self, entries: Sequence[Mapping[str, Any]]) -> dict[str, bytes]:
        return {"clause_revision.png": plot_summary(entries)} if entries else {}
