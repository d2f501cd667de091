"""The 主文 of a Japanese criminal judgment (courts.go.jp precedents): the penalty
(:func:`parse_jp_sentence`: 懲役N年N月 / 禁錮 / 拘禁刑, 罰金N万円, 科料, 死刑), the suspension
(この裁判確定の日からN年間その刑の執行を猶予する), the credited pre-trial detention
(未決勾留日数中N日をその刑に算入する) and confiscation (没収する).

Numbers are written with full-width digits (１年１０月, １００万円), half-width digits or
kanji (二年六月, 三十万円). The text comes from PDFs, so a line break can fall inside a
term (``懲役１年１\\n０月``): the parser reads a view without line breaks
(:func:`joined_view`) and maps every match back, so each span indexes the original text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from buildds.extract.judgments.spans import make_span
from buildds.schema.judgments import Sentence, Span
from buildds.text import cn_numeral

__all__ = ["JpOrders", "ja_int", "ja_yen", "joined_view", "parse_jp_sentence"]

_HALF = str.maketrans("０１２３４５６７８９", "0123456789")
_N = r"(?:[0-9]+|[〇一二三四五六七八九十百千]+)"
_CUSTODY_RE = re.compile(
    rf"(?P<kind>無期(?:懲役|禁錮|拘禁刑)|懲役|禁錮|拘禁刑)"
    rf"(?P<term>(?P<y>{_N})年(?:(?P<m1>{_N})(?:月|か月|箇月))?|(?P<m2>{_N})(?:月|か月|箇月))?")
_MONEY = rf"(?:{_N}万(?:{_N})?円|{_N}円)"
_FINE_RE = re.compile(rf"(?P<kind>罰金|科料)(?P<amount>{_MONEY})")
_PROBATION_RE = re.compile(rf"(?P<y>{_N})年間[^。]{{0,30}}?執行を猶予")
_CREDIT_RE = re.compile(rf"未決勾留日数中(?P<d>{_N})日を")


def joined_view(text: str) -> tuple[str, list[int]]:
    """``text`` without line breaks and with ASCII digits, and the index in ``text`` of each
    of its characters (full-width digits map one to one)."""
    keep = [i for i, ch in enumerate(text) if ch not in "\r\n"]
    return "".join(text[i] for i in keep).translate(_HALF), keep


def ja_int(text: str) -> int:
    """``12`` / ``１２`` / ``十二`` → 12."""
    text = text.translate(_HALF)
    return int(text) if text.isdigit() else cn_numeral(text.replace("〇", "零"))


def ja_yen(text: str) -> int:
    """``100万円`` → 1,000,000, ``50万5000円``, ``5000円``, ``三十万円`` (ValueError otherwise)."""
    body = text.translate(_HALF).removesuffix("円")
    if "万" in body:
        man, _, rest = body.partition("万")
        return ja_int(man) * 10_000 + (ja_int(rest) if rest else 0)
    return ja_int(body)


@dataclass(frozen=True)
class JpOrders:
    """What the 主文 orders besides the penalty of :class:`Sentence`."""

    suspended: bool
    detention_credit_days: int | None
    confiscation: bool


def parse_jp_sentence(text: str, offset: int = 0) -> tuple[Sentence, JpOrders]:
    """The penalty of a 主文 (``text``; spans shifted by ``offset``): the first custodial
    penalty with a term (or 無期), the first 罰金/科料 with an amount, the suspension years.
    ``kind`` is the custodial kind, else 罰金/科料, else 死刑, else ``none``; ``span`` runs
    from the first penalty word to the end of the last penalty read."""
    view, where = joined_view(text)

    def span(a: int, b: int) -> Span:
        return make_span(text, where[a], where[b - 1] + 1, offset)

    custody = next((m for m in _CUSTODY_RE.finditer(view)
                    if m["term"] or m["kind"].startswith("無期")), None)
    fine = _FINE_RE.search(view)
    probation = _PROBATION_RE.search(view)
    fields: dict[str, object] = {"kind": "none"}
    if custody is not None:
        fields["kind"] = custody["kind"]
        fields["kind_span"] = span(custody.start("kind"), custody.end("kind"))
        if custody["term"]:
            years = ja_int(custody["y"]) if custody["y"] else 0
            months = custody["m1"] or custody["m2"]
            fields["months"] = years * 12 + (ja_int(months) if months else 0)
            fields["term_span"] = span(custody.start("term"), custody.end("term"))
    if fine is not None:
        if custody is None:
            fields["kind"] = fine["kind"]
            fields["kind_span"] = span(fine.start("kind"), fine.end("kind"))
        fields["fine_yuan"] = ja_yen(fine["amount"])
        fields["fine_kind"] = "unknown"
        fields["fine_span"] = span(fine.start("amount"), fine.end("amount"))
    if custody is None and fine is None and "死刑に処する" in view:
        fields["kind"] = "死刑"
    found = [m for m in (custody, fine) if m is not None]
    if found:
        fields["span"] = span(min(m.start() for m in found), max(m.end() for m in found))
    if probation is not None:
        fields["probation_months"] = ja_int(probation["y"]) * 12
        fields["probation_span"] = span(probation.start("y"), probation.end("y"))
    credit = _CREDIT_RE.search(view)
    orders = JpOrders(suspended="執行を猶予" in view or "執行猶予" in view,
                      detention_credit_days=ja_int(credit["d"]) if credit else None,
                      confiscation="没収する" in view)
    return Sentence(**fields), orders  # type: ignore[arg-type]
