"""Sentencing circumstances (自首, 坦白, 累犯 …) with their spans (:func:`parse_factors`)."""

from __future__ import annotations

import re
from bisect import bisect_left

from buildds.extract.judgments.spans import make_span
from buildds.schema.judgments import SentencingFactor

__all__ = ["parse_factors"]

# (kind, mitigating, pattern, needles); earlier entries win when matches overlap. Every match
# of a pattern contains one of its needles (plain substrings), so a text without any of them
# is not scanned with the pattern (tests check the needles against generated matches, and
# that no needle is a prefix of another: at most one needle matches at a position).
_FACTOR_TABLE: list[tuple[str, bool, str, tuple[str, ...]]] = [
    ("认罪认罚", True, r"认罪认罚", ("认罪认罚",)),
    ("自首", True, r"自首", ("自首",)),
    ("坦白", True, r"如实供述|坦白", ("如实供述", "坦白")),
    ("立功", True, r"立功", ("立功",)),
    ("累犯", False, r"累犯", ("累犯",)),
    ("其他", False, r"毒品再犯|前科", ("毒品再犯", "前科")),
    ("胁从犯", True, r"胁从犯?", ("胁从",)),
    ("从犯", True, r"从犯|次要作用|辅助作用", ("从犯", "次要作用", "辅助作用")),
    ("未遂", True, r"犯罪未遂|未遂|未得逞", ("未遂", "未得逞")),
    ("中止", True, r"犯罪中止", ("犯罪中止",)),
    ("预备", True, r"犯罪预备", ("犯罪预备",)),
    ("谅解", True, r"谅解", ("谅解",)),
    ("退赃退赔", True, (r"退赃|退赔|退还[^，。；]{0,8}?(?:赃|款|损失)|返还[^，。；]{0,8}?(?:赃|款)"
                        r"|赔偿[^，。；]{0,10}?(?:损失|经济)"), ("退赃", "退赔", "退还", "返还", "赔偿")),
    ("初犯偶犯", True, r"初犯|偶犯", ("初犯", "偶犯")),
    ("未成年", True, r"未成年|[不未]满十八周岁", ("未成年", "满十八周岁")),
    ("其他", True, r"当庭自愿认罪|自愿认罪|认罪态度较?好|认罪悔罪|有悔罪表现",
     ("自愿认罪", "认罪态度", "认罪悔罪", "有悔罪表现")),
]
_FACTOR_PATTERNS: list[tuple[str, bool, re.Pattern[str]]] = [
    (kind, mitigating, re.compile(pattern)) for kind, mitigating, pattern, _ in _FACTOR_TABLE]
_FACTOR_NEEDLES: list[tuple[str, ...]] = [needles for *_, needles in _FACTOR_TABLE]
_NEEDLE_RE = re.compile("|".join(re.escape(n) for needles in _FACTOR_NEEDLES for n in needles))
_NEGATION_BEFORE = re.compile(r"(?:不|无|未|没有|并非|不能|不应|否认)[^，。；]{0,6}$")
_REJECTED_AFTER = re.compile(r"不予采纳|不能成立|不予支持|不成立|不予认定|不符")
_CLAUSE_SEP = "，。；;,：:"
_CLAUSE_SEP_RE = re.compile(f"[{_CLAUSE_SEP}]")
_SENTENCE_SEP_RE = re.compile("[。；]")


def _needles_in(text: str) -> set[str]:
    """The factor needles that occur in ``text``, in one regex scan (a search restarts one
    character after each hit, so overlapping occurrences are all seen)."""
    found: set[str] = set()
    pos = 0
    while m := _NEEDLE_RE.search(text, pos):
        found.add(m.group())
        pos = m.start() + 1
    return found


def _factor_mentions(text: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, kind, mitigating) of every factor keyword, in text order; a match that
    overlaps one of an earlier pattern is dropped."""
    present = _needles_in(text)
    if not present:
        return []
    # the kept matches are disjoint, so kept in start order their ends are ordered too:
    # [s, e) overlaps one iff the last kept match starting before e ends after s
    starts: list[int] = []
    ends: list[int] = []
    found: list[tuple[int, int, str, bool]] = []
    for (kind, mitigating, pattern), needles in zip(_FACTOR_PATTERNS, _FACTOR_NEEDLES):
        if present.isdisjoint(needles):
            continue
        for m in pattern.finditer(text):
            s, e = m.span()
            i = bisect_left(starts, e)
            if i and ends[i - 1] > s:
                continue
            starts.insert(i, s)
            ends.insert(i, e)
            found.append((s, e, kind, mitigating))
    found.sort()
    return found


def _next_at(positions: list[int], at: int, default: int) -> int:
    """The first of the sorted ``positions`` that is ``>= at``, else ``default``."""
    i = bisect_left(positions, at)
    return positions[i] if i < len(positions) else default


def parse_factors(text: str, offset: int = 0) -> list[SentencingFactor]:
    """Sentencing circumstances in ``text`` (the reasoning, or CAIL facts).

    Negated mentions (``不构成自首``, ``未如实供述``) and arguments the court rejects (a
    clause containing 不予采纳/不能成立 …) are left out; one factor per kind per clause."""
    found = _factor_mentions(text)
    if not found:
        return []
    clause_seps = [m.start() for m in _CLAUSE_SEP_RE.finditer(text)]
    sentence_seps = [m.start() for m in _SENTENCE_SEP_RE.finditer(text)]
    factors: list[SentencingFactor] = []
    seen: set[tuple[str, int]] = set()
    for start, end, kind, mitigating in found:
        before = bisect_left(clause_seps, start)
        c_start = clause_seps[before - 1] + 1 if before else 0
        c_end = _next_at(clause_seps, end, len(text))
        sent_end = _next_at(sentence_seps, end, len(text))
        if _NEGATION_BEFORE.search(text[c_start:start]):
            continue
        if _REJECTED_AFTER.search(text[end:sent_end]):
            continue
        if kind == "未成年" and "被害" in text[c_start:start]:
            continue
        if (kind, c_start) in seen:
            continue
        seen.add((kind, c_start))
        factors.append(SentencingFactor(
            kind=kind,  # type: ignore[arg-type]
            mitigating=mitigating,
            span=make_span(text, start, end, offset),
            clause=make_span(text, c_start, c_end, offset),
        ))
    return factors
