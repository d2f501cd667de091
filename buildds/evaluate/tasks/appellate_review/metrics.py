"""Metrics of the appellate-review task (seed 003, AR-Bench, section 3.2 and appendix B.3).

* detection and classification — Accuracy (Acc), macro precision / recall / F1 (MaP, MaR,
  MaF1) over the task's classes, and the instruction-following rate (IF: the share of
  outputs the parser could read). An output that did not follow the format is wrong: it is a
  false negative of its gold class and a false positive of no class (it predicts nothing);
* correction — "the aforementioned classification metrics are used for corrections
  pertaining to criminal charges, whereas the classification metrics, ImpScore and Acc@0.1
  (Chen et al., 2019) are employed to evaluate those addressing prison terms and fines":

  - charge: the predicted set of charges is one class label (exact set match); macro over
    the labels in gold or prediction (scikit-learn's default label set);
  - prison term / fine: the classification metrics over *intervals* (the seed's "interval-
    based classification"; it gives no intervals, so we use the prison-term intervals of the
    legal-judgment-prediction work it compares with — TopJudge/LADAN/NeurJudge: 0, ≤6, ≤9,
    ≤12, ≤24, ≤36, ≤60, ≤84, ≤120, >120 months — and, for fines, our own: ≤1k, ≤3k, ≤5k,
    ≤10k, ≤20k, ≤50k, ≤100k, ≤500k, >500k yuan), plus :func:`impscore`, Acc@0.1
    (:func:`buildds.evaluate.metrics.acc_within`) and the exact-match rate;
  - the overall correction Acc/MaP/MaR/MaF1 pool the three label spaces (a charge label,
    ``term:<interval>``, ``fine:<interval>``) — the seed reports one row per model;

* the seed's own protocol left unparsable outputs out of the calculation (appendix B.3); we
  count them as wrong and report the seed's figure as well (``followed_only``).

Bootstrap: seeded percentile intervals (1,000 resamples of the scored items, 95%); the
macro metrics are resampled vectorised (:func:`bootstrap_macro`), with scikit-learn's label
set per resample (labels present in the resample's gold or predictions). With an open label
set of many rare classes (charge corrections) a resample often drops a rare, missed class, so
the interval of the macro figures can sit above the point estimate: it is the bootstrap of
the statistic as defined, not a bug.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from buildds.evaluate.metrics import (
    acc_within,
    accuracy,
    bootstrap_indices,
    macro_prf,
    percentile_interval,
)
from buildds.evaluate.metrics import bootstrap_mean as _bootstrap_mean

__all__ = [
    "FINE_BINS",
    "TERM_BINS",
    "bin_label",
    "bootstrap_macro",
    "bootstrap_mean",
    "classification_block",
    "confusion_matrix",
    "impscore",
    "impscores",
    "macro_scores",
    "numeric_block",
]

#: prison-term intervals in months: (upper bound inclusive, label); the last is open
TERM_BINS: tuple[tuple[float, str], ...] = (
    (0, "0"), (6, "1-6"), (9, "7-9"), (12, "10-12"), (24, "13-24"), (36, "25-36"),
    (60, "37-60"), (84, "61-84"), (120, "85-120"), (math.inf, ">120"))
#: fine intervals in yuan (our choice: the seed gives none)
FINE_BINS: tuple[tuple[float, str], ...] = (
    (1_000, "<=1k"), (3_000, "1k-3k"), (5_000, "3k-5k"), (10_000, "5k-10k"),
    (20_000, "10k-20k"), (50_000, "20k-50k"), (100_000, "50k-100k"), (500_000, "100k-500k"),
    (math.inf, ">500k"))
_INVALID = -1


def bin_label(value: float | None, bins: Sequence[tuple[float, str]]) -> str | None:
    """The interval label of ``value`` (None for None)."""
    if value is None:
        return None
    for upper, label in bins:
        if value <= upper:
            return label
    return bins[-1][1]  # pragma: no cover - the last bound is infinite


def impscore(gold: float, pred: float | None) -> float:
    """ImpScore of one prediction (CAIL2018's prison-term score, the metric seed 003 takes
    from Chen et al., 2019 — the seed names it without restating the formula)::

        v = |ln(pred + 1) − ln(gold + 1)|
        score = 1.0 if v ≤ 0.2, 0.8 if v ≤ 0.4, 0.6 if v ≤ 0.6, 0.4 if v ≤ 0.8,
                0.2 if v ≤ 1.0, else 0.0

    A missing prediction (None) or a negative one scores 0."""
    if pred is None or pred < 0 or gold < 0:
        return 0.0
    v = abs(math.log(pred + 1) - math.log(gold + 1))
    for bound, score in ((0.2, 1.0), (0.4, 0.8), (0.6, 0.6), (0.8, 0.4), (1.0, 0.2)):
        if v <= bound + 1e-12:
            return score
    return 0.0


def impscores(gold: Sequence[float], pred: Sequence[float | None]) -> list[float]:
    return [impscore(g, p) for g, p in zip(gold, pred, strict=True)]


def _round(x: float) -> float:
    return round(float(x), 6)


def _labels(gold: Sequence[Hashable], pred: Sequence[Hashable | None],
            labels: Sequence[Hashable] | None) -> list[Hashable]:
    if labels is not None:
        return list(labels)
    return sorted({*gold, *(p for p in pred if p is not None)}, key=repr)


def macro_scores(gold: Sequence[Hashable], pred: Sequence[Hashable | None],
                 labels: Sequence[Hashable] | None = None) -> dict[str, float]:
    """Acc and macro P/R/F1; a None prediction (format not followed) is wrong and predicts
    no class. ``labels`` default: every label in gold or the valid predictions."""
    labs = _labels(gold, pred, labels)
    prf = macro_prf(gold, pred, labels=labs)
    return {"accuracy": accuracy(gold, pred), "macro_precision": prf.precision,
            "macro_recall": prf.recall, "macro_f1": prf.f1}


# --------------------------------------------------------------------------- bootstrap
def _pct(values: Any, confidence: float) -> list[float]:
    return [_round(v) for v in percentile_interval(values, confidence)]


def bootstrap_mean(values: Sequence[float], *, n_resamples: int = 1000, seed: int = 0,
                   confidence: float = 0.95) -> list[float]:
    """Percentile interval of the mean of per-item values (Acc, IF rate, ImpScore …),
    rounded, as metrics.json holds it."""
    return [_round(v) for v in _bootstrap_mean(values, n_resamples=n_resamples, seed=seed,
                                                confidence=confidence)]


def bootstrap_macro(gold: Sequence[Hashable], pred: Sequence[Hashable | None], *,
                    labels: Sequence[Hashable] | None = None, n_resamples: int = 1000,
                    seed: int = 0, confidence: float = 0.95) -> dict[str, list[float]]:
    """Percentile intervals of macro P/R/F1, vectorised. With ``labels`` the macro averages
    over those labels in every resample; without, over the labels present in the resample's
    gold or valid predictions (what :func:`macro_scores` computes on it)."""
    import numpy as np

    n = len(gold)
    if n == 0:
        return {k: [0.0, 0.0] for k in ("macro_precision", "macro_recall", "macro_f1")}
    labs = _labels(gold, pred, labels)
    code = {lab: i for i, lab in enumerate(labs)}
    k = len(labs)
    g = np.asarray([code.get(x, _INVALID) for x in gold])
    p = np.asarray([code.get(x, _INVALID) if x is not None else _INVALID for x in pred])
    idx = bootstrap_indices(n, n_resamples, seed)
    gi, pi = g[idx], p[idx]
    rows = np.arange(n_resamples)[:, None] * k

    def counts(codes: Any, mask: Any) -> Any:
        flat = (rows + codes)[mask]
        return np.bincount(flat, minlength=n_resamples * k).reshape(n_resamples, k)

    gold_n = counts(gi, gi >= 0).astype(float)
    pred_n = counts(pi, pi >= 0).astype(float)
    tp = counts(gi, (gi == pi) & (gi >= 0)).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(pred_n > 0, tp / np.where(pred_n > 0, pred_n, 1), 0.0)
        rec = np.where(gold_n > 0, tp / np.where(gold_n > 0, gold_n, 1), 0.0)
        f1 = np.where(prec + rec > 0, 2 * prec * rec / np.where(prec + rec > 0, prec + rec, 1),
                      0.0)
    present = np.ones_like(gold_n) if labels is not None else ((gold_n + pred_n) > 0) * 1.0
    width = np.maximum(present.sum(axis=1), 1)
    return {name: _pct((m * present).sum(axis=1) / width, confidence)
            for name, m in (("macro_precision", prec), ("macro_recall", rec), ("macro_f1", f1))}


# --------------------------------------------------------------------------- blocks
def confusion_matrix(gold: Sequence[Hashable], pred: Sequence[Hashable | None],
                     labels: Sequence[Hashable]) -> dict[str, Any]:
    """Rows gold, columns predicted (``labels`` then ``invalid``: format not followed)."""
    cols = [*labels, None]
    matrix = [[sum(1 for g, p in zip(gold, pred, strict=True) if g == lab and p == c)
               for c in cols] for lab in labels]
    return {"labels": [str(x) for x in labels], "columns": [*map(str, labels), "invalid"],
            "matrix": matrix}


def classification_block(gold: Sequence[Hashable], pred: Sequence[Hashable | None], *,
                         labels: Sequence[Hashable] | None = None, seed: int = 0,
                         n_resamples: int = 1000, confidence: float = 0.95,
                         with_ci: bool = True) -> dict[str, Any]:
    """n, Acc, MaP/MaR/MaF1, IF rate, the seed's followed-only figures and 95% intervals."""
    followed = [p is not None for p in pred]
    out: dict[str, Any] = {"n": len(gold),
                           **{k: _round(v) for k, v in macro_scores(gold, pred, labels).items()},
                           "if_rate": _round(sum(followed) / len(gold)) if gold else 0.0}
    kept = [i for i, f in enumerate(followed) if f]
    fo = macro_scores([gold[i] for i in kept], [pred[i] for i in kept], labels)
    out["followed_only"] = {"n": len(kept), **{k: _round(v) for k, v in fo.items()}}
    if with_ci:
        kw: dict[str, Any] = {"n_resamples": n_resamples, "seed": seed,
                              "confidence": confidence}
        hits = [1.0 if g == p else 0.0 for g, p in zip(gold, pred, strict=True)]
        out["ci"] = {"accuracy": bootstrap_mean(hits, **kw),
                     "if_rate": bootstrap_mean([float(f) for f in followed], **kw),
                     **bootstrap_macro(gold, pred, labels=labels, **kw)}
    return out


