"""Statute profiles parsed from the law text: sentencing tiers, conditions and fine rules.

PRC 刑法: :func:`parse_cn_criminal_law` splits the consolidated text into articles
(第X条, 第X条之N) and paragraphs (款), reads each clause ``…的，处…`` into a tier, and
:func:`build_cn_profile` names the charges from the LegalAttack charge table (charge →
刑法第X条[之N][第N款]; JUREX's crime→article map fills the gaps; a provision without a penalty
of its own follows 依照…的规定处罚 references, and a charge defined in one article takes the
tiers of the article that punishes it by name, 对犯X罪的: :func:`charge_tiers`) and adds the amount thresholds
stated in the judicial interpretations (``interp_*.md``). Japan 刑法: :func:`parse_jp_penal_code`
reads ``…に処する`` 法定刑 in both the 拘禁刑 (2025) and the 懲役/禁錮 wording.

Nothing is invented: a threshold the provided interpretations do not state stays None, and a
clause whose penalty words are not all understood yields no tier (it counts against coverage).
"""

from __future__ import annotations

import csv
import html
import json
import re
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from buildds.schema.statutes import (
    ChargeProfile,
    FineRule,
    PenaltyRange,
    SentencingTier,
    StatuteProfile,
    TierCondition,
    TierKind,
)

__all__ = [
    "CN_CHARGE_RENAMES",
    "CN_GENERAL_LIMITS",
    "JP_GENERAL_LIMITS",
    "ChargeAliasIndex",
    "build_cn_profile",
    "build_jp_profile",
    "charge_index",
    "charge_key",
    "classify_condition",
    "cn_duration_months",
    "cn_numeral",
    "expand_charge_name",
    "jp_text_from_html",
    "jp_text_from_jsonl",
    "load_charge_articles",
    "load_confusable",
    "parse_cn_clauses",
    "parse_cn_criminal_law",
    "parse_cn_fine",
    "parse_cn_penalties",
    "parse_cn_thresholds",
    "parse_jp_penal_code",
    "parse_jp_penalties",
    "resolve_charge",
    "split_cn_articles",
]

# General part: 第三十八条 管制 3个月–2年, 第四十二条 拘役 1–6个月, 第四十五条 有期徒刑 6个月–15年.
CN_GENERAL_LIMITS: dict[str, tuple[int, int]] = {"管制": (3, 24), "拘役": (1, 6), "有期徒刑": (6, 180)}
# 刑法(日本) 第十二条/第十三条: 有期拘禁刑 (formerly 懲役・禁錮) 1月以上20年以下; 第十五条 罰金 1万円以上;
# 第十七条 科料 千円以上一万円未満.
JP_GENERAL_LIMITS: dict[str, tuple[int, int]] = {"拘禁刑": (1, 240), "懲役": (1, 240), "禁錮": (1, 240)}
JP_FINE_MIN_YEN = 10_000
JP_MINOR_FINE_YEN = (1_000, 9_999)

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
           "八": 8, "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_BIG = {"万": 10_000, "亿": 100_000_000}
_NUM = "[零〇一二两三四五六七八九十百千万亿0-9]+"


