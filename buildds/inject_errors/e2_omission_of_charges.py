"""E2 omission of charges (AR-Bench, seed 003, A.3: "remove charges … retaining only one
charge"): a multi-charge judgment keeps one charge, and everything that depends on the others
goes, leaving a judgment that is coherent but legally incomplete (the facts still describe
the omitted offences — that is the error).

The kept charge is the one with the heaviest per-charge sentence (kind, then term, then
fine; ties: the first) — the paper keeps "the primary offense"; the choice is deterministic
and written into the rationale. Then, in the judgment part
(:mod:`buildds.inject_errors.combined_sentence`):

- the omitted charges' clauses (``犯Y罪，判处…，并处罚金…``) go;
- the combined sentence (``数罪并罚，决定执行…``) goes: the kept charge's own penalty becomes
  the sentence; a probation of the combined sentence moves to it (still lawful: the
  probation was at least the combined term), its fine notes (``（已缴纳）``) too when the
  kept charge has a fine, else they and the note's 罚金 sentence go;
- the 刑期 note (``即自…起至…止``) is recomputed for the kept term (same start, same credited
  days, the note's own date style);
- an item (``二、…``) that confiscates only the omitted offence's objects (枪支, 毒品, 赌资 …)
  goes and the items are renumbered;

in the reasoning (:mod:`buildds.inject_errors.omission_reasoning`): list mentions, sentences only
about the omitted offences, the 数罪并罚 talk, and the cited articles of the omitted charges
and art. 69 (and 22–24/27/28 when their factor went with the omitted offence's sentences).

Whatever cannot be made coherent is skipped with a reason: prior convictions (前罪, 余刑,
art. 70/71), several defendants, no 数罪并罚 block, a per-charge penalty or combined sentence
that does not parse, a combined fine other than the sum of the per-charge fines, additional
penalties the kept charge does not carry, a reasoning mention that cannot be isolated.
The result is checked after the edits (no omitted name left in the judgment part or the
reasoning, no 数罪并罚 / 决定执行 in the judgment part, the note matches the kept term, the
omitted charges' articles no longer cited).
"""

from __future__ import annotations

import random
import re

from buildds.extract.judgments.citations import parse_articles
from buildds.inject_errors.base import BaseInjector, InjectionContext, Plan, SkipInjection
from buildds.inject_errors.combined_sentence import (
    Block,
    ChargeClause,
    note_end_edit,
    parse_block,
    severity,
    term_note,
)
from buildds.inject_errors.edits import apply_edits
from buildds.inject_errors.omission_judgment_part import item_ops, judgment_ops
from buildds.inject_errors.omission_reasoning import (
    citation_deletions,
    mentions,
    reasoning_deletions,
)
from buildds.schema.judgments import Judgment, SpanEdit

__all__ = ["OmissionOfCharges", "merge_ops"]

_PRIOR = re.compile(r"前罪|余刑|没有执行的|尚未执行的|未执行完毕的|漏罪|撤销[^。；]{0,40}(?:缓刑|假释)|与[^。；]{0,60}并罚")
_COMBINE = re.compile(r"数罪并罚|[二两三四数]罪并罚|决定执行|合并执行|并罚")
_FINAL = re.compile(r"决定执行|合并执行|决定合并执行|[，；。]执行(?=有期徒刑|拘役|管制|无期徒刑)")
#: the penalty articles that go with a charge's defining article (贪污 382 → 383, 受贿 385
#: → 386 → 383, 行贿 389 → 390)
_COMPANIONS = {382: (383,), 385: (386, 383), 389: (390,)}
_FACTOR_ARTICLES = {22: "预备", 23: "未遂", 24: "中止", 27: "从犯", 28: "胁从"}

Op = tuple[int, int, str]


def merge_ops(text: str, ops: list[Op]) -> list[SpanEdit]:
    """Span edits from (start, end, new) ops on ``text``: touching or overlapping ops merge
    (their new texts joined in order); an insertion strictly inside a replaced range raises."""
    merged: list[Op] = []
    for s, e, new in sorted(ops, key=lambda o: (o[0], o[1])):
        if merged and s <= merged[-1][1]:
            ls, le, lnew = merged[-1]
            if new and s < le:
                raise SkipInjection("overlapping_edits", "an insertion falls inside a deletion")
            merged[-1] = (ls, max(le, e), lnew + new)
        else:
            merged.append((s, e, new))
    return [SpanEdit(start=s, end=e, old=text[s:e], new=n) for s, e, n in merged if (s, n) != (e, "")]


def _pick(block: Block) -> int:
    """The index of the kept clause: the heaviest per-charge sentence, ties the first."""
    return max(range(len(block.clauses)), key=lambda i: (severity(block.clauses[i].penalty), -i))


