"""Word list numbering and styles, rendered as a reader sees them (``第%1条``, ``（%1）``,
``%1.%2``; decimal, full-width, kanji, katakana, iroha, circled, roman, letters …).

Split from :mod:`buildds.extract.docx`, which counts per view and calls :class:`Numbering`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from buildds.extract.archive import w_tag, w_val

__all__ = ["Counters", "Numbering", "Styles", "format_number", "join_number"]

# --------------------------------------------------------------------------- number formats
_FULL = str.maketrans("0123456789", "０１２３４５６７８９")
_KANJI = "〇一二三四五六七八九"
_AIUEO = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲン"
_AIUEO_HALF = "ｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜｦﾝ"
_IROHA = "イロハニホヘトチリヌルヲワカヨタレソツネナラムウヰノオクヤマケフコエテアサキユメミシヱヒモセス"
_TO_HALF = dict(zip(_AIUEO, _AIUEO_HALF, strict=True))
_CIRCLED = ("".join(chr(c) for c in range(0x2460, 0x2474))
            + "".join(chr(c) for c in range(0x3251, 0x3260))
            + "".join(chr(c) for c in range(0x32B1, 0x32C0)))
_TRADITIONAL = "甲乙丙丁戊己庚辛壬癸"
_ZODIAC = "子丑寅卯辰巳午未申酉戌亥"
_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def _kanji_count(n: int) -> str:
    if n <= 0:
        return _KANJI[0] if n == 0 else str(n)
    out = ""
    if n >= 10000:
        out += _kanji_count(n // 10000) + "万"
        n %= 10000
    for value, ch in ((1000, "千"), (100, "百"), (10, "十")):
        q, n = divmod(n, value)
        if q:
            out += ("" if q == 1 else _KANJI[q]) + ch
    return out + (_KANJI[n] if n else "")


def _roman(n: int) -> str:
    if not 0 < n < 4000:
        return str(n)
    out = ""
    for value, sym in _ROMAN:
        q, n = divmod(n, value)
        out += sym * q
    return out


def _cyclic(n: int, alphabet: str) -> str:
    return alphabet[(n - 1) % len(alphabet)] if n > 0 else str(n)


def format_number(n: int, fmt: str) -> str:
    """Render counter ``n`` in Word's ``w:numFmt`` ``fmt`` (unknown formats → decimal)."""
    if fmt in ("decimalFullWidth", "decimalFullWidth2"):
        return str(n).translate(_FULL)
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt in ("upperRoman", "lowerRoman"):
        r = _roman(n)
        return r if fmt == "upperRoman" else r.lower()
    if fmt in ("upperLetter", "lowerLetter"):
        if n <= 0:
            return str(n)
        letter = chr(ord("A") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return letter if fmt == "upperLetter" else letter.lower()
    if fmt == "ordinal":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    if fmt in ("japaneseCounting", "chineseCounting", "chineseCountingThousand",
               "taiwaneseCounting", "ideographLegalTraditional"):
        return _kanji_count(n)
    if fmt == "japaneseLegal":
        return _kanji_count(n).translate(str.maketrans("一二三十", "壱弐参拾"))
    if fmt in ("japaneseDigitalTenThousand", "ideographDigital", "taiwaneseDigital"):
        return "".join(_KANJI[int(d)] for d in str(n)) if n >= 0 else str(n)
    if fmt == "aiueoFullWidth":
        return _cyclic(n, _AIUEO)
    if fmt == "aiueo":
        return _cyclic(n, _AIUEO_HALF)
    if fmt == "irohaFullWidth":
        return _cyclic(n, _IROHA)
    if fmt == "iroha":
        return "".join(_TO_HALF.get(c, c) for c in _cyclic(n, _IROHA))
    if fmt in ("decimalEnclosedCircle", "decimalEnclosedCircleChinese"):
        return _CIRCLED[n - 1] if 0 < n <= len(_CIRCLED) else str(n)
    if fmt == "decimalEnclosedFullstop":
        return chr(0x2487 + n) if 0 < n <= 20 else f"{n}."
    if fmt == "decimalEnclosedParen":
        return chr(0x2473 + n) if 0 < n <= 20 else f"({n})"
    if fmt == "ideographTraditional":
        return _cyclic(n, _TRADITIONAL)
    if fmt == "ideographZodiac":
        return _cyclic(n, _ZODIAC)
    if fmt == "none":
        return ""
    return str(n)


# --------------------------------------------------------------------------- styles, numbering
@dataclass
class _Style:
    name: str | None = None
    based_on: str | None = None
    num_id: str | None = None
    ilvl: int | None = None
    outline: int | None = None


class Styles:
    def __init__(self, root: etree._Element | None):
        self.styles: dict[str, _Style] = {}
        self.default: str | None = None
        if root is None:
            return
        for st in root.iter(w_tag("style")):
            if st.get(w_tag("type")) not in (None, "paragraph", "numbering"):
                continue
            sid = st.get(w_tag("styleId"))
            if sid is None:
                continue
            ppr = st.find(w_tag("pPr"))
            numpr = ppr.find(w_tag("numPr")) if ppr is not None else None
            ilvl = w_val(numpr.find(w_tag("ilvl"))) if numpr is not None else None
            outline = w_val(ppr.find(w_tag("outlineLvl"))) if ppr is not None else None
            self.styles[sid] = _Style(
                name=w_val(st.find(w_tag("name"))), based_on=w_val(st.find(w_tag("basedOn"))),
                num_id=w_val(numpr.find(w_tag("numId"))) if numpr is not None else None,
                ilvl=int(ilvl) if ilvl and ilvl.isdigit() else None,
                outline=int(outline) if outline and outline.isdigit() else None)
            if st.get(w_tag("default")) in ("1", "true") and st.get(w_tag("type")) == "paragraph":
                self.default = sid

    def _chain(self, sid: str | None) -> Iterator[_Style]:
        seen: set[str] = set()
        while sid and sid not in seen and sid in self.styles:
            seen.add(sid)
            yield self.styles[sid]
            sid = self.styles[sid].based_on

    def numbering(self, sid: str | None) -> tuple[str | None, int | None]:
        for st in self._chain(sid):
            if st.num_id is not None:
                return st.num_id, st.ilvl
        return None, None

    def heading_level(self, sid: str | None) -> int | None:
        for st in self._chain(sid):
            name = (st.name or "").lower()
            m = re.fullmatch(r"heading\s*(\d)", name)
            if m:
                return int(m[1])
            if name == "title":
                return 1
            if st.outline is not None and st.outline < 9:
                return st.outline + 1
        return None

    def name(self, sid: str | None) -> str | None:
        st = self.styles.get(sid or "")
        return (st.name or sid) if st else sid


@dataclass
class _Level:
    start: int = 1
    fmt: str = "decimal"
    text: str | None = None
    restart: int | None = None
    legal: bool = False
    pstyle: str | None = None


def _parse_level(lvl: etree._Element, base: _Level | None = None) -> _Level:
    out = _Level(**vars(base)) if base else _Level()
    start = w_val(lvl.find(w_tag("start")))
    if start is not None and start.lstrip("-").isdigit():
        out.start = int(start)
    fmt = w_val(lvl.find(w_tag("numFmt")))
    if fmt is not None:
        out.fmt = fmt
    text = lvl.find(w_tag("lvlText"))
    if text is not None:
        out.text = w_val(text) or ""
    restart = w_val(lvl.find(w_tag("lvlRestart")))
    if restart is not None and restart.isdigit():
        out.restart = int(restart)
    if lvl.find(w_tag("isLgl")) is not None:
        out.legal = w_val(lvl.find(w_tag("isLgl"))) not in ("0", "false")
    pstyle = w_val(lvl.find(w_tag("pStyle")))
    if pstyle is not None:
        out.pstyle = pstyle
    return out


@dataclass
class Counters:
    values: dict[tuple[str, str], dict[int, int]] = field(default_factory=dict)
    started: set[str] = field(default_factory=set)


class Numbering:
    def __init__(self, root: etree._Element | None, styles: Styles):
        self.abstract: dict[str, dict[int, _Level]] = {}
        self.style_link: dict[str, str] = {}
        self.nums: dict[str, tuple[str, dict[int, _Level], dict[int, int]]] = {}
        self.styles = styles
        self.missing: set[str] = set()
        if root is None:
            return
        for ab in root.iter(w_tag("abstractNum")):
            aid = ab.get(w_tag("abstractNumId"))
            if aid is None:
                continue
            levels = {}
            for lvl in ab.iter(w_tag("lvl")):
                ilvl = lvl.get(w_tag("ilvl"), "0")
                if ilvl.isdigit():
                    levels[int(ilvl)] = _parse_level(lvl)
            self.abstract[aid] = levels
            link = w_val(ab.find(w_tag("numStyleLink")))
            if link:
                self.style_link[aid] = link
        for num in root.iter(w_tag("num")):
            nid = num.get(w_tag("numId"))
            aid = w_val(num.find(w_tag("abstractNumId")))
            if nid is None or aid is None:
                continue
            overrides: dict[int, _Level] = {}
            starts: dict[int, int] = {}
            for ov in num.iter(w_tag("lvlOverride")):
                ilvl = ov.get(w_tag("ilvl"), "0")
                if not ilvl.isdigit():
                    continue
                so = w_val(ov.find(w_tag("startOverride")))
                if so is not None and so.lstrip("-").isdigit():
                    starts[int(ilvl)] = int(so)
                lvl = ov.find(w_tag("lvl"))
                if lvl is not None:
                    base = self.abstract.get(aid, {}).get(int(ilvl))
                    overrides[int(ilvl)] = _parse_level(lvl, base)
            self.nums[nid] = (aid, overrides, starts)

    def _levels(self, nid: str) -> tuple[str, dict[int, _Level], dict[int, int]] | None:
        entry = self.nums.get(nid)
        if entry is None:
            return None
        aid, overrides, starts = entry
        # an abstractNum that only links to a numbering style takes that style's list
        seen = {aid}
        while aid in self.style_link:
            linked_nid, _ = self.styles.numbering(self.style_link[aid])
            linked = self.nums.get(linked_nid or "")
            if linked is None or linked[0] in seen:
                break
            aid = linked[0]
            seen.add(aid)
        levels = dict(self.abstract.get(aid, {}))
        levels.update(overrides)
        return aid, levels, starts

    def level_for_style(self, nid: str, sid: str | None) -> int:
        found = self._levels(nid)
        if found and sid:
            for ilvl, lvl in found[1].items():
                if lvl.pstyle == sid:
                    return ilvl
        return 0

    def render(self, nid: str, ilvl: int, state: Counters) -> str | None:
        found = self._levels(nid)
        if found is None:
            self.missing.add(nid)
            return None
        aid, levels, starts = found
        lvl = levels.get(ilvl)
        if lvl is None:
            return None
        key = ("num", nid) if starts else ("abstract", aid)
        counters = state.values.setdefault(key, {})
        if starts and nid not in state.started:
            state.started.add(nid)
            counters.clear()

        def start_of(level: int) -> int:
            if level in starts:
                return starts[level]
            return levels[level].start if level in levels else 1

        counters[ilvl] = counters[ilvl] + 1 if ilvl in counters else start_of(ilvl)
        for k in [k for k in counters if k > ilvl]:
            restart = levels[k].restart if k in levels else None
            if restart is None or (restart != 0 and ilvl < restart):
                del counters[k]
        if lvl.fmt == "bullet" or not lvl.text:
            return None

        def repl(m: re.Match[str]) -> str:
            ref = int(m[1]) - 1
            value = counters.get(ref, start_of(ref))
            ref_fmt = levels[ref].fmt if ref in levels else "decimal"
            if lvl.legal and ref_fmt not in ("decimalFullWidth", "decimalFullWidth2"):
                ref_fmt = "decimal"
            return format_number(value, ref_fmt)

        return re.sub(r"%([1-9])", repl, lvl.text).strip() or None


def join_number(number: str | None, text: str) -> str:
    if not number:
        return text
    japanese = any(ord(c) > 0x2000 for c in number)
    return number + ("" if japanese else " ") + text
