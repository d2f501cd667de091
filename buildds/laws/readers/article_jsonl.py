"""Per-article JSONL: one :class:`~buildds.schema.laws.LawArticle` per line — the law store's
own format (``<law_id>/<revision_id>.jsonl``) and the shape of a data provider's article
dumps, so a version can move between stores or be imported from such a dump.

Each line is a JSON object with the fields of ``LawArticle``; other keys (``version``,
``as_of``, ``source`` …) are ignored, and a missing ``text_hash`` is computed (sha256 of
``flat``); a row's ``text_hash`` that is not the sha256 of its ``flat`` (a stale or foreign
hash: the diff pairs articles and the retrieval index is cached by it) and an ``article`` that
is not an e-Gov key (``"95"``, ``"3_2"``) are errors naming the line. The law id and title come from the rows (``law_title`` when a row has one, else the
law id) and must be the same on every line. The file has no 附則: ``suppl_provisions`` is
empty.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from buildds.errors import ExtractError
from buildds.laws.readers.common import counted, decode_utf8, read_statute_bytes, source_of
from buildds.safeio.hashing import sha256_bytes
from buildds.safeio.json_strict import loads_strict
from buildds.schema.laws import LawArticle, LawText

__all__ = ["looks_like_article_jsonl", "parse_article_jsonl", "read_article_jsonl"]

_FIELDS = frozenset(LawArticle.model_fields)
_KEY_RE = re.compile(r"[1-9][0-9]*(?:_[1-9][0-9]*)*")


def looks_like_article_jsonl(head: bytes) -> bool:
    """The first line is a JSON object with ``law_id``, ``article`` and ``flat``."""
    first = head.split(b"\n", 1)[0].strip()
    if not first.startswith(b"{"):
        return False
    try:
        row = loads_strict(first)
    except ValueError:
        return False
    return isinstance(row, dict) and {"law_id", "article", "flat"} <= row.keys()


def _article(row: Any, where: str, line: int) -> LawArticle:
    if not isinstance(row, dict):
        raise ExtractError(f"line {line}: not a JSON object", source=where)
    data = {k: v for k, v in row.items() if k in _FIELDS}
    if "text_hash" not in data and isinstance(data.get("flat"), str):
        data["text_hash"] = sha256_bytes(data["flat"].encode("utf-8"))
    try:
        art = LawArticle.model_validate(data)
    except ValidationError as exc:
        what = row.get("article", "?")
        raise ExtractError(f"line {line} (article {what}): not an article: "
                           f"{exc.errors()[0]['loc']} {exc.errors()[0]['msg']}",
                           source=where) from None
    if not _KEY_RE.fullmatch(art.article):
        raise ExtractError(f"line {line}: {art.article!r} is not an article key (95, 3_2)",
                           source=where)
    if art.text_hash != sha256_bytes(art.flat.encode("utf-8")):
        raise ExtractError(f"line {line} (article {art.article}): text_hash is not the sha256 "
                           f"of flat", source=where)
    return art


def parse_article_jsonl(data: bytes, path: str | Path) -> LawText:
    """The bytes of an article-JSONL file; ``path`` names it."""
    where = str(path)
    articles: list[LawArticle] = []
    title: str | None = None
    seen: set[str] = set()
    for n, line in counted(enumerate(decode_utf8(path, data).splitlines(), 1), where):
        if not line.strip():
            continue
        try:
            row = loads_strict(line)
        except ValueError as exc:
            raise ExtractError(f"line {n}: not JSON ({exc})", source=where) from None
        art = _article(row, where, n)
        if articles and art.law_id != articles[0].law_id:
            raise ExtractError(f"line {n} (article {art.article}): law {art.law_id}, but the "
                               f"file began with law {articles[0].law_id}", source=where)
        if art.article in seen:
            raise ExtractError(f"line {n}: article {art.article} twice", source=where)
        seen.add(art.article)
        title = title or (row.get("law_title") if isinstance(row.get("law_title"), str) else None)
        articles.append(art)
    if not articles:
        raise ExtractError("no articles in the file", source=where)
    return LawText(law_id=articles[0].law_id, law_title=title or articles[0].law_id,
                   articles=tuple(articles), source=source_of(path, data))


def read_article_jsonl(path: str | Path) -> LawText:
    """Read one article-JSONL file."""
    return parse_article_jsonl(read_statute_bytes(path), path)
