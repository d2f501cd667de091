"""Judgments of a corpus read by a declared field mapping (:func:`read_mapped`): LeCaRD,
Caseformer, or a user's corpus (:mod:`.field_maps`).

Each line is read strictly (:mod:`buildds.extract.json_lines`), then its declared parts:
every declared text part must be a non-empty string (``missing_field`` / ``wrong_type`` /
``empty_field``), the id unique across all inputs (``duplicate_id``, naming the first).
Then the case: an appeal or retrial (``not_first_instance``, by the declared procedure text
or else the case number: the error types of AR-Bench are first-instance sentencing errors,
and an appeal's operative part 维持/撤销 another judgment), the parts placed in the full
text (``part_not_in_text`` when the operative part is not in it), several defendants
(``multi_defendant``), and a case already read from this or another input
(``duplicate_case``: by the declared case key and by the case number, naming the first).

The parts become spans of the full text the way JuDGE's are (:func:`place_parts`): the
facts where they are found; the reasoning from its start to the court's 判决如下 — so the
statutory basis 依照…之规定 belongs to it even when the corpus's reasoning field leaves it out
(Caseformer); the judgment part from 判决如下 (or the operative field's start) to the appeal
notice (LeCaRD's 判决结果 runs on into it). Without a full text the parts are joined by
newlines; without an operative part the full text is split at its last 判决如下.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

from buildds.extract.json_lines import LineReject, LinesSource, open_lines
from buildds.extract.judgments.build import Range, judgment_from_ranges, problem
from buildds.extract.judgments.cases import CaseRegistry, case_number, procedure_of
from buildds.extract.judgments.dates import parse_dates
from buildds.extract.judgments.field_maps import field_value
from buildds.extract.judgments.judge import JUDGMENT_END_RE, split_judge_text
from buildds.extract.judgments.reader import FieldProblem, RecordReader, kind_of
from buildds.schema.judgment_fields import JudgmentFieldMap
from buildds.schema.judgments import Judgment, JudgmentReject

__all__ = ["Parts", "place_parts", "read_mapped"]

#: the longest stretch between the reasoning field and the operative part that still
#: belongs to the reasoning (the statutory basis 依照…之规定，判决如下)
_MAX_GAP = 1500
#: the heading of the operative part (判处如下 is a rarer wording)
_HEADINGS = ("判决如下", "判处如下")
_TEXT_PARTS = ("full_text", "facts", "reasoning", "judgment")
#: (full text, facts, facts range, reasoning range, judgment range)
Parts = tuple[str, str, Range | None, Range | None, Range | None]


def _text(record: dict[str, Any], fmap: JudgmentFieldMap, part: str
          ) -> tuple[str | None, FieldProblem | None]:
    path = getattr(fmap, part)
    if path is None:
        return None, None
    value = field_value(record, path)
    if value is None:
        return None, ("missing_field", f"no {part} ({path})")
    if not isinstance(value, str):
        return None, ("wrong_type", f"{path} ({part}) is {kind_of(value)}, not a string")
    if not value.strip():
        return None, ("empty_field", f"{path} ({part}) is empty")
    return value.strip(), None


def _id(record: dict[str, Any], fmap: JudgmentFieldMap, key: str | None
        ) -> tuple[str | None, FieldProblem | None]:
    if key is None:
        return None, None
    value = field_value(record, key)
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        what = "missing" if value is None else f"{kind_of(value)}, not a string"
        return None, ("missing_field" if value is None else "wrong_type", f"{key} is {what}")
    return str(value).strip(), None


def _locate(full: str, part: str | None, after: int, *, anywhere: bool = True
            ) -> Range | None:
    """Where ``part`` is in ``full``: after ``after``, else (``anywhere``) before it."""
    if part is None:
        return None
    at = full.find(part, after)
    if at < 0 and after and anywhere:
        at = full.find(part)
    return (at, at + len(part)) if at >= 0 else None


def place_parts(full: str | None, facts: str | None, reasoning: str | None,
                judgment: str | None) -> Parts | str:
    """The full text and the ranges of the facts, reasoning and judgment part in it (module
    docstring); a message when the operative part is not in the full text."""
    if full is None:
        pieces = [p for p in (facts, reasoning, judgment) if p]
        full = "\n".join(pieces)
    facts_r = _locate(full, facts, 0)
    reasoning_r = _locate(full, reasoning, facts_r[1] if facts_r else 0)
    if judgment is None:
        reasoning_r, judgment_r = split_judge_text(full)
        return full, facts or "", facts_r, reasoning_r, judgment_r
    found = _locate(full, judgment, reasoning_r[1] if reasoning_r else 0, anywhere=False)
    if found is None:
        return ("the operative part (judgment) is not in the full text"
                + (" after the reasoning" if reasoning_r else ""))
    j_start, j_stop = found
    if reasoning_r is None:  # the last 本院认为 before it
        r_start = full.rfind("本院认为", 0, j_start)
        reasoning_r = (r_start, j_start) if r_start >= 0 else None
    if reasoning_r is not None and j_start - reasoning_r[1] <= _MAX_GAP:
        k = max(full.rfind(word, reasoning_r[0], j_start) for word in _HEADINGS)
        if k >= 0:
            reasoning_r, j_start = (reasoning_r[0], k), k
        else:
            reasoning_r = (reasoning_r[0], j_start)
    end = JUDGMENT_END_RE.search(full, j_start, j_stop)
    return full, facts or "", facts_r, reasoning_r, (j_start, end.start() if end else j_stop)


def _judged(record: dict[str, Any], fmap: JudgmentFieldMap) -> date | None:
    if fmap.date is None:
        return None
    value = field_value(record, fmap.date)
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        found = parse_dates(value)
        return found[-1][0] if found else None


def _charges(record: dict[str, Any], fmap: JudgmentFieldMap
             ) -> tuple[tuple[str, ...] | None, FieldProblem | None]:
    if fmap.charges is None:
        return None, None
    value = field_value(record, fmap.charges)
    if value is None:
        return None, None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None, ("wrong_type", (f"{fmap.charges} (charges) is {kind_of(value)}, "
                      "not a list of charge names"))
    return tuple(v.strip().removesuffix("罪") for v in value if v.strip()), None


def read_mapped(path: str | Path | LinesSource, fmap: JudgmentFieldMap, *,
                encoding: str | None = None, max_line_bytes: int | None = None,
                seen: dict[str, str] | None = None, cases: CaseRegistry | None = None,
                first_instance_only: bool = True) -> Iterator[Judgment | JudgmentReject]:
    """Every non-blank line of a file as a judgment or a reject (module docstring); ``seen``
    (ids) and ``cases`` are shared across the inputs of a run by the caller."""
    cases = cases if cases is not None else CaseRegistry()
    with open_lines(path, encoding=encoding, max_line_bytes=max_line_bytes) as src:
        reader = RecordReader(src, fmap.name, seen)
        for item in src:
            if isinstance(item, LineReject):
                yield reader.line_reject(item)
                continue
            yield _record(reader, fmap, item.line, item.value, cases, first_instance_only)


def _record(reader: RecordReader, fmap: JudgmentFieldMap, line: int, record: dict[str, Any],
            cases: CaseRegistry, first_instance_only: bool) -> Judgment | JudgmentReject:
    rid, trouble = _id(record, fmap, fmap.id)
    rid = rid or (f"{fmap.name}-{line}" if fmap.id is None else None)
    texts: dict[str, str | None] = {}
    for part in _TEXT_PARTS:
        texts[part], found = _text(record, fmap, part)
        trouble = trouble or found
    case_key, found = _id(record, fmap, fmap.case_key)
    declared, found_c = _charges(record, fmap)
    trouble = trouble or found or found_c
    if trouble is not None:
        return reader.reject(line, trouble[0], trouble[1], rid)
    assert rid is not None
    dup = reader.duplicate(line, rid)
    if dup is not None:
        return dup
    placed = place_parts(texts["full_text"], texts["facts"], texts["reasoning"],
                         texts["judgment"])
    if isinstance(placed, str):
        return reader.reject(line, "part_not_in_text", placed, rid)
    full, facts, facts_r, reasoning_r, judgment_r = placed
    number = case_number(full)
    title = field_value(record, fmap.procedure) if fmap.procedure else None
    procedure = procedure_of(title if isinstance(title, str) else None, number)
    if first_instance_only and procedure in ("appeal", "retrial"):
        return reader.reject(line, "not_first_instance", f"{'an' if procedure == 'appeal' else 'a'} {procedure} judgment "
                             f"({title or '-'}; case number {number or '-'}): only "
                             "first-instance judgments are read", rid)
    made = judgment_from_ranges(
        rid, line, dataset=fmap.name, source=reader.source, full=full, facts=facts,
        facts_r=facts_r, reasoning_r=reasoning_r, judgment_r=judgment_r,
        reject=lambda reason, message, rid: reader.reject(line, reason, message, rid),
        facts_where=fmap.full_text or "the joined parts", judged=_judged(record, fmap))
    if isinstance(made, JudgmentReject):
        return made
    first = cases.claim((case_key, number), f"{reader.source.path} line {line}")
    if first is not None:
        return reader.reject(line, "duplicate_case", f"case {first[0]} is already "
                             f"{first[1]} (the first is kept)", rid)
    if declared is not None and set(declared) != set(made.charges):
        note = problem("charges_differ", f"declared charges {'、'.join(declared) or 'none'}, "
                       f"parsed {'、'.join(made.charges) or 'none'}",
                       f"{reader.source.path}:{line}")
        made = made.model_copy(update={"problems": (*made.problems, note)})
    return made
