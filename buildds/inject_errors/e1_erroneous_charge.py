"""E1 erroneous conviction: the charge replaced by a confusable one (LegalAttack 相似罪名).

AR-Bench A.3: the charge becomes a confusable one, "with reasoning/articles/term/fine taken
from a similar real case of that charge" — similar meaning the same sentencing factors (issue
5: "a similar real case (same factors) of that charge when one exists"). With a corpus, a donor
judgment convicted of the confusable charge alone and with the same sentencing factors (the
factor kinds and 缓刑) is chosen — the closest term among them, ties broken by the seeded rng —
and

- the reasoning (本院认为… up to 判决如下) becomes the donor's, its defendant's name replaced by
  ours (the donor's cited articles come with it);
- in the judgment part, the charge, the term (and 有期徒刑/拘役/管制), the fine and any cited
  article list become the donor's.

Every change is a span edit on the original text (the reasoning edit is trimmed to the part that
differs), so :func:`~buildds.inject_errors.edits.undo_edits` restores the original exactly. Without
a usable donor with the same factors only the charge name changes (every mention, judgment part
and reasoning) with the charge's article in the citation list
(:func:`~buildds.inject_errors.charge_articles.article_swap`), and the rationale records why (``donor_status``: ``no_corpus``,
``no_reasoning``, ``no_donor``, ``no_donor_same_factors``, ``donor_overlap``,
``donor_name_leak``) — unless the old term is one no tier of the new charge allows
(``sentence_outside_target``: :func:`~buildds.inject_errors.charge_balance.sentence_fits`). A donor whose factors differ is never used: its reasoning would weigh
factors the facts do not show."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from buildds.inject_errors.base import BaseInjector, InjectionContext, Plan, SkipInjection
from buildds.inject_errors.charge_articles import article_swap
from buildds.inject_errors.charge_balance import factor_key, fits, planned_target, sentence_fits
from buildds.inject_errors.corpus_prior import charge_weights
from buildds.inject_errors.dependents import fine_change, term_change
from buildds.inject_errors.sentence_edits import single_charge
from buildds.inject_errors.tiers import profile_memo
from buildds.schema.judgments import ArticleRef, Judgment, SpanEdit
from buildds.schema.statutes import StatuteProfile

__all__ = ["DonorChoice", "ErroneousCharge", "adapt_reasoning", "article_list", "charge_mentions",
           "choose_donor", "minimal_edit"]

_LIST_SEP = re.compile(r"^\s*(?:[、，,和及]|以及)\s*$")
_CONTINUATION = re.compile(r"(?:[、，,和及]|以及)第?[一二三四五六七八九十0-9]+款(?:第?[（(]?[一二三四五六七八九十0-9]+[)）]?项)?")


def charge_mentions(judgment: Judgment, charge: str, profile: StatuteProfile) -> list[tuple[int, int]]:
    """Spans of ``charge`` (without 罪) in the judgment part (the parsed refs) and in the
    reasoning (``charge罪`` not part of a longer charge name such as 合同诈骗 for 诈骗)."""
    spans = {(c.span.start, c.span.end) for c in judgment.charge_refs if c.name == charge}
    rs = judgment.reasoning_span
    if rs is not None:
        longer = _longer_names(profile, charge)
        text = judgment.full_text
        for m in re.finditer(re.escape(charge + "罪"), text[rs.start:rs.end]):
            s = rs.start + m.start()
            if any(text[s - (len(ln) - len(charge)):s] == ln[:len(ln) - len(charge)] for ln in longer):
                continue
            spans.add((s, s + len(charge)))
    return sorted(spans)


def _longer_names(profile: StatuteProfile, charge: str) -> frozenset[str]:
    """Charge names ending in ``charge`` (合同诈骗 for 诈骗), memoised per profile."""
    memo = profile_memo(profile)
    key = ("e1_longer", charge)
    if key not in memo:
        longer = {c.charge for c in profile.charges if c.charge.endswith(charge) and c.charge != charge}
        longer |= {c for c in profile.confusable if c.endswith(charge) and c != charge}
        memo[key] = frozenset(longer)
    names: frozenset[str] = memo[key]
    return names


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


# --------------------------------------------------------------------------- donors
def _factor_key(judgment: Judgment) -> frozenset[str]:
    """The sentencing factors a donor should share (:func:`~.charge_balance.factor_key`)."""
    return frozenset(factor_key(judgment))


@dataclass(frozen=True)
class DonorChoice:
    """The chosen donor and how well it matches: the factors only one of the two cases has,
    and the term difference in months (None when either has no term)."""

    donor: Judgment
    factor_diff: tuple[str, ...]
    term_diff_months: int | None

    def describe(self) -> dict[str, object]:
        return {"same_factors": not self.factor_diff, "factor_diff": list(self.factor_diff),
                "term_diff_months": self.term_diff_months}


def _usable_donor(judgment: Judgment, donor: Judgment) -> bool:
    """A donor we can take reasoning from: another case, one named defendant, a reasoning part
    that names the defendant only in full (see :func:`_short_name_refs`)."""
    return donor.id != judgment.id and _donor_material(donor)


def _donor_material(donor: Judgment) -> bool:
    """The part of :func:`_usable_donor` that does not depend on the target judgment."""
    return (len(donor.defendants) == 1 and donor.reasoning_span is not None
            and bool(donor.reasoning.strip()) and not _short_name_refs(donor))


@dataclass(frozen=True)
class _DonorIndex:
    """Usable donors of the corpus by charge, and by (charge, factor key), in id order —
    built once per context, so choosing a donor does not rescan the corpus per judgment."""

    by_charge: dict[str, list[Judgment]]
    by_factors: dict[tuple[str, frozenset[str]], list[Judgment]]

    @classmethod
    def of(cls, ctx: InjectionContext) -> _DonorIndex:
        def build() -> _DonorIndex:
            by_charge: dict[str, list[Judgment]] = {}
            by_factors: dict[tuple[str, frozenset[str]], list[Judgment]] = {}
            for charge, cases in sorted((ctx._by_charge or {}).items()):
                usable = sorted((d for d in cases if _donor_material(d)), key=lambda d: d.id)
                by_charge[charge] = usable
                for d in usable:
                    by_factors.setdefault((charge, _factor_key(d)), []).append(d)
            return cls(by_charge, by_factors)

        ctx.single_charge_cases("")  # builds the charge index
        index: _DonorIndex = ctx.memo("e1_donor_index", build)
        return index

    def usable(self, judgment: Judgment, charge: str) -> list[Judgment]:
        return [d for d in self.by_charge.get(charge, ()) if d.id != judgment.id]

    def similar(self, judgment: Judgment, charge: str) -> list[Judgment]:
        return [d for d in self.by_factors.get((charge, _factor_key(judgment)), ())
                if d.id != judgment.id]


def _short_name_refs(donor: Judgment) -> bool:
    """Whether the donor's surname shows outside its full name (彭等四人 for 彭某某): a short
    reference the name substitution cannot see, so it would leak. Conservative: any other use
    of the character counts."""
    name = donor.defendants[0]
    return bool(name) and name[0] in donor.reasoning.replace(name, "")


def _similar_donor(judgment: Judgment, donor: Judgment) -> bool:
    """A usable donor with the same sentencing factors."""
    return _usable_donor(judgment, donor) and _factor_key(donor) == _factor_key(judgment)


def choose_donor(judgment: Judgment, candidates: Sequence[Judgment], rng: random.Random) -> DonorChoice | None:
    """The donor among ``candidates`` (single-charge cases of the confusable charge): a usable
    case with the same sentencing factors, the closest term first; the rng picks among equals
    (candidates are ordered by id first, so the choice depends only on the seed). None when
    there is no such case."""
    mine = _factor_key(judgment)
    months = judgment.sentence.months

    def key(d: Judgment) -> tuple[int, int]:
        term = abs(d.sentence.months - months) if months is not None and d.sentence.months is not None else 0
        return len(mine ^ _factor_key(d)), term

    usable = sorted((d for d in candidates if _similar_donor(judgment, d)), key=lambda d: d.id)
    if not usable:
        return None
    best = min(key(d) for d in usable)
    donor = rng.choice([d for d in usable if key(d) == best])
    term_diff = best[1] if months is not None and donor.sentence.months is not None else None
    return DonorChoice(donor, tuple(sorted(mine ^ _factor_key(donor))), term_diff)


def adapt_reasoning(donor: Judgment, defendant: str) -> str:
    """The donor's reasoning with its defendant's name replaced by ``defendant``. Raises
    :class:`SkipInjection` (``donor_name_leak``) when the donor's name would still show."""
    (name,) = donor.defendants
    adapted = donor.reasoning.replace(name, defendant)
    if name in adapted.replace(defendant, ""):
        raise SkipInjection("donor_name_leak", f"the donor's defendant {name} still appears")
    return adapted


