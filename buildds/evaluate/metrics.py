"""Evaluation metrics: pure functions over gold and predicted values.

* binary classification (seed 001, JBE-QA): :func:`binary_prf` (positive class = ``True``),
  :func:`accuracy`, :func:`faithfulness` (the share of outputs that followed the format);
* multi-class: :func:`macro_prf`;
* multi-label with a label inventory (seed 000, clause classification): :func:`micro_multilabel`,
  which also counts *hallucinated* labels — predicted labels outside the inventory (they are
  false positives too);
* numbers: :func:`acc_within` (Acc@0.1: the prediction is within ±10% of the gold value);
* :func:`bootstrap_ci`: seeded percentile bootstrap (1,000 resamples, 95%) of any metric,
  :func:`bootstrap_binary`, its vectorised form for binary P/R/F1/accuracy, and
  :func:`bootstrap_mean` for a mean of per-item values; vectorised bootstraps elsewhere draw
  the same resamples with :func:`bootstrap_indices` and read :func:`percentile_interval`.

Zero-division convention (as scikit-learn's ``zero_division=0``): precision is 0 when nothing
is predicted positive, recall is 0 when nothing is gold positive, F1 is 0 when both are 0.

ImpScore (seed 003) lives with the appellate-review task
(:mod:`buildds.evaluate.tasks.appellate_review.metrics`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "PRF",
    "BinaryCounts",
    "MultiLabelScores",
    "acc_within",
    "accuracy",
    "binary_counts",
    "binary_prf",
    "bootstrap_binary",
    "bootstrap_ci",
    "bootstrap_indices",
    "bootstrap_mean",
    "faithfulness",
    "macro_prf",
    "micro_multilabel",
    "percentile_interval",
]


def _div(num: float, den: float) -> float:
    return num / den if den else 0.0


def _f1(p: float, r: float) -> float:
    return _div(2 * p * r, p + r)


def _check_lengths(*seqs: Sequence[Any]) -> int:
    n = len(seqs[0])
    if any(len(s) != n for s in seqs):
        raise ValueError(f"length mismatch: {[len(s) for s in seqs]}")
    return n


@dataclass(frozen=True)
class BinaryCounts:
    tp: int
    fp: int
    fn: int
    tn: int

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn


@dataclass(frozen=True)
class PRF:
    precision: float
    recall: float
    f1: float

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


def binary_counts(gold: Sequence[bool], pred: Sequence[bool]) -> BinaryCounts:
    """tp/fp/fn/tn with ``True`` as the positive class (values are taken as truthy/falsy)."""
    _check_lengths(gold, pred)
    tp = fp = fn = tn = 0
    for g, p in zip(gold, pred, strict=True):
        g, p = bool(g), bool(p)
        if p and g:
            tp += 1
        elif p:
            fp += 1
        elif g:
            fn += 1
        else:
            tn += 1
    return BinaryCounts(tp, fp, fn, tn)


def _prf_from_counts(tp: int, fp: int, fn: int) -> PRF:
    p, r = _div(tp, tp + fp), _div(tp, tp + fn)
    return PRF(p, r, _f1(p, r))


def binary_prf(gold: Sequence[bool], pred: Sequence[bool]) -> PRF:
    """Precision, recall and F1 of the positive class ``True``."""
    c = binary_counts(gold, pred)
    return _prf_from_counts(c.tp, c.fp, c.fn)


def accuracy(gold: Sequence[Any], pred: Sequence[Any]) -> float:
    """Share of exact matches; 0.0 for no samples."""
    n = _check_lengths(gold, pred)
    return _div(sum(1 for g, p in zip(gold, pred, strict=True) if g == p), n)


def faithfulness(followed: Sequence[bool]) -> float:
    """Share of outputs that followed the required format (seed 001: a binary 1/0 output)."""
    return _div(sum(1 for f in followed if f), len(followed))


def macro_prf(gold: Sequence[Hashable], pred: Sequence[Hashable],
              labels: Sequence[Hashable] | None = None) -> PRF:
    """Macro-averaged P/R/F1 over ``labels`` (default: every label in gold or pred, sorted by
    repr). Macro F1 is the mean of the per-label F1s (scikit-learn's definition)."""
    _check_lengths(gold, pred)
    if labels is None:
        labels = sorted(set(gold) | set(pred), key=repr)
    if not labels:
        return PRF(0.0, 0.0, 0.0)
    ps, rs, fs = [], [], []
    for lab in labels:
        tp = sum(1 for g, p in zip(gold, pred, strict=True) if g == lab and p == lab)
        fp = sum(1 for g, p in zip(gold, pred, strict=True) if g != lab and p == lab)
        fn = sum(1 for g, p in zip(gold, pred, strict=True) if g == lab and p != lab)
        prf = _prf_from_counts(tp, fp, fn)
        ps.append(prf.precision)
        rs.append(prf.recall)
        fs.append(prf.f1)
    k = len(labels)
    return PRF(sum(ps) / k, sum(rs) / k, sum(fs) / k)


@dataclass(frozen=True)
class MultiLabelScores:
    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    fn: int
    #: predicted labels outside the inventory (counted in ``fp`` as well)
    hallucinations: int

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)