def cn_numeral(text: str) -> int:
    """A Chinese (or Japanese kanji) numeral as int: 十五 → 15, 二百万 → 2,000,000."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    total = section = number = 0
    for ch in text:
        if ch in _DIGITS:
            number = _DIGITS[ch]
        elif ch in _UNITS:
            section += (number or 1) * _UNITS[ch]
            number = 0
        elif ch in _BIG:
            total += (section + number) * _BIG[ch]
            section = number = 0
        elif ch.isdigit():
            number = number * 10 + int(ch)
        else:
            raise ValueError(f"not a numeral: {text!r}")
    return total + section + number


def cn_duration_months(text: str) -> int:
    """三年 → 36, 六个月 → 6, 一年六个月 → 18 (also Japanese 三月 → 3)."""
    m = re.fullmatch(rf"(?:({_NUM})年)?(?:({_NUM})个?月)?", text)
    if not m or not (m.group(1) or m.group(2)):
        raise ValueError(f"not a duration: {text!r}")
    return cn_numeral(m.group(1) or "0") * 12 + cn_numeral(m.group(2) or "0")


# --- PRC ---------------------------------------------------------------------------------

_TERM = rf"{_NUM}(?:年{_NUM}个月|年|个月)"
_CN_TERM_RE = re.compile(rf"(?:(?P<lo>{_TERM})以上)?(?:(?P<hi>{_TERM})以下)?(?P<exact>{_TERM})?有期徒刑")


def parse_cn_penalties(segment: str) -> tuple[PenaltyRange, ...] | None:
    """The penalties of ``处…`` (without 处), e.g. 三年以下有期徒刑、拘役或者管制; None unless
    every piece is understood. 剥夺政治权利 and 单处罚金 alternatives are not custodial: skipped."""
    pieces = [p for p in re.split(r"、|或者|和", segment) if p]
    out: list[PenaltyRange] = []
    for piece in pieces:
        if piece in ("拘役", "管制"):
            lo, hi = CN_GENERAL_LIMITS[piece]
            out.append(PenaltyRange(kind=piece, min_months=lo, max_months=hi))  # type: ignore[arg-type]
        elif piece in ("死刑", "无期徒刑"):
            out.append(PenaltyRange(kind=piece))  # type: ignore[arg-type]
        elif piece in ("剥夺政治权利", "罚金", "单处罚金"):
            continue
        elif m := _CN_TERM_RE.fullmatch(piece):
            if m.group("exact") and (m.group("lo") or m.group("hi")):
                return None
            gen_lo, gen_hi = CN_GENERAL_LIMITS["有期徒刑"]
            if m.group("exact"):
                lo = hi = cn_duration_months(m.group("exact"))
            else:
                lo = cn_duration_months(m.group("lo")) if m.group("lo") else gen_lo
                hi = cn_duration_months(m.group("hi")) if m.group("hi") else gen_hi
            out.append(PenaltyRange(kind="有期徒刑", min_months=lo, max_months=hi))
        else:
            return None
    return tuple(out) or None


_FIXED_FINE_RE = re.compile(rf"(?P<lo>{_NUM})元以上(?P<hi>{_NUM})元以下罚金")
_RATIO = rf"(?:百分之{_NUM}|{_NUM}倍)"
_PROP_FINE_RE = re.compile(rf"(?P<base>[\u4e00-\u9fff]{{2,12}}?)(?P<lo>{_RATIO})以上(?P<hi>{_RATIO})以下罚金")


def _ratio(text: str) -> float:
    if text.startswith("百分之"):
        return cn_numeral(text[3:]) / 100
    return float(cn_numeral(text[:-1]))


def parse_cn_fine(clause: str) -> FineRule:
    """The fine rule of one clause: 并处…元以上…元以下罚金 (fixed), 并处销售金额百分之五十以上
    二倍以下罚金 (proportional), 并处罚金 / 并处或者单处罚金 (mandatory, amount unspecified),
    可以并处罚金 / 或者单处罚金 (optional)."""
    if "罚金" not in clause:
        return FineRule()
    start = clause.find("处") + 1
    tail = clause[start:]
    if m := _PROP_FINE_RE.search(tail):
        base = re.sub(r"^(?:并处或者单处|并处|或者单处|单处|处|可以)", "", m.group("base"))
        return FineRule(kind="proportional", min_ratio=_ratio(m.group("lo")), max_ratio=_ratio(m.group("hi")),
                        base=base or None, text=m.group(0))
    if m := _FIXED_FINE_RE.search(tail):
        return FineRule(kind="fixed_range", min_yuan=cn_numeral(m.group("lo")),
                        max_yuan=cn_numeral(m.group("hi")), text=m.group(0))
    m = re.search(r"(可以并处|并处或者单处|并处|或者单处|单处)[^，；。]*?罚金", tail)
    if not m:
        return FineRule()
    optional = m.group(1) in ("可以并处", "或者单处", "单处")
    return FineRule(kind="optional" if optional else "mandatory_unspecified", text=m.group(0))


_CONDITION_KEYS: tuple[tuple[TierKind, tuple[str, ...]], ...] = (
    ("数额特别巨大", ("数额特别巨大",)),
    ("数额巨大", ("数额巨大",)),
    ("数额较大", ("数额较大",)),
    ("致人死亡", ("致人死亡", "致使被害人死亡", "造成死亡")),
    ("致人重伤", ("致人重伤", "致使被害人重伤")),
    ("情节特别严重", ("特别严重",)),
    ("情节较轻", ("较轻",)),
    ("情节严重", ("严重",)),
)


def classify_condition(text: str, *, first: bool) -> TierKind:
    """The tier kind a condition phrase names; the paragraph's first clause is ``base``
    unless it names an amount (数额较大…) or a graver condition."""
    for kind, keys in _CONDITION_KEYS:
        if any(k in text for k in keys):
            if first and kind not in ("数额较大", "数额巨大", "数额特别巨大") and not text.startswith("犯前款罪"):
                return "base"
            return kind
    return "base" if first else "other"


_STATED_AMOUNT_RE = re.compile(rf"(?:金额|数额)(?:在)?(?P<lo>{_NUM})元以上")
_PUNISH_RE = re.compile(r"处(?P<seg>[^，；。：]*)")


def parse_cn_clauses(paragraph: str, *, paragraph_no: int | None = None) -> list[SentencingTier]:
    """Each ``…的，处…[，并处…罚金]`` clause of a paragraph as a tier. A clause naming a
    condition an earlier clause of the paragraph already named is a graver variant: ``other``."""
    tiers: list[SentencingTier] = []
    for clause in re.split(r"[；。]", paragraph):
        for m in _PUNISH_RE.finditer(clause):
            if clause[max(0, m.start() - 1)] in "判并单或以" and m.start() > 0:
                continue  # 判处/并处/单处…: not the principal penalty
            penalties = parse_cn_penalties(m.group("seg"))
            if penalties is None:
                continue
            cond_text = clause[: m.start()].rstrip("，,")
            kind = classify_condition(cond_text, first=not tiers)
            if kind != "base" and any(t.condition.kind == kind for t in tiers):
                kind = "other"  # a graver variant of a named tier (数额特别巨大，并使…特别重大损失的)
            # a threshold the article itself states (销售金额五万元以上不满二十万元的): exact
            amount = _STATED_AMOUNT_RE.search(cond_text)
            low = cn_numeral(amount.group("lo")) if amount else None
            tiers.append(SentencingTier(
                condition=TierCondition(kind=kind, text=cond_text, amount_min_yuan=low, amount_max_yuan=low),
                penalties=penalties, text=clause.strip(), fine=parse_cn_fine(clause[m.start():]),
                paragraph=paragraph_no))
            break
    return tiers


_CN_ART_RE = re.compile(r"^第(?P<num>[零一二三四五六七八九十百千]+)条(?:之(?P<sub>[一二三四五六七八九十]+))?[ \u3000]+(?P<rest>.*)$")
_ITEM_RE = re.compile(r"^（[一二三四五六七八九十]+）")


def split_cn_articles(text: str) -> dict[tuple[int, int | None], list[str]]:
    """(article, 之N) → its paragraphs (款); numbered items （一）… stay with their paragraph."""
    articles: dict[tuple[int, int | None], list[str]] = {}
    current: list[str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith(("#", "<!--")):
            current = None
            continue
        if m := _CN_ART_RE.match(line):
            key = (cn_numeral(m.group("num")), cn_numeral(m.group("sub")) if m.group("sub") else None)
            current = articles.setdefault(key, [])
            current.append(m.group("rest"))
        elif current is not None:
            if _ITEM_RE.match(line) and current:
                current[-1] += line
            else:
                current.append(line)
    return articles


def _article_tiers(paragraphs: list[str], only: int | None = None) -> list[SentencingTier]:
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


# --- provisions that punish by reference ------------------------------------------------------
# A provision may state no penalty of its own and refer to another for it: 依照本法第三百八十三条的
# 规定处罚 (受贿), 依照第一款的规定处罚, 依照前款的规定从重处罚; and a charge may be defined in one
# article (第三百八十二条 …是贪污罪) and punished in another (第三百八十三条 对犯贪污罪的，…).

Provision = tuple[int, int | None, int | None]  # (article, 之N, 款 or None for the whole article)
_NOT_A_CHARGE_PARAGRAPH = ("单位犯", "有前款行为，同时构成")
_CN_N = "[零一二三四五六七八九十百千]+"
_PENALTY_REF_RE = re.compile(r"依照(?P<body>[^，；。：]*?)的?规定(?:从重|从轻|酌情)?(?:定罪)?(?:从重)?处罚")
_REF_TOKEN_RE = re.compile(
    rf"第(?P<art>{_CN_N})条(?:之(?P<sub>{_CN_N}))?(?:第(?P<para1>{_CN_N})款)?"
    rf"|第(?P<para2>{_CN_N})款|前(?P<back>两|三)?款")
_PUNISHES_CHARGE_RE = re.compile(r"^对犯(?P<name>[^，；。前本第各][^，；。]{0,29}?)罪的，")
_MAX_REF_DEPTH = 4


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
    own = _article_tiers(paras)
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


_NAME_MATCH_MIN = 0.8


def _lcs(a: str, b: str) -> int:
    """Length of the longest common subsequence of ``a`` and ``b``."""
    row = [0] * (len(b) + 1)
    for ch in a:
        prev = 0
        for j, other in enumerate(b, start=1):
            prev, row[j] = row[j], prev + 1 if ch == other else max(row[j], row[j - 1])
    return row[-1]


def named_paragraph(paragraphs: list[str], charge: str) -> int | None:
    """The 1-based paragraph of an article that describes ``charge`` best: the characters of the
    name (、 and brackets ignored) found in order in it, at least 80% of them, and strictly more
    than in any other paragraph; None otherwise. For 款 numbers that amendments shifted
    (the LegalAttack table's 协助组织卖淫 = 第三百五十八条第三款 is the fourth paragraph now)."""
    name = re.sub(r"[、\[\]（）]", "", charge)
    if not name:
        return None
    scores = [_lcs(name, p) for p in paragraphs]
    best = max(scores, default=0)
    if best < _NAME_MATCH_MIN * len(name) or scores.count(best) > 1:
        return None
    return scores.index(best) + 1


def _charge_fine(tiers: list[SentencingTier]) -> FineRule:
    """One rule for the charge: the strictest kind any tier has; a fixed range spans all tiers'."""
    order = ["none", "optional", "mandatory_unspecified", "fixed_range", "proportional"]
    fines = [t.fine for t in tiers]
    if not fines:
        return FineRule()
    kind = max((f.kind for f in fines), key=order.index)
    chosen = [f for f in fines if f.kind == kind]
    if kind == "fixed_range":
        return FineRule(kind=kind, min_yuan=min(f.min_yuan for f in chosen if f.min_yuan is not None),
                        max_yuan=max(f.max_yuan for f in chosen if f.max_yuan is not None),
                        text="；".join(dict.fromkeys(f.text for f in chosen)))
    return chosen[0]


def parse_cn_criminal_law(
    text: str, *, effective_date: date | None = None,
    charges: dict[str, list[tuple[int, int | None, int | None]]] | None = None,
) -> list[ChargeProfile]:
    """Charge profiles from the 刑法 text. ``charges`` maps a charge to its (article, 之N, 款)
    references (see :func:`load_charge_articles`); without it each 分则 article with a tier
    becomes one profile named ``第X条``. ``effective_date`` is recorded by the caller's profile."""
    articles = split_cn_articles(text)
    out: list[ChargeProfile] = []
    if charges is None:
        for (num, sub), paras in sorted(articles.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)):
            tiers = _article_tiers(paras)
            if num >= 102 and tiers:
                label = f"第{num}条" + (f"之{sub}" if sub else "")
                out.append(ChargeProfile(charge=label, article=num, article_sub=sub, tiers=tuple(tiers),
                                         fine=_charge_fine(tiers), text="\n".join(paras)))
        return out
    punishing = punishing_provisions(articles)
    for charge, refs in charges.items():
        tiers, texts, (num, sub, para) = charge_tiers(articles, charge, refs, punishing)
        if not tiers:
            continue
        out.append(ChargeProfile(charge=charge, article=num, article_sub=sub, paragraph=para,
                                 tiers=tuple(tiers), fine=_charge_fine(tiers), text="\n".join(texts)))
    return out


