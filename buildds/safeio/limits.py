"""Every limit on work that an input can multiply, with its default and the option that
raises it. A limit that is hit raises :class:`buildds.errors.LimitExceeded` (or, inside a
per-document stage, becomes that document's problem), whose message names the input, the
value, the limit and the option.

Modules read their default from :data:`LIMITS` so that the README's table, ``--help`` and
the code cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LIMITS", "Limit"]


@dataclass(frozen=True)
class Limit:
    name: str
    default: int
    unit: str
    option: str | None
    what: str


_ALL = [
    Limit("json_depth", 64, "levels", None, "nesting depth of one JSON value"),
    Limit("json_number_digits", 100, "digits", None, "digits of one JSON number"),
    Limit("side_file_bytes", 64 * 1024 * 1024, "bytes", None,
          "bytes of one manifest, corrections, annotations, rejects or profile file"),
    # eval (evaluate/backends/http_transport.py, evaluate/tasks/highbar/taskset.py)
    Limit("response_bytes", 16 * 1024 * 1024, "bytes", "--max-response-bytes",
          "bytes of one HTTP response from a model endpoint (decoded)"),
    Limit("document_bytes", 64 * 1024 * 1024, "bytes", "--max-document-bytes",
          "bytes of one High Bar task-set file (document, YAML, instructions)"),
    Limit("line_bytes", 16 * 1024 * 1024, "bytes", "--max-line-bytes",
          "bytes of one line of a JSON-lines input (one record)"),
    # documents (extract/archive.py, docx_numbering.py, pdf.py, ocr_pdf.py, ocr_images.py)
    Limit("archive_members", 10_000, "members", None, "members of one .docx/.odt zip"),
    Limit("archive_total_bytes", 200 * 1024 * 1024, "bytes", None,
          "uncompressed bytes of all members of one .docx/.odt zip"),
    Limit("archive_member_bytes", 100 * 1024 * 1024, "bytes", None,
          "uncompressed bytes of one member of a .docx/.odt zip"),
    Limit("archive_ratio", 100, "times", None,
          "expansion of one zip member of 1 MiB or more (uncompressed / compressed)"),
    Limit("numbering_value", 1_000_000, "", None, "value of a Word list number"),
    Limit("numbering_level", 8, "", None, "level (w:ilvl) of a Word list number (0-8)"),
    Limit("numbering_chars", 100, "characters", None, "length of one rendered list number"),
    Limit("page_pixels", 50_000_000, "pixels", None, "pixels of one page rendered for OCR"),
    Limit("pages", 1_000, "pages", "--max-pages", "pages (or image frames) of one document"),
]

LIMITS: dict[str, Limit] = {lim.name: lim for lim in _ALL}
