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
:class:`ExtractError` (from :func:`buildds.safeio.archive.open_ooxml`).

This module opens the package and puts the parts together; the work is done by
:mod:`~buildds.extract.docx.parts` (``w:`` elements → raw units, see
:mod:`~buildds.extract.docx.units`), :mod:`~buildds.extract.docx.views` (accepted/original
views, redlines), :mod:`~buildds.extract.docx.blocks` (units → blocks),
:mod:`~buildds.extract.docx.numbering` (list numbers, styles) and
:mod:`~buildds.extract.docx.comments` (comments).
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from buildds.errors import ExtractError
from buildds.extract.docx.blocks import BlockBuilder
from buildds.extract.docx.comments import read_comments
from buildds.extract.docx.numbering import Numbering, Styles
from buildds.extract.docx.parts import PartReader
from buildds.extract.docx.units import Unit
from buildds.safeio.archive import OoxmlPackage, R, open_ooxml, w_tag
from buildds.schema.contracts import Comment, ContractDocument, DocBlock
from buildds.schema.core import Problem, Source

__all__ = ["extract_docx"]


def _optional_xml(pkg: OoxmlPackage, part: str | None, problems: list[Problem]
                  ) -> etree._Element | None:
    """A part's XML, or None when it is missing; an unreadable part is a warning."""
    if part is None or not pkg.has(part):
        return None
    try:
        return pkg.xml(part)
    except ExtractError as exc:
        problems.append(Problem(stage="extract", code="docx_bad_part", severity="warning",
                                message=f"{exc.message}; part ignored", source=pkg.name))
        return None


def _other_parts(pkg: OoxmlPackage, body: etree._Element, rels: dict[str, tuple[str, str]],
                 by_type: dict[str, str], problems: list[Problem]
                 ) -> list[tuple[str, etree._Element]]:
    """Headers and footers the body refers to (each part once), then normal footnotes and
    endnotes, as ``(part kind, element to read)``."""
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
    return extra


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
            _optional_xml(pkg, by_type.get("numbering", "word/numbering.xml"), problems), styles,
            source=name)

        blocks: list[DocBlock] = []
        reader = PartReader(styles, numbering)
        units: list[Unit] = []
        reader.blocks(body, units)
        builder = BlockBuilder("body", numbering, styles)
        builder.build(units)
        blocks += builder.blocks
        readers = [reader]

        for kind, part_root in _other_parts(pkg, body, rels, by_type, problems):
            part_reader = PartReader(styles, numbering)
            part_units: list[Unit] = []
            part_reader.blocks(part_root, part_units)
            part_builder = BlockBuilder(kind, numbering, styles)
            part_builder.build(part_units)
            for b in part_builder.blocks:
                blocks.append(b.model_copy(update={"index": len(blocks)}))
            readers.append(part_reader)

        comments: list[Comment] = []
        comments_root = _optional_xml(pkg, by_type.get("comments", "word/comments.xml"), problems)
        if comments_root is not None:
            comments = read_comments(comments_root, styles, numbering, reader.anchors,
                                     builder.para_block)

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
