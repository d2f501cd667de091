"""Scoring of the appellate-review task: class labels of answers and the metrics.json blocks.

* :func:`correction_label` / :func:`predicted_label` — the class label a gold value or a
  parsed answer stands for (detection 1/0, classification class id, correction: the charge
  set, ``term:<interval>`` or ``fine:<interval>``; None for an output that did not follow
  the format);
* :func:`score_items` — one run's metrics: pooled over the input settings, per setting (when
  several), per correction target, per error type (seed 003's Figure 4), with bootstrap CIs.
  The metric definitions are in :mod:`~buildds.evaluate.tasks.appellate_review.metrics`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from buildds.evaluate.tasks.appellate_review import metrics as arm
from buildds.evaluate.tasks.appellate_review import parse as arp
from buildds.schema.evaluation import SampleRecord

__all__ = ["correction_label", "predicted_label", "score_items"]

_ERROR_TYPES = ("none", "E1", "E2", "E3", "E4", "E5", "E6")


def correction_label(target: str, gold: Any) -> str | None:
    """The pooled class label of a correction (charge set, ``term:…``, ``fine:…``)."""
    if gold is None:
        return None
    if target == "charge":
        return arp.charge_label(gold)
    if target == "prison_term":
        return "term:" + str(arm.bin_label(gold, arm.TERM_BINS))
    return "fine:" + str(arm.bin_label(gold, arm.FINE_BINS))


def predicted_label(item: Mapping[str, Any], parsed: Any, subtask: str) -> Any:
    """The class label a parsed answer stands for (None: format not followed)."""
    if parsed is None:
        return None
    if subtask != "correction":
        return parsed
    value = tuple(parsed) if item["target"] == "charge" else parsed
    return correction_label(str(item["target"]), value)


# --------------------------------------------------------------------------- scoring
def _block(items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], subtask: str,
           seed: int) -> dict[str, Any]:
    gold = [it["label"] for it in items]
    pred = [predicted_label(it, r.parsed, subtask) for it, r in zip(items, records, strict=True)]
    fixed: dict[str, list[Any]] = {"detection": [1, 0], "classification": list(arp.CLASSES)}
    labels = fixed.get(subtask)
    out = arm.classification_block(gold, pred, labels=labels, seed=seed)
    if labels is not None:
        out["confusion_matrix"] = arm.confusion_matrix(gold, pred, labels)
    if subtask == "correction":
        out["per_target"] = {t: _target_block(items, records, t, seed) for t in arp.TARGETS
                             if any(it["target"] == t for it in items)}
    return out


def _target_block(items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord],
                  target: str, seed: int) -> dict[str, Any]:
    idx = [i for i, it in enumerate(items) if it["target"] == target]
    if target == "charge":
        gold = [items[i]["label"] for i in idx]
        pred = [predicted_label(items[i], records[i].parsed, "correction") for i in idx]
        return arm.classification_block(gold, pred, seed=seed)
    bins = arm.TERM_BINS if target == "prison_term" else arm.FINE_BINS
    return arm.numeric_block([items[i]["gold"] for i in idx], [records[i].parsed for i in idx],
                             bins, seed=seed)


def _per_error_type(items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord],
                    subtask: str) -> dict[str, dict[str, Any]]:
    """Seed Figure 4: per error type, the share answered right and the IF rate (and, for
    prison-term/fine corrections, ImpScore and Acc@0.1)."""
    out: dict[str, dict[str, Any]] = {}
    for et in _ERROR_TYPES:
        idx = [i for i, it in enumerate(items) if it["error_type"] == et]
        if not idx:
            continue
        n = len(idx)
        row: dict[str, Any] = {
            "n": n, "accuracy": round(sum(float(records[i].score or 0) for i in idx) / n, 6),
            "if_rate": round(sum(records[i].parsed is not None for i in idx) / n, 6)}
        numeric = [i for i in idx if items[i]["target"] in ("prison_term", "fine")]
        if subtask == "correction" and numeric:
            gold = [items[i]["gold"] for i in numeric]
            pred = [records[i].parsed for i in numeric]
            row["impscore"] = round(sum(arm.impscores(gold, pred)) / len(numeric), 6)
            row["acc_at_0_1"] = round(
                sum(1 for g, p in zip(gold, pred, strict=True)
                    if p is not None and abs(p - g) <= 0.1 * abs(g) + 1e-9) / len(numeric), 6)
        out[et] = row
    return out


def score_items(items: Sequence[Mapping[str, Any]], records: Sequence[SampleRecord], *,
                subtask: str, settings: Sequence[str], seed: int = 0) -> dict[str, Any]:
    """metrics.json of one run: pooled over the settings, per setting (when several), per
    error type, with 95% percentile-bootstrap intervals."""
    if len(items) != len(records):
        raise ValueError(f"{len(items)} items but {len(records)} records")
    out = {"subtask": subtask, "settings": list(settings),
           **_block(items, records, subtask, seed)}
    if len(settings) > 1:
        out["per_setting"] = {}
        for s in settings:
            idx = [i for i, it in enumerate(items) if it["setting"] == s]
            out["per_setting"][s] = _block([items[i] for i in idx], [records[i] for i in idx],
                                           subtask, seed)
    out["per_error_type"] = _per_error_type(items, records, subtask)
    out["errors"] = sum(1 for r in records if r.error)
    out["bootstrap"] = {"resamples": 1000, "confidence": 0.95, "seed": seed,
                        "method": "percentile", "unit": "item"}
    return out
