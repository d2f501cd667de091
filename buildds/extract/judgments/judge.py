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

from buildds.extract.json_lines import LineReject, LinesSource, open_lines
from buildds.extract.judgments.build import STAGE, judge_defendants, judgment_from_ranges
from buildds.extract.judgments.reader import RecordReader, id_field, text_field
from buildds.schema.core import Source
from buildds.schema.judgments import Judgment, JudgmentReject

__all__ = ["JUDGMENT_END_RE", "STAGE", "judge_defendants", "read_judge", "split_judge_text"]

#: where the judgment part ends: the appeal notice, the judges' signatures, an annex
JUDGMENT_END_RE = _JUDGMENT_END_RE = re.compile(r"如不服本判决|如不服|本判决为终审判决|\s(?:代理)?审判[长员]|附[：:]")


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


def read_judge(path: str | Path | LinesSource, *, encoding: str | None = None,
               max_line_bytes: int | None = None, seen: dict[str, str] | None = None
               ) -> Iterator[Judgment | JudgmentReject]:
    """Every non-blank line of a JuDGE file as a judgment or a reject (module docstring)."""
    with open_lines(path, encoding=encoding, max_line_bytes=max_line_bytes) as src:
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
    facts = facts.strip()
    f_start = full.find(facts) if facts else -1
    reasoning_r, judgment_r = split_judge_text(full)
    return judgment_from_ranges(
        rid, line, dataset="judge", source=source, full=full, facts=facts,
        facts_r=(f_start, f_start + len(facts)) if f_start >= 0 else None,
        reasoning_r=reasoning_r, judgment_r=judgment_r, reject=reject)