def charge_tiers(articles: dict[tuple[int, int | None], list[str]], charge: str,
                 refs: list[Provision], punishing: dict[str, Provision] | None = None,
                 ) -> tuple[list[SentencingTier], list[str], Provision]:
    """The tiers of ``charge`` placed at ``refs``, the provision texts they come from, and the
    charge's own provision (the first reference, its 款 corrected by the name when needed).

    Per reference: the provision's own clauses, else the provisions it refers to for its penalty
    (:func:`provision_tiers`), else — for a cited 款 that states no penalty — the paragraph of the
    same article the charge name describes (:func:`named_paragraph`). A charge still without
    tiers takes them from the paragraph that punishes it by name (:func:`punishing_provisions`:
    贪污 is defined in 第三百八十二条 and punished in 第三百八十三条)."""
    tiers: list[SentencingTier] = []
    texts: list[str] = []
    placed = list(refs)
    for k, (num, sub, para) in enumerate(refs):
        paras = articles.get((num, sub))
        if not paras:
            continue
        found = provision_tiers(articles, (num, sub, para))
        if not found and para is not None and (named := named_paragraph(paras, charge)) is not None:
            found, para = provision_tiers(articles, (num, sub, named)), named
            placed[k] = (num, sub, named)
        if tiers:  # a later article's opening clause is a graver tier of this charge, not its base
            found = [_not_base(t) for t in found]
        tiers.extend(found)
        texts.append(paras[para - 1] if para and para <= len(paras) else "\n".join(paras))
    if not tiers and punishing and (where := punishing.get(charge)) is not None:
        tiers = provision_tiers(articles, where)
        texts.append(articles[where[:2]][where[2] - 1] if where[2] else "")
    return tiers, texts, placed[0]