def minimal_edit(text: str, start: int, end: int, new: str) -> SpanEdit | None:
    """The edit turning ``text[start:end]`` into ``new``, trimmed of the prefix and suffix the
    two share (None when equal); offsets index ``text``."""
    old = text[start:end]
    if old == new:
        return None
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    return SpanEdit(start=start + head, end=end - tail, old=old[head:len(old) - tail],
                    new=new[head:len(new) - tail])


# --------------------------------------------------------------------------- injector
class ErroneousCharge(BaseInjector):
    error_type = "E1"

    def plan(self, judgment: Judgment, rng: random.Random, ctx: InjectionContext) -> Plan:
        charge = single_charge(judgment)
        donors = _DonorIndex.of(ctx)
        target = None if ctx.corpus is None else planned_target(
            ctx, judgment, self.seed, *self.plan_rules(ctx))
        if target is None:  # no corpus plan: a confusable charge drawn for this judgment
            groups = self._confusable(charge, ctx.profile)
            with_donor = [g2 for g in groups
                          if (g2 := [c for c in g if donors.similar(judgment, c)])]
            target = self._target(with_donor or groups, ctx, rng)
        gold: dict[str, object] = {"charge": charge}
        rationale: dict[str, object] = {"confusable_pair": [charge, target], "donor": None}
        name_edits = self._name_edits(judgment, charge, target, ctx.profile, in_reasoning=True)
        status, message = self._donor_unavailable(judgment, ctx, target)
        if status is None:
            choice = choose_donor(judgment, donors.similar(judgment, target), rng)
            assert choice is not None
            try:
                edits = self._donor_edits(judgment, choice.donor, charge, target, ctx.profile)
            except SkipInjection as why:
                status, message = why.reason, why.message
            else:
                rationale.update(donor=choice.donor.id, donor_status="reasoning_replaced",
                                 donor_dataset=choice.donor.dataset, donor_line=choice.donor.line,
                                 donor_defendant=choice.donor.defendants[0],
                                 donor_match=choice.describe(), donor_sentence=self._sentence(choice.donor))
                gold.update(months=judgment.sentence.months, fine_yuan=judgment.sentence.fine_yuan,
                            articles=list(judgment.articles))
                return Plan(edits, gold, rationale)
        rationale.update(donor_status=status, donor_message=message)
        sentence_fits(judgment, target, ctx.profile)  # the old sentence under the new name
        swap = article_swap(judgment, charge, target, ctx.profile)
        if swap:
            rationale["article_swapped"] = [e.old for e in swap] + [e.new for e in swap]
        return Plan(name_edits + swap, gold, rationale)

    def plan_rules(self, ctx: InjectionContext) -> tuple[Callable[[str], list[str]], Callable[..., bool]]:
        """The corpus plan's questions: a charge's confusable names; may judgment j become t."""
        donors = _DonorIndex.of(ctx)
        return (lambda c: self._names(c, ctx.profile),
                lambda j, t: bool(donors.similar(j, t)) or fits(j, t, ctx.profile))

    def _target(self, groups: list[list[str]], ctx: InjectionContext, rng: random.Random) -> str:
        """A confusable charge: a group drawn uniformly and a name in it, each weighted with a
        corpus (:func:`~buildds.inject_errors.corpus_prior.charge_weights`) so the charges of
        the E1 rows follow the corpus's; without one, a group then a name uniformly."""
        if ctx.corpus is None:
            return rng.choice(rng.choice(groups))
        weights = charge_weights(ctx, lambda c: self._confusable(c, ctx.profile))
        names = [n for g in groups for n in g]
        shares = [weights.get(n, 1.0) / len(groups) / len(g) for g in groups for n in g]
        return rng.choices(names, shares)[0]

    @classmethod
    def _names(cls, charge: str, profile: StatuteProfile) -> list[str]:
        """The confusable names of ``charge`` in the table ([] when none)."""
        try:
            return [n for g in cls._confusable(charge, profile) for n in g]
        except SkipInjection:
            return []

    @staticmethod
    def _confusable(charge: str, profile: StatuteProfile) -> list[list[str]]:
        """The confusable charges the profile knows, as groups of names: a plain entry alone,
        a bracketed entry ([走私、贩卖、运输、制造]毒品) as its plain names the profile resolves
        (so each table entry is drawn as often as any other); skip ``no_confusable_charge``
        when there are none."""
        from buildds.inject_errors.statutes import resolve_charge, single_names

        memo = profile_memo(profile)
        key = ("e1_groups", charge)
        if key not in memo:
            entries = [c for c in profile.confusable.get(charge, ()) if c != charge]

            def known(name: str) -> bool:
                try:
                    return resolve_charge(profile, name) is not None
                except KeyError:
                    return False

            groups: list[list[str]] = []
            expanded: set[str] = set()
            for entry in entries:
                if "[" in entry or "［" in entry:
                    names = [n for n in single_names(entry) if n in entries and n != charge and known(n)]
                    expanded.update(names)
                    if names:
                        groups.append(names)
            groups += [[e] for e in entries if "[" not in e and "［" not in e and e not in expanded and known(e)]
            memo[key] = groups
        found: list[list[str]] = memo[key]
        if not found:
            raise SkipInjection("no_confusable_charge", f"{charge} has no confusable charge in the profile")
        return found

    @staticmethod
    def _donor_unavailable(judgment: Judgment, ctx: InjectionContext, target: str) -> tuple[str | None, str]:
        """Why no donor's reasoning can be used (a reason code and message), or (None, "")."""
        if ctx.corpus is None:
            return "no_corpus", "no corpus of judgments to take a similar case from"
        if judgment.reasoning_span is None or len(judgment.defendants) != 1:
            return "no_reasoning", "the judgment has no reasoning part or no single named defendant"
        donors = _DonorIndex.of(ctx)
        if not donors.usable(judgment, target):
            return "no_donor", f"no single-charge judgment of {target} with a reasoning part in the corpus"
        if not donors.similar(judgment, target):
            factors = ", ".join(sorted(_factor_key(judgment))) or "none"
            return ("no_donor_same_factors",
                    f"no judgment of {target} in the corpus has the same sentencing factors ({factors})")
        return None, ""

    @staticmethod
    def _name_edits(judgment: Judgment, charge: str, target: str, profile: StatuteProfile, *,
                    in_reasoning: bool) -> list[SpanEdit]:
        """The charge name replaced by ``target`` (in the reasoning too, unless ``in_reasoning``
        is False: the donor's reasoning replaces it whole)."""
        text, rs = judgment.full_text, judgment.reasoning_span
        spans = charge_mentions(judgment, charge, profile)
        if not in_reasoning and rs is not None:
            spans = [(s, e) for s, e in spans if not rs.start <= s < rs.end]
        return [SpanEdit(start=s, end=e, old=text[s:e], new=target) for s, e in spans]

    def _donor_edits(self, judgment: Judgment, donor: Judgment, charge: str, target: str,
                     profile: StatuteProfile) -> list[SpanEdit]:
        """The donor's reasoning (names adapted), then the charge, sentence and article list of
        the judgment part; skip (``donor_overlap``) when the edits would collide."""
        rs = judgment.reasoning_span
        assert rs is not None
        reasoning = minimal_edit(judgment.full_text, rs.start, rs.end,
                                 adapt_reasoning(donor, judgment.defendants[0]))
        edits = [reasoning] if reasoning is not None else []
        outside = self._name_edits(judgment, charge, target, profile, in_reasoning=False)
        outside += self._sentence_edits(judgment, donor)
        outside += self._article_edit(judgment, donor, exclude=(rs.start, rs.end))
        ordered = sorted(edits + outside, key=lambda e: (e.start, e.end))
        if any(a.end > b.start for a, b in itertools.pairwise(ordered)):
            raise SkipInjection("donor_overlap", "the donor's edits overlap the charge edits")
        return ordered

    @staticmethod
    def _sentence_edits(judgment: Judgment, donor: Judgment) -> list[SpanEdit]:
        """The donor's term (kind, 缓刑) and fine in place of ours, with what depends on them
        (the date note, every mention of the fine): :mod:`~buildds.inject_errors.dependents`."""
        s, d = judgment.sentence, donor.sentence
        out: list[SpanEdit] = []
        if s.term_span is not None and d.months:
            kind = d.kind if d.kind in ("有期徒刑", "拘役", "管制") else s.kind
            rs = judgment.reasoning_span
            # the donor's reasoning comes with its own citations: no article edit inside it
            out += [e for e in term_change(judgment, d.months, kind, d.probation_months)
                    if rs is None or not rs.start <= e.start < rs.end]
        if s.fine_span is not None and d.fine_yuan:
            out += fine_change(judgment, d.fine_yuan)
        return out

    @staticmethod
    def _article_edit(judgment: Judgment, donor: Judgment, *, exclude: tuple[int, int]) -> list[SpanEdit]:
        """Our cited-article list replaced by the donor's, unless it lies in ``exclude`` (the
        reasoning, which the donor's reasoning replaces with its own list)."""
        text = judgment.full_text
        mine = article_list(text, judgment.article_refs)
        theirs = article_list(donor.full_text, donor.article_refs)
        if mine is None or theirs is None or (exclude[0] <= mine[0] and mine[1] <= exclude[1]):
            return []
        if mine[0] < exclude[1] and exclude[0] < mine[1]:
            return []  # straddles the reasoning border: leave it to the reasoning edit
        return [SpanEdit(start=mine[0], end=mine[1], old=text[mine[0]:mine[1]],
                         new=donor.full_text[theirs[0]:theirs[1]])]

    @staticmethod
    def _sentence(donor: Judgment) -> dict[str, object]:
        d = donor.sentence
        return {"kind": d.kind, "months": d.months, "fine_yuan": d.fine_yuan, "articles": list(donor.articles)}
