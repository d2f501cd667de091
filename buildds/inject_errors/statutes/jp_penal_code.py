"""The Japanese 刑法 statute profile: :func:`build_jp_profile`.

:func:`parse_jp_penalties` reads ``…に処する`` 法定刑 in both the 拘禁刑 (2025) and the 懲役/禁錮
wording; :func:`parse_jp_penal_code` turns article-per-block text into charge profiles, and
:func:`jp_text_from_jsonl` (DB4LAW) / :func:`jp_text_from_html` (e-Gov) produce that text.
"""

from __future__ import annotations

import html
import re
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
from buildds.text import cn_duration_months, cn_numeral

__all__ = [
    "JP_FINE_MIN_YEN",
    "JP_GENERAL_LIMITS",
    "JP_MINOR_FINE_YEN",
    "build_jp_profile",
    "jp_text_from_html",
    "jp_text_from_jsonl",
    "parse_jp_penal_code",
    "parse_jp_penalties",
]


# 刑法(日本) 第十二条/第十三条: 有期拘禁刑 (formerly 懲役・禁錮) 1月以上20年以下; 第十五条 罰金 1万円以上;
# 第十七条 科料 千円以上一万円未満.
JP_GENERAL_LIMITS: dict[str, tuple[int, int]] = {"拘禁刑": (1, 240), "懲役": (1, 240), "禁錮": (1, 240)}
JP_FINE_MIN_YEN = 10_000
JP_MINOR_FINE_YEN = (1_000, 9_999)


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
    from buildds.errors import ExtractError
    from buildds.safeio.files import read_side_file
    from buildds.safeio.json_strict import loads_strict

    lines: list[str] = []
    for number, row in enumerate(read_side_file(Path(path)).splitlines(), start=1):
        if not row.strip():
            continue
        try:
            art = loads_strict(row)
        except ValueError as exc:
            raise ExtractError(f"line {number} is not valid JSON ({exc})", source=str(path)) from None
        if not isinstance(art, dict):
            raise ExtractError(f"line {number} is not a JSON object", source=str(path))
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
