"""A :class:`~buildds.schema.judgments.Judgment` from a full text and the character ranges
of its parts (:func:`judgment_from_ranges`) — what every full-text reader shares (JuDGE,
and the corpora read by a field mapping: LeCaRD, Caseformer, a user's), so the parts are
parsed the same way whichever corpus they come from; and the defendants of a judgment part
(:func:`judge_defendants`), which decide that a judgment is single-defendant.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Literal

from buildds.extract.judgments.amounts import parse_amount_involved
from buildds.extract.judgments.citations import parse_articles, parse_charges
from buildds.extract.judgments.dates import offence_date, parse_judgment_date
from buildds.extract.judgments.factors import parse_factors
from buildds.extract.judgments.reader import unique
from buildds.extract.judgments.sentence import parse_sentence
from buildds.schema.core import Problem, Source
from buildds.schema.judgments import Judgment, JudgmentReject, Span

__all__ = ["STAGE", "Range", "judge_defendants", "judgment_from_ranges", "problem"]

#: the stage named by a judgment's problems
STAGE = "extract.judgments"
#: a [start, end) range of the full text
Range = tuple[int, int]

_NAME = r"[^\s，,。、；：（）()“”]"
#: a defendant sentenced in the judgment part: 被告人/上诉人 X犯…, 被告单位 X犯… (a unit's
#: name is long), or a numbered item naming a person without 被告人 (二、李某犯…)
_DEFENDANT_RE = re.compile(
    rf"(?:(?:被告人|上诉人)(?:（原审被告人）)?(?P<p>{_NAME}{{1,12}}?)"
    rf"|被告单位(?P<u>{_NAME}{{2,40}}?)"
    rf"|(?:^|(?<=[\s：:；;。]))[一二三四五六七八九十]{{1,3}}、(?!被告|上诉|原审)(?P<i>{_NAME}{{1,6}}?))"
    r"犯(?!罪)")


def judge_defendants(judgment_part: str) -> list[str]:
    """Distinct defendant names of a 判决如下 part, in order (``被告人张3犯…`` → 张3; a
    unit ``被告单位…公司犯…`` and an item ``二、李某犯…`` count too)."""
    names: list[str] = []
    for m in _DEFENDANT_RE.finditer(judgment_part):
        name = m["p"] or m["u"] or m["i"]
        if name not in names:
            names.append(name)
    return names


def problem(code: str, message: str, source: str,
            severity: Literal["error", "warning"] = "warning") -> Problem:
    """A problem of the extract stage."""
    return Problem(stage=STAGE, code=code, message=message, source=source, severity=severity)


def _span(full: str, r: Range | None) -> Span | None:
    return Span(start=r[0], end=r[1], text=full[r[0]:r[1]]) if r is not None else None


def judgment_from_ranges(  # long: one record assembled from every parser, in reading order
    rid: str, line: int, *, dataset: str, source: Source, full: str, facts: str,
    facts_r: Range | None, reasoning_r: Range | None, judgment_r: Range | None,
    reject: Callable[[str, str, str], JudgmentReject], facts_where: str = "fd",
    judged: date | None = None, extra_problems: tuple[Problem, ...] = (),
) -> Judgment | JudgmentReject:
    """The judgment of ``full`` whose facts / reasoning / judgment part are the given
    ranges (``None``: not found, a problem); ``facts`` is the facts text when ``facts_r``
    is None. A judgment part with several defendants is ``reject``-ed (``multi_defendant``).
    ``judged``: the judgment date (else the last Chinese-numeral date of ``full``)."""
    where = f"{source.path}:{line}"
    problems: list[Problem] = list(extra_problems)
    facts_span = _span(full, facts_r)
    if facts_span is not None:
        facts = facts_span.text
    else:
        problems.append(problem("facts_not_in_text",
                                f"the facts (text) are not part of {facts_where}", where))
    if judgment_r is None:
        problems.append(problem("no_judgment_part", "no 判决如下 in the judgment", where, "error"))
    if reasoning_r is None:
        problems.append(problem("no_reasoning", "no 本院认为 before 判决如下", where, "error"))
    reasoning = full[slice(*reasoning_r)] if reasoning_r else ""
    judgment = full[slice(*judgment_r)] if judgment_r else ""
    defendants = judge_defendants(judgment)
    if len(defendants) > 1:
        return reject("multi_defendant", f"{len(defendants)} defendants "
                      f"({'、'.join(defendants)})", rid)
    if not defendants:
        problems.append(problem("no_defendant_name", "no 被告人…犯 in the judgment part", where))
    j_off = judgment_r[0] if judgment_r else 0
    r_off = reasoning_r[0] if reasoning_r else 0
    charge_refs = parse_charges(judgment, j_off)
    article_refs = parse_articles(reasoning, r_off)
    sentence = parse_sentence(judgment, j_off)
    if sentence.kind == "none":
        problems.append(problem("no_sentence", "no penalty found in the judgment part", where))
    if not charge_refs:
        problems.append(problem("no_charge", "no 犯…罪 in the judgment part", where))
    amount = parse_amount_involved(facts, facts_r[0]) if facts_r else None
    judged = judged if judged is not None else parse_judgment_date(full)
    return Judgment(
        id=rid, source=source, dataset=dataset, line=line,
        facts=facts, reasoning=reasoning, judgment=judgment, full_text=full,
        facts_span=facts_span, reasoning_span=_span(full, reasoning_r),
        judgment_span=_span(full, judgment_r),
        charges=unique([c.name for c in charge_refs]), charge_refs=tuple(charge_refs),
        articles=unique([a.number for a in article_refs]), article_refs=tuple(article_refs),
        sentence=sentence,
        amount_involved_yuan=amount[0] if amount else None,
        amount_span=amount[1] if amount else None,
        factors=tuple(parse_factors(reasoning, r_off)),
        defendants=tuple(defendants),
        problems=tuple(problems),
        judgment_date=judged, offence_date=offence_date(facts, judged),
    )
