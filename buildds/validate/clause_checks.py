"""Every clause checked: what a clause table (one document's :class:`Clause` list) looks like
when the splitter went wrong, as :class:`~buildds.schema.clause_flags.ClauseFlag` records.

``buildds contracts`` lists the flags per document in ``report.md`` / ``report.json`` and
``--strict`` fails on any. The checks (:func:`check_clauses`):

=======================  ==================================================================
code                     when
=======================  ==================================================================
``empty_clause``         an article / section / appendix / 附則 with no body text
``toc_like``             a clause whose heading or lines look like a table of contents: a
                         dot leader with a page number, or most lines ending in a page
                         number (``Definitions\\t3``)
``too_long``             a clause longer than :data:`LONG_RATIO` × the document's median
                         clause **and** than :data:`LONG_MIN_CHARS` characters (the whole
                         agreement landing in one clause)
``numbering_gap``        article (or section) numbers that skip: 第1条 then 第3条, or the
                         first one is not 1 (article 1 fell into the preamble)
``numbering_duplicate``  the same article (section) number twice (two 第2条)
``outside_clause``       the cover, preamble, recitals or signature holding lines that look
                         like clause headings (``第5条…``, ``5. Term``), or a non-clause part (kind
                         ``other``) with text in a document that has clauses
``no_clauses``           a document of more than :data:`NO_CLAUSE_MIN_CHARS` characters in
                         which no clause was found
=======================  ==================================================================

Branch articles (``第N条のM``) are not part of the numbering sequence. The constants were set
on ../shared/realdata/contracts: real clause bodies run to a few thousand characters, so a
clause only counts as "far longer" at ten times the median and over 5,000 characters.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from buildds.schema.clause_flags import ClauseFlag, ClauseFlagCode
from buildds.schema.contracts import Clause

__all__ = ["LONG_MIN_CHARS", "LONG_RATIO", "NO_CLAUSE_MIN_CHARS", "check_clauses", "flags_markdown"]

#: a clause is far longer than usual above LONG_RATIO × the document's median …
LONG_RATIO = 10.0
#: … and above this many characters
LONG_MIN_CHARS = 5000
#: a document this long without any clause is flagged
NO_CLAUSE_MIN_CHARS = 1000

_NUMBERED = ("article", "section")
_BODY_KINDS = ("article", "section", "appendix", "supplementary")
_DOT_LEADER = re.compile(r"(?:[.．·・…‥_]\s*){4,}\s*[0-9ivxlc]{1,4}$", re.IGNORECASE)
_ENDS_PAGE = re.compile(r"(?:\t|\s{2,}|\s)[0-9]{1,3}$")
_HEADING_LIKE = re.compile(
    r"^(?:第\s*[0-9０-９一二三四五六七八九十百]+\s*条(?:\s|[（(【]|$)"
    r"|(?:ARTICLE|Article|SECTION|Section)\s+[0-9IVXL]+\b"
    r"|[0-9]{1,2}\.\s+[A-Z][A-Za-z]+(?:\s+[A-Za-z]+){0,5}\.?$)"
)


def _flag(source: str, code: ClauseFlagCode, message: str, k: int | None = None,
          clause: Clause | None = None) -> ClauseFlag:
    return ClauseFlag(source=source, code=code, message=message, clause=k,
                      number_text=clause.number_text if clause else None,
                      page=clause.page if clause else None,
                      paragraph=clause.block_start + 1 if clause else None)


def _toc_like(clause: Clause) -> bool:
    if clause.heading and (_DOT_LEADER.search(clause.heading.strip())
                           or re.search(r"\t\s*[0-9]{1,3}$", clause.heading)):
        return True
    lines = [ln.strip() for ln in clause.text.splitlines() if ln.strip()]
    if any(_DOT_LEADER.search(ln) for ln in lines):
        return True
    paged = [ln for ln in lines if len(ln) <= 100 and _ENDS_PAGE.search(ln)]
    return len(lines) >= 3 and len(paged) >= 0.6 * len(lines)


def _numbering(source: str, clauses: Sequence[Clause]) -> list[ClauseFlag]:
    flags: list[ClauseFlag] = []
    for kind in _NUMBERED:
        seen: set[int] = set()
        last: int | None = None
        for k, c in enumerate(clauses):
            if c.kind != kind or c.number is None or "の" in (c.number_text or ""):
                continue
            if c.number in seen:
                flags.append(_flag(source, "numbering_duplicate",
                                   f"{kind} {c.number} appears twice", k, c))
            elif last is None and c.number > 1:
                flags.append(_flag(source, "numbering_gap",
                                   f"the first {kind} is {c.number}, not 1", k, c))
            elif last is not None and c.number > last + 1:
                missing = f"{last + 1}" if c.number == last + 2 else f"{last + 1}–{c.number - 1}"
                flags.append(_flag(source, "numbering_gap",
                                   f"{kind} {c.number} follows {last} ({missing} missing)", k, c))
            elif last is not None and c.number < last:
                flags.append(_flag(source, "numbering_gap",
                                   f"{kind} {c.number} follows {last} (out of order)", k, c))
            seen.add(c.number)
            last = c.number if last is None else max(last, c.number)
    return flags


def _outside(source: str, clauses: Sequence[Clause]) -> list[ClauseFlag]:
    flags: list[ClauseFlag] = []
    has_clauses = any(c.kind in _NUMBERED for c in clauses)
    for k, c in enumerate(clauses):
        if c.kind in ("cover", "preamble", "recitals", "signature"):
            lines = [ln.strip() for ln in c.text.splitlines()]
            hits = [ln for ln in lines if _HEADING_LIKE.match(ln) and not _ENDS_PAGE.search(ln)
                    and not _DOT_LEADER.search(ln)]  # a TOC entry in the preamble is fine
            if hits:
                flags.append(_flag(source, "outside_clause",
                                   f"the {c.kind} holds {len(hits)} line(s) that look like "
                                   f"clause headings (first: {hits[0][:40]!r})", k, c))
        elif c.kind == "other" and has_clauses and c.text.strip():
            flags.append(_flag(source, "outside_clause",
                               f"{len(c.text)} characters outside any clause "
                               f"({c.text.strip()[:40]!r})", k, c))
    return flags


def check_clauses(clauses: Sequence[Clause], *, source: str | None = None) -> list[ClauseFlag]:
    """Flag what looks wrong in one document's clauses (see the module docstring), in clause
    order within each check."""
    if not clauses:
        return []
    name = source or clauses[0].source
    flags: list[ClauseFlag] = []
    total = sum(len(c.text) for c in clauses)
    if total > NO_CLAUSE_MIN_CHARS and not any(
            c.kind in _NUMBERED or c.kind == "supplementary" for c in clauses):
        flags.append(_flag(name, "no_clauses", f"no clause found in {total} characters"))
    median = statistics.median(len(c.text) for c in clauses)
    limit = max(LONG_RATIO * median, LONG_MIN_CHARS)
    for k, c in enumerate(clauses):
        if c.kind in _BODY_KINDS and not c.text.strip():
            flags.append(_flag(name, "empty_clause", "the clause has no text", k, c))
        if c.kind in _BODY_KINDS and _toc_like(c):
            flags.append(_flag(name, "toc_like", "looks like a table-of-contents entry "
                               "(page numbers or dot leaders)", k, c))
        if len(c.text) > limit:
            flags.append(_flag(name, "too_long", f"{len(c.text)} characters (the document's "
                               f"median clause: {median:.0f})", k, c))
    return flags + _numbering(name, clauses) + _outside(name, clauses)


def flags_markdown(flags: Sequence[ClauseFlag]) -> list[str]:
    """The ``report.md`` section: flags per document, with clause, page and paragraph."""
    def cell(value: object) -> str:
        return "–" if value is None else " ".join(str(value).split()).replace("|", "\\|")

    per_doc: dict[str, int] = {}
    for f in flags:
        per_doc[f.source] = per_doc.get(f.source, 0) + 1
    lines = [f"## Clause checks ({len(flags)} flags in {len(per_doc)} documents)", "",
             "| file | flag | clause | number | page | paragraph | detail |",
             "|---|---|---:|---|---:|---:|---|"]
    for f in flags:
        lines.append("| " + " | ".join(cell(v) for v in (
            f.source, f.code, None if f.clause is None else f.clause + 1, f.number_text,
            f.page, f.paragraph, f.message)) + " |")
    return lines
