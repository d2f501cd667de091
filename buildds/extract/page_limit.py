"""The page-count limit every reader of a paged document checks before reading a page.

:data:`MAX_PAGES` (``--max-pages``) bounds the pages of a PDF and the frames of an image file
alike; :func:`check_page_count` raises :class:`~buildds.errors.LimitExceeded` naming the
option. It lives here, below :mod:`buildds.extract.pdf` and :mod:`buildds.extract.ocr`, so
that both can use it without importing each other.
"""

from __future__ import annotations

from buildds.errors import LimitExceeded
from buildds.safeio import LIMITS

__all__ = ["MAX_PAGES", "check_page_count"]

#: pages of one document read at most (``--max-pages``): every page costs a text pass, and a
#: scan's pages an OCR run each, so a tiny file of 100,000 blank pages must not take hours
MAX_PAGES = LIMITS["pages"].default


def check_page_count(count: int, max_pages: int | None, name: str, what: str = "pages") -> None:
    """Raise :class:`LimitExceeded` (naming ``--max-pages``) when ``count`` is over the limit
    (``None``: no limit)."""
    if max_pages is not None and count > max_pages:
        raise LimitExceeded(f"number of {what}", f"{count:,}", f"{max_pages:,}",
                            option=LIMITS["pages"].option, source=name)
