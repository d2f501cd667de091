"""The shortcut audit of an AR-Bench build: do surface cues alone give the injected rows away?

Two kinds of detector run on the build's own rows (:class:`~buildds.schema.arbench.ArbenchRow`;
injected = ``label`` 1, untouched = the normal rows, ``label`` 0):

* the consistency rules of :mod:`buildds.validate.shortcut_rules` — each one's firing rate on
  the injected rows, the untouched rows and the injected rows' own originals, its precision,
  per error type;
* two detectors of different families on the judgment part only — the text-only classifier
  of :mod:`buildds.validate.shortcut_classifier` (char n-gram TF-IDF + logistic regression)
  and the held-out :mod:`buildds.validate.shortcut_numeric` (gradient-boosted trees on the
  term, fine, charges …) — every injected row vs the normal rows, and each error type vs the
  normal rows drawn for it (matched on its values:
  :func:`~buildds.inject_errors.arbench_rows.matched_normals`,
  :mod:`buildds.inject_errors.normal_matching`).

The verdict (:class:`~buildds.schema.shortcut_audit.ShortcutAudit` ``ok``/``failures``): the
audit **fails** when

* a rule's firing rate on the injected rows (all of them, or one error type's) exceeds its
  rate on the untouched rows by more than :data:`RULE_LIFT_MAX` (5 points) with at least
  :data:`RULE_MIN_HITS` (5) injected rows it fires on — a benchmark where a regex finds the
  errors measures pattern-spotting (judged when there are at least
  :data:`RULE_MIN_UNTOUCHED` untouched rows to compare with); or
* a detector's balanced accuracy exceeds chance (0.5) by more than
  :data:`CLASSIFIER_LIFT_MAX` (10 points) and its bootstrap interval lies above chance —
  on a task with at least :data:`~buildds.validate.shortcut_classifier.MIN_CLASS_ROWS` rows
  per class (smaller ones are reported, not judged).

``buildds judgments`` runs it after the rows are made; the figures go to ``report.json``
(``shortcut_audit``) and the "Shortcut audit" section of ``report.md``
(:func:`buildds.validate.shortcut_report.shortcut_markdown`); ``--strict`` exits 1 on a
failing audit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from buildds.schema.shortcut_audit import (
    ClassifierFigures,
    RuleFigures,
    ShortcutAudit,
    TypeFiring,
)
from buildds.inject_errors.arbench_rows import matched_normals
from buildds.validate.shortcut_classifier import MIN_CLASS_ROWS, SETTINGS, cross_validate
from buildds.validate.shortcut_numeric import SETTINGS as NUMERIC_SETTINGS
from buildds.validate.shortcut_rules import RULES, AuditText, Rule

if TYPE_CHECKING:
    from buildds.schema.arbench import ArbenchRow
    from buildds.schema.statutes import StatuteProfile

__all__ = [
    "CLASSIFIER_LIFT_MAX",
    "RULE_LIFT_MAX",
    "RULE_MIN_HITS",
    "RULE_MIN_UNTOUCHED",
    "THRESHOLDS",
    "audit_rows",
    "charge_articles",
]

#: a rule fails when its injected rate − untouched rate exceeds this (5 points) …
RULE_LIFT_MAX = 0.05
#: … and it fires on at least this many injected rows
RULE_MIN_HITS = 5
#: the classifier fails when its balanced accuracy − 0.5 exceeds this (10 points)
CLASSIFIER_LIFT_MAX = 0.10
#: with fewer untouched rows than this the rules have nothing to be compared with: their
#: figures are reported, not judged (a CAIL-only build has no normal rows)
RULE_MIN_UNTOUCHED = MIN_CLASS_ROWS
THRESHOLDS = {"rule_lift_max": RULE_LIFT_MAX, "rule_min_hits": RULE_MIN_HITS,
              "rule_min_untouched": RULE_MIN_UNTOUCHED,
              "classifier_lift_max": CLASSIFIER_LIFT_MAX}


def charge_articles(profile: StatuteProfile | None) -> Callable[[str], int | None]:
    """Charge name (with or without 罪, an alias) → its article in ``profile`` (``None``:
    unknown charge or no profile); memoised."""
    from buildds.inject_errors.statutes import resolve_charge

    memo: dict[str, int | None] = {}

    def article(charge: str) -> int | None:
        if profile is None:
            return None
        if charge not in memo:
            try:
                memo[charge] = resolve_charge(profile, charge.removesuffix("罪")).article
            except KeyError:
                try:
                    memo[charge] = resolve_charge(profile, charge).article
                except KeyError:
                    memo[charge] = None
        return memo[charge]

    return article


def _rate(hits: int, rows: int) -> float:
    return round(hits / rows, 4) if rows else 0.0


def _firing(flags: Sequence[bool]) -> TypeFiring:
    return TypeFiring(rows=len(flags), hits=sum(flags), rate=_rate(sum(flags), len(flags)))


def _rule_figures(rule: Rule, rows: Sequence[ArbenchRow],
                  article: Callable[[str], int | None]) -> RuleFigures:
    injected = [r for r in rows if r.label == 1]
    untouched = [r for r in rows if r.label == 0]
    evidence = {r.id: rule.check(AuditText(r.judgment, r.anomalous_reasoning, article))
                for r in rows}
    originals = [rule.check(AuditText(r.original_judgment, r.reasoning, article)) is not None
                 for r in injected]
    inj = _firing([evidence[r.id] is not None for r in injected])
    unt = _firing([evidence[r.id] is not None for r in untouched])
    types = sorted({str(r.error_type) for r in injected})
    by_type = {t: _firing([evidence[r.id] is not None for r in injected if r.error_type == t])
               for t in types}
    example = next((f"{r.id}: {evidence[r.id]}" for r in injected if evidence[r.id]), "")
    return RuleFigures(name=rule.name, description=rule.description, injected=inj,
                       untouched=unt, originals=_firing(originals),
                       precision=_rate(inj.hits, inj.hits + unt.hits) if inj.hits + unt.hits
                       else None, lift=round(inj.rate - unt.rate, 4), by_type=by_type,
                       example=example)


def _classifiers(rows: Sequence[ArbenchRow], seed: int) -> list[ClassifierFigures]:
    """Both detectors on every task: ``all`` (every injected row vs every untouched row),
    then each error type vs the untouched rows *drawn for it* (matched to its injected rows
    on corpus, charge, kind, term and fine: :mod:`buildds.inject_errors.normal_matching`),
    so what is measured is what the injection wrote, not which judgments or values a type
    is applied to."""
    from buildds.validate.shortcut_classifier import TfidfLogReg
    from buildds.validate.shortcut_numeric import NumericBoosting

    tasks: list[tuple[str, list[ArbenchRow]]] = [("all", list(rows))]
    for etype in sorted({str(r.error_type) for r in rows if r.label == 1}):
        tasks.append((etype, [r for r in rows if r.error_type == etype]
                      + matched_normals(rows, etype)))
    return [cross_validate(task, [r.judgment for r in part], [r.label for r in part],
                           [r.source_id for r in part], seed=seed, detector=detector)
            for detector in (TfidfLogReg(), NumericBoosting()) for task, part in tasks]


def _failures(rules: Sequence[RuleFigures], classifiers: Sequence[ClassifierFigures]
              ) -> list[str]:
    out: list[str] = []
    for rule in rules:
        if rule.untouched.rows < RULE_MIN_UNTOUCHED:
            continue
        for scope, firing in [("injected", rule.injected), *rule.by_type.items()]:
            lift = firing.rate - rule.untouched.rate
            if lift > RULE_LIFT_MAX and firing.hits >= RULE_MIN_HITS:
                out.append(f"rule {rule.name} fires on {firing.rate:.1%} of {scope} rows "
                           f"({firing.hits}/{firing.rows}) vs {rule.untouched.rate:.1%} of "
                           f"untouched rows (+{lift * 100:.1f} points)")
    for c in classifiers:
        if c.scored and c.lift > CLASSIFIER_LIFT_MAX and c.ci_low > 0.5:
            out.append(f"{c.detector} ({c.task} vs normal) balanced accuracy "
                       f"{c.balanced_accuracy:.1%} vs chance 50% (+{c.lift * 100:.1f} points, "
                       f"95% interval {c.ci_low:.1%}–{c.ci_high:.1%})")
    return out


def audit_rows(rows: Sequence[ArbenchRow], *, profile: StatuteProfile | None = None,
               seed: int = 0, classifier: bool = True) -> ShortcutAudit:
    """The audit of ``rows`` (see the module docstring); ``profile`` gives each charge's
    article (without it the cited-articles rule never fires); ``classifier`` false skips
    the classifier (the rules alone)."""
    article = charge_articles(profile)
    rules = tuple(_rule_figures(rule, rows, article) for rule in RULES)
    classifiers = tuple(_classifiers(rows, seed)) if classifier else ()
    return ShortcutAudit(
        rows=len(rows), injected=sum(1 for r in rows if r.label == 1),
        untouched=sum(1 for r in rows if r.label == 0), rules=rules, classifiers=classifiers,
        thresholds=dict(THRESHOLDS), failures=tuple(_failures(rules, classifiers)),
        classifier={**SETTINGS, "seed": seed,
                    "second detector": NUMERIC_SETTINGS["model"] + " on "
                    + NUMERIC_SETTINGS["features"]} if classifier else {})
