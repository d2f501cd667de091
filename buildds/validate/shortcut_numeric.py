"""The shortcut audit's second, held-out detector: a gradient-boosted model on a few numbers
read from the judgment part.

The text classifier (:mod:`buildds.validate.shortcut_classifier`) is one model family; a
figure near chance for it alone could be a figure tuned to it. This detector is of another
family (trees, not a linear model on n-grams) and looks at what the injections change —
the values: the penalty kind, the term in months (and whether it is a whole / half year),
the probation, the fine (its size and how round it is), how many charges and amounts the
part names, the main charge (a category), the part's length. It is cross-validated exactly
as the text classifier (same folds, same figures:
:func:`~buildds.validate.shortcut_classifier.cross_validate`).

Model: ``HistGradientBoostingClassifier`` (:data:`SETTINGS`), seeded, balanced class
weights. The numbers come from the same parsers the build uses
(:func:`~buildds.extract.judgments.parse_sentence`, :func:`~buildds.extract.judgments.parse_charges`).
scikit-learn and numpy are imported inside the functions (``import buildds.cli`` stays light).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

__all__ = ["FEATURES", "KINDS", "SETTINGS", "NumericBoosting", "numeric_features"]

#: penalty kinds as a number (anything else: 0)
KINDS = {"有期徒刑": 1, "拘役": 2, "管制": 3, "无期徒刑": 4, "死刑": 5, "罚金": 6}
#: the columns of :func:`numeric_features`, in order (``charge`` is a category)
FEATURES = ("kind", "months", "whole_year", "half_year", "probation", "log_fine",
            "fine_zeros", "charges", "amounts", "length", "charge")
#: charges beyond this many (by frequency) share one category
MAX_CHARGES = 200
SETTINGS: dict[str, Any] = {
    "features": ", ".join(FEATURES) + " (from the judgment part)",
    "model": "HistGradientBoostingClassifier(max_iter=100, class_weight=balanced, "
             "charge categorical)"}


def _zeros(value: int) -> int:
    n = 0
    while value and value % 10 == 0:
        value //= 10
        n += 1
    return n


def numeric_features(text: str) -> tuple[list[float], str]:
    """The numeric columns of one judgment part (:data:`FEATURES` but ``charge``) and its
    first charge name ("" when none)."""
    from buildds.extract.judgments import parse_charges, parse_sentence
    from buildds.extract.judgments.amounts import money_matches

    s = parse_sentence(text)
    months = s.months if s.months is not None else -1
    fine = s.fine_yuan or 0
    charges = list(dict.fromkeys(c.name for c in parse_charges(text)))
    row = [float(KINDS.get(s.kind, 0)), float(months),
           float(months > 0 and months % 12 == 0), float(months > 0 and months % 6 == 0),
           float(s.probation_months or 0), math.log10(fine) if fine else -1.0,
           float(_zeros(fine)), float(len(charges)), float(sum(1 for _ in money_matches(text))),
           float(len(text))]
    return row, charges[0] if charges else ""


class NumericBoosting:
    """The second detector (see the module docstring)."""

    name = "numeric_boosting"
    description = f"{SETTINGS['model']} on {SETTINGS['features']}"

    def features(self, texts: Sequence[str]) -> Any:
        """One row of numbers per text; the charge as a category code (by frequency in the
        texts, ties by name — label-free, so the same for every fold)."""
        import numpy as np

        rows, names = zip(*(numeric_features(t) for t in texts), strict=True) if texts else ((), ())
        ranked = sorted(Counter(names).items(), key=lambda kv: (-kv[1], kv[0]))
        code = {name: min(i, MAX_CHARGES) for i, (name, _) in enumerate(ranked)}
        return np.array([[*r, float(code[n])] for r, n in zip(rows, names, strict=True)],
                        dtype=float).reshape(len(texts), len(FEATURES))

    def fit_predict(self, x: Any, y: Any, train: Any, test: Any, seed: int) -> Any:
        """Fit on ``train``, predict ``test`` — on one OpenMP thread: the model is small, and
        on a loaded machine its thread pool spun ~100× slower (153 s vs 1.6 s for one task of
        the real build); one thread also sums the histograms in one order (same figures)."""
        from sklearn.ensemble import HistGradientBoostingClassifier
        from threadpoolctl import threadpool_limits

        model = HistGradientBoostingClassifier(
            max_iter=100, class_weight="balanced", random_state=seed,
            categorical_features=[len(FEATURES) - 1])
        with threadpool_limits(limits=1, user_api="openmp"):
            model.fit(x[train], y[train])
            return model.predict(x[test])
