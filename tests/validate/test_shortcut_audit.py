"""The shortcut audit on hand-made AR-Bench rows: the verdict, the figures, the report
section, the JSON round trip."""

from __future__ import annotations

import dataclasses
import random

from buildds.schema.arbench import ArbenchRow
from buildds.schema.shortcut_audit import ShortcutAudit
from buildds.validate.shortcut_audit import RULE_LIFT_MAX, RULE_MIN_HITS, audit_rows
from buildds.validate.shortcut_report import shortcut_markdown

NUMS = "一二三四五六七八九"
NOTE = "（刑期从判决执行之日起计算，即自2016年1月1日起至{end}止）。"


def _row(i: int, judgment: str, original: str, error_type: str = "none") -> ArbenchRow:
    label = 0 if error_type == "none" else 1
    return ArbenchRow(
        id=f"c{i:03d}-{error_type}", source_id=f"c{i:03d}", dataset="judge",
        error_type=error_type, error_class="none" if not label else "prison_term",  # type: ignore[arg-type]
        label=label, factor="none", charges=("盗窃",), facts="", judgment=judgment,  # type: ignore[arg-type]
        original_judgment=original, reasoning="", anomalous_reasoning="", cited_articles=(),
        anomalous_cited_articles=(), articles_text="", anomalous_articles_text="",
        gold_correction={}, rationale={}, edits=(), seed=0, input_s1="", input_s2="",
        input_s3="", input_s4="", input_s5="")


def _judgment(years: int, rng: random.Random, *, stale: bool) -> str:
    end = f"{2016 + years}年1月1日" if stale else f"{2015 + years}年12月31日"
    return (f"判决如下： 被告人{rng.choice('王李张刘陈')}某犯盗窃罪，判处有期徒刑"
            f"{NUMS[years - 1]}年" + NOTE.format(end=end))


def _rows(*, consistent: bool, n: int = 90, marker: str = "") -> list[ArbenchRow]:
    """n sources: each an untouched row and an E3 row whose term is one year longer; the
    E3 rows keep the original's note unless ``consistent``, and end with ``marker``."""
    rng = random.Random(0)
    rows = []
    for i in range(n):
        years = 1 + i % 5
        original = _judgment(years, rng, stale=False)
        if consistent:
            edited = _judgment(years + 1, rng, stale=False)
        else:
            edited = original.replace(f"有期徒刑{NUMS[years - 1]}年", f"有期徒刑{NUMS[years]}年")
        rows.append(_row(i, original, original))
        rows.append(_row(i, edited + marker, original, "E3"))
    return rows


def test_a_stale_note_fails_the_audit() -> None:
    audit = audit_rows(_rows(consistent=False), classifier=False)
    rule = next(r for r in audit.rules if r.name == "date_span_vs_term")
    assert rule.injected.rate == 1.0 and rule.untouched.rate == 0.0
    assert rule.originals.rate == 0.0 and rule.precision == 1.0
    assert rule.by_type["E3"].hits == 90 and rule.lift == 1.0
    assert not audit.ok
    assert any("date_span_vs_term" in f and "E3" in f for f in audit.failures)


def test_consistent_injections_pass_the_rules() -> None:
    audit = audit_rows(_rows(consistent=True), classifier=False)
    assert audit.ok, audit.failures
    assert all(r.injected.hits == 0 for r in audit.rules)


def test_few_hits_do_not_fail() -> None:
    rows = _rows(consistent=True, n=30)
    stale = _rows(consistent=False, n=30)
    # only RULE_MIN_HITS - 1 stale injected rows: the lift is there, the evidence too thin
    mixed = rows[: len(rows) - 2 * (RULE_MIN_HITS - 1)] + stale[-2 * (RULE_MIN_HITS - 1):]
    audit = audit_rows(mixed, classifier=False)
    rule = next(r for r in audit.rules if r.name == "date_span_vs_term")
    assert rule.injected.hits == RULE_MIN_HITS - 1 and rule.lift > RULE_LIFT_MAX
    assert audit.ok


def test_the_classifier_finds_a_surface_mark_and_the_report_says_so() -> None:
    audit = audit_rows(_rows(consistent=False, marker="（已缴纳）"), seed=0)
    overall = next(c for c in audit.classifiers if c.task == "all")
    assert overall.scored and overall.balanced_accuracy > 0.9
    assert any(f.startswith("tfidf_logreg (all vs normal)") for f in audit.failures)
    md = shortcut_markdown(audit)
    assert md.startswith("## Shortcut audit") and "FAILED" in md
    assert "| rule `date_span_vs_term` | 100.0% (90/90) | 0.0% (0/90) |" in md
    assert "classifier, every error vs normal (90/90 rows)" in md


