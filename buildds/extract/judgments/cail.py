"""CAIL2018 records (``{fact, meta}``) as judgments (:func:`read_cail`): the fact text plus
the structured meta; sentences come from the meta."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from buildds.extract.json_lines import LineReject, LinesSource, open_lines
from buildds.extract.judgments.amounts import parse_amount_involved
from buildds.extract.judgments.dates import offence_date
from buildds.extract.judgments.factors import parse_factors
from buildds.extract.judgments.reader import RecordReader, kind_of, text_field, unique
from buildds.schema.judgments import Judgment, JudgmentReject, Sentence, Span

__all__ = ["read_cail"]

#: bounds of CAIL meta numbers (a value outside is a typo or an attack, not a sentence)
_MAX_MONTHS = 100 * 12
_MAX_YUAN = 10**13
_MAX_ARTICLE = 1000


class _Unusable(Exception):
    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason, self.message = reason, message


def _int_field(meta: dict[str, Any], key: str, top: int, where: str = "meta") -> int:
    value = meta.get(key) or 0
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Unusable("wrong_type", f"{where}.{key} is {kind_of(value)}, not a number")
    if not 0 <= value <= top:
        raise _Unusable("bad_value", f"{where}.{key} {value} is outside 0 … {top:,}")
    return int(value)


def _str_list(meta: dict[str, Any], key: str) -> tuple[str, ...]:
    value = meta.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _Unusable("wrong_type", f"meta.{key} is {kind_of(value)}, not a list of strings")
    return tuple(value)


def _cail_meta(meta: Any) -> tuple[Sentence, tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """(sentence, criminals, charges, articles) of a CAIL ``meta``; :class:`_Unusable`."""
    if not isinstance(meta, dict):
        raise _Unusable("wrong_type", f"meta is {kind_of(meta)}, not an object")
    term = meta.get("term_of_imprisonment") or {}
    if not isinstance(term, dict):
        raise _Unusable("wrong_type",
                        f"meta.term_of_imprisonment is {kind_of(term)}, not an object")
    for flag in ("death_penalty", "life_imprisonment"):
        if not isinstance(term.get(flag, False), bool):
            raise _Unusable("wrong_type", f"meta.term_of_imprisonment.{flag} is "
                            f"{kind_of(term[flag])}, not true or false")
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


def read_cail(path: str | Path | LinesSource, *, encoding: str | None = None,
              max_line_bytes: int | None = None, seen: dict[str, str] | None = None
              ) -> Iterator[Judgment | JudgmentReject]:
    """Every non-blank line of a CAIL2018 file as a judgment or a reject (module docstring);
    a record's id is ``cail-<line>``."""
    with open_lines(path, encoding=encoding, max_line_bytes=max_line_bytes) as src:
        reader = RecordReader(src, "cail", seen)
        for item in src:
            if isinstance(item, LineReject):
                yield reader.line_reject(item)
                continue
            line, record = item.line, item.value
            rid = f"cail-{line}"
            try:
                problem = text_field(record, "fact", "facts")
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
                charges=unique(list(charges)), articles=unique(list(articles)),
                sentence=sentence, sentence_from="meta",
                amount_involved_yuan=amount[0] if amount else None,
                amount_span=amount[1] if amount else None,
                factors=tuple(parse_factors(fact)),
                defendants=criminals, offence_date=offence_date(fact),
            )
