"""The "Shortcut audit" section of ``report.md`` (:func:`shortcut_markdown`), from a
:class:`~buildds.schema.shortcut_audit.ShortcutAudit` (:mod:`buildds.validate.shortcut_audit`)."""

from __future__ import annotations

from buildds.schema.shortcut_audit import ShortcutAudit

__all__ = ["shortcut_markdown"]


def _pct(x: float) -> str:
    return f"{x:.1%}"


def shortcut_markdown(audit: ShortcutAudit, *, level: int = 2) -> str:
    """The section: verdict, one table of the detectors (fires on injected / untouched,
    accuracy vs chance), the rules per error type, and the failures."""
    h = "#" * level
    t = audit.thresholds
    verdict = "passed" if audit.ok else f"FAILED ({len(audit.failures)} detector(s))"
    intro = (f"Surface-cue detectors on this build's own rows ({audit.injected} injected, "
             f"{audit.untouched} untouched): {verdict}. A rule fails when it fires on injected "
             f"rows (all, or one error type) more than {t['rule_lift_max'] * 100:.0f} points "
             f"above its rate on untouched rows with at least {t['rule_min_hits']:.0f} hits; "
             "the classifier fails when its balanced accuracy exceeds chance (50%) by more "
             f"than {t['classifier_lift_max'] * 100:.0f} points with its 95% interval above "
             "chance.")
    lines = [f"{h} Shortcut audit", "", intro, ""]
    if audit.untouched < t.get("rule_min_untouched", 0):
        lines += [(f"Fewer than {t['rule_min_untouched']:.0f} untouched rows: the rules' "
                   "figures are reported, not judged (nothing to compare them with)."), ""]
    lines += [("| detector | fires on injected | fires on untouched | fires on originals "
               "| precision | accuracy vs chance | balanced accuracy ± fold s.d. (95% CI) |"),
              "|---|---:|---:|---:|---:|---:|---:|"]
    for r in audit.rules:
        precision = "—" if r.precision is None else _pct(r.precision)
        lines.append(f"| rule `{r.name}` | {_pct(r.injected.rate)} ({r.injected.hits}/"
                     f"{r.injected.rows}) | {_pct(r.untouched.rate)} ({r.untouched.hits}/"
                     f"{r.untouched.rows}) | {_pct(r.originals.rate)} | {precision} | — | — |")
    for c in audit.classifiers:
        who = "classifier" if c.detector == "tfidf_logreg" else c.detector.replace("_", " ")
        name = f"{who}, {'every error' if c.task == 'all' else c.task} vs normal"
        if not c.scored:
            lines.append(f"| {name} ({c.positives}/{c.negatives} rows) | — | — | — | — | "
                         f"{c.note} | — |")
            continue
        lines.append(f"| {name} ({c.positives}/{c.negatives} rows) | — | — | — | — | "
                     f"{_pct(c.accuracy)} vs {_pct(c.chance)} | {_pct(c.balanced_accuracy)} "
                     f"± {c.spread * 100:.1f} vs chance 50% ({_pct(c.ci_low)}–"
                     f"{_pct(c.ci_high)}; folds {min(c.folds):.0%}–{max(c.folds):.0%}) |")
    types = sorted({k for r in audit.rules for k in r.by_type})
    if types:
        lines += ["", "Rules per error type (rows the rule fires on / rows of the type):", "",
                  "| rule | " + " | ".join(types) + " | untouched |",
                  "|---|" + "---:|" * (len(types) + 1)]
        for r in audit.rules:
            cells = [f"{f.hits}/{f.rows}" if (f := r.by_type.get(k)) else "—" for k in types]
            lines.append(f"| `{r.name}` | " + " | ".join(cells)
                         + f" | {r.untouched.hits}/{r.untouched.rows} |")
    if audit.classifier:
        lines += ["", "Classifier: " + "; ".join(f"{k}: {v}" for k, v in audit.classifier.items())
                  + ". Accuracy is next to the majority-class rate; balanced accuracy (mean "
                  "recall of the two classes) has chance 50% whatever the class mix; ± is the "
                  "standard deviation over the folds. An error type is compared with the "
                  "untouched rows drawn for it, matched to its injected rows on corpus, "
                  "charge, penalty kind, term and fine (see \"Untouched rows matched per "
                  "error type\"), so which judgments and values a type is applied to is "
                  "not what is measured."]
    if audit.failures:
        lines += ["", "Failing detectors:", ""] + [f"- {f}" for f in audit.failures]
    examples = [f"- `{r.name}`: {r.example}" for r in audit.rules if r.example]
    if examples:
        lines += ["", "An example of each rule's evidence on an injected row:", "", *examples]
    return "\n".join(lines) + "\n"