def _not_base(tier: SentencingTier) -> SentencingTier:
    if tier.condition.kind != "base":
        return tier
    kind = classify_condition(tier.condition.text, first=False)
    return tier.model_copy(update={"condition": tier.condition.model_copy(update={"kind": kind})})


_THRESHOLD_RE = re.compile(
    r"价值(?P<amounts>[^的]*?)的，应当分别认定为刑法第(?P<art>[零一二三四五六七八九十百千]+)条规定的"
    r"“数额较大”、“数额巨大”、“数额特别巨大”")


def parse_cn_thresholds(text: str) -> dict[int, dict[str, tuple[int, int]]]:
    """Article → {数额较大: (low, high), …} from an interpretation's sentence such as
    盗窃公私财物价值一千元至三千元以上、三万元至十万元以上、三十万元至五十万元以上的 …"""
    out: dict[int, dict[str, tuple[int, int]]] = {}
    for m in _THRESHOLD_RE.finditer(text):
        spans: dict[str, tuple[int, int]] = {}
        for kind, part in zip(("数额较大", "数额巨大", "数额特别巨大"), m.group("amounts").split("、")):
            if r := re.fullmatch(rf"({_NUM})元至({_NUM})元以上", part):
                spans[kind] = (cn_numeral(r.group(1)), cn_numeral(r.group(2)))
            elif r := re.fullmatch(rf"({_NUM})元以上", part):
                spans[kind] = (cn_numeral(r.group(1)), cn_numeral(r.group(1)))
        out[cn_numeral(m.group("art"))] = spans
    return out


_REF_RE = re.compile(r"第(\d+)条(?:之([一二三四五六七八九十]+))?((?:第\d+款)?)")


def load_charge_articles(sheet_csv: Path, crime2article_json: Path | None = None,
                         ) -> dict[str, list[tuple[int, int | None, int | None]]]:
    """Charge (without 罪) → [(article, 之N, 款)] from the LegalAttack charge table, with
    JUREX's crime→article map for charges the table does not place."""
    out: dict[str, list[tuple[int, int | None, int | None]]] = {}
    with sheet_csv.open(encoding="utf-8") as fh:
        for row in csv.reader(fh):
            if len(row) < 3 or not row[0].strip().isdigit():
                continue
            refs = [(int(a), cn_numeral(s) if s else None, int(p[1:-1]) if p else None)
                    for a, s, p in _REF_RE.findall(row[2])]
            if refs and "刑法" in row[2] or refs and row[2].startswith("第"):
                out.setdefault(_norm_charge(row[1]), refs)
    if crime2article_json is not None and crime2article_json.exists():
        for charge, arts in json.loads(crime2article_json.read_text(encoding="utf-8")).items():
            if charge and arts and _norm_charge(charge) not in out:
                out[_norm_charge(charge)] = [(int(a), None, None) for a in arts]
    return out


