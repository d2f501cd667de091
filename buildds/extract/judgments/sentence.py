"""The main penalty of a 判决如下 part (:func:`parse_sentence`)."""

from __future__ import annotations

import re

from buildds.extract.judgments.amounts import MONEY_RE, TERM_RE, money_value, term_months
from buildds.extract.judgments.spans import make_span
from buildds.schema.judgments import Sentence

__all__ = ["mask_parentheses", "parse_sentence"]

_PENALTY_RE = re.compile(
    r"(?P<kind>有期徒刑|拘役|管制|无期徒刑|死刑|免予刑事处罚|免于刑事处罚|免除刑事处罚|罚金)")
_ANCHOR_RE = re.compile(r"决定执行|判处|免[予于除]刑事处罚")
_FINE_RE = re.compile(r"罚金(?:人民币?)?\s*")
_NEXT_ITEM_RE = re.compile(r"[\s。；][一二三四五六七八九十]+、")


_PAREN_RE = re.compile(r"[（()）]")


def mask_parentheses(text: str) -> str:
    """``text`` with everything inside （…） / (…) replaced by □, offsets unchanged; the
    brackets themselves stay (an unmatched closing one too)."""
    out = []
    depth = 0
    pos = 0
    for m in _PAREN_RE.finditer(text):
        i = m.start()
        out.append("□" * (i - pos) if depth else text[pos:i])
        ch = text[i]
        if ch in "（(":
            depth += 1
        elif depth:
            depth -= 1
        out.append(ch)
        pos = i + 1
    out.append("□" * (len(text) - pos) if depth else text[pos:])
    return "".join(out)


_PROBATION_RE = re.compile(r"缓刑(?:考验期(?:限)?为?)?")
_CLAUSE_END = re.compile(r"[。；;]|（刑期|\(刑期|（缓刑|本判决")


def parse_sentence(text: str, offset: int = 0) -> Sentence:
    """The main penalty of a 判决如下 part: the 决定执行 one when sentences are combined,
    else the last 判处 (in appeal judgments earlier ones quote the first instance).

    ``有期徒刑三年，缓刑四年，并处罚金人民币二万元`` → 有期徒刑, 36 months, probation 48,
    fine 20000. Returns kind ``"none"`` when no penalty is found."""
    masked = mask_parentheses(text)
    anchors = list(_ANCHOR_RE.finditer(masked))
    final = [a for a in anchors if a.group() == "决定执行"]
    # try the 决定执行 anchor, then 判处 ones from the last back (a later 判处 can sit in a
    # parenthesised note: 罚金在本判处生效后…)
    for anchor in final[-1:] + anchors[::-1]:
        sentence = _sentence_at(text, masked, anchor, offset)
        if sentence is not None:
            return sentence
    return Sentence(kind="none")


def _sentence_at(text: str, masked: str, anchor: re.Match[str], offset: int) -> Sentence | None:
    """The penalty clause at ``anchor`` (None when no penalty follows it closely);
    ``masked`` is ``mask_parentheses(text)``."""
    if anchor.group().startswith("免"):
        return Sentence(kind="免予刑事处罚",
                        span=make_span(text, anchor.start(), anchor.end(), offset),
                        kind_span=make_span(text, anchor.start(), anchor.end(), offset))
    end_m = _CLAUSE_END.search(text, anchor.end())
    window_end = end_m.start() if end_m else len(text)
    pen = _PENALTY_RE.search(text, anchor.end(), window_end)
    if pen is None or pen.start() - anchor.end() > 6:
        return None
    kind_word = pen["kind"]
    kind: str
    months = None
    term_span = None
    cursor = pen.end()
    if kind_word in ("有期徒刑", "拘役", "管制"):
        kind = kind_word
        term = TERM_RE.match(text, pen.end())
        if term:
            months = term_months(term)
            term_span = make_span(text, term.start(), term.end(), offset)
            cursor = term.end()
    elif kind_word == "罚金":
        if not MONEY_RE.match(text, _FINE_RE.match(text, pen.start()).end()):  # type: ignore[union-attr]
            return None
        kind = "单处罚金"
        cursor = pen.start()
    elif kind_word.startswith("免"):
        kind = "免予刑事处罚"
    else:
        kind = kind_word
    clause_end = cursor
    probation = None
    probation_span = None
    prob = _PROBATION_RE.search(text, cursor, window_end)
    if prob and kind in ("有期徒刑", "拘役"):
        term = TERM_RE.match(text, prob.end())
        if term:
            probation = term_months(term)
            probation_span = make_span(text, term.start(), term.end(), offset)
            clause_end = max(clause_end, term.end())
    fine = None
    fine_span = None
    # the fine can follow a parenthesised note or a full stop (…缓刑三年。并处罚金…): look
    # up to the end of the item, outside parentheses
    item = _NEXT_ITEM_RE.search(masked, cursor)
    for fm in _FINE_RE.finditer(masked, cursor, item.start() if item else len(text)):
        money = MONEY_RE.match(masked, fm.end())
        if money:
            value = money_value(money["num"])
            if value is not None:
                fine = value
                fine_span = make_span(text, money.start(), money.end(), offset)
                clause_end = max(clause_end, money.end())
                break
    return Sentence(
        kind=kind,  # type: ignore[arg-type]
        months=months,
        probation_months=probation,
        fine_yuan=fine,
        fine_kind="unknown" if fine is not None else None,
        span=make_span(text, pen.start(), clause_end, offset),
        kind_span=make_span(text, pen.start(), pen.end(), offset),
        term_span=term_span,
        probation_span=probation_span,
        fine_span=fine_span,
    )

