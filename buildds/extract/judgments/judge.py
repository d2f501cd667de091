"""JuDGE records (``{text_id, text, la, fd}``) as judgments (:func:`read_judge`).

``fd`` is the full judgment; ``text`` (the facts) is located in it, the reasoning runs from
the last 本院认为 before the court's own 判决如下 to that 判决如下, and the judgment part from
判决如下 to the appeal notice (如不服…) or the signatures (:func:`split_judge_text`). ``la`` is
kept out of the parse (it is the ground truth the parsed articles are compared with).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

from buildds.extract.json_lines import JsonLinesFile, LineReject
from buildds.extract.judgments.amounts import parse_amount_involved
from buildds.extract.judgments.citations import parse_articles, parse_charges
from buildds.extract.judgments.dates import offence_date, parse_judgment_date
from buildds.extract.judgments.factors import parse_factors
from buildds.extract.judgments.reader import RecordReader, id_field, text_field, unique
from buildds.extract.judgments.sentence import parse_sentence
from buildds.schema.core import Problem, Source
from buildds.schema.judgments import Judgment, JudgmentReject, Span

__all__ = ["STAGE", "judge_defendants", "read_judge", "split_judge_text"]

#: the stage named by a judgment's problems
STAGE = "extract.judgments"

_JUDGMENT_END_RE = re.compile(r"如不服本判决|如不服|本判决为终审判决|\s(?:代理)?审判[长员]|附[：:]")
_DEFENDANT_RE = re.compile(r"(?:被告人|上诉人|被告单位)(?:（原审被告人）)?([^\s，,。、；：（）()“”]{1,12}?)犯(?!罪)")


def split_judge_text(full: str) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """(reasoning, judgment) character ranges of a full judgment, ``None`` when missing.

    The court's own 判决如下 is the last one (appeal judgments quote the first instance's);
    the reasoning starts at the last 本院认为 before it."""
    j_start = full.rfind("判决如下")
    if j_start < 0:
        return None, None
    end_m = _JUDGMENT_END_RE.search(full, j_start)
    j_end = end_m.start() if end_m else len(full)
    r_start = full.rfind("本院认为", 0, j_start)
    reasoning = (r_start, j_start) if r_start >= 0 else None
    return reasoning, (j_start, j_end)


def judge_defendants(judgment_part: str) -> list[str]:
    """Distinct defendant names of a 判决如下 part (``被告人张3犯…`` → 张3)."""
    names: list[str] = []
    for m in _DEFENDANT_RE.finditer(judgment_part):
        if m[1] not in names:
            names.append(m[1])
    return names


def _problem(code: str, message: str, source: str, severity: Literal["error", "warning"] = "warning"
             ) -> Problem:
    return Problem(stage=STAGE, code=code, message=message, source=source, severity=severity)


def read_judge(path: str | Path, *, encoding: str | None = None,
               max_line_bytes: int | None = None, seen: dict[str, str] | None = None
               ) -> Iterator[Judgment | JudgmentReject]:
    """Every non-blank line of a JuDGE file as a judgment or a reject (module docstring)."""
    with JsonLinesFile(path, encoding=encoding, max_line_bytes=max_line_bytes) as src:
        reader = RecordReader(src, "judge", seen)
        for item in src:
            if isinstance(item, LineReject):
                yield reader.line_reject(item)
                continue
            line, record = item.line, item.value
            problem = id_field(record, "text_id")
            rid = str(record.get("text_id") or f"judge-{line}") if problem is None else None
            problem = (problem or text_field(record, "fd", "full judgment text")
                       or text_field(record, "text", "facts"))
            if problem is not None:
                yield reader.reject(line, problem[0], problem[1], rid)
                continue
            assert rid is not None
            dup = reader.duplicate(line, rid)
            if dup is not None:
                yield dup
                continue
            yield _judge_record(rid, line, record["fd"], record["text"], reader.source,
                                lambda reason, message, rid, line=line:
                                reader.reject(line, reason, message, rid))


def _judge_record(rid: str, line: int, full: str, facts: str, source: Source,
                  reject: Callable[..., JudgmentReject]) -> Judgment | JudgmentReject:
    where = f"{source.path}:{line}"
    problems: list[Problem] = []
    facts = facts.strip()
    f_start = full.find(facts) if facts else -1
    facts_span = Span(start=f_start, end=f_start + len(facts), text=facts) if f_start >= 0 else None
    if facts_span is None:
        problems.append(_problem("facts_not_in_text", "the facts (text) are not part of fd", where))
    reasoning_r, judgment_r = split_judge_text(full)
    if judgment_r is None:
        problems.append(_problem("no_judgment_part", "no 判决如下 in the judgment", where, "error"))
    if reasoning_r is None:
        problems.append(_problem("no_reasoning", "no 本院认为 before 判决如下", where, "error"))
    reasoning = full[slice(*reasoning_r)] if reasoning_r else ""
    judgment = full[slice(*judgment_r)] if judgment_r else ""
    defendants = judge_defendants(judgment)
    if len(defendants) > 1:
        return reject("multi_defendant", f"{len(defendants)} defendants "
                      f"({'、'.join(defendants)})", rid)
    if not defendants:
        problems.append(_problem("no_defendant_name", "no 被告人…犯 in the judgment part", where))
    j_off = judgment_r[0] if judgment_r else 0
    r_off = reasoning_r[0] if reasoning_r else 0
    charge_refs = parse_charges(judgment, j_off)
    article_refs = parse_articles(reasoning, r_off)
    sentence = parse_sentence(judgment, j_off)
    if sentence.kind == "none":
        problems.append(_problem("no_sentence", "no penalty found in the judgment part", where))
    if not charge_refs:
        problems.append(_problem("no_charge", "no 犯…罪 in the judgment part", where))
    amount = parse_amount_involved(facts, f_start) if facts_span else None
    judged = parse_judgment_date(full)
    return Judgment(
        id=rid, source=source, dataset="judge", line=line,
        facts=facts, reasoning=reasoning, judgment=judgment, full_text=full,
        facts_span=facts_span,
        reasoning_span=Span(start=r_off, end=reasoning_r[1], text=reasoning) if reasoning_r else None,
        judgment_span=Span(start=j_off, end=judgment_r[1], text=judgment) if judgment_r else None,
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
