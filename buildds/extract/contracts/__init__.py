"""Contracts in any format a lawyer hands over →
:class:`~buildds.schema.contracts.ContractDocument`.

Modules, each importing only those after it: :mod:`.reader` (a batch of files, serial or in
one pool), :mod:`.ocr_pool` (OCR of scanned pages across the documents of a batch),
:mod:`.document` (one file: dispatch on what its bytes are), :mod:`.pdf` (text and scanned
PDFs, PDF lines → blocks), :mod:`.image`, :mod:`.odt`, :mod:`.filetype`, :mod:`.confidence`,
:mod:`.errors`.
"""

from buildds.extract.contracts.confidence import LOW_CONFIDENCE
from buildds.extract.contracts.document import read_document
from buildds.extract.contracts.filetype import IMAGE_SUFFIXES, SUPPORTED_SUFFIXES
from buildds.extract.contracts.pdf import blocks_from_pdf
from buildds.extract.contracts.reader import read_documents

__all__ = [
    "IMAGE_SUFFIXES",
    "LOW_CONFIDENCE",
    "SUPPORTED_SUFFIXES",
    "blocks_from_pdf",
    "read_document",
    "read_documents",
]