def _norm_charge(name: str) -> str:
    return name.strip().removesuffix("罪")


def load_confusable(path: Path) -> dict[str, tuple[str, ...]]:
    """Charge → its similar/confusable charges from the LegalAttack 相似罪名 sheet (CSV)."""
    out: dict[str, tuple[str, ...]] = {}
    with Path(path).open(encoding="utf-8") as fh:
        for row in csv.reader(fh):
            if len(row) < 4 or not row[0].strip().isdigit():
                continue
            similar = tuple(dict.fromkeys(_norm_charge(c) for c in row[3:] if c.strip()))
            if similar:
                out[_norm_charge(row[1])] = similar
    return out


def build_cn_profile(
    law_dir: Path, confusable_path: Path, *, effective_date: date = date(2024, 3, 1),
    version: str = "amendment-12",
) -> StatuteProfile:
    """The PRC 刑法 profile (Amendment XII, in force 2024-03-01) from ``law_dir`` (the law text
    and ``interp_*.md``) and the LegalAttack table ``confusable_path`` (sheet 1 CSV; JUREX's
    ``jurex_crime2article.json`` beside it is used when present)."""
    law_dir = Path(law_dir)
    text = (law_dir / "criminal_law_PRC_2023_amendment12.md").read_text(encoding="utf-8")
    mapping = load_charge_articles(Path(confusable_path), Path(confusable_path).parent / "jurex_crime2article.json")
    charges = parse_cn_criminal_law(text, effective_date=effective_date, charges=mapping)
    thresholds: dict[int, dict[str, tuple[int, int]]] = {}
    for interp in sorted(law_dir.glob("interp_*.md")):
        thresholds.update(parse_cn_thresholds(interp.read_text(encoding="utf-8")))
    with_thresholds = [_with_thresholds(c, thresholds.get(c.article)) if c.article_sub is None else c
                       for c in charges]
    articles = split_cn_articles(text)
    penal = {k for k, paras in articles.items() if k[0] >= 102 and any(_PUNISH_RE.search(p) for p in paras)
             and any(_punish_has_penalty(p) for p in paras)}
    tiered = {k for k in penal if _article_tiers(articles[k])}
    mapped_articles = {(c.article, c.article_sub) for c in charges}
    return StatuteProfile(
        id="cn-criminal-law", jurisdiction="cn", law="中华人民共和国刑法", version=version,
        effective_date=effective_date, charges=tuple(with_thresholds),
        confusable=load_confusable(Path(confusable_path)),
        coverage={
            "articles_with_penalty": len(penal), "articles_with_tiers": len(tiered),
            "article_coverage": round(len(tiered) / len(penal), 4) if penal else 0.0,
            "charges_in_table": len(mapping), "charges_mapped": len(charges),
            "articles_mapped": len(mapped_articles & tiered),
            "charges_with_thresholds": sum(1 for c in with_thresholds
                                           if any(t.condition.amount_min_yuan is not None for t in c.tiers)),
        },
    )


def _punish_has_penalty(paragraph: str) -> bool:
    return any(re.search(r"有期徒刑|拘役|管制|死刑", m.group("seg")) for m in _PUNISH_RE.finditer(paragraph))


def _with_thresholds(charge: ChargeProfile, spans: dict[str, tuple[int, int]] | None) -> ChargeProfile:
    if not spans:
        return charge
    tiers = []
    for tier in charge.tiers:
        span = spans.get(tier.condition.kind)
        if span:
            cond = tier.condition.model_copy(update={"amount_min_yuan": span[0], "amount_max_yuan": span[1]})
            tier = tier.model_copy(update={"condition": cond})
        tiers.append(tier)
    return charge.model_copy(update={"tiers": tuple(tiers)})


# --- Japan ---------------------------------------------------------------------------------

_JN = "[〇一二三四五六七八九十百千万]+"
_JP_TERM = rf"{_JN}(?:年|月)"
_JP_CUSTODY = r"(?:拘禁刑|懲役|禁錮)"
_JP_ITEM = (rf"(?:(?:{_JP_TERM})以上)?(?:(?:{_JP_TERM})以下)?の?(?:有期)?{_JP_CUSTODY}"
            rf"|無期{_JP_CUSTODY}?|死刑|{_JN}円以下の罰金|罰金|拘留|科料")
_JP_EXPR_RE = re.compile(rf"(?P<expr>(?:{_JP_ITEM})(?:(?:又は|若しくは|及び)(?:{_JP_ITEM}))*)に処")
_JP_ONE_RE = re.compile(rf"(?:(?P<lo>{_JP_TERM})以上)?(?:(?P<hi>{_JP_TERM})以下)?の?(?:有期)?(?P<kind>{_JP_CUSTODY})")


