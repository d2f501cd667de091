"""Cut a contract's blocks into clauses (条 / numbered sections) with provenance.

Input is the document model (:class:`DocBlock`, from a .docx, or one block per PDF line via
:func:`buildds.extract.contracts.blocks_from_pdf`). Blocks carrying a ``bbox`` are *lines*
(PDF, OCR) and are re-joined into paragraphs with :func:`join_wrapped`; blocks without one
are paragraphs (docx), and each ``\\n`` inside them (a ``<w:br/>``) starts a new unit.

Clause boundaries:

* Japanese — an **article heading** is a line ``第N条`` / ``第N条のM`` (N in ASCII, full-width
  or kanji digits, spaces allowed inside: ``第 10 条``) followed by a heading bracket, a space
  / ideographic space, or the end of the line — see :func:`ja_article_heading`. A wrapped
  cross-reference at the start of a line (``第4条第4項、…``, ``第３条の規定により``,
  ``第5条に基づき``, ``第2条 及び…``) is not one. A heading may stand before the number on the
  same line (``（目的）第1条 …``) or alone on the line before it (``（目的）``). Documents
  without any ``第N条`` fall back to numbered headings ``１（見出し）``. ``第N章`` lines are
  chapter clauses (kind ``other``); ``附則`` starts a supplementary clause, ``別紙``/``別表``
  an appendix.
* English — ``ARTICLE II`` / ``Article 3`` when the document has at least two of them,
  otherwise ``1.`` / ``1.0`` / ``Section 2`` headings that start with a capital letter and
  keep the numbering going forward (``last < N <= last + 3``: numbered lists inside a section
  restart at 1 and are not sections); table-of-contents lines (``3.0 OWNERSHIP 8``) are skipped.
* Everything before the first clause is the ``preamble``; in an English one, the recitals
  (``WHEREAS …``, or under ``RECITALS`` / ``BACKGROUND``) are a ``recitals`` clause and
  short title / parties lines before its TOC or filling its first PDF page a ``cover``
  clause (:mod:`.roles`); in the last clause, the first
  signature line (``以上``, ``…を証するため``, ``本書２通``, a date line, ``甲：``/``住所``,
  ``IN WITNESS WHEREOF``) starts the ``signature`` clause.

Text is normalised with :func:`normalize_text` (zero-width characters and Kangxi radicals);
article numbers are read with :func:`to_int_number` on a half-width-digit copy.
``char_span`` indexes :func:`document_text` of the same blocks.

Structure before patterns (:mod:`.structure`): table-of-contents lines never start a clause;
PDF lines that stop short of the column end their unit (and make ``第一条 定義`` a heading
with its body on the next line); without numbered headings, English documents are cut at
their heading-styled (Word) or larger-font (PDF) lines, then at ALL-CAPS lines; a Word
paragraph numbered ``Schedule %1`` is an appendix; an execution block after the schedules is
the signature; a ``Definitions`` / ``Interpretation`` / ``定義`` clause (or one made of
``"X" means …`` lines) has ``role="definitions"`` and keeps its number.
:mod:`buildds.validate.clause_checks` flags what still looks wrong.

The package: :mod:`.lines` (blocks → the lines the rules read, ``document_text``),
:mod:`.structure` (TOC lines, paragraph ends, heading fonts),
:mod:`.japanese` and :mod:`.english` (where clauses start, per language), :mod:`.roles`
(cover, recitals, definitions), :mod:`.split`
(:func:`split_clauses`: starts → :class:`Clause` records).
"""

from buildds.transform.clauses.japanese import ArticleHeading, ja_article_heading
from buildds.transform.clauses.lines import document_text
from buildds.transform.clauses.split import Language, split_clauses

__all__ = [
    "ArticleHeading",
    "Language",
    "document_text",
    "ja_article_heading",
    "split_clauses",
]
