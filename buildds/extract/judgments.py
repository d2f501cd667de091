"""Read criminal judgments (AR-Bench, seed 003) from JuDGE and CAIL2018 JSON lines.

- :func:`read_judge` / :func:`read_cail` yield, per source line, a :class:`Judgment` or a
  :class:`JudgmentReject` (bad JSON, a missing field, more than one defendant) with its line
  number: nothing is dropped silently and nothing raises on a bad record.
- :func:`load_judge` / :func:`load_cail` yield only the judgments and hand each reject to
  ``rejects`` (a list to append to); without one, rejects are logged as warnings.

Files are streamed line by line. JuDGE (``{text_id, text, la, fd}``): ``fd`` is the full
judgment; ``text`` (the facts) is located in it, the reasoning runs from the last 本院认为
before the court's own 判决如下 to that 判决如下, and the judgment part from 判决如下 to the
appeal notice (如不服…) or the signatures. ``la`` is kept out of the parse (it is the ground
truth the parsed articles are compared with). CAIL (``{fact, meta}``): the fact text plus
the structured meta; sentences come from the meta.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from buildds.pipeline import sha256_file
from buildds.schema.core import Problem, Source
from buildds.schema.judgments import Judgment, JudgmentReject, Sentence, Span
from buildds.transform.judgment_parse import (
    parse_amount_involved,
    parse_articles,
    parse_charges,
    parse_factors,
    parse_sentence,
)

__all__ = [
    "judge_defendants",
    "load_cail",
    "load_judge",
    "read_cail",
    "read_judge",
    "split_judge_text",
]

log = logging.getLogger(__name__)
STAGE = "extract.judgments"

_JUDGMENT_END_RE = re.compile(r"如不服本判决|如不服|本判决为终审判决|\s(?:代理)?审判[长员]|附[：:]")
_DEFENDANT_RE = re.compile(r"(?:被告人|上诉人|被告单位)(?:（原审被告人）)?([^\s，,。、；：（）()“”]{1,12}?)犯(?!罪)")


def _source(path: Path) -> Source:
    return Source(path=path.name, sha256=sha256_file(path))


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with path.open(encoding="utf-8", errors="replace") as fh:
        for number, line in enumerate(fh, start=1):
            if line.strip():
                yield number, line


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


def _unique(items: list[Any]) -> tuple[Any, ...]:
    return tuple(dict.fromkeys(items))


def read_judge(path: str | Path) -> Iterator[Judgment | JudgmentReject]:
    path = Path(path)
    source = _source(path)
    for line, raw in _lines(path):
        def reject(reason: Any, message: str, rid: str | None = None, line: int = line
                   ) -> JudgmentReject:
            return JudgmentReject(dataset="judge", source=source.path, line=line, id=rid,
                                  reason=reason, message=message)
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            yield reject("malformed_json", f"line {line}: {exc}")
            continue
        if not isinstance(record, dict):
            yield reject("malformed_json", f"line {line}: not a JSON object")
            continue
        rid = str(record.get("text_id") or f"judge-{line}")
        full = record.get("fd")
        facts = record.get("text")
        if not isinstance(full, str) or not full.strip():
            yield reject("missing_field", f"line {line}: no full judgment text (fd)", rid)
            continue
        yield _judge_record(rid, line, full, facts if isinstance(facts, str) else "", source,
                            reject)


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
        return reject("multi_defendant", f"line {line}: {len(defendants)} defendants "
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
    return Judgment(
        id=rid, source=source, dataset="judge", line=line,
        facts=facts, reasoning=reasoning, judgment=judgment, full_text=full,
        facts_span=facts_span,
        reasoning_span=Span(start=r_off, end=reasoning_r[1], text=reasoning) if reasoning_r else None,
        judgment_span=Span(start=j_off, end=judgment_r[1], text=judgment) if judgment_r else None,
        charges=_unique([c.name for c in charge_refs]), charge_refs=tuple(charge_refs),
        articles=_unique([a.number for a in article_refs]), article_refs=tuple(article_refs),
        sentence=sentence,
        amount_involved_yuan=amount[0] if amount else None,
        amount_span=amount[1] if amount else None,
        factors=tuple(parse_factors(reasoning, r_off)),
        defendants=tuple(defendants),
        problems=tuple(problems),
    )


def _cail_sentence(meta: dict[str, Any]) -> Sentence:
    term = meta.get("term_of_imprisonment") or {}
    fine = meta.get("punish_of_money") or 0
    fine_yuan = int(fine) if fine else None
    common: dict[str, Any] = {"fine_yuan": fine_yuan,
                              "fine_kind": "unknown" if fine_yuan else None}
    if term.get("death_penalty"):
        return Sentence(kind="死刑", **common)
    if term.get("life_imprisonment"):
        return Sentence(kind="无期徒刑", **common)
    months = int(term.get("imprisonment") or 0)
    if months > 0:
        return Sentence(kind="有期徒刑", months=months, **common)
    if fine_yuan:
        return Sentence(kind="单处罚金", **common)
    return Sentence(kind="免予刑事处罚")


def read_cail(path: str | Path) -> Iterator[Judgment | JudgmentReject]:
    path = Path(path)
    source = _source(path)
    for line, raw in _lines(path):
        def reject(reason: Any, message: str, line: int = line) -> JudgmentReject:
            return JudgmentReject(dataset="cail", source=source.path, line=line,
                                  id=f"cail-{line}", reason=reason, message=message)
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            yield reject("malformed_json", f"line {line}: {exc}")
            continue
        fact = record.get("fact") if isinstance(record, dict) else None
        meta = record.get("meta") if isinstance(record, dict) else None
        if not isinstance(fact, str) or not isinstance(meta, dict):
            yield reject("missing_field", f"line {line}: needs a string 'fact' and an object 'meta'")
            continue
        try:
            criminals = tuple(str(c) for c in meta.get("criminals") or ())
            sentence = _cail_sentence(meta)
            charges = tuple(str(a) for a in meta.get("accusation") or ())
            articles = tuple(int(a) for a in meta.get("relevant_articles") or ())
        except (TypeError, ValueError, AttributeError) as exc:
            yield reject("missing_field", f"line {line}: bad meta: {exc}")
            continue
        if len(criminals) > 1:
            yield reject("multi_defendant", f"line {line}: {len(criminals)} defendants")
            continue
        if not criminals:
            yield reject("no_defendant", f"line {line}: meta.criminals is empty")
            continue
        amount = parse_amount_involved(fact)
        yield Judgment(
            id=f"cail-{line}", source=source, dataset="cail", line=line,
            facts=fact, reasoning="", judgment="", full_text=fact,
            facts_span=Span(start=0, end=len(fact), text=fact),
            charges=_unique(list(charges)), articles=_unique(list(articles)),
            sentence=sentence, sentence_from="meta",
            amount_involved_yuan=amount[0] if amount else None,
            amount_span=amount[1] if amount else None,
            factors=tuple(parse_factors(fact)),
            defendants=criminals,
        )


def _only_judgments(records: Iterator[Judgment | JudgmentReject],
                    rejects: list[JudgmentReject] | None) -> Iterator[Judgment]:
    for record in records:
        if isinstance(record, Judgment):
            yield record
        elif rejects is not None:
            rejects.append(record)
        else:
            log.warning("rejected %s line %d (%s): %s", record.source, record.line,
                        record.reason, record.message)


def load_judge(path: str | Path, rejects: list[JudgmentReject] | None = None
               ) -> Iterator[Judgment]:
    """Single-defendant JuDGE judgments; rejects go to ``rejects`` (or the log)."""
    return _only_judgments(read_judge(path), rejects)


def load_cail(path: str | Path, rejects: list[JudgmentReject] | None = None
              ) -> Iterator[Judgment]:
    """Single-defendant CAIL2018 records; rejects go to ``rejects`` (or the log)."""
    return _only_judgments(read_cail(path), rejects)