def micro_multilabel(gold: Sequence[Iterable[str]], pred: Sequence[Iterable[str]],
                     inventory: Iterable[str]) -> MultiLabelScores:
    """Micro P/R/F1 over per-sample label sets. A predicted label outside ``inventory`` is a
    hallucination: it counts as a false positive and in ``hallucinations``."""
    _check_lengths(gold, pred)
    inv = set(inventory)
    tp = fp = fn = hall = 0
    for g, p in zip(gold, pred, strict=True):
        gs, ps = set(g), set(p)
        tp += len(gs & ps)
        fp += len(ps - gs)
        fn += len(gs - ps)
        hall += len(ps - inv)
    prf = _prf_from_counts(tp, fp, fn)
    return MultiLabelScores(prf.precision, prf.recall, prf.f1, tp, fp, fn, hall)


def acc_within(gold: Sequence[float], pred: Sequence[float | None],
               tolerance: float = 0.1) -> float:
    """Acc@0.1: share of predictions with ``|pred - gold| <= tolerance * |gold|`` (a gold of 0
    needs an exact 0). A missing prediction (None) is wrong."""
    n = _check_lengths(gold, pred)
    hits = 0
    for g, p in zip(gold, pred, strict=True):
        if p is None:
            continue
        if abs(p - g) <= tolerance * abs(g) + 1e-12 * max(1.0, abs(g)):
            hits += 1
    return _div(hits, n)


# --------------------------------------------------------------------------- bootstrap
def percentile_interval(stats: Any, confidence: float) -> tuple[float, float]:
    """The (1-confidence)/2 and 1-(1-confidence)/2 percentiles of resampled statistics."""
    import numpy as np

    alpha = (1.0 - confidence) / 2.0
    lo, hi = np.percentile(np.asarray(stats, dtype=float), [100 * alpha, 100 * (1 - alpha)])
    return float(lo), float(hi)


def bootstrap_indices(n: int, n_resamples: int, seed: int) -> Any:
    """The rows of each resample: an ``(n_resamples, n)`` array drawn with replacement by
    ``numpy.random.default_rng(seed)`` (every bootstrap here draws these)."""
    import numpy as np

    return np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))


def bootstrap_ci(metric: Callable[..., float], *columns: Sequence[Any],
                 n_resamples: int = 1000, seed: int = 0,
                 confidence: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of ``metric(*columns)``: ``n_resamples`` resamples of the
    rows (with replacement, ``numpy.random.default_rng(seed)``), the metric on each, and the
    (1-confidence)/2 and 1-(1-confidence)/2 percentiles. (0.0, 0.0) for no rows."""
    n = _check_lengths(*columns)
    if n == 0:
        return (0.0, 0.0)
    idx = bootstrap_indices(n, n_resamples, seed)
    cols = [list(c) for c in columns]
    stats = [metric(*[[c[i] for i in row] for c in cols]) for row in idx.tolist()]
    return percentile_interval(stats, confidence)


def bootstrap_binary(gold: Sequence[bool], pred: Sequence[bool], *,
                     n_resamples: int = 1000, seed: int = 0,
                     confidence: float = 0.95) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of binary precision, recall, F1 and accuracy, all from
    the same resamples. Gives the same intervals as :func:`bootstrap_ci` with the same seed,
    only vectorised."""
    import numpy as np

    n = _check_lengths(gold, pred)
    if n == 0:
        return {k: (0.0, 0.0) for k in ("precision", "recall", "f1", "accuracy")}
    idx = bootstrap_indices(n, n_resamples, seed)
    g = np.asarray([bool(x) for x in gold])[idx]
    p = np.asarray([bool(x) for x in pred])[idx]
    tp = (g & p).sum(axis=1).astype(float)
    fp = (~g & p).sum(axis=1).astype(float)
    fn = (g & ~p).sum(axis=1).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(tp + fp > 0, tp / np.where(tp + fp > 0, tp + fp, 1), 0.0)
        rec = np.where(tp + fn > 0, tp / np.where(tp + fn > 0, tp + fn, 1), 0.0)
        f1 = np.where(prec + rec > 0, 2 * prec * rec / np.where(prec + rec > 0, prec + rec, 1),
                      0.0)
    acc = (g == p).mean(axis=1)
    return {"precision": percentile_interval(prec, confidence),
            "recall": percentile_interval(rec, confidence),
            "f1": percentile_interval(f1, confidence),
            "accuracy": percentile_interval(acc, confidence)}


def bootstrap_mean(values: Sequence[float], *, n_resamples: int = 1000, seed: int = 0,
                   confidence: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of per-item ``values`` (the draws of
    :func:`bootstrap_ci` with this seed), vectorised. (0.0, 0.0) for no values."""
    import numpy as np

    if not values:
        return (0.0, 0.0)
    arr = np.asarray(values, dtype=float)
    return percentile_interval(arr[bootstrap_indices(len(arr), n_resamples, seed)].mean(axis=1),
                               confidence)
