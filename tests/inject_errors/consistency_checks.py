"""What every successful injection must satisfy (shared by the property tests on generated and
on real judgments): exact undo, no contradiction the original did not have, the date note
moved with the term, and the new value breaking the rule of its error type."""

from __future__ import annotations

from buildds.extract.judgments import parse_sentence
from buildds.inject_errors.consistency import check_consistency, judgment_part
from buildds.inject_errors.date_notes import date_notes, term_days, term_end
from buildds.inject_errors.e5_fixed_fine import fine_rule
from buildds.inject_errors.edits import apply_edits, undo_edits
from buildds.inject_errors.tiers import charge_profile, kind_range
from buildds.schema.judgments import InjectedJudgment, Judgment
from buildds.schema.statutes import StatuteProfile


def _codes(issues: list[str]) -> set[str]:
    return {i.split(":")[0] for i in issues}


def _note_deltas(text: str) -> list[int]:
    """Per date note of the judgment part: its end minus the end of the term before it."""
    part = judgment_part(text)
    assert part is not None
    lo, hi = part
    s = parse_sentence(text[lo:hi], lo)
    if s.term_span is None or s.months is None:
        return []
    days = term_days(text, s.term_span.end)
    out = []
    for note in date_notes(text, s.term_span.end, hi):
        out.append((note.end - term_end(note.start, s.months, days[0] if days else 0)).days)
    return out


def assert_consistent(j: Judgment, out: InjectedJudgment, profile: StatuteProfile) -> None:
    """Every property an injection of ``j`` must have (see the module docstring)."""
    assert apply_edits(j.full_text, out.edits) == out.anomalous_text
    assert undo_edits(out.anomalous_text, out.edits) == j.full_text
    added = _codes(check_consistency(out.anomalous_text)) - _codes(check_consistency(j.full_text))
    assert not added, (out.id, check_consistency(out.anomalous_text), out.edits)
    # the date note keeps its offset from the term (0 for most notes)
    assert _note_deltas(out.anomalous_text) == _note_deltas(j.full_text), out.edits
    new = parse_sentence(out.judgment)
    etype, rat = out.error_type, out.rationale
    if etype == "E3":
        assert new.months is not None
        lo, hi = rat["range_months"]  # type: ignore[misc]
        assert not lo <= new.months <= hi
        assert not any(f.kind != "其他" for f in j.factors)
        if new.kind == "拘役":
            assert new.months <= 6
        if new.kind == "有期徒刑":
            assert new.months >= 6
        if rat.get("ambiguous_tier"):
            alo, ahi = rat["adjacent_range_months"]  # type: ignore[misc]
            assert alo <= new.months <= ahi
    elif etype == "E4":
        lo, hi = rat["band_months"]  # type: ignore[misc]
        assert new.months is not None and lo <= new.months <= hi and new.months != j.sentence.months
        rlo, rhi = rat["range_months"]  # type: ignore[misc]
        if rat["mitigating"]:
            assert lo >= 0.9 * rhi and hi <= rhi
        else:
            assert lo == rlo and hi <= 1.1 * rlo
        assert out.gold_correction["factor"] in {f.kind for f in j.factors}
        removed = "".join(rat["removed"])  # type: ignore[arg-type]
        assert "之规定" not in removed and "判决如下" not in removed and "缓刑" not in removed
    elif etype in ("E5", "E6"):
        assert new.fine_yuan is not None
        rule, _ = fine_rule(j, profile, j.charges[0])
        base = rat.get("base_yuan") if etype == "E6" else None
        lo, hi = rule.allowed_range(base)  # type: ignore[arg-type]
        assert (lo is not None and new.fine_yuan < lo) or (hi is not None and new.fine_yuan > hi)
    elif etype == "E1":
        charge, target = rat["confusable_pair"]  # type: ignore[misc]
        if rat.get("donor") is None and j.article_refs:
            old = charge_profile(profile, str(charge)).article
            new_art = charge_profile(profile, str(target)).article
            if old in j.articles and old != new_art:
                anomalous_reasoning = out.reasoning
                assert new.months == j.sentence.months
                assert rat.get("article_swapped"), "the charge's article must follow the charge"
                assert out.reasoning != j.reasoning and anomalous_reasoning
    if new.months is not None and new.kind in ("有期徒刑", "拘役") and etype in ("E3", "E4"):
        assert kind_range is not None  # the kind range itself is checked by check_consistency
