"""Every limit on work that an input can multiply, with its default and the option that
raises it. A limit that is hit raises :class:`buildds.errors.LimitExceeded` (or, inside a
per-document stage, becomes that document's problem), whose message names the input, the
value, the limit and how to raise it (:attr:`Limit.how_to_raise`).

Modules read their value from :data:`LIMITS` so that the README's table, ``--help``,
``buildds limits`` and the code cannot disagree. Every limit can be set for a run with the
environment variable ``BUILDDS_LIMITS`` (``name=value,name=value``; values are whole
numbers, ``_`` allowed, or with a K/M/G suffix for powers of 1024), read when this module
is imported, so worker processes see the same values; the common ones also have a command
option (``--max-pages`` …), which wins for that command.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace

__all__ = ["ENV_VAR", "LIMITS", "OVERRIDE_ERRORS", "Limit", "parse_overrides"]

ENV_VAR = "BUILDDS_LIMITS"


@dataclass(frozen=True)
class Limit:
    name: str
    default: int
    unit: str
    option: str | None
    what: str

    @property
    def how_to_raise(self) -> str:
        """The command option when there is one, else the environment setting."""
        return self.option or f"{ENV_VAR}={self.name}=N"


_ALL = [
    Limit("json_depth", 64, "levels", None, "nesting depth of one JSON value"),
    Limit("json_number_digits", 100, "digits", None, "digits of one JSON number"),
    Limit("yaml_depth", 64, "levels", None, "nesting depth of a YAML file"),
    Limit("side_file_bytes", 64 * 1024 * 1024, "bytes", None,
          "bytes of one manifest, corrections, annotations, labels, rejects, profile or "
          "previous report file"),
    # eval (evaluate/backends/http_transport/, evaluate/tasks/highbar/files.py)
    Limit("response_bytes", 16 * 1024 * 1024, "bytes", "--max-response-bytes",
          "bytes of one HTTP response from a model endpoint (decoded)"),
    Limit("document_bytes", 64 * 1024 * 1024, "bytes", "--max-document-bytes",
          "bytes of one High Bar task-set file (document, YAML, instructions)"),
    Limit("line_bytes", 16 * 1024 * 1024, "bytes", "--max-line-bytes",
          "bytes of one line of a JSON-lines input (one record)"),
    # statutes (laws/readers/, laws/articles.py)
    Limit("statute_articles", 20_000, "articles", None,
          "articles of one statute file (a 削除 range 第N条から第M条まで counts each)"),
    # documents (safeio/archive.py, extract/docx/numbering.py, extract/pdf/, extract/ocr/images.py)
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

_SUFFIX = {"": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}
_VALUE_RE = re.compile(r"^\s*([0-9][0-9_]*)\s*([KMG]?)(?:I?B)?\s*$", re.IGNORECASE)


def parse_overrides(text: str, known: dict[str, Limit]) -> tuple[dict[str, int], list[str]]:
    """``name=value`` pairs of :data:`ENV_VAR` → (values, errors naming each bad pair)."""
    values: dict[str, int] = {}
    errors: list[str] = []
    for pair in filter(None, (p.strip() for p in text.split(","))):
        name, sep, raw = pair.partition("=")
        name = name.strip()
        match = _VALUE_RE.match(raw)
        if not sep or name not in known:
            errors.append(f"{pair!r}: not NAME=VALUE with a known limit name "
                          f"({', '.join(sorted(known))})")
        elif not match or int(match.group(1).replace("_", "") or 0) < 1:
            errors.append(f"{pair!r}: the value must be a whole number of at least 1 "
                          "(K/M/G suffixes allowed)")
        else:
            values[name] = int(match.group(1).replace("_", "")) * _SUFFIX[match.group(2).upper()]
    return values, errors


_DEFAULTS: dict[str, Limit] = {lim.name: lim for lim in _ALL}
_OVERRIDES, OVERRIDE_ERRORS = parse_overrides(os.environ.get(ENV_VAR, ""), _DEFAULTS)

#: every limit with the value in force for this process (default, or from BUILDDS_LIMITS)
LIMITS: dict[str, Limit] = {name: replace(lim, default=_OVERRIDES.get(name, lim.default))
                            for name, lim in _DEFAULTS.items()}
#: the built-in defaults, whatever BUILDDS_LIMITS says
DEFAULTS = _DEFAULTS
