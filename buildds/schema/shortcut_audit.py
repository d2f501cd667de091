"""The shortcut audit's result (:mod:`buildds.validate.shortcut_audit`): how well surface cues
alone tell injected AR-Bench rows from untouched ones.

* :class:`RuleFigures` — one consistency rule: how often it fires on injected rows, on
  untouched (normal) rows and on the injected rows' originals, its precision, per error type;
* :class:`ClassifierFigures` — the text-only classifier (char n-grams + logistic
  regression, cross-validated) on one task (every injected row, or one error type, vs the
  normal rows): accuracy next to chance, balanced accuracy, a bootstrap interval, the folds;
* :class:`ShortcutAudit` — every figure, the thresholds they were judged by, and the
  verdict (``ok``, ``failures``).

Each record writes the JSON object ``report.json`` holds under ``shortcut_audit``
(:meth:`ShortcutAudit.as_json`) and reads it back (:meth:`ShortcutAudit.from_json`).
Rates and accuracies are rounded to 4 places, so the same rows give the same bytes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["ClassifierFigures", "RuleFigures", "ShortcutAudit", "TypeFiring"]


@dataclass(frozen=True)
class TypeFiring:
    """A rule on the rows of one error type: rows, rows it fires on, the rate."""

    rows: int
    hits: int
    rate: float

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class RuleFigures:
    """One rule's firing on the injected rows, the untouched rows and the injected rows'
    original judgments; ``precision`` is the share of injected rows among the rows it fires
    on (at the dataset's own mix); ``lift`` is injected rate − untouched rate."""

    name: str
    description: str
    injected: TypeFiring
    untouched: TypeFiring
    originals: TypeFiring
    precision: float | None
    lift: float
    by_type: dict[str, TypeFiring] = field(default_factory=dict)
    #: one example of the rule's evidence on an injected row (id: evidence)
    example: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description,
                "injected": self.injected.as_json(), "untouched": self.untouched.as_json(),
                "originals": self.originals.as_json(), "precision": self.precision,
                "lift": self.lift, "example": self.example,
                "by_type": {t: f.as_json() for t, f in self.by_type.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleFigures:
        return cls(name=data["name"], description=data["description"],
                   injected=TypeFiring(**data["injected"]),
                   untouched=TypeFiring(**data["untouched"]),
                   originals=TypeFiring(**data["originals"]), precision=data["precision"],
                   lift=data["lift"], example=data.get("example", ""),
                   by_type={t: TypeFiring(**f) for t, f in data["by_type"].items()})


@dataclass(frozen=True)
class ClassifierFigures:
    """The text-only classifier on one task (``task``: ``all`` or an error type vs the
    normal rows). ``accuracy`` next to ``chance`` (the majority-class rate);
    ``balanced_accuracy`` (chance 0.5 whatever the class mix) with its bootstrap 95%
    interval; the per-fold balanced accuracies. ``scored`` is false (and ``note`` says why)
    when a class has too few rows to cross-validate."""

    task: str
    positives: int
    negatives: int
    scored: bool
    accuracy: float = 0.0
    chance: float = 0.0
    balanced_accuracy: float = 0.5
    ci_low: float = 0.5
    ci_high: float = 0.5
    folds: tuple[float, ...] = ()
    note: str = ""
    #: which detector: ``tfidf_logreg`` (the text classifier) or ``numeric_boosting`` (the
    #: held-out second detector, :mod:`buildds.validate.shortcut_numeric`)
    detector: str = "tfidf_logreg"

    @property
    def spread(self) -> float:
        """The standard deviation of the folds' balanced accuracies (0 without folds)."""
        if len(self.folds) < 2:
            return 0.0
        mean = sum(self.folds) / len(self.folds)
        return round((sum((f - mean) ** 2 for f in self.folds) / (len(self.folds) - 1)) ** 0.5, 4)

    @property
    def lift(self) -> float:
        """Balanced accuracy above chance (0.5)."""
        return round(self.balanced_accuracy - 0.5, 4) if self.scored else 0.0

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "folds": list(self.folds), "lift": self.lift,
                "spread": self.spread}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClassifierFigures:
        values: dict[str, Any] = {k: v for k, v in data.items() if k not in ("lift", "spread")}
        values["folds"] = tuple(values.get("folds", ()))
        return cls(**values)


@dataclass(frozen=True)
class ShortcutAudit:
    """The audit: rule and classifier figures, the thresholds, the verdict."""

    rows: int
    injected: int
    untouched: int
    rules: tuple[RuleFigures, ...]
    classifiers: tuple[ClassifierFigures, ...]
    #: the named thresholds the verdict used (name → value)
    thresholds: dict[str, float]
    #: one line per failing detector (empty: the audit passes)
    failures: tuple[str, ...] = ()
    #: the classifier's settings (features, model, folds, seed)
    classifier: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures

    def as_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "rows": self.rows, "injected": self.injected,
                "untouched": self.untouched, "thresholds": dict(self.thresholds),
                "failures": list(self.failures), "classifier": dict(self.classifier),
                "rules": [r.as_json() for r in self.rules],
                "classifiers": [c.as_json() for c in self.classifiers]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShortcutAudit:
        return cls(rows=data["rows"], injected=data["injected"], untouched=data["untouched"],
                   rules=tuple(RuleFigures.from_json(r) for r in data["rules"]),
                   classifiers=tuple(ClassifierFigures.from_json(c)
                                     for c in data["classifiers"]),
                   thresholds=dict(data["thresholds"]), failures=tuple(data["failures"]),
                   classifier=dict(data.get("classifier", {})))
