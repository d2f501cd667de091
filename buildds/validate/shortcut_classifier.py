"""The text-only detector of the shortcut audit: can the judgment part alone, read as
character n-grams, tell injected rows from untouched ones?

Char n-gram TF-IDF (:data:`NGRAMS`, sublinear tf) + logistic regression (balanced class
weights, liblinear), cross-validated over :data:`FOLDS` stratified folds that keep every
version of one source judgment in the same fold (``StratifiedGroupKFold``, shuffled with the
seed): a normal row and its injected twin never sit on both sides of a split, where the
classifier would learn the judgment rather than the cue. It sees the judgment part only — no
facts, no reasoning, no statute — the one place an injection edits.

The dual liblinear solver: there are more n-grams than rows, where it is ~10× faster than
the primal one. Figures (:class:`~buildds.schema.shortcut_audit.ClassifierFigures`): accuracy of the
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

__all__ = ["BOOTSTRAP", "FOLDS", "MIN_CLASS_ROWS", "NGRAMS", "SETTINGS", "TfidfLogReg",
           "cross_validate"]

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
    "model": "LogisticRegression(liblinear dual, C=1, class_weight=balanced)",
    "cv": f"StratifiedGroupKFold({FOLDS}, shuffled, groups = source judgment)",
    "bootstrap": BOOTSTRAP, "input": "the judgment part only (ArbenchRow.judgment)"}


def _round(x: float) -> float:
    return round(float(x), 4)


def _balanced(y: Any, pred: Any) -> float:
    """Mean of the two classes' recalls (numpy arrays of 0/1)."""
    pos, neg = y == 1, y == 0
    return float(((pred[pos] == 1).mean() + (pred[neg] == 0).mean()) / 2)


def _bootstrap(y: Any, pred: Any, seed: int) -> tuple[float, float]:
    """2.5 and 97.5 percentiles of the balanced accuracy over row resamples. A resample of
    the rows is drawn as its counts of true/false positives/negatives (a multinomial over
    the four cells: the same distribution as drawing rows), so memory does not grow with
    the rows."""
    import numpy as np

    cells = np.array([((y == 1) & (pred == 1)).sum(), ((y == 1) & (pred == 0)).sum(),
                      ((y == 0) & (pred == 0)).sum(), ((y == 0) & (pred == 1)).sum()])
    counts = np.random.default_rng(seed).multinomial(len(y), cells / len(y), size=BOOTSTRAP)
    tp, fn, tn, fp = counts.T
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.nan_to_num((tp / (tp + fn) + tn / (tn + fp)) / 2, nan=0.5)
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


class TfidfLogReg:
    """The text detector: char n-gram TF-IDF + logistic regression (:data:`SETTINGS`)."""

    name = "tfidf_logreg"
    description = f"{SETTINGS['features']} + {SETTINGS['model']}"

    def features(self, texts: Sequence[str]) -> Any:
        """The n-gram counts of every text, counted once (each fold keeps those in >= 2 of
        its training rows and weighs them by its training rows only — the same features as a
        TF-IDF vectoriser (min_df 2) fitted on the fold, without counting again per fold)."""
        import numpy as np
        from sklearn.feature_extraction.text import CountVectorizer

        # int32 counts (exact, and half of float64's size); the transformer makes floats
        return CountVectorizer(analyzer="char", ngram_range=NGRAMS, lowercase=False,
                               dtype=np.int32).fit_transform(list(texts)).tocsr()

    def fit_predict(self, counts: Any, y: Any, train: Any, test: Any, seed: int) -> Any:
        import numpy as np
        from sklearn.feature_extraction.text import TfidfTransformer
        from sklearn.linear_model import LogisticRegression

        # one copy of the training rows at a time: an n-gram's document frequency is the
        # number of stored entries in its column (the counts are canonical CSR, no zeros)
        part = counts[train]
        keep = np.flatnonzero(np.bincount(part.indices, minlength=part.shape[1]) >= 2)
        part = part[:, keep]
        tfidf = TfidfTransformer(sublinear_tf=True).fit(part)
        part = tfidf.transform(part)
        model = LogisticRegression(C=1.0, solver="liblinear", dual=True,
                                   class_weight="balanced", max_iter=1000, random_state=seed)
        model.fit(part, y[train])
        del part
        return model.predict(tfidf.transform(counts[test][:, keep]))


def cross_validate(task: str, texts: Sequence[str], labels: Sequence[int],
                   groups: Sequence[str], *, seed: int = 0, detector: Any = None
                   ) -> ClassifierFigures:
    """The ``detector``'s cross-validated figures on ``texts`` (``labels`` 1 injected, 0
    untouched; ``groups`` the source judgment of each row). ``detector`` has ``name``,
    ``features(texts)`` and ``fit_predict(features, y, train, test, seed)``; default
    :class:`TfidfLogReg` (another: :class:`~buildds.validate.shortcut_numeric.NumericBoosting`)."""
    import numpy as np

    detector = detector or TfidfLogReg()
    y = np.asarray(labels, dtype=int)
    positives, negatives = int(y.sum()), int(len(y) - y.sum())
    if min(positives, negatives) < MIN_CLASS_ROWS or len(set(groups)) < FOLDS:
        return ClassifierFigures(task=task, positives=positives, negatives=negatives,
                                 scored=False, detector=detector.name,
                                 note=f"fewer than {MIN_CLASS_ROWS} rows in a class: not scored")
    pred, folds = _out_of_fold(detector, list(texts), y, list(groups), seed)
    low, high = _bootstrap(y, pred, seed)
    return ClassifierFigures(
        task=task, positives=positives, negatives=negatives, scored=True,
        accuracy=_round((pred == y).mean()), chance=_round(max(positives, negatives) / len(y)),
        balanced_accuracy=_round(_balanced(y, pred)), ci_low=_round(low), ci_high=_round(high),
        folds=tuple(_round(f) for f in folds), detector=detector.name)


def _out_of_fold(detector: Any, texts: list[str], y: Any, groups: list[str], seed: int
                 ) -> tuple[Any, list[float]]:
    """Out-of-fold predictions for every row, and each fold's balanced accuracy."""
    import numpy as np
    from sklearn.model_selection import StratifiedGroupKFold

    features = detector.features(texts)
    pred = np.zeros(len(y), dtype=int)
    folds: list[float] = []
    split = StratifiedGroupKFold(n_splits=FOLDS, shuffle=True, random_state=seed)
    for train, test in split.split(np.zeros(len(y)), y, groups):
        if len(set(y[train])) < 2:  # a fold with one class: predict it
            pred[test] = int(y[train][0])
        else:
            pred[test] = detector.fit_predict(features, y, train, test, seed)
        test_y = y[test]
        folds.append(_balanced(test_y, pred[test]) if len(set(test_y)) == 2
                     else float((pred[test] == test_y).mean()))
    return pred, folds