def _check_combinable(text: str, block: Block, k: int) -> None:  # long: one check per skip reason
    kept = block.clauses[k]
    c = block.combined
    pens = [cl.penalty for cl in block.clauses]
    if any(p.probation is not None for p in pens):
        raise SkipInjection("per_charge_probation", "a per-charge penalty carries a probation")
    if any(p.kind == "死刑" for p in pens + [c]):
        raise SkipInjection("death_penalty", "a death sentence (缓期执行) is not recomputed")
    if c.kind != kept.penalty.kind:
        raise SkipInjection("combined_kind_mismatch",
                            f"combined {c.kind} is not the kept charge's {kept.penalty.kind}")
    if c.months is not None and kept.penalty.months is not None and c.months < kept.penalty.months:
        raise SkipInjection("combined_term_inconsistent", "the combined term is below a per-charge term")
    fines = [p.fine_yuan for p in pens if p.fine_yuan is not None]
    if (c.fine_yuan or 0) != sum(fines) or (c.fine_yuan is None) != (not fines):
        raise SkipInjection("combined_fine_mismatch",
                            f"combined fine {c.fine_yuan} is not the sum of the per-charge fines {fines}")

    def others(p: object) -> set[str]:
        return {re.sub(r"^[，,\s]*(?:并处)?", "", text[s:e]) for s, e in p.others}  # type: ignore[attr-defined]

    if others(c) != others(kept.penalty) or any(others(p) - others(kept.penalty) for p in pens):
        raise SkipInjection("additional_penalty", "the combined additional penalties are not the kept charge's")


def _targets(ctx: InjectionContext, omitted: list[str], kept: str
             ) -> list[tuple[int, int | None, int | None]]:
    """The articles to uncite: art. 69 and each omitted charge's (skip when unknown, or when
    it is the kept charge's own article and paragraph)."""
    from buildds.inject_errors.tiers import charge_profile

    try:
        k = charge_profile(ctx.profile, kept)
    except SkipInjection:
        k = None
    out: list[tuple[int, int | None, int | None]] = [(69, None, None)]
    for name in omitted:
        try:
            p = charge_profile(ctx.profile, name)
        except SkipInjection as exc:
            raise SkipInjection("omitted_article_unknown", f"{name}: {exc.message}") from exc
        if k is not None and (p.article, p.article_sub) == (k.article, k.article_sub) and (
                p.paragraph is None or k.paragraph is None or p.paragraph == k.paragraph):
            raise SkipInjection("shared_article", f"{name} and {kept} share article {p.article}")
        out.append((p.article, p.paragraph, p.article_sub))
    kept_needs = {k.article, *_COMPANIONS.get(k.article, ())} if k is not None else set()
    out += [(n, None, None) for t in list(out) for n in _COMPANIONS.get(t[0], ())
            if n not in kept_needs]
    return out