def numeric_block(gold: Sequence[float], pred: Sequence[float | None],
                  bins: Sequence[tuple[float, str]], *, seed: int = 0, n_resamples: int = 1000,
                  confidence: float = 0.95, with_ci: bool = True) -> dict[str, Any]:
    """A prison-term or fine correction: interval classification metrics, ImpScore, Acc@0.1
    and the exact-match rate."""
    gold_bins = [bin_label(g, bins) for g in gold]
    pred_bins = [bin_label(p, bins) for p in pred]
    out = classification_block(gold_bins, pred_bins, seed=seed, n_resamples=n_resamples,
                               confidence=confidence, with_ci=with_ci)
    imp = impscores(gold, pred)
    within = [1.0 if acc_within([g], [p]) else 0.0 for g, p in zip(gold, pred, strict=True)]
    exact = [1.0 if p is not None and p == g else 0.0 for g, p in zip(gold, pred, strict=True)]
    n = len(gold)
    out.update(impscore=_round(sum(imp) / n) if n else 0.0,
               acc_at_0_1=_round(sum(within) / n) if n else 0.0,
               exact=_round(sum(exact) / n) if n else 0.0)
    if with_ci:
        kw: dict[str, Any] = {"n_resamples": n_resamples, "seed": seed,
                              "confidence": confidence}
        out["ci"].update(impscore=bootstrap_mean(imp, **kw),
                         acc_at_0_1=bootstrap_mean(within, **kw))
    return out
