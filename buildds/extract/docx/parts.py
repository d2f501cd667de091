"""Walks one Word part (document body, header, footer, footnote, comment …) into raw units.

:class:`PartReader` reads the ``w:`` elements python-docx hides: paragraphs and table rows in
document order (rows inside table cells flattened into the cell), run text with its
tracked-change state (``w:ins``/``w:del``, ``w:moveTo``/``w:moveFrom``, inserted/deleted
paragraph marks and table rows, property changes → :class:`Revision` records), the displayed
result of fields (never their code), ``w:tab``/``w:br`` as ``"\\t"``/``"\\n"``, math text,
and the text each comment range covers. Skipped ``w:sym`` characters, unclosed fields and
``w:altChunk`` parts are counted for the caller's warnings.

Split from :mod:`buildds.extract.docx.reader`.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from buildds.extract.docx.numbering import Numbering, Styles, xml_int
from buildds.extract.docx.units import CommentAnchor, Para, Row, Unit, revision
from buildds.safeio.archive import M, W, local_name, w_tag, w_val

__all__ = ["PartReader"]


def _children(parent: etree._Element, wanted: str) -> Iterator[etree._Element]:
    """The ``wanted`` children (``tr`` of a table, ``tc`` of a row), looking through content
    controls and custom XML wrapped around them."""
    for child in parent:
        _, tag = local_name(child)
        if tag == wanted:
            yield child
        elif tag in ("sdt", "sdtContent", "customXml"):
            yield from _children(child, wanted)


class PartReader:
    """Walks one part (document body, header, footnotes …) into units of raw paragraphs."""

    _CONTAINERS: frozenset[str] = frozenset({"sdt", "sdtContent", "customXml", "smartTag", "ins",
                                             "del", "moveTo", "moveFrom"})
    _INLINE_CONTAINERS: frozenset[str] = frozenset({"hyperlink", "smartTag", "customXml", "sdt",
                                                    "sdtContent", "fldSimple", "dir", "bdo"})

    def __init__(self, styles: Styles, numbering: Numbering):
        self.styles = styles
        self.numbering = numbering
        self.count = 0
        self.fields: list[bool] = []
        self.open_comments: dict[str, CommentAnchor] = {}
        self.anchors: dict[str, CommentAnchor] = {}
        self.symbols: list[str] = []
        self.alt_chunks = 0

    # ---- block level
    def blocks(self, container: etree._Element, units: list[Unit],
               cell: list[Para] | None = None) -> None:
        for child in container:
            ns, tag = local_name(child)
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
                for tr in _children(child, "tr"):
                    if cell is not None:
                        for tc in _children(tr, "tc"):
                            self.blocks(tc, units, cell)
                    else:
                        units.append(self.row(tr, units))
            elif tag in self._CONTAINERS:
                self.blocks(child, units, cell)
            elif tag in ("commentRangeStart", "commentRangeEnd"):
                self._comment_marker(tag, child)
            elif tag == "altChunk":
                self.alt_chunks += 1

    def row(self, tr: etree._Element, units: list[Unit]) -> Row:
        row = Row(cells=[])
        trpr = tr.find(w_tag("trPr"))
        if trpr is not None:
            for tag, state, kind in (("ins", "ins", "row_inserted"), ("del", "del", "row_deleted")):
                el = trpr.find(w_tag(tag))
                if el is not None:
                    row.state = state
                    row.revisions.append(revision(kind, el))
            if trpr.find(w_tag("trPrChange")) is not None:
                row.revisions.append(revision("formatting", trpr.find(w_tag("trPrChange"))))
        for tc in _children(tr, "tc"):
            paras: list[Para] = []
            self.blocks(tc, units, paras)
            row.cells.append(paras)
        return row

    # ---- paragraph level
    def para(self, p: etree._Element) -> Para:
        para = Para(idx=self.count)
        self.count += 1
        ppr = p.find(w_tag("pPr"))
        para.style = w_val(ppr.find(w_tag("pStyle"))) if ppr is not None else None
        para.num["accepted"] = self._numpr(ppr)
        para.num["original"] = para.num["accepted"]
        para.heading = self._heading(ppr)
        if ppr is not None:
            rpr = ppr.find(w_tag("rPr"))
            if rpr is not None:
                for tag, mark, kind in (("ins", "ins", "paragraph_mark_inserted"),
                                        ("moveTo", "ins", "paragraph_mark_inserted"),
                                        ("del", "del", "paragraph_mark_deleted"),
                                        ("moveFrom", "del", "paragraph_mark_deleted")):
                    el = rpr.find(w_tag(tag))
                    if el is not None and not para.mark:
                        para.mark = mark
                        para.revisions.append(revision(kind, el))
                change = rpr.find(w_tag("rPrChange"))
                if change is not None:
                    para.revisions.append(revision("formatting", change))
            change = ppr.find(w_tag("pPrChange"))
            if change is not None:
                para.revisions.append(revision("formatting", change))
                old = change.find(w_tag("pPr"))
                para.num["original"] = self._numpr(old if old is not None else etree.Element(w_tag("pPr")))
        for child in p:
            if local_name(child) != (W, "pPr"):
                self._inline(child, para, False, False)
        for anchor in self.open_comments.values():
            anchor.accepted.append("\n")
            anchor.original.append("\n")
        return para

    def _numpr(self, ppr: etree._Element | None) -> tuple[str, int] | None:
        sid = w_val(ppr.find(w_tag("pStyle"))) if ppr is not None else None
        sid = sid or self.styles.default
        numpr = ppr.find(w_tag("numPr")) if ppr is not None else None
        nid = ilvl_s = None
        if numpr is not None:
            nid = w_val(numpr.find(w_tag("numId")))
            ilvl_s = w_val(numpr.find(w_tag("ilvl")))
        ilvl = xml_int(ilvl_s)
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
            outline = w_val(ppr.find(w_tag("outlineLvl")))
            level = xml_int(outline)
            if level is not None and level < 9:
                return level + 1
        sid = w_val(ppr.find(w_tag("pStyle"))) if ppr is not None else None
        return self.styles.heading_level(sid or self.styles.default)

    def _inline(self, el: etree._Element, para: Para, ins: bool, dele: bool) -> None:
        ns, tag = local_name(el)
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
            para.revisions.append(revision(kind, el, text))
        elif tag in self._INLINE_CONTAINERS:
            for child in el:
                self._inline(child, para, ins, dele)
        elif tag in ("commentRangeStart", "commentRangeEnd"):
            self._comment_marker(tag, el, para.idx)

    def _comment_marker(self, tag: str, el: etree._Element, para: int | None = None) -> None:
        cid = el.get(w_tag("id"))
        if cid is None:
            return
        if tag == "commentRangeStart":
            anchor = CommentAnchor(para=self.count if para is None else para)
            self.open_comments[cid] = anchor
            self.anchors.setdefault(cid, anchor)
        else:
            self.open_comments.pop(cid, None)

    def _run(self, r: etree._Element, para: Para, ins: bool, dele: bool) -> None:
        for child in r:
            ns, tag = local_name(child)
            if ns != W:
                continue
            if tag == "rPr":
                change = child.find(w_tag("rPrChange"))
                if change is not None:
                    para.revisions.append(revision("formatting", change))
            elif tag == "fldChar":
                kind = child.get(w_tag("fldCharType"))
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
                self.symbols.append(f"{child.get(w_tag('font'))} {child.get(w_tag('char'))}")

    def _emit(self, para: Para, text: str, ins: bool, dele: bool) -> None:
        if not text:
            return
        state = "gone" if ins and dele else "ins" if ins else "del" if dele else ""
        para.segs.append((state, text))
        for anchor in self.open_comments.values():
            if state in ("", "ins"):
                anchor.accepted.append(text)
            if state in ("", "del"):
                anchor.original.append(text)
