"""Japanese clause starts: article headings (``第N条``, with the cross-reference trap),
chapters, 附則, 別紙/別表, numbered headings ``１（見出し）`` when there is no ``第N条``; the
signature lines and the 項/号 markers of a clause body.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from buildds.text import normalize_text, to_int_number
from buildds.transform.clauses.lines import ClauseStart, Line, shown_prefix

_SP = r"[ \u3000]"
_KNUM = "〇零一二三四五六七八九十百千"
_NUM = rf"(?:[0-9]+|[{_KNUM}]+)"
_OPEN, _CLOSE = "（(【〔［[", "）)】〕］]"
# What may follow 第N条 / its heading bracket in running text, never in a heading line.
_REF_CONTINUATION = re.compile(
    r"^(?:第|の|に|を|は|が|で|と|へ|も|や|から|まで|より|及び|並びに|又は|若しくは|または|"
    r"および|ならびに|もしくは|ないし|乃至|[、，,。．.・～〜\-－])"
)


@dataclass(frozen=True)
class ArticleHeading:
    number: int | None
    number_text: str
    heading: str | None
    body: str
    branch: bool = False  # 第N条のM


_JA_ARTICLE = re.compile(
    rf"^第{_SP}*(?P<num>{_NUM}){_SP}*条(?:{_SP}*の{_SP}*(?P<sub>{_NUM}))?(?P<rest>.*)$"
)
_JA_HEADING_FIRST = re.compile(rf"^[（(](?P<h>[^（）()]{{1,30}})[)）]{_SP}*(?P<art>第.*)$")


def _split_bracket(rest: str) -> tuple[str, str] | None:
    """``（目的）本契約は…`` → ("目的", "本契約は…"); None without a closed bracket."""
    if not rest or rest[0] not in _OPEN:
        return None
    depth = 0
    for i, ch in enumerate(rest):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
            if depth == 0:
                return rest[1:i].strip(), rest[i + 1 :].strip()
    return None


def _heading_rest(rest: str) -> tuple[str | None, str] | None:
    """Apply the heading-line rule to what follows a number; None when it is running text."""
    if rest == "":
        return None, ""
    stripped = rest.strip(" \u3000")
    if rest[0] not in _OPEN and stripped == rest:
        return None  # glued to text: 第4条第4項 / 第３条の規定 / 第5条に
    if stripped == "":
        return None, ""
    bracket = _split_bracket(stripped)
    if bracket is not None:
        heading, body = bracket
        if body and _REF_CONTINUATION.match(body):
            return None  # 第7条（損害の賠償）に定める…
        return heading or None, body
    if _REF_CONTINUATION.match(stripped):
        return None  # 第2条 及び第3条…
    return None, stripped


def ja_article_heading(line: str) -> ArticleHeading | None:
    """Parse a Japanese article heading line, or None when the line is not one.

    The rule (the cross-reference trap): ``第N条`` (optionally ``のM``) must be followed by

    1. the end of the line (``第１条`` — body on the next line), or
    2. a heading bracket ``（…）``/``(…)``/``【…】``, or
    3. a space or ideographic space,

    and what comes after the bracket or space must not continue a reference: not
    ``第M項``/``第M条``, not a particle (の, に, を, は, が, で, と, へ, も, や, から, まで,
    より), not a conjunction (及び, 並びに, 又は, 若しくは, ないし …) and not punctuation
    (、，。・～). So ``第4条第4項、第5条…``, ``第３条の規定により``, ``第5条に基づき``,
    ``第2条 及び第3条`` and ``第7条（損害の賠償）に定める`` are running text.
    ``line`` may use full-width or half-width digits.
    """
    det = normalize_text(line, digits="halfwidth").strip()
    shown = normalize_text(line).strip()
    before: str | None = None
    m0 = _JA_HEADING_FIRST.match(det)
    if m0:
        before = m0.group("h").strip()
        offset = m0.start("art")
        det, shown = det[offset:], shown[offset:]
    m = _JA_ARTICLE.match(det)
    if not m:
        return None
    parsed = _heading_rest(m.group("rest"))
    if parsed is None:
        return None
    heading, body = parsed
    number_text = re.sub(r"\s+$", "", shown[: m.start("rest")]).strip()
    return ArticleHeading(
        number=to_int_number(m.group("num")),
        number_text=number_text,
        heading=before if before is not None else heading,
        body=body,
        branch=m.group("sub") is not None,
    )


#: the longest title ``第N条 <title>`` may have without brackets
_MAX_BARE_TITLE = 20
_SENTENCE_MARK = re.compile(r"[。、，,．「」]")
_JA_NUMBERED_HEADING = re.compile(
    rf"^(?P<num>[0-9]+){_SP}*[（(](?P<h>[^（）()]{{1,30}})[)）]{_SP}*$"
)
_JA_CHAPTER = re.compile(rf"^第{_SP}*(?P<num>{_NUM}){_SP}*[章編節](?P<rest>.*)$")
_JA_SUPPLEMENTARY = re.compile(rf"^附{_SP}*則(?:{_SP}*[（(][^（）()]*[)）])?{_SP}*$")
_JA_APPENDIX = re.compile(
    rf"^[【〔［\[（(]?(?:別{_SP}*[紙表]|別{_SP}*添|付{_SP}*属{_SP}*書類?){_SP}*(?:第?{_SP}*{_NUM})?"
    rf"(?P<close>[】〕］\]）)])?(?P<rest>.*)$"
)
_JA_BARE_HEADING = re.compile(r"^[（(【](?P<h>[^（）()【】]{1,30})[)）】]$")
_JA_SIGNATURE = re.compile(
    rf"^(?:以{_SP}*上(?:$|[、，,。]|を証)|.*(?:を証する|証として)|.*本書{_SP}*を?{_SP}*[0-9一二三四五]+{_SP}*通"
    rf"|本契約は{_SP}*[0-9一二三四五]+{_SP}*通)"
)
_DATE_PART = r"[0-9○〇元＿_ ]*"
_JA_DATE_LINE = re.compile(
    rf"^(?:(?:制定|施行|改定|改訂|作成|締結|契約締結|最終改定)日?{_SP}*[:：]?{_SP}*)?"
    rf"(?:令和|平成|昭和|西暦)?{_SP}*{_DATE_PART}{_SP}*年{_SP}*{_DATE_PART}{_SP}*月{_SP}*"
    rf"{_DATE_PART}{_SP}*日{_SP}*(?:制定|施行|改定|改訂|作成|締結|現在|より施行|から施行)?$"
)
_JA_PARTY = re.compile(
    rf"^(?:[【（(]?[甲乙丙][】）)]?{_SP}*(?:[:：]|$|住所|所在地|氏名)|住{_SP}*所{_SP}*[:：]|所在地{_SP}*[:：])"
)
_JA_PARA = re.compile(rf"^[0-9]+(?:[.．]{_SP}*|{_SP}+)(?=\S)")
_JA_ITEM = re.compile(
    rf"^(?:[（(][0-9]+[)）]|[\u2460-\u2473\u3251-\u325f\u32b1-\u32bf]"
    rf"|[一二三四五六七八九十]+(?:{_SP}|[、．.])|[アイウエオカキクケコサシスセソタチツテト](?:{_SP}|[.．、])"
    rf"|[（(](?:[a-zａ-ｚア-ン]|[ivx]+)[)）]|[・•●◦■▪\-－](?:{_SP}*)(?=\S))"
)


def _unbracketed_heading(art: ArticleHeading, ends: bool) -> tuple[str | None, str]:
    """``第一条 定義`` — a short title after the number, with the line ending there, is the
    heading (not the first words of the body)."""
    if (art.heading is None and art.body and ends and len(art.body) <= _MAX_BARE_TITLE
            and not _SENTENCE_MARK.search(art.body)):
        return art.body, ""
    return art.heading, art.body


def ja_starts(lines: Sequence[Line], *, toc: Collection[int] = (),
              ends: Sequence[bool] | None = None) -> list[ClauseStart]:
    """Where clauses start; ``toc`` lines (a table of contents) never start one; ``ends``
    says which lines end their paragraph (:func:`~.structure.ends_paragraph`)."""
    starts: list[ClauseStart] = []
    for i, ln in enumerate(lines):
        if i in toc:
            continue
        art = ja_article_heading(ln.det)
        if art is not None:
            heading, body = _unbracketed_heading(art, True if ends is None else ends[i])
            start = ClauseStart(i, "article", art.number, shown_prefix(ln, art.number_text),
                                heading, body, branch=art.branch)
            prev = lines[i - 1] if i > 0 else None
            if art.heading is None and prev is not None and not (starts and starts[-1].line == i - 1):
                bare = _JA_BARE_HEADING.match(prev.det)
                if bare is None and not prev.is_line and len(prev.det) <= 20 and (
                    prev.block.kind == "heading" or not re.search(r"[。、，「」]", prev.det)
                ) and not (_JA_PARA.match(prev.det) or _JA_ITEM.match(prev.det)):
                    start.heading, start.heading_line = prev.det, i - 1
                elif bare is not None:
                    start.heading, start.heading_line = bare.group("h").strip(), i - 1
            starts.append(start)
            continue
        ch = _JA_CHAPTER.match(ln.det)
        if ch and _heading_rest(ch.group("rest")) is not None:
            starts.append(ClauseStart(i, "other", to_int_number(ch.group("num")), None,
                                      ch.group("rest").strip() or None))
            continue
        if _JA_SUPPLEMENTARY.match(ln.det):
            starts.append(ClauseStart(i, "supplementary", heading=ln.text))
            continue
        ap = _JA_APPENDIX.match(ln.det)
        if ap and len(ln.det) <= 40 and (ap.group("close")
                                          or _heading_rest(ap.group("rest")) is not None):
            starts.append(ClauseStart(i, "appendix", heading=ln.text))
    if not any(s.kind == "article" for s in starts):
        # No 第N条: numbered headings 「１（秘密保持の誓約）」 as in a 誓約書.
        for i, ln in enumerate(lines):
            m = _JA_NUMBERED_HEADING.match(ln.det)
            if m and i not in toc:
                starts.append(ClauseStart(i, "section", int(m.group("num")),
                                          shown_prefix(ln, m.group("num")),
                                          m.group("h").strip()))
        starts.sort(key=lambda s: s.line)
    # a bare heading line taken by an article moves the article's start up to it
    for s in starts:
        if s.heading_line is not None:
            s.extra["start"] = s.heading_line
    return starts


def is_ja_signature(det: str) -> bool:
    """A line that starts the signature clause (以上, …を証するため, 本書２通, a date, 甲：)."""
    return bool(_JA_SIGNATURE.match(det) or _JA_DATE_LINE.match(det) or _JA_PARTY.match(det))


def is_ja_date(det: str) -> bool:
    """A closing date line (``2024年4月1日制定``, ``令和６年　月　日``)."""
    return bool(_JA_DATE_LINE.match(det))


def ja_para_item(det: str) -> tuple[bool, bool]:
    """Whether a body line starts a 項 (``2 …``) and whether it starts a 号 (``一 …``, ``（１）``)."""
    return bool(_JA_PARA.match(det)), bool(_JA_ITEM.match(det))
