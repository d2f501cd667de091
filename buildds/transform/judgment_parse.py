"""Free-text parsers for Chinese criminal judgments (AR-Bench, seed 003).

Every function is pure. Those returning spans take the text and the ``offset`` of that text
inside ``Judgment.full_text``, so the spans they return index the full text directly.

- :func:`cn_number` / :func:`parse_months` / :func:`parse_money`: numerals, terms, amounts;
- :func:`parse_sentence`: the main penalty of the 判决如下 part;
- :func:`parse_charges`, :func:`parse_articles`: 犯…罪 names and cited 刑法 articles;
- :func:`parse_amount_involved`: the amount of the offence from the facts;
- :func:`parse_factors`: sentencing circumstances (自首, 坦白, 累犯 …) with spans.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from buildds.schema.judgments import ArticleRef, ChargeRef, Sentence, SentencingFactor, Span

__all__ = [
    "MONEY_RE",
    "TERM_RE",
    "cn_number",
    "parse_amount_involved",
    "parse_articles",
    "parse_charges",
    "parse_factors",
    "parse_money",
    "parse_months",
    "parse_sentence",
]

_FULLWIDTH = str.maketrans("０１２３４５６７８９．，", "0123456789.,")
_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
           "七": 7, "八": 8, "九": 9, "壹": 1, "贰": 2, "叁": 3, "肆": 4, "伍": 5, "陆": 6,
           "柒": 7, "捌": 8, "玖": 9}
_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000, "拾": 10, "佰": 100, "仟": 1000}
_BIG_UNITS = {"万": 10_000, "亿": 100_000_000}
_CN = "零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟"
_NUM = f"[0-9０-９{_CN}]"


@lru_cache(maxsize=8192)
def cn_number(text: str) -> Decimal | None:
    """``三万`` → 30000, ``十万零五百`` → 100500, ``1.5万`` → 15000, ``3,000`` → 3000.

    Arabic runs (with ``,`` thousands separators and a decimal point) and Chinese numerals
    mix freely; ``None`` when ``text`` holds no number. Memoised: judgments repeat the same
    few numerals (三年, 五千元 …) and the result is immutable."""
    s = text.translate(_FULLWIDTH).replace(",", "").strip()
    if not s:
        return None
    total = Decimal(0)
    section = Decimal(0)
    number: Decimal | None = None
    seen = False
    i = 0
    while i < len(s):
        ch = s[i]
        if ch.isdigit():
            j = i
            while j < len(s) and (s[j].isdigit() or s[j] == "."):
                j += 1
            try:
                number = Decimal(s[i:j])
            except InvalidOperation:
                return None
            seen = True
            i = j
            continue
        if ch in _DIGITS:
            number = Decimal(_DIGITS[ch])
            seen = True
        elif ch in _SMALL_UNITS:
            section += (number if number is not None else Decimal(1)) * _SMALL_UNITS[ch]
            number = None
            seen = True
        elif ch in _BIG_UNITS:
            total = (total + section + (number or 0)) * _BIG_UNITS[ch]
            section = Decimal(0)
            number = None
            seen = True
        else:
            return None
        i += 1
    if not seen:
        return None
    return total + section + (number or 0)


TERM_RE = re.compile(
    rf"(?:(?P<y>{_NUM}+)年(?:零|又)?(?:(?P<m>{_NUM}+)个?月)?|(?P<m2>{_NUM}+)个?月)")


def parse_months(text: str) -> int | None:
    """``三年六个月`` → 42, ``一年零六个月`` → 18, ``十一个月`` → 11, ``1年6个月`` → 18;
    the first term found in ``text`` (``拘役五个月`` → 5), ``None`` without one."""
    m = TERM_RE.search(text)
    return _term_months(m) if m else None


def _term_months(m: re.Match[str]) -> int | None:
    years = cn_number(m["y"]) if m["y"] else Decimal(0)
    months_text = m["m"] or m["m2"]
    months = cn_number(months_text) if months_text else Decimal(0)
    if years is None or months is None:
        return None
    return int(years * 12 + months)


MONEY_RE = re.compile(
    r"(?P<amount>(?P<num>[0-9０-９][0-9０-９,，.．]*(?:[万千百亿]+[0-9０-９零〇一二两三四五六七八九十百千]*)*"
    rf"|[{_CN}]+)\s*(?:余|多)?\s*元)")


_MONEY_CHARS = frozenset("0123456789０１２３４５６７８９,，.．余多" + _CN)
_FULLWIDTH_THOUSANDS_RE = re.compile(r"[0-9]{1,3}(?:，[0-9]{3})+.*")


def money_matches(text: str) -> Iterator[re.Match[str]]:
    """The matches of :data:`MONEY_RE` in ``text``, the same as ``MONEY_RE.finditer(text)``.

    Every match ends at the first 元 after its start and holds only numeral, separator,
    余/多 and white-space characters before it, so it lies in the run of such characters
    that ends at a 元 — at most one match per 元. Searching only those runs skips the
    regex attempts at every numeral-like character of the prose (一, 十, 万 …)."""
    end = text.find("元")
    while end >= 0:
        start = end
        while start and (text[start - 1] in _MONEY_CHARS or text[start - 1].isspace()):
            start -= 1
        if start < end:
            m = MONEY_RE.search(text, start, end + 1)
            if m is not None:
                yield m
        end = text.find("元", end + 1)


def _money_value(num: str) -> int | None:
    # a full-width comma is a thousands separator only when three digits follow
    if "，" in num and not _FULLWIDTH_THOUSANDS_RE.fullmatch(num):
        return None
    value = cn_number(num.replace("，", ","))
    return None if value is None else int(value.to_integral_value())


def parse_money(text: str) -> int | None:
    """``人民币五千元`` → 5000, ``1.5万元`` → 15000, ``人民币3,000元`` → 3000; the first
    amount in ``text``, in whole yuan (rounded), ``None`` without one."""
    for m in money_matches(text):
        value = _money_value(m["num"])
        if value is not None:
            return value
    return None


def _span(text: str, start: int, end: int, offset: int) -> Span:
    """The span of ``text[start:end]`` shifted by ``offset``. Consistent by construction
    (its text is the slice; start ≤ end ≤ len(text) for a match), so it skips the validator:
    thousands are built per file. The Judgment still checks every span against its text."""
    if not 0 <= start <= end <= len(text):
        raise ValueError(f"span [{start}, {end}) outside a text of {len(text)} characters")
    return Span.model_construct(start=start + offset, end=end + offset, text=text[start:end])


# --------------------------------------------------------------------------- sentence
_PENALTY_RE = re.compile(
    r"(?P<kind>有期徒刑|拘役|管制|无期徒刑|死刑|免予刑事处罚|免于刑事处罚|免除刑事处罚|罚金)")
_ANCHOR_RE = re.compile(r"决定执行|判处|免[予于除]刑事处罚")
_FINE_RE = re.compile(r"罚金(?:人民币?)?\s*")
_NEXT_ITEM_RE = re.compile(r"[\s。；][一二三四五六七八九十]+、")


_PAREN_RE = re.compile(r"[（()）]")


def _mask_parentheses(text: str) -> str:
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
    masked = _mask_parentheses(text)
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
    ``masked`` is ``_mask_parentheses(text)``."""
    if anchor.group().startswith("免"):
        return Sentence(kind="免予刑事处罚",
                        span=_span(text, anchor.start(), anchor.end(), offset),
                        kind_span=_span(text, anchor.start(), anchor.end(), offset))
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
            months = _term_months(term)
            term_span = _span(text, term.start(), term.end(), offset)
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
            probation = _term_months(term)
            probation_span = _span(text, term.start(), term.end(), offset)
            clause_end = max(clause_end, term.end())
    fine = None
    fine_span = None
    # the fine can follow a parenthesised note or a full stop (…缓刑三年。并处罚金…): look
    # up to the end of the item, outside parentheses
    item = _NEXT_ITEM_RE.search(masked, cursor)
    for fm in _FINE_RE.finditer(masked, cursor, item.start() if item else len(text)):
        money = MONEY_RE.match(masked, fm.end())
        if money:
            value = _money_value(money["num"])
            if value is not None:
                fine = value
                fine_span = _span(text, money.start(), money.end(), offset)
                clause_end = max(clause_end, money.end())
                break
    return Sentence(
        kind=kind,  # type: ignore[arg-type]
        months=months,
        probation_months=probation,
        fine_yuan=fine,
        fine_kind="unknown" if fine is not None else None,
        span=_span(text, pen.start(), clause_end, offset),
        kind_span=_span(text, pen.start(), pen.end(), offset),
        term_span=term_span,
        probation_span=probation_span,
        fine_span=fine_span,
    )


