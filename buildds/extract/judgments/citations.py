"""Charges (犯…罪) and cited Criminal Law articles in a judgment's text."""

from __future__ import annotations

import re

from buildds.extract.judgments.amounts import CN_NUMERALS, NUMERAL
from buildds.extract.judgments.spans import make_span
from buildds.schema.judgments import ArticleRef, ChargeRef
from buildds.text import cn_number

__all__ = ["parse_articles", "parse_charges"]

_CHARGE_CHARS = r"[^\s，。；;：:（）()“”\"]"
_CHARGE_RE = re.compile(rf"犯(?!罪)(?P<name>{_CHARGE_CHARS}{{2,40}}?)罪")
_CHARGE_MORE_RE = re.compile(rf"[、和及](?P<name>{_CHARGE_CHARS}{{2,30}}?)罪")
_ITEM_RE = re.compile(r"(?:^|\s|。|；)[一二三四五六七八九十]+、")


def parse_charges(text: str, offset: int = 0) -> list[ChargeRef]:
    """Every ``犯…罪`` of a 判决如下 part: ``被告人张3犯诈骗罪`` → 诈骗 (span on 诈骗).

    ``犯盗窃罪、诈骗罪`` gives both names; ``犯拒不执行判决、裁定罪`` one. Items that revoke
    an earlier judgment (``二、撤销…``) are skipped unless nothing else names a charge."""
    starts = [0] + [m.end() for m in _ITEM_RE.finditer(text)]
    kept: list[ChargeRef] = []
    revoked: list[ChargeRef] = []
    for i, s in enumerate(starts):
        e = starts[i + 1] if i + 1 < len(starts) else len(text)
        target = revoked if text[s:e].lstrip().startswith("撤销") else kept
        for m in _CHARGE_RE.finditer(text, s, e):
            target.append(ChargeRef(name=m["name"], span=make_span(text, *m.span("name"), offset)))
            pos = m.end()
            while more := _CHARGE_MORE_RE.match(text, pos, e):
                target.append(ChargeRef(name=more["name"],
                                        span=make_span(text, *more.span("name"), offset)))
                pos = more.end()
    return kept or revoked


# --------------------------------------------------------------------------- articles
_LAW_RE = re.compile(r"(?:《中华人民共和国刑法》|《刑法》|(?<![《修])刑法)(?=\s*第)")
_ART_ITEM_RE = re.compile(
    rf"\s*(?:[、，,和及]|以及)?\s*第(?P<n>{NUMERAL}+)条(?:之[一二三四五六])?"
    rf"(?:第?[{CN_NUMERALS}0-9、]+款)?(?:第?[（(]?[{CN_NUMERALS}0-9]+[)）]?项)?(?:[（(][^（）()]{{1,20}}[)）])?"
    rf"|\s*(?:[、，,和及]|以及)?\s*(?:第?[{CN_NUMERALS}0-9、]+款(?:第?[（(]?[{CN_NUMERALS}0-9]+[)）]?项)?"
    rf"|第?[（(][{CN_NUMERALS}0-9]+[)）]项)(?:[（(][^（）()]{{1,20}}[)）])?")


def parse_articles(text: str, offset: int = 0) -> list[ArticleRef]:
    """Criminal Law articles cited after 《中华人民共和国刑法》 / 《刑法》 / 刑法:
    ``第二百六十六条、第二十三条、第六十七条第三款`` → 266, 23, 67, each with the span of
    its item (``第六十七条第三款``). Other laws' articles are not taken."""
    refs: list[ArticleRef] = []
    for law in _LAW_RE.finditer(text):
        pos = law.end()
        while True:
            m = _ART_ITEM_RE.match(text, pos)
            if not m:
                break
            pos = m.end()
            if m["n"] is None:
                continue
            number = cn_number(m["n"])
            if number is None:
                continue
            start = text.index("第", m.start())
            refs.append(ArticleRef(number=int(number), span=make_span(text, start, m.end(), offset)))
    return refs

