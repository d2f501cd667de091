"""PRC 刑法 penalty clauses: ``…的，处…[，并处…罚金]`` as sentencing tiers.

:func:`parse_cn_penalties` reads the penalties after 处 (有期徒刑 ranges, 拘役, 管制, 无期徒刑,
死刑; limits from the general part, :data:`CN_GENERAL_LIMITS`), :func:`parse_cn_fine` the 罚金
rule (fixed range, proportional, mandatory or optional), :func:`classify_condition` the tier kind
a condition names (数额较大, 情节严重, 致人死亡…), and :func:`parse_cn_clauses` puts them together
for one paragraph. A clause whose penalty words are not all understood yields no tier.
"""

from __future__ import annotations

import re

from buildds.schema.statutes import FineRule, PenaltyRange, SentencingTier, TierCondition, TierKind
from buildds.text import NUMERAL, cn_duration_months, cn_numeral

__all__ = [
    "CN_GENERAL_LIMITS",
    "PUNISH_RE",
    "classify_condition",
    "parse_cn_clauses",
    "parse_cn_fine",
    "parse_cn_penalties",
]


# General part: 第三十八条 管制 3个月–2年, 第四十二条 拘役 1–6个月, 第四十五条 有期徒刑 6个月–15年.
CN_GENERAL_LIMITS: dict[str, tuple[int, int]] = {"管制": (3, 24), "拘役": (1, 6), "有期徒刑": (6, 180)}


_TERM = rf"{NUMERAL}(?:年{NUMERAL}个月|年|个月)"
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


_FIXED_FINE_RE = re.compile(rf"(?P<lo>{NUMERAL})元以上(?P<hi>{NUMERAL})元以下罚金")
_RATIO = rf"(?:百分之{NUMERAL}|{NUMERAL}倍)"
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


_STATED_AMOUNT_RE = re.compile(rf"(?:金额|数额)(?:在)?(?P<lo>{NUMERAL})元以上")
PUNISH_RE = re.compile(r"处(?P<seg>[^，；。：]*)")


def parse_cn_clauses(paragraph: str, *, paragraph_no: int | None = None) -> list[SentencingTier]:
    """Each ``…的，处…[，并处…罚金]`` clause of a paragraph as a tier. A clause naming a
    condition an earlier clause of the paragraph already named is a graver variant: ``other``."""
    tiers: list[SentencingTier] = []
    for clause in re.split(r"[；。]", paragraph):
        for m in PUNISH_RE.finditer(clause):
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
