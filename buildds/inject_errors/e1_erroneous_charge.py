"""E1 erroneous conviction: the charge replaced by a confusable one (LegalAttack 相似罪名).

Every mention of the charge in the judgment part and the reasoning becomes the confusable
charge; with a corpus, the articles, term and fine come from a real single-charge case of that
charge with the same sentencing factors (AR-Bench A.3), else only the name changes."""

from __future__ import annotations

import random
import re

from buildds.inject_errors.base import (
    BaseInjector,
    InjectionContext,
    Plan,
    SkipInjection,
    format_months_cn,
    format_yuan_cn,
    single_charge,
)
from buildds.schema.judgments import ArticleRef, Judgment, SpanEdit
from buildds.schema.statutes import StatuteProfile

__all__ = ["ErroneousCharge", "article_list", "charge_mentions"]

_LIST_SEP = re.compile(r"^\s*(?:[、，,和及]|以及)\s*$")
_CONTINUATION = re.compile(r"(?:[、，,和及]|以及)第?[一二三四五六七八九十0-9]+款(?:第?[（(]?[一二三四五六七八九十0-9]+[)）]?项)?")


def charge_mentions(judgment: Judgment, charge: str, profile: StatuteProfile) -> list[tuple[int, int]]:
    """Spans of ``charge`` (without 罪) in the judgment part (the parsed refs) and in the
    reasoning (``charge罪`` not part of a longer charge name such as 合同诈骗 for 诈骗)."""
    spans = {(c.span.start, c.span.end) for c in judgment.charge_refs if c.name == charge}
    rs = judgment.reasoning_span
    if rs is not None:
        longer = {c.charge for c in profile.charges if c.charge.endswith(charge) and c.charge != charge}
        longer |= {c for c in profile.confusable if c.endswith(charge) and c != charge}
        text = judgment.full_text
        for m in re.finditer(re.escape(charge + "罪"), text[rs.start:rs.end]):
            s = rs.start + m.start()
            if any(text[s - (len(ln) - len(charge)):s] == ln[:len(ln) - len(charge)] for ln in longer):
                continue
            spans.add((s, s + len(charge)))
    return sorted(spans)


def article_list(text: str, refs: tuple[ArticleRef, ...]) -> tuple[int, int] | None:
    """The [start, end) of the cited-article list when all refs form one list."""
    if not refs:
        return None
    end = refs[0].span.end
    for ref in refs[1:]:
        while m := _CONTINUATION.match(text, end):
            end = m.end()
        if not _LIST_SEP.match(text[end:ref.span.start]):
            return None
        end = ref.span.end
    while m := _CONTINUATION.match(text, end):
        end = m.end()
    return refs[0].span.start, end


class ErroneousCharge(BaseInjector):
    error_type = "E1"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        charge = single_charge(judgment)
        profile = ctx.profile
        candidates = [c for c in profile.confusable.get(charge, ()) if c != charge]
        names = {p.charge for p in profile.charges}
        # only plain charge names the profile knows (the table also lists bracketed groups)
        known = [c for c in candidates if c in names and not re.search(r"[\[\]［］]", c)]
        if not known:
            raise SkipInjection("no_confusable_charge", f"{charge} has no confusable charge in the profile")
        target = rng.choice(known)
        text = judgment.full_text
        edits = [SpanEdit(start=s, end=e, old=text[s:e], new=target)
                 for s, e in charge_mentions(judgment, charge, profile)]
        gold: dict[str, object] = {"charge": charge}
        rationale: dict[str, object] = {"confusable_pair": [charge, target], "donor": None}
        kinds = frozenset(f.kind for f in judgment.factors)
        donors = [d for d in ctx.single_charge_cases(target)
                  if d.id != judgment.id and frozenset(f.kind for f in d.factors) == kinds]
        if donors:
            donor = rng.choice(donors)
            rationale["donor"] = donor.id
            extra = self._from_donor(judgment, donor)
            if not any(a.start < b.end and b.start < a.end for a in extra for b in edits):
                edits += extra
                gold.update(months=judgment.sentence.months, fine_yuan=judgment.sentence.fine_yuan,
                            articles=list(judgment.articles))
                rationale["donor_sentence"] = {"kind": donor.sentence.kind, "months": donor.sentence.months,
                                               "fine_yuan": donor.sentence.fine_yuan,
                                               "articles": list(donor.articles)}
        return Plan(edits, gold, rationale)

    @staticmethod
    def _from_donor(judgment: Judgment, donor: Judgment) -> list[SpanEdit]:
        text = judgment.full_text
        s, d = judgment.sentence, donor.sentence
        out: list[SpanEdit] = []
        if s.term_span is not None and d.months:
            out.append(SpanEdit(start=s.term_span.start, end=s.term_span.end, old=s.term_span.text,
                                new=format_months_cn(d.months, s.term_span.text)))
            if s.kind_span is not None and d.kind != s.kind and d.kind in ("有期徒刑", "拘役", "管制"):
                out.append(SpanEdit(start=s.kind_span.start, end=s.kind_span.end, old=s.kind_span.text,
                                    new=d.kind))
        if s.fine_span is not None and d.fine_yuan:
            out.append(SpanEdit(start=s.fine_span.start, end=s.fine_span.end, old=s.fine_span.text,
                                new=format_yuan_cn(d.fine_yuan, s.fine_span.text)))
        mine = article_list(text, judgment.article_refs)
        theirs = article_list(donor.full_text, donor.article_refs)
        if mine is not None and theirs is not None:
            out.append(SpanEdit(start=mine[0], end=mine[1], old=text[mine[0]:mine[1]],
                                new=donor.full_text[theirs[0]:theirs[1]]))
        return out
