"""LegalRikai clause classification (seed 000, 条文分類): name every clause type of a clause.

* data: a ``buildds contracts --annotations …`` export (:mod:`.data`); the
  ``evaluation`` split is scored, the ``development`` split is what baselines learn from
  (``cross_fit = False``). The label inventory is the export's class-label names;
* prompt: the seed's Jinja template verbatim (``prompts/clause_classification.md.j2``) with
  ``candidate_labels`` = every label of the inventory and ``text`` = the clause, as one user
  turn, rendered sandboxed; zero-shot only (the seed's setting); temperature 0, at most
  1,000 output tokens;
* parser (:func:`parse_output`): the lines listed under a ``**Legal Clauses:**`` heading
  (bullets ``-``/``*``/``•``/``・``, numbers ``1.``/``1)``/``（1）``/``①``, or plain lines;
  surrounding whitespace, ``**``, backticks and quotes stripped; duplicates dropped) → that
  set; ``No valid legal clauses found.`` → the empty set; an answer that is nothing but a
  list (the seed's example output ``- 工事完了時の検査``) → that set; anything else →
  *unparsed* (``error`` says why; it predicts no label and is counted in ``unparsed``).
  Labels are compared by exact string match — no normalisation beyond the above;
* scorer (:func:`score_classification`): micro precision / recall / F1 over (item, label)
  pairs, and the **hallucination count**: predicted labels outside the inventory (each is
  also a false positive), as in the seed's table; plus exact-match (subset) accuracy,
  unparsed and error counts, labels per item, the most frequent hallucinated labels and
  seeded percentile-bootstrap 95% intervals (items resampled);
* answers of the oracle and the offline baselines are written in the format the prompt asks
  for (:func:`render_answer`: ``**Legal Clauses:**`` and a ``-`` list, or ``No valid legal
  clauses found.``), handed to the baselines as ``answer_format``, so every backend goes
  through the same parser;
* leaderboard (:mod:`.classification_report`): the seed's table — Model | F1 | 適合率 |
  再現率 | ハルシネーション数, in % with one decimal — and a details table with the intervals.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.evaluate.metrics import bootstrap_indices, micro_multilabel, percentile_interval
from buildds.evaluate.prompts import render_prompt, template_sha256
from buildds.evaluate.tasks.base import TaskBase
from buildds.evaluate.tasks.jbe import prompt_sha256
from buildds.evaluate.tasks.rikai.classification_report import (
    plot_label_counts,
    plot_summary,
    render_leaderboard,
)
from buildds.evaluate.tasks.rikai.data import RikaiData, load_rikai_data
from buildds.schema.evaluation import ChatMessage, ChatRequest, ChatResult, SampleRecord

__all__ = [
    "HEADING",
    "NAME",
    "NO_CLAUSES",
    "ClauseAnswer",
    "ClauseClassificationTask",
    "bootstrap_micro",
    "build_messages",
    "build_requests",
    "parse_output",
    "render_answer",
    "sample_record",
    "score_classification",
]

NAME = "clause-classification"
SHOTS = (0,)
TEMPERATURE = 0.0
MAX_TOKENS = 1000
TEMPLATE = "clause_classification"
HEADING = "**Legal Clauses:**"
NO_CLAUSES = "No valid legal clauses found."
#: how many of the most frequent hallucinated labels metrics.json lists
TOP_HALLUCINATIONS = 20

_HEADING_RE = re.compile(r"^[ \t>#*_]*legal[ \t]+clauses[ \t*_]*[:：]?[ \t*_]*(?P<rest>.*?)\s*$",
                         re.IGNORECASE)
#: a list item: ``-``/``•``/``・`` …, ``*``/``+`` and a space, ``1.``/``1)``/``（1）``/``①``
_ITEM_RE = re.compile(r"^\s*(?:[-•・●▪◦‣]|[*+](?=\s)|\(?\d{1,3}[.)．）]|（\d{1,3}）|[①-⑳])"
                      r"\s*(?P<label>.*?)\s*$")
_NO_CLAUSES_RE = re.compile(r"no\s+valid\s+legal\s+clauses?\s+(?:were\s+)?found", re.IGNORECASE)
_WRAPPERS = (("**", "**"), ("__", "__"), ("`", "`"), ("「", "」"), ("『", "』"), ('"', '"'),
             ("“", "”"), ("'", "'"))


# --------------------------------------------------------------------------- prompt
def build_messages(item: Mapping[str, Any], inventory: Sequence[str]
                   ) -> tuple[ChatMessage, ...]:
    """The seed's template with every label as ``candidate_labels``, as one user turn."""
    text = item.get("text")
    if not isinstance(text, str) or not text.strip():
        raise BuildError(f"item {item.get('id')!r}: no clause text")
    prompt = render_prompt(TEMPLATE, candidate_labels=list(inventory), text=text)
    return (ChatMessage(role="user", content=prompt),)


