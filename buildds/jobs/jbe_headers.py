"""What a booklet and its key print about themselves, checked against their paths.

Part of ``buildds jbe`` (:mod:`buildds.jobs.jbe`): before a booklet and a key are paired,
each file's printed subject and year must be what its path says (and its partner's).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from buildds.schema import SUBJECTS, PdfDocument, Problem
from buildds.schema.jbe_build import PrintedTitles

if TYPE_CHECKING:
    from buildds.extract.jbe.header import PrintedHeader

__all__ = ["check_printed_pair", "read_headers", "titles"]


def titles(header: PrintedHeader) -> PrintedTitles:
    return PrintedTitles(subjects=header.subjects, years=header.years, page=header.page,
                         text=header.text)


def read_headers(doc: PdfDocument,
                 key_doc: PdfDocument) -> tuple[PrintedHeader, PrintedHeader]:
    """What the booklet and the key print about themselves (subject, year)."""
    from buildds.extract.jbe.header import read_booklet_header, read_key_header

    return read_booklet_header(doc), read_key_header(key_doc)


def check_printed_pair(year: int, subject_key: str, names: tuple[str, str],
                       booklet: PrintedHeader, key: PrintedHeader) -> list[Problem]:
    """Each file's printed subject and year against its path (and its partner's);
    ``names``: the booklet's and the key's paths as reported."""
    from buildds.extract.jbe.header import check_printed

    subject = SUBJECTS[subject_key]
    return [*check_printed(booklet, kind="booklet", source=names[0], year=year,
                           subject=subject, other=key),
            *check_printed(key, kind="key", source=names[1], year=year,
                           subject=subject, other=booklet)]
