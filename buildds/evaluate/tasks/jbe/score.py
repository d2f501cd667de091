"""Parsing and scoring JBE-QA answers (seed 001, section 3).

* parser: exactly ``1`` or ``0`` after stripping whitespace is a faithful answer; anything
  else the model wrote (an explanation, an empty answer) is unfaithful and counts as 0
  (False) — the seed's convention, kept as the headline figures;
* a *failed request* is not an answer: the runner gives it no parsed value and no score
  and leaves it out of the metrics (:mod:`buildds.evaluate.runner.answered`);
* scorer, over the answered samples: F1 (positive = True), precision, recall, accuracy,
  faithfulness, per-subject F1 (Cvl/Cst/Pen) and seeded percentile-bootstrap 95% intervals
  (the seed's convention: an unfaithful answer counts as 0); beside them ``parsed_only``,
  F1 and accuracy over the faithful answers alone, and ``convention`` naming the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from buildds.evaluate.metrics import (
    accuracy,
    binary_counts,
    binary_prf,
    bootstrap_binary,
    faithfulness,
)
from buildds.evaluate.tasks.jbe.prompt import gold_answer, prompt_sha256
from buildds.schema.evaluation import ChatRequest, ChatResult, SampleRecord

__all__ = ["SUBJECT_ABBR", "SUBJECT_ORDER", "UNPARSEABLE_CONVENTION", "Parsed", "parse_output", "sample_record",
           "score_jbe"]

#: Table 3's column names, by the ``subject`` field (English) and ``subject_jp``
SUBJECT_ABBR = {"Civil Code": "Cvl", "Constitution": "Cst", "Penal Code": "Pen",
                "民法": "Cvl", "憲法": "Cst", "刑法": "Pen"}
SUBJECT_ORDER = ("Cvl", "Cst", "Pen")
#: how the headline figures score an answer that is not exactly 1 or 0 (seed 001, §3)
UNPARSEABLE_CONVENTION = "seed 001: an unparseable answer counts as 0 (False)"


@dataclass(frozen=True)
class Parsed:
    #: the prediction used for scoring (an unfaithful output counts as False)
    prediction: bool
    #: the output was exactly 1 or 0
    faithful: bool

    @property
    def value(self) -> int | None:
        """1/0 for a faithful output, None otherwise (what samples.jsonl stores)."""
        return int(self.prediction) if self.faithful else None


def parse_output(text: str | None) -> Parsed:
    """``"1"``/``"0"`` after stripping whitespace → a faithful answer; anything else → not
    faithful, counted as 0 (seed 001, section 3)."""
    answer = text.strip() if isinstance(text, str) else None
    if answer == "1":
        return Parsed(True, True)
    if answer == "0":
        return Parsed(False, True)
    return Parsed(False, False)


def sample_record(item: Mapping[str, Any], request: ChatRequest, result: ChatResult
                  ) -> SampleRecord:
    parsed = parse_output(result.text)
    gold = gold_answer(item)
    return SampleRecord(id=str(item["id"]), prompt_sha256=prompt_sha256(request),
                        raw_output=result.text, parsed=parsed.value,
                        score=1.0 if parsed.prediction == gold else 0.0, error=result.error,
                        gold=gold, cached=result.cached)


def _round(x: float) -> float:
    return round(float(x), 6)


def _block(gold: Sequence[bool], pred: Sequence[bool], faithful: Sequence[bool], *,
           seed: int, n_resamples: int, confidence: float) -> dict[str, Any]:
    prf = binary_prf(gold, pred)
    c = binary_counts(gold, pred)
    ci = bootstrap_binary(gold, pred, n_resamples=n_resamples, seed=seed, confidence=confidence)
    # the share of faithful outputs is the accuracy of "always True" against the flags
    ci_faith = bootstrap_binary(list(faithful), [True] * len(faithful), n_resamples=n_resamples,
                                seed=seed, confidence=confidence)["accuracy"]
    return {
        "n": len(gold),
        "f1": _round(prf.f1), "precision": _round(prf.precision), "recall": _round(prf.recall),
        "accuracy": _round(accuracy(gold, pred)), "faithfulness": _round(faithfulness(faithful)),
        "confusion": {"tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn},
        "ci": {"f1": [_round(v) for v in ci["f1"]],
               "accuracy": [_round(v) for v in ci["accuracy"]],
               "faithfulness": [_round(v) for v in ci_faith]},
    }


def score_jbe(items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
              seed: int = 0, n_resamples: int = 1000, confidence: float = 0.95
              ) -> dict[str, Any]:
    """Metrics over the scored samples: overall and per subject (Cvl/Cst/Pen)."""
    if len(items) != len(records):
        raise ValueError(f"{len(items)} items but {len(records)} records")
    gold = [gold_answer(it) for it in items]
    pred = [r.parsed == 1 for r in records]
    faithful = [r.parsed is not None for r in records]
    out = _block(gold, pred, faithful, seed=seed, n_resamples=n_resamples, confidence=confidence)
    out["errors"] = sum(1 for r in records if r.error)
    per: dict[str, dict[str, Any]] = {}
    subjects = [SUBJECT_ABBR.get(str(it.get("subject")),
                                 SUBJECT_ABBR.get(str(it.get("subject_jp")),
                                                  str(it.get("subject"))))
                for it in items]
    for abbr in [*SUBJECT_ORDER, *sorted(set(subjects) - set(SUBJECT_ORDER))]:
        idx = [i for i, s in enumerate(subjects) if s == abbr]
        if not idx:
            continue
        per[abbr] = _block([gold[i] for i in idx], [pred[i] for i in idx],
                           [faithful[i] for i in idx], seed=seed, n_resamples=n_resamples,
                           confidence=confidence)
        per[abbr].pop("confusion")
    out["per_subject"] = per
    read = [i for i, f in enumerate(faithful) if f]
    out["convention"] = UNPARSEABLE_CONVENTION
    out["parsed_only"] = {
        "n": len(read),
        "f1": _round(binary_prf([gold[i] for i in read], [pred[i] for i in read]).f1)
        if read else None,
        "accuracy": _round(accuracy([gold[i] for i in read], [pred[i] for i in read]))
        if read else None}
    out["bootstrap"] = {"resamples": n_resamples, "confidence": confidence, "seed": seed,
                        "method": "percentile"}
    return out