def parse_jp_penalties(expr: str) -> tuple[PenaltyRange, ...]:
    """法定刑 such as 十年以下の拘禁刑又は五十万円以下の罰金 or 死刑又は無期若しくは五年以上の懲役.
    A bare 無期 takes the custodial kind named later in the phrase."""
    custody = re.search(_JP_CUSTODY, expr)
    default_kind = custody.group(0) if custody else "拘禁刑"
    out: list[PenaltyRange] = []
    for piece in re.split(r"又は|若しくは|及び", expr):
        if piece == "死刑":
            out.append(PenaltyRange(kind="死刑"))
        elif piece.startswith("無期"):
            out.append(PenaltyRange(kind="無期" + (piece[2:] or default_kind)))  # type: ignore[arg-type]
        elif piece == "拘留":
            out.append(PenaltyRange(kind="拘留"))
        elif piece == "科料":
            out.append(PenaltyRange(kind="科料", min_amount=JP_MINOR_FINE_YEN[0], max_amount=JP_MINOR_FINE_YEN[1]))
        elif piece.endswith("罰金"):
            m = re.fullmatch(rf"({_JN})円以下の罰金", piece)
            out.append(PenaltyRange(kind="罰金", min_amount=JP_FINE_MIN_YEN,
                                    max_amount=cn_numeral(m.group(1)) if m else None))
        elif m := _JP_ONE_RE.fullmatch(piece):
            kind = m.group("kind")
            gen_lo, gen_hi = JP_GENERAL_LIMITS[kind]
            previous = [p for p in out if p.min_months is not None]
            if not (m.group("lo") or m.group("hi")) and previous and piece == kind:
                # 五年以下の懲役若しくは禁錮: the bare kind shares the preceding term
                out.append(previous[-1].model_copy(update={"kind": kind}))
                continue
            lo = cn_duration_months(m.group("lo")) if m.group("lo") else gen_lo
            hi = cn_duration_months(m.group("hi")) if m.group("hi") else gen_hi
            out.append(PenaltyRange(kind=kind, min_months=lo, max_months=hi))  # type: ignore[arg-type]
    return tuple(out)


def _jp_condition(text: str, first: bool) -> TierKind:
    if "死亡させた" in text:
        return "致人死亡"
    return "base" if first else "other"


_JP_ART_RE = re.compile(r"^#?\s*第(?P<num>[一二三四五六七八九十百千]+)条(?:の(?P<sub>[一二三四五六七八九十]+))?(?:[ \u3000]+(?P<rest>.*))?$")
_JP_CAPTION_RE = re.compile(r"^（(?P<cap>[^（）]+)）$")


def parse_jp_penal_code(text: str, *, first_article: int = 77) -> list[ChargeProfile]:
    """Charge profiles from 刑法 text laid out one article per block: an optional caption line
    （窃盗）, the article line 第二百三十五条[　text], then paragraph lines (a lone ２ starts a
    paragraph, a lone 一 an item). Articles before ``first_article`` (Book I) are skipped."""
    blocks: list[tuple[int, int | None, str, list[str]]] = []
    caption = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if m := _JP_CAPTION_RE.match(line):
            caption = m.group("cap")
            continue
        if m := _JP_ART_RE.match(line):
            num = cn_numeral(m.group("num"))
            sub = cn_numeral(m.group("sub")) if m.group("sub") else None
            blocks.append((num, sub, caption, [m.group("rest") or ""]))
            caption = ""
            continue
        if not blocks:
            continue
        paras = blocks[-1][3]
        if re.fullmatch(r"[0-9０-９]+", line):
            paras.append("")
        elif re.fullmatch(r"[一二三四五六七八九十]+", line) or line.startswith("- "):
            continue
        else:
            paras[-1] += line
    out: list[ChargeProfile] = []
    for num, sub, cap, paras in blocks:
        if num < first_article:
            continue
        paras = [p for p in paras if p]
        tiers: list[SentencingTier] = []
        for i, para in enumerate(paras, start=1):
            for m in _JP_EXPR_RE.finditer(para):
                penalties = parse_jp_penalties(m.group("expr"))
                if not penalties:
                    continue
                cond = para[: m.start()]
                fine = _jp_fine(penalties)
                tiers.append(SentencingTier(
                    condition=TierCondition(kind=_jp_condition(cond, not tiers), text=cond),
                    penalties=penalties, text=para, fine=fine, paragraph=i))
        if not tiers:
            continue
        named = re.search(r"([^、。]{1,12})の罪とし", paras[0]) if paras else None
        charge = named.group(1) if named else (cap or f"第{num}条")
        fines = [t.fine for t in tiers if t.fine.kind == "fixed_range"]
        fine = (FineRule(kind="fixed_range", min_yuan=JP_FINE_MIN_YEN,
                         max_yuan=max(f.max_yuan or 0 for f in fines) or None, currency="JPY",
                         text="；".join(dict.fromkeys(f.text for f in fines))) if fines else FineRule(currency="JPY"))
        out.append(ChargeProfile(charge=charge, article=num, article_sub=sub, tiers=tuple(tiers),
                                 fine=fine, text="\n".join(paras)))
    return out


def _jp_fine(penalties: tuple[PenaltyRange, ...]) -> FineRule:
    for p in penalties:
        if p.kind == "罰金":
            return FineRule(kind="fixed_range", min_yuan=p.min_amount, max_yuan=p.max_amount, currency="JPY",
                            text=f"{p.max_amount}円以下の罰金" if p.max_amount else "罰金")
    return FineRule(currency="JPY")


_WIKILINK_RE = re.compile(r"\[\[[^\]|]*\|([^\]]*)\]\]")


