"""PDF bookmarks → heading blocks (:mod:`buildds.extract.contracts.outline`)."""

from __future__ import annotations

from pathlib import Path

from buildds.extract.contracts.outline import mark_outline_headings, outline_entries
from buildds.schema.contracts import DocBlock


def outlined_pdf(path: Path) -> Path:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    c = Canvas(str(path), pagesize=A4, invariant=1)
    c.drawString(72, 780, "Scope")
    c.bookmarkHorizontal("a", 72, 790)
    c.addOutlineEntry("Scope", "a", level=0)
    c.showPage()
    c.drawString(72, 780, "1.1 Details")
    c.bookmarkHorizontal("b", 72, 790)
    c.addOutlineEntry("1.1 Details", "b", level=1)
    c.save()
    return path


def test_entries_and_marks(tmp_path: Path) -> None:
    pdf = outlined_pdf(tmp_path / "o.pdf")
    assert outline_entries(pdf) == [(1, 1, "Scope"), (2, 2, "1.1 Details")]
    blocks = [DocBlock(index=0, text="Scope", page=1), DocBlock(index=1, text="Scope", page=2),
              DocBlock(index=2, text="1.1  Details", page=2)]
    marked = mark_outline_headings(blocks, pdf)
    assert [(b.kind, b.level) for b in marked] == [("heading", 1), ("paragraph", None),
                                                    ("heading", 2)]


def test_no_outline_or_unreadable(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4 nonsense %%EOF")
    blocks = [DocBlock(index=0, text="Scope", page=1)]
    assert outline_entries(bad) == []
    assert mark_outline_headings(blocks, bad) == blocks