# --------------------------------------------------------------------------- charges
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
            target.append(ChargeRef(name=m["name"], span=_span(text, *m.span("name"), offset)))
            pos = m.end()
            while more := _CHARGE_MORE_RE.match(text, pos, e):
                target.append(ChargeRef(name=more["name"],
                                        span=_span(text, *more.span("name"), offset)))
                pos = more.end()
    return kept or revoked


# --------------------------------------------------------------------------- articles
_LAW_RE = re.compile(r"(?:《中华人民共和国刑法》|《刑法》|(?<![《修])刑法)(?=\s*第)")
_ART_ITEM_RE = re.compile(
    rf"\s*(?:[、，,和及]|以及)?\s*第(?P<n>{_NUM}+)条(?:之[一二三四五六])?"
    rf"(?:第?[{_CN}0-9、]+款)?(?:第?[（(]?[{_CN}0-9]+[)）]?项)?(?:[（(][^（）()]{{1,20}}[)）])?"
    rf"|\s*(?:[、，,和及]|以及)?\s*(?:第?[{_CN}0-9、]+款(?:第?[（(]?[{_CN}0-9]+[)）]?项)?"
    rf"|第?[（(][{_CN}0-9]+[)）]项)(?:[（(][^（）()]{{1,20}}[)）])?")


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
            refs.append(ArticleRef(number=int(number), span=_span(text, start, m.end(), offset)))
    return refs


