"""Japanese bar-exam booklets and answer keys (PDF) → structured questions and answer rows.

Modules:

- :mod:`.raw` — :func:`discover_exam_files`: the booklet and key of each requested year and
  subject under a raw folder, checked against its manifest;
- :mod:`.header` — what a booklet or key prints about itself (subject, year) and
  :func:`check_printed` against its path;
- :mod:`.booklet` — :func:`parse_booklet`: questions, their stems and answer slots;
- :mod:`.body` — the lines after a stem → statements, views, lead-ins and options;
- :mod:`.answers` — :func:`parse_answer_key`: the key's table read by position;
- :mod:`.key_checks` — :func:`reconcile` and :func:`check_points`: the key is the booklet's.
"""

from __future__ import annotations

from buildds.extract.jbe.answers import parse_answer_key
from buildds.extract.jbe.booklet import parse_booklet
from buildds.extract.jbe.header import (
    PrintedHeader,
    check_printed,
    read_booklet_header,
    read_key_header,
)
from buildds.extract.jbe.key_checks import check_points, reconcile
from buildds.extract.jbe.raw import FIRST_YEAR, ExamFiles, discover_exam_files

__all__ = [
    "FIRST_YEAR",
    "ExamFiles",
    "PrintedHeader",
    "check_points",
    "check_printed",
    "discover_exam_files",
    "parse_answer_key",
    "parse_booklet",
    "read_booklet_header",
    "read_key_header",
    "reconcile",
]
