"""Property tests of the injectors over generated judgments (template with varied terms,
fines, amounts, factors and charges)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from buildds.extract.judgments import parse_months
from buildds.inject_errors.cn_format import format_months_cn, format_yuan_cn
from buildds.inject_errors.e5_fixed_fine import fine_rule
from buildds.inject_errors.edits import undo_edits
from buildds.inject_errors.registry import injectors
from buildds.inject_errors.tiers import kind_range, resolve_tier
from buildds.schema.judgments import InjectedJudgment
from buildds.text import cn_number
from tests.inject_errors.test_injectors import CONFESS, CTX, PROFILE, RECIDIVIST, theft

CHARGES = {"盗窃": "二百六十四", "信用卡诈骗": "一百九十六", "生产、销售伪劣产品": "一百四十", "故意伤害": "二百三十四"}


@st.composite
def judgments(draw: st.DrawFn):  # type: ignore[no-untyped-def]
    charge = draw(st.sampled_from(sorted(CHARGES)))
    months = draw(st.integers(1, 60))
    chinese = draw(st.booleans())
    kind = "有期徒刑" if months >= 6 else "拘役"
    fine = draw(st.one_of(st.none(), st.integers(1, 300).map(lambda n: n * 1000)))
    amount = draw(st.integers(1000, 400000))
    factor = draw(st.sampled_from(["", CONFESS, RECIDIVIST, CONFESS + RECIDIVIST]))
    extra = ("、第六十七条第三款" if CONFESS in factor else "") + ("、第六十五条第一款" if RECIDIVIST in factor else "")
    fine_text = "" if fine is None else "，并处罚金人民币" + format_yuan_cn(fine, "五元" if chinese else "5元")
    return theft(charge=charge, article=CHARGES[charge], amount=str(amount), factor=factor, extra=extra,
                 kind=kind, term=format_months_cn(months, "八个月" if chinese else "8个月"), fine=fine_text,
                 rid=f"g{months}-{amount}")


@settings(max_examples=60, deadline=None)
@given(j=judgments(), seed=st.integers(0, 50), etype=st.sampled_from(["E1", "E2", "E3", "E4", "E5", "E6"]))
def test_injection_properties(j, seed: int, etype: str) -> None:  # type: ignore[no-untyped-def]
    injector = injectors(seed)[etype]
    out = injector.inject(j, random.Random(f"{seed}:{j.id}:{etype}"), CTX)
    again = injectors(seed)[etype].inject(j, random.Random(f"{seed}:{j.id}:{etype}"), CTX)
    assert out == again  # same seed, same output
    if not isinstance(out, InjectedJudgment):
        return
    text = j.full_text
    # exactly the intended spans change: rebuilding from the unchanged stretches gives the text
    pos = 0
    for e in out.edits:
        assert text[e.start:e.end] == e.old and e.start >= pos
        pos = e.end
    assert undo_edits(out.anomalous_text, out.edits) == text
    assert out.facts + out.reasoning + out.judgment == out.anomalous_text
    if etype == "E3":
        # the term (and, for a 拘役 that leaves its tier upwards, the penalty word)
        (edit,) = [e for e in out.edits if e.old != j.sentence.kind]
        assert (edit.start, edit.end) == (j.sentence.term_span.start, j.sentence.term_span.end)  # type: ignore[union-attr]
        assert len(out.edits) == 1 or out.rationale["new_kind"] == "有期徒刑"
        new = parse_months(edit.new)
        assert new is not None
        choice = resolve_tier(j, PROFILE, j.charges[0])
        r = kind_range(choice.tier, j.sentence.kind)
        assert r is not None and not r.contains_months(new)
        if choice.ambiguous:
            lo, hi = out.rationale["adjacent_range_months"]  # type: ignore[misc]
            assert lo <= new <= hi
    if etype in ("E5", "E6"):
        (edit,) = out.edits
        assert (edit.start, edit.end) == (j.sentence.fine_span.start, j.sentence.fine_span.end)  # type: ignore[union-attr]
        rule, _ = fine_rule(j, PROFILE, j.charges[0])
        lo, hi = rule.allowed_range(j.amount_involved_yuan)
        new = cn_number(edit.new.removesuffix("元"))
        assert new is not None and ((lo is not None and new < lo) or (hi is not None and new > hi))
    if etype == "E4":
        new = parse_months(out.judgment)
        lo, hi = out.rationale["band_months"]  # type: ignore[misc]
        assert new is not None and lo <= new <= hi and new != j.sentence.months
        assert out.gold_correction["factor"] in {f.kind for f in j.factors}
    if etype == "E1":
        assert out.rationale["confusable_pair"][1] in PROFILE.confusable[j.charges[0]]  # type: ignore[index]
