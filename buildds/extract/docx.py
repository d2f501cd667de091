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

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from buildds.errors import ExtractError
from buildds.extract.archive import (
    VIEWS,
    M,
    OoxmlPackage,
    R,
    View,
    W,
    local_name,
    open_ooxml,
    w_tag,
    w_val,
)
from buildds.extract.docx_numbering import Counters, Numbering, Styles, format_number, join_number
from buildds.schema.contracts import Comment, ContractDocument, DocBlock, Revision
from buildds.schema.core import Problem, Source

__all__ = ["extract_docx", "format_number"]

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
    return Revision(kind=kind, text=text, author=el.get(w_tag("author")),  # type: ignore[arg-type]
                    date=el.get(w_tag("date")), id=el.get(w_tag("id")))


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

    def __init__(self, styles: Styles, numbering: Numbering):
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
            _, tag = local_name(child)
            if tag == "tr":
                yield child
            elif tag in ("sdt", "sdtContent", "customXml"):
                yield from self._rows(child)

    def _cells(self, tr: etree._Element) -> Iterator[etree._Element]:
        for child in tr:
            _, tag = local_name(child)
            if tag == "tc":
                yield child
            elif tag in ("sdt", "sdtContent", "customXml"):
                yield from self._cells(child)

    def row(self, tr: etree._Element, units: list[Unit]) -> _Row:
        row = _Row(cells=[])
        trpr = tr.find(w_tag("trPr"))
        if trpr is not None:
            for tag, state, kind in (("ins", "ins", "row_inserted"), ("del", "del", "row_deleted")):
                el = trpr.find(w_tag(tag))
                if el is not None:
                    row.state = state
                    row.revisions.append(_revision(kind, el))
            if trpr.find(w_tag("trPrChange")) is not None:
                row.revisions.append(_revision("formatting", trpr.find(w_tag("trPrChange"))))
        for tc in self._cells(tr):
            paras: list[_Para] = []
            self.blocks(tc, units, paras)
            row.cells.append(paras)
        return row

    # ---- paragraph level
    def para(self, p: etree._Element) -> _Para:
        para = _Para(idx=self.count)
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
                        para.revisions.append(_revision(kind, el))
                change = rpr.find(w_tag("rPrChange"))
                if change is not None:
                    para.revisions.append(_revision("formatting", change))
            change = ppr.find(w_tag("pPrChange"))
            if change is not None:
                para.revisions.append(_revision("formatting", change))
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
            outline = w_val(ppr.find(w_tag("outlineLvl")))
            if outline is not None and outline.isdigit() and int(outline) < 9:
                return int(outline) + 1
        sid = w_val(ppr.find(w_tag("pStyle"))) if ppr is not None else None
        return self.styles.heading_level(sid or self.styles.default)

    def _inline(self, el: etree._Element, para: _Para, ins: bool, dele: bool) -> None:
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
            para.revisions.append(_revision(kind, el, text))
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
            anchor = _Anchor(para=self.count if para is None else para)
            self.open_comments[cid] = anchor
            self.anchors.setdefault(cid, anchor)
        else:
            self.open_comments.pop(cid, None)

    def _run(self, r: etree._Element, para: _Para, ins: bool, dele: bool) -> None:
        for child in r:
            ns, tag = local_name(child)
            if ns != W:
                continue
            if tag == "rPr":
                change = child.find(w_tag("rPrChange"))
                if change is not None:
                    para.revisions.append(_revision("formatting", change))
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
        return [("", join_number(acc, ""))]
    return [("del", join_number(orig, "")), ("ins", join_number(acc, ""))]


class _Builder:
    def __init__(self, part: str, numbering: Numbering, styles: Styles):
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
            state = Counters()
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
        return join_number(number, "".join(paras[i].text(view) for i in group)), number

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
        body = root.find(w_tag("body"))
        if body is None:
            raise ExtractError("word/document.xml has no w:body", source=name)
        rels = pkg.rels(doc_part)
        by_type: dict[str, str] = {}
        for typ, target in rels.values():
            by_type.setdefault(typ.rsplit("/", 1)[-1], target)
        styles = Styles(_optional_xml(pkg, by_type.get("styles", "word/styles.xml"), problems))
        numbering = Numbering(
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
        for ref in body.iter(w_tag("headerReference"), w_tag("footerReference")):
            rid = ref.get(f"{{{R}}}id")
            if rid in rels and rels[rid][1] not in seen:
                seen.add(rels[rid][1])
                part_root = _optional_xml(pkg, rels[rid][1], problems)
                if part_root is not None:
                    kind = "header" if ref.tag == w_tag("headerReference") else "footer"
                    extra.append((kind, part_root))
        for kind, fallback in (("footnote", "word/footnotes.xml"),
                               ("endnote", "word/endnotes.xml")):
            part_root = _optional_xml(pkg, by_type.get(kind + "s", fallback), problems)
            if part_root is None:
                continue
            for note in part_root.iter(w_tag(kind)):
                if note.get(w_tag("type")) in (None, "normal"):
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
            for c in comments_root.iter(w_tag("comment")):
                cid = c.get(w_tag("id")) or ""
                anchor = reader.anchors.get(cid)
                anchor_text, block = "", None
                if anchor is not None:
                    anchor_text = "".join(anchor.accepted).strip() or "".join(
                        anchor.original).strip()
                    block = builder.para_block.get(anchor.para)
                comments.append(Comment(id=cid, text=_comment_text(comment_reader, c),
                                        author=c.get(w_tag("author")), date=c.get(w_tag("date")),
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
