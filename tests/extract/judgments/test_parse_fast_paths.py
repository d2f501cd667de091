"""The parsers' fast paths give what the plain algorithms give: the money scan anchored on 元,
the parenthesis mask, and the sentencing-factor scan (needle prefilter, interval overlap
check, separator bisection) against the straightforward versions kept here as references."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from buildds.extract.judgments.amounts import MONEY_RE, money_matches
from buildds.extract.judgments.factors import (
    _FACTOR_NEEDLES,
    _FACTOR_PATTERNS,
    _FACTOR_TABLE,
    _NEGATION_BEFORE,
    _REJECTED_AFTER,
    parse_factors,
)
from buildds.extract.judgments.sentence import mask_parentheses
from buildds.schema.judgments import SentencingFactor, Span

#: fragments the generated texts are made of: numerals, money words, brackets, factor
#: keywords (overlapping ones too), negations, separators and filler
_FRAGMENTS = ["元", "余元", "多元", "人民币", "三", "十", "万", "千", "一", "两", "零", "5", "０",
              "1,000", "2，000", "3.5", "．", "，", "。", "；", ";", ",", "：", " ", "\u3000",
              "（", "）", "(", ")", "罚金", "共计", "价值", "自首", "如实供述", "坦白", "认罪认罚",
              "认罪悔罪", "自愿认罪", "胁从犯", "从犯", "犯罪未遂", "未遂", "未得逞", "谅解",
              "退还赃款", "赔偿经济损失", "未成年", "不满十八周岁", "被害", "不构成", "不予采纳",
              "累犯", "前科", "毒品再犯", "立功", "初犯", "有悔罪表现", "认罪态度较好", "被告人",
              "的", "张3", "盗窃", "犯罪中止", "犯罪预备", "次要作用"]
_TEXTS = st.lists(st.sampled_from(_FRAGMENTS), max_size=40).map("".join)


def _mask_reference(text: str) -> str:
    out = []
    depth = 0
    for ch in text:
        if ch in "（(":
            depth += 1
            out.append(ch)
        elif ch in "）)" and depth:
            depth -= 1
            out.append(ch)
        else:
            out.append("□" if depth else ch)
    return "".join(out)


def _span(text: str, start: int, end: int, offset: int) -> Span:
    return Span(start=start + offset, end=end + offset, text=text[start:end])


def _factors_reference(text: str, offset: int = 0) -> list[SentencingFactor]:
    """parse_factors as first written: every pattern over the whole text, a linear overlap
    check, the clause ends by rfind/find of each separator."""
    found: list[tuple[int, int, str, bool]] = []
    for kind, mitigating, pattern in _FACTOR_PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e, _, _ in found):
                continue
            found.append((m.start(), m.end(), kind, mitigating))
    found.sort()
    factors: list[SentencingFactor] = []
    seen: set[tuple[str, int]] = set()
    seps = "，。；;,：:"
    for start, end, kind, mitigating in found:
        c_start = max(text.rfind(ch, 0, start) for ch in seps) + 1
        ends = [i for i in (text.find(ch, end) for ch in seps) if i >= 0]
        c_end = min(ends) if ends else len(text)
        sent_end = min([i for i in (text.find(ch, end) for ch in "。；") if i >= 0] or [len(text)])
        if _NEGATION_BEFORE.search(text[c_start:start]):
            continue
        if _REJECTED_AFTER.search(text[end:sent_end]):
            continue
        if kind == "未成年" and "被害" in text[c_start:start]:
            continue
        if (kind, c_start) in seen:
            continue
        seen.add((kind, c_start))
        factors.append(SentencingFactor(kind=kind, mitigating=mitigating,  # type: ignore[arg-type]
                                        span=_span(text, start, end, offset),
                                        clause=_span(text, c_start, c_end, offset)))
    return factors


@settings(max_examples=300)
@given(_TEXTS)
def test_money_matches_is_finditer(text: str) -> None:
    expected = [(m.span(), m.group()) for m in MONEY_RE.finditer(text)]
    assert [(m.span(), m.group()) for m in money_matches(text)] == expected


@settings(max_examples=300)
@given(st.text(alphabet="（）()ab□ ", max_size=30) | _TEXTS)
def test_mask_parentheses_matches_reference(text: str) -> None:
    assert mask_parentheses(text) == _mask_reference(text)


@settings(max_examples=300)
@given(_TEXTS, st.integers(min_value=0, max_value=50))
def test_parse_factors_matches_reference(text: str, offset: int) -> None:
    assert parse_factors(text, offset) == _factors_reference(text, offset)


def test_factor_needles_cover_every_pattern() -> None:
    assert len(_FACTOR_NEEDLES) == len(_FACTOR_PATTERNS) == len(_FACTOR_TABLE)
    needles = [n for group in _FACTOR_NEEDLES for n in group]
    # at most one needle can match at a position (the needle scan relies on it)
    assert not [(a, b) for a in needles for b in needles if a != b and b.startswith(a)]


@settings(max_examples=50)
@given(st.data())
def test_every_factor_match_holds_a_needle(data: st.DataObject) -> None:
    for (_, _, pattern), needles in zip(_FACTOR_PATTERNS, _FACTOR_NEEDLES, strict=True):
        text = data.draw(st.from_regex(pattern, fullmatch=True))
        assert any(n in text for n in needles), (pattern.pattern, text)


def test_parse_factors_overlapping_patterns() -> None:
    text = "被告人系胁从犯，犯罪未遂，认罪认罚，且未得逞，后自首。"
    got = [(f.kind, f.span.text) for f in parse_factors(text)]
    assert got == [("胁从犯", "胁从犯"), ("未遂", "犯罪未遂"), ("认罪认罚", "认罪认罚"),
                   ("未遂", "未得逞"), ("自首", "自首")]
    assert got == [(f.kind, f.span.text) for f in _factors_reference(text)]


def test_money_matches_keeps_only_runs_before_yuan() -> None:
    text = "一二三四，价值人民币三千元，共计 1,500 余元；罚金五千元整。十元"
    assert [m.group() for m in money_matches(text)] == [
        m.group() for m in MONEY_RE.finditer(text)] == ["三千元", "1,500 余元", "五千元", "十元"]
    assert re.search("元", "") is None and list(money_matches("")) == []


def test_spans_built_without_validation_are_still_exact() -> None:
    from buildds.extract.judgments.spans import make_span

    text = "被告人张三犯盗窃罪"
    s = make_span(text, 6, 8, 100)
    assert s == Span(start=106, end=108, text="盗窃")
    for start, end in ((-1, 2), (5, 3), (0, len(text) + 1)):
        with pytest.raises(ValueError, match="outside"):
            make_span(text, start, end, 0)
