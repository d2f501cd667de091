"""Word (.docx) → blocks with tracked changes, comments and numbering, read from the raw OOXML.

Modules: :mod:`.reader` (:func:`~.reader.extract_docx`), :mod:`.parts`, :mod:`.blocks`,
:mod:`.numbering`, :mod:`.comments`, :mod:`.units`, :mod:`.views`.
"""
