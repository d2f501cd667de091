"""Word (.docx) → :class:`ContractDocument`, reading the raw OOXML with lxml.

python-docx hides tracked changes, so this module walks the ``w:`` elements itself:

* body paragraphs and tables in document order (a table row is one ``table_row`` block, cell
  texts joined by ``" | "``), then headers, footers, footnotes and endnotes as blocks with
  their own ``part``;
* tracked changes — ``w:ins``/``w:del``, ``w:moveTo``/``w:moveFrom``, inserted/deleted
  paragraph marks, inserted/deleted table rows, property changes — become :class:`Revision`
  records, and each block carries its accepted ``text``, its ``original`` (all rejected) and a
  ``redline`` (``{+ins+}``, ``[-del-]``, ``¶`` for a paragraph mark);
* a deleted paragraph mark merges the paragraph with the next one in the accepted view (an
  inserted one, in the original view). Paragraphs are grouped per view; a group that exists in
  both views is one block, a group of one view only is a block with ``exists_in`` set;
* Word list numbering is rendered (``第%1条``, ``（%1）``, ``%1.%2``; decimal, full-width,
  kanji, katakana, circled, roman, letters …), counted separately in each view, stored in
  ``number_text`` and prepended to the text (no space after a Japanese number, one otherwise);
* fields show their displayed result, never their code; ``w:tab`` → ``"\\t"``, ``w:br`` →
  ``"\\n"``; ``w:sym`` is skipped with a warning; other characters are kept as they are.

Odd but readable content gives :class:`Problem` warnings; unreadable files raise
:class:`ExtractError` (from :func:`buildds.extract.archive.open_ooxml`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from lxml import etree

from buildds.errors import ExtractError
from buildds.extract.archive import OoxmlPackage, open_ooxml
from buildds.schema.contracts import Comment, ContractDocument, DocBlock, Revision
from buildds.schema.core import Problem, Source

__all__ = ["extract_docx", "format_number"]

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
View = Literal["accepted", "original"]
VIEWS: tuple[View, View] = ("accepted", "original")


def _w(tag: str) -> str:
    return f"{{{W}}}{tag}"


def _val(el: etree._Element | None, attr: str = "val") -> str | None:
    return None if el is None else el.get(_w(attr))


def _local(el: etree._Element) -> tuple[str, str]:
    tag = el.tag
    if not isinstance(tag, str):
        return "", ""
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return ns, name
    return "", tag


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


class _Styles:
    def __init__(self, root: etree._Element | None):
        self.styles: dict[str, _Style] = {}
        self.default: str | None = None
        if root is None:
            return
        for st in root.iter(_w("style")):
            if st.get(_w("type")) not in (None, "paragraph", "numbering"):
                continue
            sid = st.get(_w("styleId"))
            if sid is None:
                continue
            ppr = st.find(_w("pPr"))
            numpr = ppr.find(_w("numPr")) if ppr is not None else None
            ilvl = _val(numpr.find(_w("ilvl"))) if numpr is not None else None
            outline = _val(ppr.find(_w("outlineLvl"))) if ppr is not None else None
            self.styles[sid] = _Style(
                name=_val(st.find(_w("name"))), based_on=_val(st.find(_w("basedOn"))),
                num_id=_val(numpr.find(_w("numId"))) if numpr is not None else None,
                ilvl=int(ilvl) if ilvl and ilvl.isdigit() else None,
                outline=int(outline) if outline and outline.isdigit() else None)
            if st.get(_w("default")) in ("1", "true") and st.get(_w("type")) == "paragraph":
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
    start = _val(lvl.find(_w("start")))
    if start is not None and start.lstrip("-").isdigit():
        out.start = int(start)
    fmt = _val(lvl.find(_w("numFmt")))
    if fmt is not None:
        out.fmt = fmt
    text = lvl.find(_w("lvlText"))
    if text is not None:
        out.text = _val(text) or ""
    restart = _val(lvl.find(_w("lvlRestart")))
    if restart is not None and restart.isdigit():
        out.restart = int(restart)
    if lvl.find(_w("isLgl")) is not None:
        out.legal = _val(lvl.find(_w("isLgl"))) not in ("0", "false")
    pstyle = _val(lvl.find(_w("pStyle")))
    if pstyle is not None:
        out.pstyle = pstyle
    return out


@dataclass
class _Counters:
    values: dict[tuple[str, str], dict[int, int]] = field(default_factory=dict)
    started: set[str] = field(default_factory=set)


class _Numbering:
    def __init__(self, root: etree._Element | None, styles: _Styles):
        self.abstract: dict[str, dict[int, _Level]] = {}
        self.style_link: dict[str, str] = {}
        self.nums: dict[str, tuple[str, dict[int, _Level], dict[int, int]]] = {}
        self.styles = styles
        self.missing: set[str] = set()
        if root is None:
            return
        for ab in root.iter(_w("abstractNum")):
            aid = ab.get(_w("abstractNumId"))
            if aid is None:
                continue
            levels = {}
            for lvl in ab.iter(_w("lvl")):
                ilvl = lvl.get(_w("ilvl"), "0")
                if ilvl.isdigit():
                    levels[int(ilvl)] = _parse_level(lvl)
            self.abstract[aid] = levels
            link = _val(ab.find(_w("numStyleLink")))
            if link:
                self.style_link[aid] = link
        for num in root.iter(_w("num")):
            nid = num.get(_w("numId"))
            aid = _val(num.find(_w("abstractNumId")))
            if nid is None or aid is None:
                continue
            overrides: dict[int, _Level] = {}
            starts: dict[int, int] = {}
            for ov in num.iter(_w("lvlOverride")):
                ilvl = ov.get(_w("ilvl"), "0")
                if not ilvl.isdigit():
                    continue
                so = _val(ov.find(_w("startOverride")))
                if so is not None and so.lstrip("-").isdigit():
                    starts[int(ilvl)] = int(so)
                lvl = ov.find(_w("lvl"))
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

    def render(self, nid: str, ilvl: int, state: _Counters) -> str | None:
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


def _join_number(number: str | None, text: str) -> str:
    if not number:
        return text
    japanese = any(ord(c) > 0x2000 for c in number)
    return number + ("" if japanese else " ") + text


# --------------------------------------------------------------------------- raw paragraphs
Seg = tuple[str, str]  # (state, text); state "" | "ins" | "del" | "gone"


@dataclass
class _Para:
    idx: int
    segs: list[Seg] = field(default_factory=list)
    mark: str = ""
    style: str | None = None
    num: dict[str, tuple[str, int] | None] = field(default_factory=dict)
    heading: int | None = None
    revisions: list[Revision] = field(default_factory=list)

    def text(self, view: View) -> str:
        keep = ("", "ins") if view == "accepted" else ("", "del")
        return "".join(t for s, t in self.segs if s in keep)

    def has_unchanged_text(self) -> bool:
        return any(s == "" and t.strip() for s, t in self.segs)


@dataclass
class _Row:
    cells: list[list[_Para]]
    state: str = ""
    revisions: list[Revision] = field(default_factory=list)


Unit = list[_Para] | _Row


def _revision(kind: str, el: etree._Element, text: str = "") -> Revision:
    return Revision(kind=kind, text=text, author=el.get(_w("author")),  # type: ignore[arg-type]
                    date=el.get(_w("date")), id=el.get(_w("id")))


@dataclass
class _Anchor:
    para: int
    accepted: list[str] = field(default_factory=list)
    original: list[str] = field(default_factory=list)


class _PartReader:
    """Walks one part (document body, header, footnotes …) into units of raw paragraphs."""

    _CONTAINERS: frozenset[str] = frozenset({"sdt", "sdtContent", "customXml", "smartTag", "ins", "del", "moveTo",
                   "moveFrom"})
    _INLINE_CONTAINERS: frozenset[str] = frozenset({"hyperlink", "smartTag", "customXml", "sdt",
                                                    "sdtContent", "fldSimple", "dir", "bdo"})

    def __init__(self, styles: _Styles, numbering: _Numbering):
        self.styles = styles
        self.numbering = numbering
        self.count = 0
        self.fields: list[bool] = []
        self.open_comments: dict[str, _Anchor] = {}
        self.anchors: dict[str, _Anchor] = {}
        self.symbols: list[str] = []
        self.alt_chunks = 0

    # ---- block level
    def blocks(self, container: etree._Element, units: list[Unit],
               cell: list[_Para] | None = None) -> None:
        for child in container:
            ns, tag = _local(child)
            if ns != W:
                continue
            if tag == "p":
                para = self.para(child)
                if cell is not None:
                    cell.append(para)
                elif units and isinstance(units[-1], list):
                    units[-1].append(para)
                else:
                    units.append([para])
            elif tag == "tbl":
                for tr in self._rows(child):
                    if cell is not None:
                        for tc in self._cells(tr):
                            self.blocks(tc, units, cell)
                    else:
                        units.append(self.row(tr, units))
            elif tag in self._CONTAINERS:
                self.blocks(child, units, cell)
            elif tag in ("commentRangeStart", "commentRangeEnd"):
                self._comment_marker(tag, child)
            elif tag == "altChunk":
                self.alt_chunks += 1

    def _rows(self, tbl: etree._Element) -> Iterator[etree._Element]:
        for child in tbl:
            _, tag = _local(child)
            if tag == "tr":
                yield child
            elif tag in ("sdt", "sdtContent", "customXml"):
                yield from self._rows(child)

    def _cells(self, tr: etree._Element) -> Iterator[etree._Element]:
        for child in tr:
            _, tag = _local(child)
            if tag == "tc":
                yield child
            elif tag in ("sdt", "sdtContent", "customXml"):
                yield from self._cells(child)

    def row(self, tr: etree._Element, units: list[Unit]) -> _Row:
        row = _Row(cells=[])
        trpr = tr.find(_w("trPr"))
        if trpr is not None:
            for tag, state, kind in (("ins", "ins", "row_inserted"), ("del", "del", "row_deleted")):
                el = trpr.find(_w(tag))
                if el is not None:
                    row.state = state
                    row.revisions.append(_revision(kind, el))
            if trpr.find(_w("trPrChange")) is not None:
                row.revisions.append(_revision("formatting", trpr.find(_w("trPrChange"))))
        for tc in self._cells(tr):
            paras: list[_Para] = []
            self.blocks(tc, units, paras)
            row.cells.append(paras)
        return row

    # ---- paragraph level
    def para(self, p: etree._Element) -> _Para:
        para = _Para(idx=self.count)
        self.count += 1
        ppr = p.find(_w("pPr"))
        para.style = _val(ppr.find(_w("pStyle"))) if ppr is not None else None
        para.num["accepted"] = self._numpr(ppr)
        para.num["original"] = para.num["accepted"]
        para.heading = self._heading(ppr)
        if ppr is not None:
            rpr = ppr.find(_w("rPr"))
            if rpr is not None:
                for tag, mark, kind in (("ins", "ins", "paragraph_mark_inserted"),
                                        ("moveTo", "ins", "paragraph_mark_inserted"),
                                        ("del", "del", "paragraph_mark_deleted"),
                                        ("moveFrom", "del", "paragraph_mark_deleted")):
                    el = rpr.find(_w(tag))
                    if el is not None and not para.mark:
                        para.mark = mark
                        para.revisions.append(_revision(kind, el))
                change = rpr.find(_w("rPrChange"))
                if change is not None:
                    para.revisions.append(_revision("formatting", change))
            change = ppr.find(_w("pPrChange"))
            if change is not None:
                para.revisions.append(_revision("formatting", change))
                old = change.find(_w("pPr"))
                para.num["original"] = self._numpr(old if old is not None else etree.Element(_w("pPr")))
        for child in p:
            if _local(child) != (W, "pPr"):
                self._inline(child, para, False, False)
        for anchor in self.open_comments.values():
            anchor.accepted.append("\n")
            anchor.original.append("\n")
        return para

    def _numpr(self, ppr: etree._Element | None) -> tuple[str, int] | None:
        sid = _val(ppr.find(_w("pStyle"))) if ppr is not None else None
        sid = sid or self.styles.default
        numpr = ppr.find(_w("numPr")) if ppr is not None else None
        nid = ilvl_s = None
        if numpr is not None:
            nid = _val(numpr.find(_w("numId")))
            ilvl_s = _val(numpr.find(_w("ilvl")))
        ilvl = int(ilvl_s) if ilvl_s and ilvl_s.isdigit() else None
        if nid is None:
            nid, style_ilvl = self.styles.numbering(sid)
            if ilvl is None:
                ilvl = style_ilvl
            if nid is not None and ilvl is None:
                ilvl = self.numbering.level_for_style(nid, sid)
        if nid is None or nid == "0":
            return None
        return nid, ilvl or 0

    def _heading(self, ppr: etree._Element | None) -> int | None:
        if ppr is not None:
            outline = _val(ppr.find(_w("outlineLvl")))
            if outline is not None and outline.isdigit() and int(outline) < 9:
                return int(outline) + 1
        sid = _val(ppr.find(_w("pStyle"))) if ppr is not None else None
        return self.styles.heading_level(sid or self.styles.default)

    def _inline(self, el: etree._Element, para: _Para, ins: bool, dele: bool) -> None:
        ns, tag = _local(el)
        if ns == M and tag in ("oMath", "oMathPara"):
            self._emit(para, "".join(t.text or "" for t in el.iter(f"{{{M}}}t")), ins, dele)
            return
        if ns != W:
            return
        if tag == "r":
            self._run(el, para, ins, dele)
        elif tag in ("ins", "moveTo", "del", "moveFrom"):
            start = len(para.segs)
            is_ins = tag in ("ins", "moveTo")
            for child in el:
                self._inline(child, para, ins or is_ins, dele or not is_ins)
            text = "".join(t for _, t in para.segs[start:])
            kind = {"ins": "insertion", "del": "deletion", "moveTo": "move_to",
                    "moveFrom": "move_from"}[tag]
            para.revisions.append(_revision(kind, el, text))
        elif tag in self._INLINE_CONTAINERS:
            for child in el:
                self._inline(child, para, ins, dele)
        elif tag in ("commentRangeStart", "commentRangeEnd"):
            self._comment_marker(tag, el, para.idx)

    def _comment_marker(self, tag: str, el: etree._Element, para: int | None = None) -> None:
        cid = el.get(_w("id"))
        if cid is None:
            return
        if tag == "commentRangeStart":
            anchor = _Anchor(para=self.count if para is None else para)
            self.open_comments[cid] = anchor
            self.anchors.setdefault(cid, anchor)
        else:
            self.open_comments.pop(cid, None)

    def _run(self, r: etree._Element, para: _Para, ins: bool, dele: bool) -> None:
        for child in r:
            ns, tag = _local(child)
            if ns != W:
                continue
            if tag == "rPr":
                change = child.find(_w("rPrChange"))
                if change is not None:
                    para.revisions.append(_revision("formatting", change))
            elif tag == "fldChar":
                kind = child.get(_w("fldCharType"))
                if kind == "begin":
                    self.fields.append(False)
                elif kind == "separate" and self.fields:
                    self.fields[-1] = True
                elif kind == "end" and self.fields:
                    self.fields.pop()
            elif tag in ("instrText", "delInstrText") or not all(self.fields):
                continue
            elif tag in ("t", "delText"):
                self._emit(para, child.text or "", ins, dele)
            elif tag in ("tab", "ptab"):
                self._emit(para, "\t", ins, dele)
            elif tag in ("br", "cr"):
                self._emit(para, "\n", ins, dele)
            elif tag == "noBreakHyphen":
                self._emit(para, "\u2011", ins, dele)
            elif tag == "softHyphen":
                self._emit(para, "\u00ad", ins, dele)
            elif tag == "sym":
                self.symbols.append(f"{child.get(_w('font'))} {child.get(_w('char'))}")

    def _emit(self, para: _Para, text: str, ins: bool, dele: bool) -> None:
        if not text:
            return
        state = "gone" if ins and dele else "ins" if ins else "del" if dele else ""
        para.segs.append((state, text))
        for anchor in self.open_comments.values():
            if state in ("", "ins"):
                anchor.accepted.append(text)
            if state in ("", "del"):
                anchor.original.append(text)


# --------------------------------------------------------------------------- views → blocks
def _groups(paras: list[_Para], view: View, row_state: str = "") -> list[list[int]]:
    """Paragraphs of one view: a mark that does not exist in the view merges with the next."""
    if row_state == ("del" if view == "accepted" else "ins"):
        return []
    gone = "del" if view == "accepted" else "ins"
    groups: list[list[int]] = []
    cur: list[int] = []
    for i, p in enumerate(paras):
        cur.append(i)
        if p.mark != gone or i == len(paras) - 1:
            groups.append(cur)
            cur = []
    return groups


def _pair(paras: list[_Para], acc: list[list[int]], orig: list[list[int]]
          ) -> list[tuple[int, int | None, int | None]]:
    """Match accepted and original groups: (anchor paragraph, acc group, orig group)."""
    a_of = {pi: gi for gi, g in enumerate(acc) for pi in g}
    o_of = {pi: gi for gi, g in enumerate(orig) for pi in g}
    pairs: list[tuple[int, int, int]] = []
    for pi, p in enumerate(paras):
        if p.has_unchanged_text() and pi in a_of and pi in o_of:
            ga, go = a_of[pi], o_of[pi]
            if not pairs or (ga > pairs[-1][1] and go > pairs[-1][2]):
                pairs.append((pi, ga, go))
    out: list[tuple[int, int | None, int | None]] = []
    bounds = [(-1, -1)] + [(ga, go) for _, ga, go in pairs] + [(len(acc), len(orig))]
    for k in range(len(bounds) - 1):
        a_gap = list(range(bounds[k][0] + 1, bounds[k + 1][0]))
        o_gap = list(range(bounds[k][1] + 1, bounds[k + 1][1]))
        if len(a_gap) == len(o_gap):
            out += [(min(acc[a][0], orig[o][0]), a, o) for a, o in zip(a_gap, o_gap, strict=True)]
        elif a_gap and o_gap:
            out += [(acc[a][0], a, None) for a in a_gap[:-1]]
            out += [(orig[o][0], None, o) for o in o_gap[:-1]]
            out.append((min(acc[a_gap[-1]][0], orig[o_gap[-1]][0]), a_gap[-1], o_gap[-1]))
        else:
            out += [(acc[a][0], a, None) for a in a_gap]
            out += [(orig[o][0], None, o) for o in o_gap]
        if k < len(pairs):
            out.append(pairs[k])
    out.sort(key=lambda t: (t[0], t[1] is not None and t[2] is not None))
    return out


def _redline_segs(paras: list[_Para], members: list[int], prefix: list[Seg] | None = None
                  ) -> str:
    parts: list[Seg] = list(prefix or [])
    for n, pi in enumerate(members):
        parts += [s for s in paras[pi].segs if s[0] != "gone"]
        if n < len(members) - 1:
            mark = paras[pi].mark
            parts.append((mark, "¶") if mark else ("", "\n"))
    merged: list[list[str]] = []
    for state, text in parts:
        if not text:
            continue
        if merged and merged[-1][0] == state:
            merged[-1][1] += text
        else:
            merged.append([state, text])
    return "".join(f"{{+{t}+}}" if s == "ins" else f"[-{t}-]" if s == "del" else t
                   for s, t in merged)


def _number_redline(acc: str | None, orig: str | None) -> list[Seg]:
    if acc == orig:
        return [("", _join_number(acc, ""))]
    return [("del", _join_number(orig, "")), ("ins", _join_number(acc, ""))]


class _Builder:
    def __init__(self, part: str, numbering: _Numbering, styles: _Styles):
        self.part = part
        self.numbering = numbering
        self.styles = styles
        self.numbers: dict[tuple[View, int], str | None] = {}
        self.blocks: list[DocBlock] = []
        self.para_block: dict[int, int] = {}
        self.assigned: set[int] = set()
        self.pending: list[Revision] = []

    def number(self, units: list[Unit]) -> None:
        for view in VIEWS:
            state = _Counters()
            for unit in units:
                containers = [(unit, "")] if isinstance(unit, list) else [
                    (cell, unit.state) for cell in unit.cells]
                for paras, row_state in containers:
                    for g in _groups(paras, view, row_state):
                        last = paras[g[-1]]
                        num = last.num.get(view)
                        text = self.numbering.render(num[0], num[1], state) if num else None
                        self.numbers[(view, last.idx)] = text

    def _view_text(self, paras: list[_Para], group: list[int] | None, view: View
                   ) -> tuple[str | None, str | None]:
        if group is None:
            return None, None
        number = self.numbers.get((view, paras[group[-1]].idx))
        return _join_number(number, "".join(paras[i].text(view) for i in group)), number

    def _take_revisions(self, paras: list[_Para], members: list[int]) -> list[Revision]:
        out: list[Revision] = []
        for i in members:
            if paras[i].idx not in self.assigned:
                self.assigned.add(paras[i].idx)
                out += paras[i].revisions
        return out

    def build(self, units: list[Unit]) -> None:
        self.number(units)
        for unit in units:
            if isinstance(unit, list):
                self._paragraphs(unit)
            else:
                self._row(unit)

    def _add(self, members: list[int], paras: list[_Para], **kw: object) -> None:
        for i in members:
            self.para_block.setdefault(paras[i].idx, len(self.blocks))
        text, original = kw.get("text"), kw.get("original")
        revisions = self.pending + list(kw.pop("revisions", ()))  # type: ignore[call-overload]
        if not (str(text or "").strip() or str(original or "").strip()):
            self.pending = revisions  # an empty paragraph's changes go to the next block
            return
        self.pending = []
        kw["revisions"] = tuple(revisions)
        self.blocks.append(DocBlock(index=len(self.blocks), part=self.part, **kw))  # type: ignore[arg-type]

    def _paragraphs(self, paras: list[_Para]) -> None:
        acc, orig = _groups(paras, "accepted"), _groups(paras, "original")
        for _, ga, go in _pair(paras, acc, orig):
            ag = acc[ga] if ga is not None else None
            og = orig[go] if go is not None else None
            members = sorted(set(ag or []) | set(og or []))
            a_text, a_num = self._view_text(paras, ag, "accepted")
            o_text, o_num = self._view_text(paras, og, "original")
            # a paragraph whose whole content is deleted (inserted) is gone from that view
            a_empty = not "".join(paras[i].text("accepted") for i in ag or []).strip()
            o_empty = not "".join(paras[i].text("original") for i in og or []).strip()
            if ag and og and a_empty and not o_empty:
                a_text = a_num = None
            elif ag and og and o_empty and not a_empty:
                o_text = o_num = None
            # leave out paragraphs of the other view's group that contribute nothing here
            members = [i for i in members
                       if not ((i not in (og or []) and not paras[i].text("accepted").strip())
                               or (i not in (ag or []) and not paras[i].text("original").strip()))
                       ] or members
            exists = ("both" if a_text is not None and o_text is not None
                      else "accepted" if a_text is not None else "original")
            revisions = self._take_revisions(paras, members)
            has_text_change = any(s in ("ins", "del") for i in members for s, _ in paras[i].segs)
            redline = None
            if exists != "both" or a_text != o_text or has_text_change:
                redline = _redline_segs(paras, members, _number_redline(a_num, o_num))
            last = paras[(ag or og or members)[-1]]
            number = a_num if exists != "original" else o_num
            num = last.num.get("accepted" if exists != "original" else "original")
            kind = ("heading" if last.heading else "list_item" if number else "paragraph")
            level = last.heading if last.heading else (num[1] + 1 if number and num else None)
            text = a_text if a_text is not None else o_text
            self._add(members, paras, text=text or "",
                      original=o_text if exists == "both" and o_text != a_text else None,
                      redline=redline, number_text=number, style=self.styles.name(last.style),
                      level=level, exists_in=exists, revisions=tuple(revisions),
                      source_index=paras[members[0]].idx, kind=kind)

    def _row(self, row: _Row) -> None:
        views: dict[View, list[str]] = {"accepted": [], "original": []}
        redlines: list[str] = []
        revisions = list(row.revisions)
        changed = bool(row.state)
        for cell in row.cells:
            for view in VIEWS:
                texts = [self._view_text(cell, g, view)[0] or ""
                         for g in _groups(cell, view, row.state)]
                views[view].append("\n".join(texts))
            members = list(range(len(cell)))
            revisions += self._take_revisions(cell, members)
            changed |= any(s in ("ins", "del") or p.mark for p in cell for s, _ in p.segs)
            changed |= any(p.mark for p in cell)
            redlines.append(_redline_segs(cell, members))
        acc, orig = " | ".join(views["accepted"]), " | ".join(views["original"])
        first = [p for cell in row.cells for p in cell]
        members = list(range(len(first)))
        exists = {"ins": "accepted", "del": "original"}.get(row.state, "both")
        text = orig if exists == "original" else acc
        redline = None
        if row.state == "ins":
            redline = "{+" + acc + "+}"
        elif row.state == "del":
            redline = "[-" + orig + "-]"
        elif changed:
            redline = " | ".join(redlines)
        self._add(members, first, text=text,
                  original=orig if exists == "both" and orig != acc else None,
                  redline=redline, kind="table_row", exists_in=exists,
                  revisions=tuple(revisions),
                  source_index=first[0].idx if first else None)


# --------------------------------------------------------------------------- entry point
def _optional_xml(pkg: OoxmlPackage, part: str | None, problems: list[Problem]
                  ) -> etree._Element | None:
    if part is None or not pkg.has(part):
        return None
    try:
        return pkg.xml(part)
    except ExtractError as exc:
        problems.append(Problem(stage="extract", code="docx_bad_part", severity="warning",
                                message=f"{exc.message}; part ignored", source=pkg.name))
        return None


def _comment_text(reader: _PartReader, comment: etree._Element) -> str:
    units: list[Unit] = []
    reader.blocks(comment, units)
    paras = [p for u in units for p in (u if isinstance(u, list) else
                                         [q for c in u.cells for q in c])]
    return "\n".join(t for p in paras if (t := p.text("accepted")).strip()).strip()


def extract_docx(path: str | Path, *, source_path: str | None = None) -> ContractDocument:
    """Read a .docx into a :class:`ContractDocument` (accepted/original/redline views,
    revisions, comments, rendered list numbers). Raises :class:`ExtractError` naming the file
    when it cannot be read; odd content becomes warnings in ``problems``."""
    name = source_path or str(path)
    problems: list[Problem] = []

    def warn(code: str, message: str) -> None:
        problems.append(Problem(stage="extract", code=code, message=message, source=name,
                                severity="warning"))

    with open_ooxml(path, source_path=name) as pkg:
        doc_part = "word/document.xml"
        root = pkg.xml(doc_part)
        body = root.find(_w("body"))
        if body is None:
            raise ExtractError("word/document.xml has no w:body", source=name)
        rels = pkg.rels(doc_part)
        by_type: dict[str, str] = {}
        for typ, target in rels.values():
            by_type.setdefault(typ.rsplit("/", 1)[-1], target)
        styles = _Styles(_optional_xml(pkg, by_type.get("styles", "word/styles.xml"), problems))
        numbering = _Numbering(
            _optional_xml(pkg, by_type.get("numbering", "word/numbering.xml"), problems), styles)

        blocks: list[DocBlock] = []
        reader = _PartReader(styles, numbering)
        units: list[Unit] = []
        reader.blocks(body, units)
        builder = _Builder("body", numbering, styles)
        builder.build(units)
        blocks += builder.blocks
        readers = [reader]

        extra: list[tuple[str, etree._Element]] = []
        seen: set[str] = set()
        for ref in body.iter(_w("headerReference"), _w("footerReference")):
            rid = ref.get(f"{{{R}}}id")
            if rid in rels and rels[rid][1] not in seen:
                seen.add(rels[rid][1])
                part_root = _optional_xml(pkg, rels[rid][1], problems)
                if part_root is not None:
                    kind = "header" if ref.tag == _w("headerReference") else "footer"
                    extra.append((kind, part_root))
        for kind, fallback in (("footnote", "word/footnotes.xml"),
                               ("endnote", "word/endnotes.xml")):
            part_root = _optional_xml(pkg, by_type.get(kind + "s", fallback), problems)
            if part_root is None:
                continue
            for note in part_root.iter(_w(kind)):
                if note.get(_w("type")) in (None, "normal"):
                    extra.append((kind, note))
        for kind, part_root in extra:
            part_reader = _PartReader(styles, numbering)
            part_units: list[Unit] = []
            part_reader.blocks(part_root, part_units)
            part_builder = _Builder(kind, numbering, styles)
            part_builder.build(part_units)
            for b in part_builder.blocks:
                blocks.append(b.model_copy(update={"index": len(blocks)}))
            readers.append(part_reader)

        comments: list[Comment] = []
        comments_root = _optional_xml(pkg, by_type.get("comments", "word/comments.xml"), problems)
        if comments_root is not None:
            comment_reader = _PartReader(styles, numbering)
            for c in comments_root.iter(_w("comment")):
                cid = c.get(_w("id")) or ""
                anchor = reader.anchors.get(cid)
                anchor_text, block = "", None
                if anchor is not None:
                    anchor_text = "".join(anchor.accepted).strip() or "".join(
                        anchor.original).strip()
                    block = builder.para_block.get(anchor.para)
                comments.append(Comment(id=cid, text=_comment_text(comment_reader, c),
                                        author=c.get(_w("author")), date=c.get(_w("date")),
                                        anchor=anchor_text, block=block))

    symbols = [s for r in readers for s in r.symbols]
    if symbols:
        warn("docx_symbol_skipped", f"{len(symbols)} w:sym symbol character(s) skipped "
             f"(font/char: {', '.join(sorted(set(symbols))[:5])})")
    if any(r.fields for r in readers):
        warn("docx_unbalanced_field", "a complex field is not closed (missing fldChar end)")
    if sum(r.alt_chunks for r in readers):
        warn("docx_alt_chunk", "embedded altChunk content (HTML/RTF) is not read")
    if numbering.missing:
        warn("docx_missing_numbering",
             f"paragraphs refer to undefined numbering {sorted(numbering.missing)}")
    return ContractDocument(source=Source(path=name, sha256=pkg.sha256), format="docx",
                            blocks=tuple(blocks), comments=tuple(comments),
                            problems=tuple(problems))
