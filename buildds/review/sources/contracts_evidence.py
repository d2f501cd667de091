"""What the review app shows beside a flagged clause of a ``buildds contracts`` output: the
clause in its paragraphs, with tracked changes as a redline.

:func:`clause_evidence` reads the clause's blocks (``block_start``..``block_end``, body part)
from the normalised document the build wrote (``documents/<path with / as __>.json``); a
block with tracked changes gives its ``redline`` (``{+inserted+}`` / ``[-deleted-]``, from
the document's ``w:ins`` / ``w:del``) as segments, a block that exists only in the accepted
(original) view is one inserted (deleted) segment. One block before and after the clause
are given as context.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds.review.sources.store import redline_segments

__all__ = ["block_segments", "clause_evidence", "document_file"]


def document_file(out: Path, path: str) -> Path:
    """The normalised document the build wrote for input ``path``."""
    return Path(out) / "documents" / f"{path.replace('/', '__')}.json"


def block_segments(block: Mapping[str, Any]) -> list[dict[str, str]]:
    """A block's text as segments: its redline when it has tracked changes."""
    text = str(block.get("text") or "")
    if block.get("exists_in") == "accepted":
        return [{"op": "ins", "text": text}] if text else []
    if block.get("exists_in") == "original":
        original = str(block.get("original") or text)
        return [{"op": "del", "text": original}] if original else []
    if block.get("redline"):
        return redline_segments(str(block["redline"]))
    return [{"op": "same", "text": text}] if text else []


def _paragraph(block: Mapping[str, Any]) -> dict[str, Any]:
    bbox = block.get("bbox")
    return {"index": block.get("index"), "page": block.get("page"),
            "kind": block.get("kind", "paragraph"), "segments": block_segments(block),
            "bbox": list(bbox) if bbox else None}


def clause_evidence(out: Path, row: Mapping[str, Any], flags: Sequence[Mapping[str, Any]],
                    ocr: Mapping[str, Any] | None, source_file: Path | None = None
                    ) -> dict[str, Any]:
    """The evidence of one clause row of ``clauses.jsonl``: ``document``, ``source_file``
    (the input file, for its page image: a PDF, scan or image the source's ``files()``
    lists; else None), ``clause_id``,
    ``number_text``, ``heading``, ``kind``, ``page``, ``text``, ``changed``, ``paragraphs``
    (``[{"index", "page", "kind", "segments", "bbox"}]``; ``bbox`` in PDF points, or None), ``before`` / ``after`` (the neighbouring
    blocks' text), ``revisions`` (``[{"kind", "text", "author", "date"}]``), ``flags``
    (``[{"code", "message"}]``), ``ocr`` (``{"page", "confidence"}`` or None) and
    ``actions`` (the verdicts a clause takes: accept, edit, exclude)."""
    path = str(row.get("path") or row.get("source") or "")
    blocks: list[dict[str, Any]] = []
    doc_file = document_file(out, path)
    if doc_file.is_file():
        try:
            blocks = [b for b in json.loads(doc_file.read_text(encoding="utf-8"))["blocks"]
                      if b.get("part", "body") == "body"]
        except (OSError, ValueError, KeyError, TypeError):
            blocks = []
    start, end = int(row.get("block_start", 0)), int(row.get("block_end", -1))
    mine = [b for b in blocks if start <= int(b.get("index", -1)) <= end]
    before = [b for b in blocks if int(b.get("index", -1)) < start][-1:]
    after = [b for b in blocks if int(b.get("index", -1)) > end][:1]
    return {
        "document": path, "source_file": str(source_file) if source_file else None,
        "clause_id": row.get("id", ""), "number_text": row.get("number_text"),
        "heading": row.get("heading"), "kind": row.get("kind", ""), "page": row.get("page"),
        "text": row.get("text", ""), "changed": bool(row.get("changed")),
        "paragraphs": [_paragraph(b) for b in mine],
        "before": str(before[0].get("text") or "") if before else "",
        "after": str(after[0].get("text") or "") if after else "",
        "revisions": [{"kind": r.get("kind", ""), "text": r.get("text", ""),
                       "author": r.get("author"), "date": r.get("date")}
                      for b in mine for r in b.get("revisions") or []],
        "flags": [{"code": str(f.get("code", "")), "message": str(f.get("message", ""))}
                  for f in flags],
        "ocr": dict(ocr) if ocr else None,
        "actions": ["accept", "edit", "exclude"],
    }
