"""Word comments (``word/comments.xml``) → :class:`Comment` records.

Each comment gets its own text (accepted view, one line per non-empty paragraph), its author
and date, and — when the body marks its range — the text it is anchored to (accepted view,
else original) and the index of the body block where the range starts.

Split from :mod:`buildds.extract.docx.reader`.
"""

from __future__ import annotations

from lxml import etree

from buildds.extract.docx.numbering import Numbering, Styles
from buildds.extract.docx.parts import PartReader
from buildds.extract.docx.units import CommentAnchor, Unit
from buildds.safeio.archive import w_tag
from buildds.schema.contracts import Comment

__all__ = ["comment_text", "read_comments"]


def comment_text(reader: PartReader, comment: etree._Element) -> str:
    """The accepted text of one ``w:comment``, its non-empty paragraphs joined by newlines."""
    units: list[Unit] = []
    reader.blocks(comment, units)
    paras = [p for u in units for p in (u if isinstance(u, list) else
                                         [q for c in u.cells for q in c])]
    return "\n".join(t for p in paras if (t := p.text("accepted")).strip()).strip()


def read_comments(comments_root: etree._Element, styles: Styles, numbering: Numbering,
                  anchors: dict[str, CommentAnchor], para_block: dict[int, int]
                  ) -> list[Comment]:
    """Every ``w:comment`` of the comments part, anchored through the body reader's
    ``anchors`` (comment id → covered text) and the body builder's ``para_block``."""
    comments: list[Comment] = []
    comment_reader = PartReader(styles, numbering)
    for c in comments_root.iter(w_tag("comment")):
        cid = c.get(w_tag("id")) or ""
        anchor = anchors.get(cid)
        anchor_text, block = "", None
        if anchor is not None:
            anchor_text = "".join(anchor.accepted).strip() or "".join(
                anchor.original).strip()
            block = para_block.get(anchor.para)
        comments.append(Comment(id=cid, text=comment_text(comment_reader, c),
                                author=c.get(w_tag("author")), date=c.get(w_tag("date")),
                                anchor=anchor_text, block=block))
    return comments
