"""Contracts in any format a lawyer hands over → :class:`~buildds.schema.contracts.ContractDocument`.

Modules: :mod:`.reader` (dispatch on what the bytes are, a batch of files), :mod:`.pdf`,
:mod:`.image`, :mod:`.odt`, :mod:`.ocr_pool` (OCR of scanned pages across documents),
:mod:`.filetype`, :mod:`.confidence`, :mod:`.errors`.
"""
