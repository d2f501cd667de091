"""Statute readers: one module per format, each a function from a file to a
:class:`~buildds.schema.laws.LawText`, and :func:`read_law`, which picks the reader from the
file's content (never its name).

* :mod:`.egov_xml` — e-Gov Law XML: the 法令API v1 ``DataRoot`` response or a bare ``Law``
  (API v2, bulk download);
* :mod:`.egov_html` — a saved e-Gov 法令検索 page;
* :mod:`.oldsystem_text` — the pre-2017 法令データ提供システム plain-text dump;
* :mod:`.prc_markdown` — a consolidated PRC law in LawRefBook Markdown (amendment texts
  are refused);
* :mod:`.article_jsonl` — one article per line (the law store's own format, or a provider's
  per-article dump);
* :mod:`.legalattack_json` — the PRC Criminal Law after Amendment X as LegalAttack's
  ``{"article number": "text"}`` JSON (之N articles split back out, 款 guessed).

Anything else — or a file one of them cannot read — is an
:class:`~buildds.errors.ExtractError` naming the file.
"""

from __future__ import annotations

import re
from pathlib import Path

from buildds.errors import ExtractError
from buildds.laws.readers.article_jsonl import (
    looks_like_article_jsonl,
    parse_article_jsonl,
    read_article_jsonl,
)
from buildds.laws.readers.common import decode_utf8, read_statute_bytes
from buildds.laws.readers.egov_html import parse_egov_html, read_egov_html
from buildds.laws.readers.egov_xml import parse_egov_xml, read_egov_xml
from buildds.laws.readers.legalattack_json import (
    looks_like_legalattack_json,
    parse_legalattack_json,
    read_legalattack_json,
)
from buildds.laws.readers.oldsystem_text import HEADER_RE, parse_oldsystem_text, read_oldsystem_text
from buildds.laws.readers.prc_markdown import (
    PRC_LAW_IDS,
    parse_prc_markdown,
    read_prc_markdown,
)
from buildds.schema.laws import LawText

__all__ = ["PRC_LAW_IDS", "parse_law", "read_article_jsonl", "read_egov_html", "read_egov_xml",
           "read_law", "read_legalattack_json", "read_oldsystem_text", "read_prc_markdown",
           "sniff_law_format"]

#: the first element of a markup file, past the XML declaration, comments and DOCTYPE
_FIRST_TAG_RE = re.compile(rb"<(?![?!/])([A-Za-z_][\w.:-]*)")
_SNIFF_BYTES = 64 * 1024


def sniff_law_format(data: bytes) -> str | None:
    """``"egov_xml"``, ``"egov_html"``, ``"oldsystem_text"``, ``"prc_markdown"``,
    ``"article_jsonl"``, ``"legalattack_json"`` or None, from the bytes alone."""
    head = data[:_SNIFF_BYTES].lstrip(b"\xef\xbb\xbf \t\r\n")
    if looks_like_article_jsonl(data.lstrip(b"\xef\xbb\xbf \t\r\n")):
        return "article_jsonl"
    if looks_like_legalattack_json(head):
        return "legalattack_json"
    if head.startswith(b"<"):
        m = _FIRST_TAG_RE.search(head)
        name = m.group(1).decode("ascii") if m else ""
        if name in ("DataRoot", "Law"):
            return "egov_xml"
        if name.lower() == "html" or head[:15].lower() == b"<!doctype html>":
            return "egov_html"
        return None
    text = head.decode("utf-8", errors="ignore")
    lines = [line.strip() for line in text.splitlines() if line.strip()][:10]
    if any(HEADER_RE.match(line) for line in lines):
        return "oldsystem_text"
    if lines and lines[0].startswith("# ") and (
            "修正案" in lines[0] or re.search(r"^第\S+条", text, re.MULTILINE)):
        return "prc_markdown"
    return None


def parse_law(data: bytes, path: str | Path) -> LawText:
    """The bytes of a statute file in any known format; ``path`` names it."""
    kind = sniff_law_format(data)
    if kind == "egov_xml":
        return parse_egov_xml(data, path)
    if kind == "egov_html":
        return parse_egov_html(data, path)
    if kind == "oldsystem_text":
        return parse_oldsystem_text(data, path)
    if kind == "prc_markdown":
        return parse_prc_markdown(data, path)
    if kind == "article_jsonl":
        return parse_article_jsonl(data, path)
    if kind == "legalattack_json":
        return parse_legalattack_json(data, path)
    decode_utf8(path, data)  # a binary or mis-encoded file says so first
    raise ExtractError("not a statute file buildds can read (e-Gov XML or HTML, "
                       "old-system text, PRC LawRefBook Markdown, article JSONL, LegalAttack 刑法.json)", source=str(path))


def read_law(path: str | Path) -> LawText:
    """Read one statute file, choosing the reader by its content."""
    return parse_law(read_statute_bytes(path), path)
