"""The tiers of a PRC 刑法 provision, following penalty references.

:func:`article_tiers` reads the tiers an article states itself. A provision may state no penalty
of its own and refer to another for it (依照本法第X条的规定处罚, 依照前款的规定处罚):
:func:`penalty_refs` names the provisions referred to and :func:`provision_tiers` follows them
(recursively, without cycles). A charge defined in one article may be punished by name in another
(对犯贪污罪的，…): :func:`punishing_provisions`.
"""

from __future__ import annotations

import re

from buildds.inject_errors.statutes.cn_penalty_clauses import parse_cn_clauses
from buildds.schema.statutes import SentencingTier
from buildds.text import cn_numeral

__all__ = ["Provision", "article_tiers", "penalty_refs", "provision_tiers", "punishing_provisions"]


Provision = tuple[int, int | None, int | None]  # (article, 之N, 款 or None for the whole article)
_NOT_A_CHARGE_PARAGRAPH = ("单位犯", "有前款行为，同时构成")
_CN_N = "[零一二三四五六七八九十百千]+"
_PENALTY_REF_RE = re.compile(r"依照(?P<body>[^，；。：]*?)的?规定(?:从重|从轻|酌情)?(?:定罪)?(?:从重)?处罚")
_REF_TOKEN_RE = re.compile(
    rf"第(?P<art>{_CN_N})条(?:之(?P<sub>{_CN_N}))?(?:第(?P<para1>{_CN_N})款)?"
    rf"|第(?P<para2>{_CN_N})款|前(?P<back>两|三)?款")
_PUNISHES_CHARGE_RE = re.compile(r"^对犯(?P<name>[^，；。前本第各][^，；。]{0,29}?)罪的，")
_MAX_REF_DEPTH = 4


def article_tiers(paragraphs: list[str], only: int | None = None) -> list[SentencingTier]:
    """The tiers an article states itself (paragraph ``only``, else all). With ``only``, a
    paragraph without clauses of its own that says 依照前款 takes the previous paragraph's."""
    tiers: list[SentencingTier] = []
    for i, para in enumerate(paragraphs, start=1):
        if only is not None and i != only:
            continue
        if para.startswith(_NOT_A_CHARGE_PARAGRAPH):
            continue
        found = parse_cn_clauses(para, paragraph_no=i)
        if not found and only is not None and "依照前款" in para and i > 1:
            found = parse_cn_clauses(paragraphs[i - 2], paragraph_no=i - 1)
        tiers.extend(found)
    return tiers


def penalty_refs(paragraph: str, article: int, sub: int | None, paragraph_no: int) -> list[Provision]:
    """The provisions whose penalty ``paragraph`` (paragraph ``paragraph_no`` of article
    ``article``之``sub``) applies: 依照[本法]第X条[之N][第Y款]、…的规定[定罪][从重]处罚,
    依照第Y款 / 前款 / 前两款的规定处罚. References to 各该条, 数罪并罚 or 处罚较重的规定 name no
    provision and give nothing."""
    out: list[Provision] = []
    for m in _PENALTY_REF_RE.finditer(paragraph):
        body = m.group("body")
        if "各" in body:
            continue
        cited = (article, sub)  # a bare 第Y款 belongs to the article cited before it, else ours
        for t in _REF_TOKEN_RE.finditer(body):
            if t.group("art"):
                para = t.group("para1")
                cited = (cn_numeral(t.group("art")), cn_numeral(t.group("sub")) if t.group("sub") else None)
                out.append((*cited, cn_numeral(para) if para else None))
            elif t.group("para2"):
                out.append((*cited, cn_numeral(t.group("para2"))))
            else:
                back = {"两": 2, "三": 3}.get(t.group("back") or "", 1)
                out.extend((article, sub, paragraph_no - k) for k in range(back, 0, -1) if paragraph_no - k >= 1)
    return list(dict.fromkeys(out))


def provision_tiers(articles: dict[tuple[int, int | None], list[str]], provision: Provision,
                    _seen: frozenset[Provision] = frozenset()) -> list[SentencingTier]:
    """The tiers of ``provision`` (article, 之N, 款 or None): its own clauses, else those of
    the provisions it refers to for its penalty (followed recursively, without cycles). A whole
    article follows references only when none of its paragraphs states a penalty itself."""
    num, sub, para = provision
    paras = articles.get((num, sub))
    if not paras or provision in _seen or len(_seen) > _MAX_REF_DEPTH:
        return []
    seen = _seen | {provision}
    if para is not None:
        if not 1 <= para <= len(paras) or paras[para - 1].startswith(_NOT_A_CHARGE_PARAGRAPH):
            return []
        own = parse_cn_clauses(paras[para - 1], paragraph_no=para)
        return own or _referred_tiers(articles, paras[para - 1], num, sub, para, seen)
    own = article_tiers(paras)
    if own:
        return own
    out: list[SentencingTier] = []
    for i, text in enumerate(paras, start=1):
        if not text.startswith(_NOT_A_CHARGE_PARAGRAPH):
            out.extend(_referred_tiers(articles, text, num, sub, i, seen))
    return out


def _referred_tiers(articles: dict[tuple[int, int | None], list[str]], paragraph: str, num: int,
                    sub: int | None, para: int, seen: frozenset[Provision]) -> list[SentencingTier]:
    out: list[SentencingTier] = []
    for ref in penalty_refs(paragraph, num, sub, para):
        out.extend(provision_tiers(articles, ref, seen))
    return out


def punishing_provisions(articles: dict[tuple[int, int | None], list[str]]) -> dict[str, Provision]:
    """Charge (without 罪) → the paragraph that punishes it by name: 对犯贪污罪的，根据情节轻重，
    分别依照下列规定处罚 (第三百八十三条), 对犯行贿罪的，处… (第三百九十条)."""
    out: dict[str, Provision] = {}
    for (num, sub), paras in articles.items():
        for i, para in enumerate(paras, start=1):
            if m := _PUNISHES_CHARGE_RE.match(para):
                out.setdefault(m.group("name"), (num, sub, i))
    return out
