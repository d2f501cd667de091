"""Word (.docx) → blocks with tracked changes, comments and numbering, read from the raw OOXML.

Modules:

- :mod:`.reader` — :func:`extract_docx`: opens the package and puts the parts together;
- :mod:`.parts` — ``w:`` elements → raw units (:mod:`.units`: paragraphs, rows, segments);
- :mod:`.views` — the accepted and original views of the units, and their redlines;
- :mod:`.blocks` — units → :class:`~buildds.schema.contracts.DocBlock` records;
- :mod:`.numbering` — Word list numbering and styles (:func:`format_number`);
- :mod:`.comments` — the comments part.
"""

from __future__ import annotations

from buildds.extract.docx.numbering import format_number
from buildds.extract.docx.reader import extract_docx

__all__ = ["extract_docx", "format_number"]