def jp_text_from_jsonl(path: Path) -> str:
    """The article-per-block text of the DB4LAW ``penal_code_articles.jsonl`` (links unwrapped)."""
    lines: list[str] = []
    for row in Path(path).read_text(encoding="utf-8").splitlines():
        if not row.strip():
            continue
        art = json.loads(row)
        title = art["title"].split()[0] if art.get("title") else ""
        if not _JP_ART_RE.match(title):
            continue
        heading = art.get("heading") or ""
        if heading.startswith("（") and heading.endswith("）"):
            lines.append(heading)
        lines.append(title)
        for i, para in enumerate(art.get("paragraphs", [])):
            if i:
                lines.append(str(i + 1))
            lines.append(_WIKILINK_RE.sub(r"\1", para["text"]))
    return "\n".join(lines)


def jp_text_from_html(raw_html: str) -> str:
    """The article-per-block text of an e-Gov 刑法 HTML page (tags become line breaks)."""
    text = html.unescape(re.sub(r"<[^>]+>", "\n", raw_html))
    text = re.sub(r"\n\s*\n+", "\n", text)
    start = text.find("第一編")
    return text[start:] if start >= 0 else text


def build_jp_profile(text: str, *, version: str, effective_date: date) -> StatuteProfile:
    """The Japanese 刑法 profile from article-per-block text (see :func:`jp_text_from_jsonl`,
    :func:`jp_text_from_html`); ``coverage`` counts Book II articles with …に処 phrases."""
    charges = parse_jp_penal_code(text)
    blocks = re.split(r"\n(?=第[一二三四五六七八九十百千]+条(?:の[一二三四五六七八九十]+)?(?:\n|[ \u3000]))", text)
    penal = 0
    for block in blocks:
        m = _JP_ART_RE.match(block.split("\n", 1)[0])
        if m and cn_numeral(m.group("num")) >= 77 and re.search(r"に処(?:する|し)", block):
            penal += 1
    return StatuteProfile(
        id="jp-penal-code", jurisdiction="jp", law="刑法（明治四十年法律第四十五号）", version=version,
        effective_date=effective_date, charges=tuple(charges),
        coverage={"articles_with_penalty": penal, "articles_with_tiers": len(charges),
                  "article_coverage": round(len(charges) / penal, 4) if penal else 0.0},
    )


# --------------------------------------------------------------------------- charge aliases
# Charge names in judgments differ from the table names in predictable ways: the table writes
# alternatives as bracketed groups (``[走私、贩卖、运输、制造]毒品``) and a judgment names the
# alternatives it convicts of (贩卖毒品, 贩卖、运输毒品); 罪 may or may not be written; optional
# characters are parenthesised (偷越国（边）境 / 偷越国境); some judgments drop the 、
# (销售有毒有害食品); older judgments use names later amendments replaced.
#
# Names replaced by amendments (old → current), each as stated in the SPC/SPP 确定罪名的补充规定
# (charge_names_suppl*.md: "新罪名（取消旧罪名罪名）"); only used when the current name is in the
# profile, and the old name's alternatives map to the current charge.
CN_CHARGE_RENAMES: dict[str, str] = {
    # 《刑法修正案（三）》, 补充规定（一）2002
    "投毒": "投放危险物质",
    "过失投毒": "过失投放危险物质",
    # 《刑法修正案（六）》, 补充规定（三）2007
    "公司、企业人员受贿": "非国家工作人员受贿",
    "对公司、企业人员行贿": "对非国家工作人员行贿",
    "窝藏、转移、收购、销售赃物": "掩饰、隐瞒犯罪所得、犯罪所得收益",
    # 《刑法修正案（七）》, 补充规定（四）2009
    "偷税": "逃税",
    # 《刑法修正案（八）》, 补充规定（五）2011
    "生产、销售不符合卫生标准的食品": "生产、销售不符合安全标准的食品",
    # 《刑法修正案（九）》, 补充规定（六）2015
    "伪造、变造居民身份证": "伪造、变造、买卖身份证件",
    "强制猥亵、侮辱妇女": "强制猥亵、侮辱",
    # 《刑法修正案（十一）》, 补充规定（七）2021
    "强令违章冒险作业": "强令、组织他人违章冒险作业",
    "生产、销售假药": "生产、销售、提供假药",
    "生产、销售劣药": "生产、销售、提供劣药",
}

_GROUP_RE = re.compile(r"\[([^\[\]]+)\]")
_OPTIONAL_RE = re.compile(r"（[^（）]{1,2}）")
_MAX_EXPANSIONS = 5000


def charge_key(name: str) -> str:
    """The lookup key of a charge name: trimmed, without 罪, full-width parentheses, and
    without 1–2-character parenthesised optional parts (国（边）境 → 国境)."""
    key = re.sub(r"\s+", "", name).replace("(", "（").replace(")", "）").removesuffix("罪")
    return _OPTIONAL_RE.sub("", key)


def _subsets(items: list[str]) -> list[str]:
    """The non-empty order-preserving selections of ``items``, 、-joined."""
    out = []
    for mask in range(1, 1 << len(items)):
        out.append("、".join(it for i, it in enumerate(items) if mask >> i & 1))
    return out