def build_requests(data: RikaiData, shots: int = 0, *, limit: int | None = None
                   ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
    """The evaluation items (the first ``limit`` in id order) and one request per item."""
    if shots not in SHOTS:
        raise BuildError(f"clause classification is evaluated zero-shot (the seed's "
                         f"setting); got shots={shots}")
    if not data.label_inventory:
        raise BuildError("the export has no label inventory")
    items = list(data.evaluation)
    if limit is not None:
        items = items[:max(0, limit)]
    requests = [ChatRequest(messages=build_messages(it, data.label_inventory),
                            temperature=TEMPERATURE, max_tokens=MAX_TOKENS,
                            sample_id=str(it["id"])) for it in items]
    return items, requests


def render_answer(labels: Iterable[str]) -> str:
    """Labels written as the prompt asks: the heading and a ``-`` list, or
    ``No valid legal clauses found.`` for none (duplicates dropped, order kept)."""
    unique = list(dict.fromkeys(str(lab) for lab in labels))
    if not unique:
        return NO_CLAUSES
    return "\n".join([HEADING, *(f"- {lab}" for lab in unique)])


# --------------------------------------------------------------------------- parser
@dataclass(frozen=True)
class ClauseAnswer:
    #: the labels read from the output (in output order), None when it could not be read
    labels: tuple[str, ...] | None
    #: why the output could not be read
    error: str | None = None

    @property
    def predicted(self) -> set[str]:
        """What is scored: the labels, or no label for an unparsed output."""
        return set(self.labels or ())


def _clean_label(text: str) -> str:
    """Whitespace, and ``**``/``__``/backticks/quotes around the whole label, stripped."""
    label = text.strip()
    changed = True
    while changed and label:
        changed = False
        for left, right in _WRAPPERS:
            if len(label) > len(left) + len(right) and label.startswith(left) \
                    and label.endswith(right):
                label = label[len(left):-len(right)].strip()
                changed = True
    return label


def _unique(labels: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(lab for lab in (_clean_label(x) for x in labels) if lab))


def _is_fence(line: str) -> bool:
    return line.strip().startswith("```")


def _list_after(lines: Sequence[str], rest: str) -> list[str]:
    """The list under the heading: ``-``/numbered items (blank lines between them allowed),
    or plain lines up to the first blank line; it ends at the first line of another kind."""
    items: list[str] = []
    if rest:
        m = _ITEM_RE.match(rest)
        items.append(m["label"] if m else rest)
    mode: str | None = None
    for line in lines:
        if _is_fence(line):
            continue
        if not line.strip():
            if mode == "plain":
                break
            continue
        m = _ITEM_RE.match(line)
        if m:
            if mode == "plain":
                break
            mode = "bullets"
            items.append(m["label"])
            continue
        if mode == "bullets" or _NO_CLAUSES_RE.search(line) or line.lstrip().startswith("#"):
            break
        mode = "plain"
        items.append(line)
    return items


def parse_output(text: str | None) -> ClauseAnswer:
    """Read the labels of an answer (see the module doc for the rules)."""
    if text is None or not text.strip():
        return ClauseAnswer(None, "unparsed: empty output")
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _HEADING_RE.match(line)
        if m is None:
            continue
        labels = _unique(_list_after(lines[i + 1:], m["rest"]))
        if labels or _NO_CLAUSES_RE.search(text):
            return ClauseAnswer(labels)
        return ClauseAnswer(None, "unparsed: the Legal Clauses heading has no list")
    if _NO_CLAUSES_RE.search(text):
        return ClauseAnswer(())
    body = [ln for ln in lines if ln.strip() and not _is_fence(ln)]
    matches = [_ITEM_RE.match(ln) for ln in body]
    if body and all(matches):
        return ClauseAnswer(_unique(m["label"] for m in matches if m))
    return ClauseAnswer(None, "unparsed: no **Legal Clauses:** list and no "
                              "'No valid legal clauses found.'")


def sample_record(item: Mapping[str, Any], request: ChatRequest, result: ChatResult
                  ) -> SampleRecord:
    """One samples.jsonl line: ``parsed`` is the label list (None when unparsed), ``score``
    1.0 when the predicted set equals the gold set, ``error`` the backend's or the parser's."""
    answer = parse_output(result.text)
    gold = [str(x) for x in item["labels"]]
    return SampleRecord(
        id=str(item["id"]), prompt_sha256=prompt_sha256(request), raw_output=result.text,
        parsed=list(answer.labels) if answer.labels is not None else None,
        score=1.0 if answer.predicted == set(gold) else 0.0,
        error=result.error or answer.error, gold=gold, cached=result.cached)


# --------------------------------------------------------------------------- scorer
def _round(x: float) -> float:
    return round(float(x), 6)


def bootstrap_micro(gold: Sequence[Iterable[str]], pred: Sequence[Iterable[str]], *,
                    n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95
                    ) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of micro precision, recall, F1 and exact-match
    accuracy: the items are resampled (the same draws as
    :func:`buildds.evaluate.metrics.bootstrap_ci` with this seed), vectorised."""
    import numpy as np

    n = len(gold)
    keys = ("precision", "recall", "f1", "exact_match")
    if n == 0:
        return {k: (0.0, 0.0) for k in keys}
    sets = [(set(g), set(p)) for g, p in zip(gold, pred, strict=True)]
    tp = np.array([len(g & p) for g, p in sets], dtype=float)
    fp = np.array([len(p - g) for g, p in sets], dtype=float)
    fn = np.array([len(g - p) for g, p in sets], dtype=float)
    exact = np.array([g == p for g, p in sets], dtype=float)
    idx = bootstrap_indices(n, n_resamples, seed)
    stp, sfp, sfn = tp[idx].sum(axis=1), fp[idx].sum(axis=1), fn[idx].sum(axis=1)

    def ratio(num: Any, den: Any) -> Any:
        return np.divide(num, den, out=np.zeros_like(num), where=den > 0)

    prec, rec = ratio(stp, stp + sfp), ratio(stp, stp + sfn)
    f1 = ratio(2 * prec * rec, prec + rec)
    stats = {"precision": prec, "recall": rec, "f1": f1, "exact_match": exact[idx].mean(axis=1)}
    return {k: percentile_interval(v, confidence) for k, v in stats.items()}


def _count_distribution(sets: Iterable[set[str]]) -> dict[str, int]:
    counts = Counter(len(s) for s in sets)
    return {str(k): counts[k] for k in sorted(counts)}


def score_classification(items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord],
                         inventory: Iterable[str], *, seed: int = 0, n_resamples: int = 1000,
                         confidence: float = 0.95) -> dict[str, Any]:
    """Micro P/R/F1, hallucinations and the rest over the scored items (module doc)."""
    if len(items) != len(records):
        raise ValueError(f"{len(items)} items but {len(records)} records")
    inv = list(inventory)
    inv_set = set(inv)
    gold = [{str(x) for x in it["labels"]} for it in items]
    pred = [set(r.parsed or ()) for r in records]
    scores = micro_multilabel(gold, pred, inv_set)
    hallucinated = Counter(lab for p in pred for lab in p if lab not in inv_set)
    ci = bootstrap_micro(gold, pred, n_resamples=n_resamples, seed=seed, confidence=confidence)
    n = len(items)
    return {
        "n": n,
        "f1": _round(scores.f1), "precision": _round(scores.precision),
        "recall": _round(scores.recall),
        "tp": scores.tp, "fp": scores.fp, "fn": scores.fn,
        "hallucinations": scores.hallucinations,
        "hallucinated_labels": len(hallucinated),
        "top_hallucinations": [[lab, c] for lab, c in sorted(
            hallucinated.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_HALLUCINATIONS]],
        "exact_match": _round(sum(1 for g, p in zip(gold, pred, strict=True) if g == p) / n
                              if n else 0.0),
        "unparsed": sum(1 for r in records if r.parsed is None),
        "no_label_answers": sum(1 for r in records if r.parsed == []),
        "errors": sum(1 for r in records if r.error and r.raw_output is None),
        "inventory_size": len(inv),
        "labels_per_item": {"gold": _round(sum(map(len, gold)) / n if n else 0.0),
                            "predicted": _round(sum(map(len, pred)) / n if n else 0.0)},
        "label_count_distribution": {"gold": _count_distribution(gold),
                                     "predicted": _count_distribution(pred)},
        "ci": {k: [_round(v) for v in ci[k]] for k in ("f1", "precision", "recall",
                                                        "exact_match")},
        "bootstrap": {"resamples": n_resamples, "confidence": confidence, "seed": seed,
                      "method": "percentile", "unit": "item"},
    }


# --------------------------------------------------------------------------- task object
class ClauseClassificationTask(TaskBase):
    """Clause classification as the runner uses it (see the module doc)."""

    name = NAME
    shots = SHOTS
    headline = "f1"
    cross_fit = False

    def __init__(self) -> None:
        self.inventory: list[str] = []

    def load(self, path: str | Path) -> RikaiData:
        data = load_rikai_data(path, "classification")
        self.inventory = list(data.label_inventory)
        return data

    def build_requests(self, data: RikaiData, shots: int, limit: int | None = None
                       ) -> tuple[list[dict[str, Any]], list[ChatRequest]]:
        return build_requests(data, shots, limit=limit)

    def training_items(self, data: RikaiData) -> list[dict[str, Any]]:
        """Baselines learn from the development split only."""
        return list(data.development)

    def baseline_options(self) -> dict[str, Any]:
        return {"label_field": "labels", "text_field": "text", "answer_format": render_answer}

    def reference_answer(self, item: Mapping[str, Any]) -> str:
        return render_answer(item["labels"])

    def sample_record(self, item: Mapping[str, Any], request: ChatRequest,
                      result: ChatResult) -> SampleRecord:
        return sample_record(item, request, result)

    def score(self, items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
              seed: int = 0) -> dict[str, Any]:
        if not self.inventory:
            raise BuildError("load the export before scoring (no label inventory)")
        return score_classification(items, records, self.inventory, seed=seed)

    def template_hashes(self) -> dict[str, str]:
        return {f"{TEMPLATE}.md.j2": template_sha256(f"{TEMPLATE}.md.j2")}

    def title(self) -> str:
        return "LegalRikai clause classification leaderboard"

    def render_leaderboard(self, entries: Sequence[Mapping[str, Any]], *,
                           dataset: Mapping[str, Any] | None = None) -> str:
        return render_leaderboard(entries, title=self.title(), dataset=dataset)

    def run_plots(self, metrics: Mapping[str, Any], title: str) -> dict[str, bytes]:
        return {"label_counts.png": plot_label_counts(metrics, title)}

    def summary_plots(self, entries: Sequence[Mapping[str, Any]]) -> dict[str, bytes]:
        return {"clause_classification.png": plot_summary(entries)} if entries else {}
