"""Raw units of one Word part → :class:`DocBlock` records.

:class:`BlockBuilder` renders list numbers counted separately in each view, makes one block
per paragraph group that exists in both views (or a block with ``exists_in`` set for a group
of one view only) and one ``table_row`` block per row (cell texts joined by ``" | "``), each
with its accepted ``text``, ``original``, ``redline`` and :class:`Revision` records; the
changes of an empty paragraph go to the next block.

Split from :mod:`buildds.extract.docx.reader`.
"""

from __future__ import annotations

from buildds.errors import LimitExceeded
from buildds.extract.docx.numbering import Counters, Numbering, Styles, join_number
from buildds.extract.docx.units import Para, Row, Unit
from buildds.extract.docx.views import number_redline, pair_groups, redline_text, view_groups
from buildds.safeio.archive import VIEWS, View
from buildds.schema.contracts import DocBlock, Revision

__all__ = ["BlockBuilder"]


class BlockBuilder:
    """Turns one part's units into :class:`DocBlock` records (``blocks``), remembering which
    block each raw paragraph went into (``para_block``, for comment anchors)."""

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
                    for g in view_groups(paras, view, row_state):
                        last = paras[g[-1]]
                        num = last.num.get(view)
                        try:
                            text = self.numbering.render(num[0], num[1], state) if num else None
                        except LimitExceeded as exc:  # name the paragraph
                            exc.message = f"{self.part} paragraph {last.idx + 1}: {exc.message}"
                            raise
                        self.numbers[(view, last.idx)] = text

    def _view_text(self, paras: list[Para], group: list[int] | None, view: View
                   ) -> tuple[str | None, str | None]:
        if group is None:
            return None, None
        number = self.numbers.get((view, paras[group[-1]].idx))
        return join_number(number, "".join(paras[i].text(view) for i in group)), number

    def _take_revisions(self, paras: list[Para], members: list[int]) -> list[Revision]:
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

    def _add(self, members: list[int], paras: list[Para], **kw: object) -> None:
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

    def _paragraphs(self, paras: list[Para]) -> None:
        acc, orig = view_groups(paras, "accepted"), view_groups(paras, "original")
        for _, ga, go in pair_groups(paras, acc, orig):
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
                redline = redline_text(paras, members, number_redline(a_num, o_num))
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

    def _row(self, row: Row) -> None:
        views: dict[View, list[str]] = {"accepted": [], "original": []}
        redlines: list[str] = []
        revisions = list(row.revisions)
        changed = bool(row.state)
        for cell in row.cells:
            for view in VIEWS:
                texts = [self._view_text(cell, g, view)[0] or ""
                         for g in view_groups(cell, view, row.state)]
                views[view].append("\n".join(texts))
            members = list(range(len(cell)))
            revisions += self._take_revisions(cell, members)
            changed |= any(s in ("ins", "del") or p.mark for p in cell for s, _ in p.segs)
            changed |= any(p.mark for p in cell)
            redlines.append(redline_text(cell, members))
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
