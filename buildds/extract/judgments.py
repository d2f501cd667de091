"""Read criminal judgments (AR-Bench, seed 003) from JuDGE and CAIL2018 JSON lines.

- :func:`read_judge` / :func:`read_cail` yield, per source line, a :class:`Judgment` or a
  :class:`JudgmentReject` with its line number and reason: nothing is dropped silently and
  nothing raises on a bad record. A line is read strictly (:mod:`buildds.extract.json_lines`:
  encoding, line length, control characters, JSON and its limits, one object per line);
  then its fields: a required field missing (``missing_field``), empty (``empty_field``),
  of the wrong type (``wrong_type``), out of range (``bad_value``), or an id already used (``duplicate_id``, naming the line that has it; ``seen``
  shares the ids across files); then the case (``multi_defendant``, ``no_defendant``).
- :func:`load_judge` / :func:`load_cail` yield only the judgments and hand each reject to
  ``rejects`` (a list to append to); without one, rejects are logged as warnings.
- :func:`detect_format` reads a file up to its first record that names its format.

Only an unreadable file raises (:class:`~buildds.errors.ExtractError`, naming it: not a
regular file, an unknown ``encoding``, a read error).

Files are streamed line by line. JuDGE (``{text_id, text, la, fd}``): ``fd`` is the full
judgment; ``text`` (the facts) is located in it, the reasoning runs from the last 本院认为
before the court's own 判决如下 to that 判决如下, and the judgment part from 判决如下 to the
appeal notice (如不服…) or the signatures. ``la`` is kept out of the parse (it is the ground
truth the parsed articles are compared with). CAIL (``{fact, meta}``): the fact text plus
the structured meta; sentences come from the meta.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from buildds.extract.json_lines import JsonLinesFile, LineReject
from buildds.safeio.text_decoding import Encoding
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
    "JudgmentInput",
    "detect_format",
    "judge_defendants",
    "load_cail",
    "load_judge",
    "read_cail",
    "read_judge",
    "record_format",
    "split_judge_text",
]

log = logging.getLogger(__name__)
STAGE = "extract.judgments"

_JUDGMENT_END_RE = re.compile(r"如不服本判决|如不服|本判决为终审判决|\s(?:代理)?审判[长员]|附[：:]")
_DEFENDANT_RE = re.compile(r"(?:被告人|上诉人|被告单位)(?:（原审被告人）)?([^\s，,。、；：（）()“”]{1,12}?)犯(?!罪)")
#: bounds of CAIL meta numbers (a value outside is a typo or an attack, not a sentence)
_MAX_MONTHS = 100 * 12
_MAX_YUAN = 10**13
_MAX_ARTICLE = 1000

#: (reason, message without the line number) of a record field that cannot be used
FieldProblem = tuple[str, str]


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


def _kind(value: Any) -> str:
    return {list: "a list", dict: "an object", str: "a string", bool: "a boolean",
            int: "a number", float: "a number", type(None): "null"}.get(type(value), "a value")


def _text_field(record: dict[str, Any], key: str, what: str) -> FieldProblem | None:
    """Why ``record[key]`` is not a usable non-empty text, or None."""
    value = record.get(key)
    if value is None:
        return "missing_field", f"no {what} ({key})"
    if not isinstance(value, str):
        return "wrong_type", f"{key} ({what}) is {_kind(value)}, not a string"
    if not value.strip():
        return "empty_field", f"{key} ({what}) is empty"
    return None


def _id_field(record: dict[str, Any], key: str) -> FieldProblem | None:
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        return "wrong_type", f"{key} is {_kind(value)}, not a string"
    return None


class _Reader:
    """What both formats share: the strict line reader, rejects with the file and line, and
    the ids seen (``seen``: id → ``<file> line <n>``, shared across files by the caller)."""

    def __init__(self, src: JsonLinesFile, dataset: Literal["judge", "cail"],
                 seen: dict[str, str] | None) -> None:
        self.src, self.dataset = src, dataset
        self.source = Source(path=src.name, sha256=src.sha256)
        self.seen = {} if seen is None else seen

    def reject(self, line: int, reason: Any, message: str, rid: str | None = None
               ) -> JudgmentReject:
        return JudgmentReject(dataset=self.dataset, source=self.source.path, line=line, id=rid,
                              reason=reason, message=f"line {line}: {message}")

    def line_reject(self, item: LineReject) -> JudgmentReject:
        return JudgmentReject(dataset=self.dataset, source=self.source.path, line=item.line,
                              reason=item.reason, message=item.message)

    def duplicate(self, line: int, rid: str) -> JudgmentReject | None:
        """A reject when ``rid`` was seen before; otherwise ``rid`` is recorded."""
        first = self.seen.get(rid)
        if first is not None:
            return self.reject(line, "duplicate_id", f"id {rid} is already {first} "
                               "(the first is kept)", rid)
        self.seen[rid] = f"{self.source.path} line {line}"
        return None


def read_judge(path: str | Path, *, encoding: str | None = None,
               max_line_bytes: int | None = None, seen: dict[str, str] | None = None
               ) -> Iterator[Judgment | JudgmentReject]:
    """Every non-blank line of a JuDGE file as a judgment or a reject (module docstring)."""
    with JsonLinesFile(path, encoding=encoding, max_line_bytes=max_line_bytes) as src:
        reader = _Reader(src, "judge", seen)
        for item in src:
            if isinstance(item, LineReject):
                yield reader.line_reject(item)
                continue
            line, record = item.line, item.value
            problem = _id_field(record, "text_id")
            rid = str(record.get("text_id") or f"judge-{line}") if problem is None else None
            problem = (problem or _text_field(record, "fd", "full judgment text")
                       or _text_field(record, "text", "facts"))
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


class _Unusable(Exception):
    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason, self.message = reason, message


def _int_field(meta: dict[str, Any], key: str, top: int, where: str = "meta") -> int:
    value = meta.get(key) or 0
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Unusable("wrong_type", f"{where}.{key} is {_kind(value)}, not a number")
    if not 0 <= value <= top:
        raise _Unusable("bad_value", f"{where}.{key} {value} is outside 0 … {top:,}")
    return int(value)


def _str_list(meta: dict[str, Any], key: str) -> tuple[str, ...]:
    value = meta.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Unusable("wrong_type", f"meta.{key} is {_kind(value)}, not a list of strings")
    return tuple(value)


def _cail_meta(meta: Any) -> tuple[Sentence, tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """(sentence, criminals, charges, articles) of a CAIL ``meta``; :class:`_Unusable`."""
    if not isinstance(meta, dict):
        raise _Unusable("wrong_type", f"meta is {_kind(meta)}, not an object")
    term = meta.get("term_of_imprisonment") or {}
    if not isinstance(term, dict):
        raise _Unusable("wrong_type",
                        f"meta.term_of_imprisonment is {_kind(term)}, not an object")
    for flag in ("death_penalty", "life_imprisonment"):
        if not isinstance(term.get(flag, False), bool):
            raise _Unusable("wrong_type", f"meta.term_of_imprisonment.{flag} is "
                            f"{_kind(term[flag])}, not true or false")
    months = _int_field(term, "imprisonment", _MAX_MONTHS, "meta.term_of_imprisonment")
    fine = _int_field(meta, "punish_of_money", _MAX_YUAN)
    criminals, charges = _str_list(meta, "criminals"), _str_list(meta, "accusation")
    articles = meta.get("relevant_articles") or []
    if not isinstance(articles, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in articles):
        raise _Unusable("wrong_type", "meta.relevant_articles is not a list of article numbers")
    if any(not 1 <= a <= _MAX_ARTICLE for a in articles):
        raise _Unusable("bad_value", "meta.relevant_articles holds a number outside "
                        f"1 … {_MAX_ARTICLE}")
    return _cail_sentence(term, months, fine), criminals, charges, tuple(articles)


def _cail_sentence(term: dict[str, Any], months: int, fine: int) -> Sentence:
    fine_yuan = fine or None
    common: dict[str, Any] = {"fine_yuan": fine_yuan,
                              "fine_kind": "unknown" if fine_yuan else None}
    if term.get("death_penalty"):
        return Sentence(kind="死刑", **common)
    if term.get("life_imprisonment"):
        return Sentence(kind="无期徒刑", **common)
    if months > 0:
        return Sentence(kind="有期徒刑", months=months, **common)
    if fine_yuan:
        return Sentence(kind="单处罚金", **common)
    return Sentence(kind="免予刑事处罚")


def read_cail(path: str | Path, *, encoding: str | None = None,
              max_line_bytes: int | None = None, seen: dict[str, str] | None = None
              ) -> Iterator[Judgment | JudgmentReject]:
    """Every non-blank line of a CAIL2018 file as a judgment or a reject (module docstring);
    a record's id is ``cail-<line>``."""
    with JsonLinesFile(path, encoding=encoding, max_line_bytes=max_line_bytes) as src:
        reader = _Reader(src, "cail", seen)
        for item in src:
            if isinstance(item, LineReject):
                yield reader.line_reject(item)
                continue
            line, record = item.line, item.value
            rid = f"cail-{line}"
            try:
                problem = _text_field(record, "fact", "facts")
                if problem is not None:
                    raise _Unusable(*problem)
                if record.get("meta") is None:
                    raise _Unusable("missing_field", "no meta")
                sentence, criminals, charges, articles = _cail_meta(record["meta"])
            except _Unusable as exc:
                yield reader.reject(line, exc.reason, exc.message, rid)
                continue
            dup = reader.duplicate(line, rid)
            if dup is not None:
                yield dup
                continue
            if len(criminals) > 1:
                yield reader.reject(line, "multi_defendant", f"{len(criminals)} defendants", rid)
                continue
            if not criminals:
                yield reader.reject(line, "no_defendant", "meta.criminals is empty", rid)
                continue
            fact = record["fact"]
            amount = parse_amount_involved(fact)
            yield Judgment(
                id=rid, source=reader.source, dataset="cail", line=line,
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


def load_judge(path: str | Path, rejects: list[JudgmentReject] | None = None, *,
               encoding: str | None = None, max_line_bytes: int | None = None,
               seen: dict[str, str] | None = None) -> Iterator[Judgment]:
    """Single-defendant JuDGE judgments; rejects go to ``rejects`` (or the log)."""
    return _only_judgments(read_judge(path, encoding=encoding, max_line_bytes=max_line_bytes,
                                      seen=seen), rejects)


def load_cail(path: str | Path, rejects: list[JudgmentReject] | None = None, *,
              encoding: str | None = None, max_line_bytes: int | None = None,
              seen: dict[str, str] | None = None) -> Iterator[Judgment]:
    """Single-defendant CAIL2018 records; rejects go to ``rejects`` (or the log)."""
    return _only_judgments(read_cail(path, encoding=encoding, max_line_bytes=max_line_bytes,
                                     seen=seen), rejects)


@dataclass
class JudgmentInput:
    """What :func:`detect_format` found: the file's printable ``name``, ``sha256``,
    ``encoding`` and ``format`` (``None`` when no line names one; then ``rejects`` holds
    (line, reason, message) of every line, read to the end)."""

    path: Path
    name: str
    sha256: str
    encoding: Encoding
    format: Literal["judge", "cail"] | None
    rejects: list[tuple[int, str, str]] = field(default_factory=list)


def record_format(record: dict[str, Any]) -> Literal["judge", "cail"] | None:
    """``judge`` ({text_id, text, la, fd}), ``cail`` ({fact, meta}) or None."""
    if "fd" in record or "text_id" in record:
        return "judge"
    if "fact" in record and "meta" in record:
        return "cail"
    return None


def detect_format(path: str | Path, *, encoding: str | None = None,
                  max_line_bytes: int | None = None) -> JudgmentInput:
    """The format of a judgments file from its first JSON object that has one (lines before
    it that cannot be read are skipped here, and rejected by the reader); the same strict
    reading as :func:`read_judge`. :class:`~buildds.errors.ExtractError` for a file that
    cannot be read."""
    with JsonLinesFile(path, encoding=encoding, max_line_bytes=max_line_bytes) as src:
        found = JudgmentInput(path=Path(path), name=src.name, sha256=src.sha256,
                              encoding=src.encoding, format=None)
        for item in src:
            if isinstance(item, LineReject):
                found.rejects.append((item.line, item.reason, item.message))
                continue
            found.format = record_format(item.value)
            if found.format is not None:
                found.rejects.clear()
                return found
            message = (f"line {item.line}: neither JuDGE ({{text_id, text, fd}}) nor CAIL "
                       "({fact, meta}) fields")
            found.rejects.append((item.line, "missing_field", message))
    return found