# --------------------------------------------------------------------------- amount
_TOTAL_RE = re.compile(r"(?:共计|合计|总计|累计|总价值|总金额|总额|总值|共)")
_AMOUNT_KEY_RE = re.compile(
    r"(?:价值|数额|金额|涉案金额|骗取|诈骗|盗窃|窃取|盗走|窃得|抢走|抢得|抢劫|抢夺|侵占|挪用|收受|索取|"
    r"贪污|受贿|非法获利|获利|违法所得|销售额|销售金额|赌资|集资|吸收)")
_BEFORE_SEP_RE = re.compile(r"[。；;，,]")


def parse_amount_involved(text: str, offset: int = 0) -> tuple[int, Span] | None:
    """The amount of the offence in the facts: the largest amount stated as a total
    (共计/合计/总计/累计/总价值 … 元) when there is one, else the largest amount within a
    few characters after 价值/数额/骗取/盗窃 …; its span covers the amount and 元."""
    totals: list[tuple[int, int, int]] = []
    keyed: list[tuple[int, int, int]] = []
    for m in money_matches(text):
        value = _money_value(m["num"])
        if value is None or value == 0:
            continue
        before = text[max(0, m.start() - 25):m.start()]
        before = _BEFORE_SEP_RE.split(before)[-1]
        if _TOTAL_RE.search(before):
            totals.append((value, m.start(), m.end()))
        elif _AMOUNT_KEY_RE.search(before):
            keyed.append((value, m.start(), m.end()))
    pool = totals or keyed
    if not pool:
        return None
    value, start, end = max(pool, key=lambda t: (t[0], -t[1]))
    return value, _span(text, start, end, offset)


# --------------------------------------------------------------------------- factors
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
            span=_span(text, start, end, offset),
            clause=_span(text, c_start, c_end, offset),
        ))
    return factors