class OmissionOfCharges(BaseInjector):
    error_type = "E2"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:  # long: the steps in order
        if len(dict.fromkeys(judgment.charges)) < 2:
            raise SkipInjection("single_charge", "only one charge: nothing to omit")
        js, rs = judgment.judgment_span, judgment.reasoning_span
        if js is None or rs is None:
            raise SkipInjection("no_judgment_part", "no judgment part or no reasoning")
        if len(judgment.defendants) > 1:
            raise SkipInjection("multi_defendant", "several defendants")
        text = judgment.full_text
        for part in (js, rs):
            if m := _PRIOR.search(text, part.start, part.end):
                raise SkipInjection("prior_conviction", f"combined with an earlier sentence ({m.group()})")
        if {70, 71} & set(judgment.articles):
            raise SkipInjection("prior_conviction", "art. 70/71 (漏罪 / 新罪) cited")
        if len(_FINAL.findall(text, js.start, js.end)) > 1:
            raise SkipInjection("several_combined_sentences",
                                "more than one 决定执行 (an appeal quoting the first instance)")
        block = parse_block(text, js.start, js.end)
        if isinstance(block, str):
            raise SkipInjection(block, {
                "per_charge_sentence_missing": "no two 犯X罪，判处… clauses with a readable penalty",
                "no_combined_sentence": "no 决定执行 / 合并执行 right after the per-charge clauses",
            }.get(block, "the combined sentence cannot be read"))
        who = {re.sub(r"（原审被告人）|^(?:被告人|上诉人|原审被告人)", "", text[c.prefix_start:c.start])
               for c in block.clauses if c.has_prefix}
        if len(who) > 1:
            raise SkipInjection("multi_defendant", f"the clauses name several defendants ({'、'.join(sorted(who))})")
        names = [c.name for c in block.clauses]
        if len(set(names)) != len(names):
            raise SkipInjection("repeated_charge", "a charge has two clauses")
        k = _pick(block)
        kept: ChargeClause = block.clauses[k]
        omitted = [n for n in names if n != kept.name]
        _check_combinable(text, block, k)
        ops: list[Op] = judgment_ops(text, block, k, js.end)
        note = term_note(text, block.combined.end, js.end)
        if isinstance(note, str):
            raise SkipInjection(note, "the 刑期 note cannot be read")
        if note is not None:
            if block.combined.months is None or block.combined.probation is not None:
                raise SkipInjection("note_unexpected", "a 刑期 note without a custodial combined term")
            ops.append(note_end_edit(note, block.combined.months, kept.penalty.months or 0))
        ops += item_ops(text, js.start, js.end, block, kept.name, omitted)
        ops += [(s, e, "") for s, e in reasoning_deletions(
            text, rs.start, rs.end, kept=kept.name, omitted=omitted,
            defendant=judgment.defendants[0] if judgment.defendants else None)]
        cites, removed = citation_deletions(text, rs.start, rs.end, _targets(ctx, omitted, kept.name),
                                            interpretation_names=omitted, keep_names=[kept.name])
        ops += [(s, e, "") for s, e in cites]
        edits = merge_ops(text, ops)
        edits = self._factor_articles(judgment, edits, ops, removed)
        self._check(judgment, edits, kept.name, omitted, ctx)
        return Plan(edits, {"charges": names, "omitted": omitted},
                    {"kept": kept.name, "omitted": omitted,
                     "kept_by": "heaviest per-charge sentence (kind, term, fine; ties: the first)",
                     "combined_months": block.combined.months, "kept_months": kept.penalty.months,
                     "combined_fine_yuan": block.combined.fine_yuan,
                     "kept_fine_yuan": kept.penalty.fine_yuan,
                     "removed_articles": sorted(set(removed))})

    @staticmethod
    def _factor_articles(judgment: Judgment, edits: list[SpanEdit], ops: list[Op],
                         removed: list[int]) -> list[SpanEdit]:
        """Also uncite 22–24/27/28 when their factor word left the reasoning with the
        omitted offence's sentences."""
        rs = judgment.reasoning_span
        assert rs is not None
        text = judgment.full_text
        after = _part(text, edits, rs.start, rs.end)
        gone = [(n, None, None) for n, word in _FACTOR_ARTICLES.items()
                if n in judgment.articles and word in judgment.reasoning and word not in
                re.sub(r"依照.*", "", after)]
        if not gone:
            return edits
        more, extra = citation_deletions(text, rs.start, rs.end, gone)
        removed += extra
        return merge_ops(text, ops + [(s, e, "") for s, e in more])

    @staticmethod
    def _check(judgment: Judgment, edits: list[SpanEdit], kept: str, omitted: list[str],
               ctx: InjectionContext) -> None:
        text = judgment.full_text
        js, rs = judgment.judgment_span, judgment.reasoning_span
        assert js is not None and rs is not None
        part = _part(text, edits, js.start, js.end)
        reasoning = _part(text, edits, rs.start, rs.end)
        for name in omitted:
            if mentions(part, name, [kept]):
                raise SkipInjection("judgment_not_isolable", f"{name} is still named in the judgment part")
            if mentions(reasoning, name, [kept]):
                raise SkipInjection("reasoning_not_isolable", f"{name} is still named in the reasoning")
        if _COMBINE.search(part):
            raise SkipInjection("judgment_not_isolable", "the judgment part still combines sentences")
        if m := _COMBINE.search(reasoning):
            raise SkipInjection("reasoning_not_isolable", f"the reasoning still says {m.group()}")
        if kept not in part:
            raise SkipInjection("judgment_not_isolable", f"the kept charge {kept} left the judgment part")
        cited = {a.number for a in parse_articles(reasoning)}
        kept_articles = _kept_articles(ctx, kept)
        if 69 in cited or any(t[0] in cited and t[0] not in kept_articles
                              for t in _targets(ctx, omitted, kept)[1:]):
            raise SkipInjection("citation_not_isolable", "an omitted charge's article is still cited")


def _kept_articles(ctx: InjectionContext, kept: str) -> set[int]:
    from buildds.inject_errors.tiers import charge_profile

    try:
        return {charge_profile(ctx.profile, kept).article}
    except SkipInjection:
        return set()


def _part(text: str, edits: list[SpanEdit], start: int, end: int) -> str:
    """``text[start:end]`` after the edits that fall inside it."""
    inside = [SpanEdit(start=e.start - start, end=e.end - start, old=e.old, new=e.new)
              for e in edits if start <= e.start and e.end <= end]
    return apply_edits(text[start:end], inside)