def test_json_round_trip_and_determinism() -> None:
    rows = _rows(consistent=False, n=60)
    audit = audit_rows(rows, seed=1)
    assert ShortcutAudit.from_json(audit.as_json()) == audit
    assert audit_rows(rows, seed=1).as_json() == audit.as_json()


def test_rules_are_not_judged_without_untouched_rows() -> None:
    """A build without normal rows (CAIL has no judgment part): nothing to compare with."""
    injected_only = [r for r in _rows(consistent=False) if r.label == 1]
    audit = audit_rows(injected_only, classifier=False)
    assert audit.rules[0].injected.hits == 90 and audit.ok
    assert "reported, not judged" in shortcut_markdown(audit)
    empty = audit_rows([])
    assert empty.ok and empty.rows == 0 and not empty.classifiers[0].scored


def test_an_error_type_is_compared_with_its_own_judgments_untouched_rows() -> None:
    """Untouched rows of judgments a type never touched are not that type's comparison: a
    type applied to 盗窃 only is not "detected" by the charge name of the other rows."""
    rows = _rows(consistent=True)
    others = [dataclasses.replace(r, id=f"x{i:03d}-none", source_id=f"x{i:03d}",
                                  judgment=r.judgment.replace("盗窃", "诈骗"))
              for i, r in enumerate(rows) if r.label == 0]
    audit = audit_rows(rows + others, seed=0)
    e3 = next(c for c in audit.classifiers if c.task == "E3" and c.detector == "tfidf_logreg")
    assert (e3.positives, e3.negatives) == (90, 90)


def test_an_error_type_is_compared_with_the_rows_drawn_for_it() -> None:
    """With matched untouched rows (inject_errors.normal_matching), a type's comparison is
    the rows whose rationale names it — not its own judgments' untouched versions: 60 rows
    drawn for E3, 30 for E4 (among them none of E3's own judgments)."""
    from buildds.inject_errors.normal_matching import matched_rationale

    rows = _rows(consistent=True)
    rows = [dataclasses.replace(r, rationale=matched_rationale("E3" if i < 120 else "E4", 0))
            if r.label == 0 else r for i, r in enumerate(rows)]
    e4_source = next(r for r in rows if r.label == 0 and r.rationale["matched_for"] == "E4")
    rows.append(dataclasses.replace(next(r for r in rows if r.label == 1),
                                    id=f"{e4_source.source_id}-E4", error_type="E4"))
    audit = audit_rows(rows, seed=0)
    by_task = {c.task: c for c in audit.classifiers if c.detector == "tfidf_logreg"}
    assert (by_task["E3"].positives, by_task["E3"].negatives) == (90, 60)
    assert (by_task["E4"].positives, by_task["E4"].negatives) == (1, 30)
    assert by_task["all"].negatives == 90


def test_the_second_detector_sees_values_the_text_classifier_is_not_tuned_to() -> None:
    """The held-out numeric detector is scored on every task and fails the audit on its own
    when the injected terms are far from the untouched ones."""
    rows = []
    rng = random.Random(1)
    for i in range(80):
        years = 1 + i % 3
        original = _judgment(years, rng, stale=False)
        rows.append(_row(i, original, original))
        rows.append(_row(i, _judgment(years + 6, rng, stale=False), original, "E3"))
    audit = audit_rows(rows, seed=0)
    numeric = next(c for c in audit.classifiers if c.task == "E3"
                   and c.detector == "numeric_boosting")
    assert numeric.scored and numeric.balanced_accuracy > 0.9 and numeric.spread >= 0
    assert any(f.startswith("numeric_boosting (E3 vs normal)") for f in audit.failures)
    assert "numeric boosting, E3 vs normal (80/80 rows)" in shortcut_markdown(audit)


def test_injections_from_the_untouched_rows_distribution_pass_both_detectors() -> None:
    """The audit can pass: when the injected terms are drawn like the untouched ones (no
    cue), both detectors stay near chance and nothing fails."""
    rng = random.Random(3)
    rows = []
    for i in range(120):
        original = _judgment(1 + rng.randrange(5), rng, stale=False)
        rows.append(_row(i, original, original))
        rows.append(_row(i, _judgment(1 + rng.randrange(5), rng, stale=False), original, "E3"))
    audit = audit_rows(rows, seed=0)
    scored = [c for c in audit.classifiers if c.scored]
    assert {c.detector for c in scored} == {"tfidf_logreg", "numeric_boosting"}
    assert all(abs(c.balanced_accuracy - 0.5) < 0.1 for c in scored), scored
    assert audit.ok, audit.failures
