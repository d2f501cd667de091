"""The raw units a Word part is read into, before views are built.

A :class:`Para` is one ``w:p`` as a list of text segments, each tagged with its tracked-change
state (``""`` unchanged, ``"ins"``, ``"del"``, ``"gone"`` = inserted and deleted), plus its
paragraph-mark change, style, numbering per view, heading level and :class:`Revision` records.
A :class:`Row` is one table row of cells of paragraphs; a :class:`Unit` is a run of body
paragraphs or one row. :class:`CommentAnchor` collects the text a comment range covers.

Split from :mod:`buildds.extract.docx.reader`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from buildds.safeio.archive import View, w_tag
from buildds.schema.contracts import Revision

__all__ = ["CommentAnchor", "Para", "Row", "Seg", "Unit", "revision"]

Seg = tuple[str, str]  # (state, text); state "" | "ins" | "del" | "gone"


@dataclass
class Para:
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
class Row:
    cells: list[list[Para]]
    state: str = ""
    revisions: list[Revision] = field(default_factory=list)


Unit = list[Para] | Row


def revision(kind: str, el: etree._Element, text: str = "") -> Revision:
    """A :class:`Revision` of ``kind`` with the author, date and id of the change element."""
    return Revision(kind=kind, text=text, author=el.get(w_tag("author")),  # type: ignore[arg-type]
                    date=el.get(w_tag("date")), id=el.get(w_tag("id")))


@dataclass
class CommentAnchor:
    para: int
    accepted: list[str] = field(default_factory=list)
    original: list[str] = field(default_factory=list)