def _segments(name: str) -> list[list[str]] | None:
    """``name`` as literal / alternative-group segments: from the brackets when it has them;
    else, for a plain 、-list where exactly one item is longer than the others (all of the
    two characters), that item's head/tail extends the groups before/after it
    (伪造、变造居民身份证 → [伪造、变造]居民身份证). None when no grouping is evident."""
    if "[" in name:
        segs: list[list[str]] = []
        pos = 0
        for m in _GROUP_RE.finditer(name):
            if m.start() > pos:
                segs.append([name[pos:m.start()]])
            segs.append([s for s in m.group(1).split("、") if s])
            pos = m.end()
        if pos < len(name):
            segs.append([name[pos:]])
        return segs
    items = name.split("、")
    if len(items) < 2 or any(not it for it in items):
        return None
    lengths = sorted({len(it) for it in items})
    if len(lengths) != 2 or lengths[0] != 2 or sum(len(it) == lengths[1] for it in items) != 1:
        return None  # only two-character alternatives (verbs/objects) split off safely
    short = lengths[0]
    i = next(k for k, it in enumerate(items) if len(it) == lengths[1])
    long_item = items[i]
    head = long_item[:short] if i > 0 else ""
    tail = long_item[-short:] if i < len(items) - 1 else ""
    core = long_item[len(head):len(long_item) - len(tail)]
    if not core:
        return None
    segs = []
    if head:
        segs.append(items[:i] + [head])
    segs.append([core])
    if tail:
        segs.append([tail] + items[i + 1:])
    return segs


def expand_charge_name(name: str) -> list[str]:
    """Every name a judgment may use for ``name``: itself (brackets removed) and each
    selection of its alternatives (``[走私、贩卖、运输、制造]毒品`` → 贩卖毒品, 贩卖、运输毒品…)."""
    plain = name.replace("[", "").replace("]", "")
    segs = _segments(name)
    out = [plain]
    if segs is None:
        return out
    choices = [seg if len(seg) == 1 else _subsets(seg) for seg in segs]
    total = 1
    for c in choices:
        total *= len(c)
    if total > _MAX_EXPANSIONS:
        return out
    combos = [""]
    for c in choices:
        combos = [a + b for a in combos for b in c]
    return list(dict.fromkeys(out + combos))


def _compatible(targets: list[ChargeProfile]) -> ChargeProfile | None:
    """One profile for targets naming the same provision (article, 之N, and no two different
    款), preferring the one that states its 款; None when they name different provisions."""
    if len({(t.article, t.article_sub) for t in targets}) > 1:
        return None
    if len({t.paragraph for t in targets if t.paragraph is not None}) > 1:
        return None
    return next((t for t in targets if t.paragraph is not None), targets[0])


class ChargeAliasIndex:
    """Charge-name aliases of a profile, derived from its charge names (see
    :func:`expand_charge_name`, :func:`charge_key`) and :data:`CN_CHARGE_RENAMES`.

    Levels, tried in order: the exact name; the alternatives of the profile's names; the old
    names (and their alternatives) of renamed charges; the same with 、 ignored. A level whose
    candidates name different provisions leaves the name unresolved (never a guess)."""

    def __init__(self, charges: Iterable[ChargeProfile], renames: dict[str, str] | None = None) -> None:
        charges = list(charges)
        levels: list[dict[str, list[ChargeProfile]]] = [{}, {}, {}]
        plain_bracketed = {c.charge.replace("[", "").replace("]", "") for c in charges if "[" in c.charge}
        for c in charges:
            levels[0].setdefault(charge_key(c.charge.replace("[", "").replace("]", "")), []).append(c)
        for c in charges:
            if "[" not in c.charge and c.charge in plain_bracketed:
                continue  # the bracketed spelling of the same name gives the grouping
            for alias in expand_charge_name(c.charge):
                levels[1].setdefault(charge_key(alias), []).append(c)
        exact = {k: v for k, v in levels[0].items()}
        for old, new in (renames or {}).items():
            target = exact.get(charge_key(new))
            if not target:
                continue
            for alias in expand_charge_name(old):
                levels[2].setdefault(charge_key(alias), []).extend(target)
        merged: dict[str, list[ChargeProfile]] = {}
        for level in levels:
            for key, targets in level.items():
                merged.setdefault(key.replace("、", ""), []).extend(targets)
        self._levels = [*levels, merged]

    def resolve(self, name: str) -> ChargeProfile | None:
        key = charge_key(name)
        for i, level in enumerate(self._levels):
            targets = level.get(key.replace("、", "") if i == len(self._levels) - 1 else key)
            if targets:
                return _compatible(list({id(t): t for t in targets}.values()))
        return None


_INDEXES: dict[int, tuple[object, ChargeAliasIndex]] = {}


def charge_index(profile: StatuteProfile) -> ChargeAliasIndex:
    """The alias index of ``profile`` (built once per profile object)."""
    hit = _INDEXES.get(id(profile))
    if hit is not None and hit[0] is profile:
        return hit[1]
    index = ChargeAliasIndex(profile.charges, CN_CHARGE_RENAMES if profile.jurisdiction == "cn" else None)
    _INDEXES[id(profile)] = (profile, index)
    return index


def resolve_charge(profile: StatuteProfile, name: str) -> ChargeProfile:
    """``profile.charge(name)``, else the charge ``name`` is an unambiguous alias of; KeyError
    when neither."""
    try:
        return profile.charge(name)
    except KeyError:
        found = charge_index(profile).resolve(name)
        if found is None:
            raise
        return found
