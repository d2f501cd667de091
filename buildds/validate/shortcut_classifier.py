"""The text-only detector of the shortcut audit: can the judgment part alone, read as
character n-grams, tell injected rows from untouched ones?

Char n-gram TF-IDF (:data:`NGRAMS`, sublinear tf) + logistic regression (balanced class
weights, liblinear), cross-validated over :data:`FOLDS` stratified folds that keep every
version of one source judgment in the same fold (``StratifiedGroupKFold``, shuffled with the
seed): a normal row and its injected twin never sit on both sides of a split, where the
classifier would learn the judgment rather than the cue. It sees the judgment part only — no
facts, no reasoning, no statute — the one place an injection edits.

Figures (:class:`~buildds.schema.shortcut_audit.ClassifierFigures`): accuracy of the
out-of-fold predictions next to chance (the majority-class rate), balanced accuracy (chance
0.5 whatever the class mix) with a seeded bootstrap 95% interval (:data:`BOOTSTRAP`
resamples of the rows), and each fold's balanced accuracy. Everything is seeded, and
liblinear is deterministic, so two runs give the same figures.

scikit-learn and numpy are imported inside the functions (``import buildds.cli`` stays
light, tests/test_cli.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from buildds.schema.shortcut_audit import ClassifierFigures

__all__ = ["BOOTSTRAP", "FOLDS", "MIN_CLASS_ROWS", "NGRAMS", "SETTINGS", "cross_validate"]

FOLDS = 5
#: character n-gram lengths of the features
NGRAMS = (1, 3)
#: bootstrap resamples of the out-of-fold predictions, for the interval
BOOTSTRAP = 1000
#: fewer rows than this in either class: not scored (the figures would be noise)
MIN_CLASS_ROWS = 20
#: what the report says the classifier is
SETTINGS: dict[str, Any] = {
    "features": f"TF-IDF char n-grams {NGRAMS[0]}-{NGRAMS[1]} (sublinear tf, min_df 2)",
    "model": "LogisticRegression(liblinear, C=1, class_weight=balanced)",
    "cv": f"StratifiedGroupKFold({FOLDS}, shuffled, groups = source judgment)",
    "bootstrap": BOOTSTRAP, "input": "the judgment part only (ArbenchRow.judgment)"}


def _round(x: float) -> float:
    return round(float(x), 4)


def _balanced(y: Any, pred: Any) -> float:
    """Mean of the two classes' recalls (numpy arrays of 0/1)."""
    pos, neg = y == 1, y == 0
    return float(((pred[pos] == 1).mean() + (pred[neg] == 0).mean()) / 2)


def _bootstrap(y: Any, pred: Any, seed: int) -> tuple[float, float]:
    """2.5 and 97.5 percentiles of the balanced accuracy over row resamples."""
    import numpy as np

    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(y), size=(BOOTSTRAP, len(y)))
    ys, ps = y[idx], pred[idx]
    pos, neg = ys == 1, ys == 0
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = ((ps == 1) & pos).sum(1) / pos.sum(1)
        tnr = ((ps == 0) & neg).sum(1) / neg.sum(1)
    values = np.nan_to_num((tpr + tnr) / 2, nan=0.5)
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


def cross_validate(task: str, texts: Sequence[str], labels: Sequence[int],
                   groups: Sequence[str], *, seed: int = 0) -> ClassifierFigures:
    """The classifier's cross-validated figures on ``texts`` (``labels`` 1 injected, 0
    untouched; ``groups`` the source judgment of each row)."""
    import numpy as np

    y = np.asarray(labels, dtype=int)
    positives, negatives = int(y.sum()), int(len(y) - y.sum())
    if min(positives, negatives) < MIN_CLASS_ROWS or len(set(groups)) < FOLDS:
        return ClassifierFigures(task=task, positives=positives, negatives=negatives,
                                 scored=False, note=f"fewer than {MIN_CLASS_ROWS} rows in a "
                                 "class: not scored")
    pred, folds = _out_of_fold(list(texts), y, list(groups), seed)
    low, high = _bootstrap(y, pred, seed)
    return ClassifierFigures(
        task=task, positives=positives, negatives=negatives, scored=True,
        accuracy=_round((pred == y).mean()), chance=_round(max(positives, negatives) / len(y)),
        balanced_accuracy=_round(_balanced(y, pred)), ci_low=_round(low), ci_high=_round(high),
        folds=tuple(_round(f) for f in folds))


def _out_of_fold(texts: list[str], y: Any, groups: list[str], seed: int
                 ) -> tuple[Any, list[float]]:
    """Out-of-fold predictions for every row, and each fold's balanced accuracy."""
    import numpy as np
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedGroupKFold
    from sklearn.pipeline import make_pipeline

    pred = np.zeros(len(y), dtype=int)
    folds: list[float] = []
    split = StratifiedGroupKFold(n_splits=FOLDS, shuffle=True, random_state=seed)
    for train, test in split.split(np.zeros(len(y)), y, groups):
        model = make_pipeline(
            TfidfVectorizer(analyzer="char", ngram_range=NGRAMS, min_df=2, sublinear_tf=True,
                            dtype=np.float64),
            LogisticRegression(C=1.0, solver="liblinear", class_weight="balanced",
                               max_iter=1000, random_state=seed))
        if len(set(y[train])) < 2:  # a fold with one class: predict it
            pred[test] = int(y[train][0])
        else:
            model.fit([texts[i] for i in train], y[train])
            pred[test] = model.predict([texts[i] for i in test])
        test_y = y[test]
        folds.append(_balanced(test_y, pred[test]) if len(set(test_y)) == 2
                     else float((pred[test] == test_y).mean()))
    return pred, folds
