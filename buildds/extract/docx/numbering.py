"""Word list numbering and styles, rendered as a reader sees them (``第%1条``, ``（%1）``,
``%1.%2``; decimal, full-width, kanji, katakana, iroha, circled, roman, letters …).

Split from :mod:`buildds.extract.docx.reader`, which counts per view and calls :class:`Numbering`.

A list number is the only text Word makes up rather than reads, so it is bounded: a counter
value beyond :data:`MAX_VALUE` (``w:start`` of 520,000,000 in ``upperLetter`` is a 20-million
letter number on every paragraph), a level beyond :data:`MAX_LEVEL`, or a rendered number
longer than :data:`MAX_CHARS` raises :class:`~buildds.errors.LimitExceeded` naming the file
and paragraph. Numbers in the XML are parsed with at most 15 digits (a longer one counts as
too large: Python refuses ``int()`` of 4,300 digits).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from buildds.errors import LimitExceeded
from buildds.safeio import LIMITS
from buildds.safeio.archive import w_tag, w_val
from buildds.text import int_to_ja

__all__ = ["MAX_CHARS", "MAX_LEVEL", "MAX_VALUE", "Counters", "Numbering", "Styles",
           "format_number", "join_number", "xml_int"]

#: largest counter value rendered (Word's own dialog stops at 32,767)
MAX_VALUE = LIMITS["numbering_value"].default
#: deepest list level, w:ilvl (ECMA-376 defines 0-8)
MAX_LEVEL = LIMITS["numbering_level"].default
#: longest rendered list number, e.g. ``第１２条`` or ``1.2.3.4.5.6.7.8.9``
MAX_CHARS = LIMITS["numbering_chars"].default
_MAX_DIGITS = 15


def xml_int(text: str | None, *, signed: bool = False) -> int | None:
    """An integer attribute of the XML, ``None`` when it is not one; more than 15 digits
    give ±10**15, beyond every limit, instead of a costly or refused ``int()``."""
    if text is None:
        return None
    digits = text[1:] if signed and text.startswith("-") else text
    if not digits.isdigit():
        return None
    if len(digits) > _MAX_DIGITS:
        return -(10**_MAX_DIGITS) if digits is not text else 10**_MAX_DIGITS
    try:
        return int(text)
    except ValueError:  # digits int() does not take (superscripts)
        return None

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
        return int_to_ja(n)
    if fmt == "japaneseLegal":
        return int_to_ja(n).translate(str.maketrans("一二三十", "壱弐参拾"))
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
                ilvl=xml_int(ilvl), outline=xml_int(outline))
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
    start = xml_int(w_val(lvl.find(w_tag("start"))), signed=True)
    if start is not None:
        out.start = start
    fmt = w_val(lvl.find(w_tag("numFmt")))
    if fmt is not None:
        out.fmt = fmt
    text = lvl.find(w_tag("lvlText"))
    if text is not None:
        out.text = w_val(text) or ""
    restart = xml_int(w_val(lvl.find(w_tag("lvlRestart"))))
    if restart is not None:
        out.restart = restart
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
    def __init__(self, root: etree._Element | None, styles: Styles, *,
                 source: str | None = None):
        self.source = source
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
                level = xml_int(lvl.get(w_tag("ilvl"), "0"))
                if level is not None:
                    levels[level] = _parse_level(lvl)
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
                level = xml_int(ov.get(w_tag("ilvl"), "0"))
                if level is None:
                    continue
                so = xml_int(w_val(ov.find(w_tag("startOverride"))), signed=True)
                if so is not None:
                    starts[level] = so
                lvl = ov.find(w_tag("lvl"))
                if lvl is not None:
                    base = self.abstract.get(aid, {}).get(level)
                    overrides[level] = _parse_level(lvl, base)
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

    def _limit(self, what: str, value: int, limit: int, name: str) -> LimitExceeded:
        return LimitExceeded(what, f"{value:,}", f"{limit:,}", source=self.source,
                             option=LIMITS[name].how_to_raise)

    def render(self, nid: str, ilvl: int, state: Counters) -> str | None:
        """The number of a paragraph in list ``nid`` at level ``ilvl``, counting it in
        ``state``; raises :class:`LimitExceeded` past a limit (see the module docstring)."""
        found = self._levels(nid)
        if found is None:
            self.missing.add(nid)
            return None
        aid, levels, starts = found
        lvl = levels.get(ilvl)
        if lvl is None:
            return None
        if ilvl > MAX_LEVEL:
            raise self._limit("list level (w:ilvl)", ilvl, MAX_LEVEL, "numbering_level")
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
        if abs(counters[ilvl]) > MAX_VALUE:
            raise self._limit("list number value", counters[ilvl], MAX_VALUE, "numbering_value")
        for k in [k for k in counters if k > ilvl]:
            restart = levels[k].restart if k in levels else None
            if restart is None or (restart != 0 and ilvl < restart):
                del counters[k]
        if lvl.fmt == "bullet" or not lvl.text:
            return None

        def repl(m: re.Match[str]) -> str:
            ref = int(m[1]) - 1
            value = counters.get(ref, start_of(ref))
            if abs(value) > MAX_VALUE:
                raise self._limit("list number value", value, MAX_VALUE, "numbering_value")
            ref_fmt = levels[ref].fmt if ref in levels else "decimal"
            if lvl.legal and ref_fmt not in ("decimalFullWidth", "decimalFullWidth2"):
                ref_fmt = "decimal"
            return format_number(value, ref_fmt)

        if len(lvl.text) > MAX_CHARS:  # the whole text repeats on every paragraph
            raise self._limit("length of the list number text (w:lvlText)", len(lvl.text),
                              MAX_CHARS, "numbering_chars")
        number = re.sub(r"%([1-9])", repl, lvl.text).strip()
        if len(number) > MAX_CHARS:
            raise self._limit("length of the rendered list number", len(number), MAX_CHARS,
                              "numbering_chars")
        return number or None


def join_number(number: str | None, text: str) -> str:
    if not number:
        return text
    japanese = any(ord(c) > 0x2000 for c in number)
    return number + ("" if japanese else " ") + text
