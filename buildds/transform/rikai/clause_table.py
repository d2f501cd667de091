"""The clause table: one row per clause, in one view, with a stable ``id`` and provenance.

:func:`view_blocks` gives a document's blocks in one view (``original`` = every tracked change
rejected) so :func:`buildds.transform.clauses.split_clauses` cuts that view;
:func:`clause_table` flattens (document, clauses) pairs into rows
(:class:`~buildds.schema.contracts.ClauseRow`). A ``document_id`` is ``<stem>-<8 hex>`` from
the file's relative path and content (:func:`~buildds.transform.rikai.identity.document_id`),
whatever else is in the batch; each row carries its character span in the document's text
and its items' spans (:mod:`~buildds.transform.rikai.spans`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import PurePath
from typing import Literal

from buildds.schema.contracts import Clause, ClauseRow, ContractDocument, DocBlock
from buildds.text import normalize_text
from buildds.transform.clauses import document_text
from buildds.transform.rikai.identity import document_id
from buildds.transform.rikai.spans import item_spans

__all__ = ["View", "clause_input_text", "clause_table", "view_blocks"]

View = Literal["accepted", "original"]


def view_blocks(blocks: Sequence[DocBlock], view: View) -> list[DocBlock]:
    """``blocks`` as seen in ``view``. For ``original`` the views are swapped (the original
    text becomes ``text``, the accepted text ``original``), so
    :func:`~buildds.transform.clauses.split_clauses` cuts the original view.
    (:func:`clause_table` reads both views from the document itself.)"""
    if view == "accepted":
        return list(blocks)
    swap = {"accepted": "original", "original": "accepted", "both": "both"}
    out = []
    for b in blocks:
        orig = b.in_view("original")
        out.append(b.model_copy(update={
            "text": orig if orig is not None else b.text,
            "original": b.text if b.original is not None else None,
            "exists_in": swap[b.exists_in],
        }))
    return out


def clause_input_text(number_text: str | None, heading: str | None, text: str) -> str:
    """The clause as a model sees it (seed 000): ``第３条（完成後の検査）`` then the body."""
    head = (number_text or "") + (f"（{heading}）" if heading else "")
    return f"{head}\n{text}" if head and text else head or text


def _block_text(doc: ContractDocument, c: Clause, view: View) -> str:
    """The clause's blocks (heading line included) in one view, one line per block."""
    return "\n".join(normalize_text(t) for b in doc.blocks
                     if b.part == "body" and c.block_start <= b.index <= c.block_end
                     and (t := b.in_view(view)) is not None)


def clause_table(docs_and_clauses: Iterable[tuple[ContractDocument, Sequence[Clause]]], *,
                 view: View = "accepted") -> list[ClauseRow]:
    """One :class:`~buildds.schema.contracts.ClauseRow` per clause: ``id``, ``source``
    (input file name), ``document_id``, ``kind``, ``number``, ``number_text``, ``heading``,
    ``text`` (in ``view``), ``input_text`` (number + heading + text), ``changed``,
    ``original_text`` / ``accepted_text`` (the clause in each view when it changed, else
    None), ``page``, ``block_start``, ``block_end``, ``sha256`` of the file, ``path``
    (relative), ``char_start``/``char_end`` and ``items``/``item_spans``. ``view`` is the
    view the clauses were cut in (their ``char_span`` indexes that view's text)."""
    rows: list[ClauseRow] = []
    for doc, clauses in docs_and_clauses:
        # ids come from the path relative to the inputs' common folder and the content, so
        # two inputs in different folders with one file name stay apart; ``source`` is the
        # file name
        path = doc.source.path
        doc_id = document_id(path, doc.source.sha256)
        name = PurePath(path).name
        text = document_text(view_blocks(doc.blocks, view))
        used: Counter[str] = Counter()
        for c in clauses:
            base = (f"{doc_id}-{c.number}" if c.kind in ("article", "section")
                    and c.number is not None else f"{doc_id}-{c.kind}")
            used[base] += 1
            cid = base if used[base] == 1 else f"{base}-{used[base]}"
            original = _block_text(doc, c, "original") if c.changed else None
            accepted = _block_text(doc, c, "accepted") if c.changed else None
            rows.append(ClauseRow(
                id=cid, source=name, document_id=doc_id, kind=c.kind, number=c.number,
                number_text=c.number_text, heading=c.heading, text=c.text,
                input_text=clause_input_text(c.number_text, c.heading, c.text),
                changed=c.changed, original_text=original, accepted_text=accepted,
                page=c.page, block_start=c.block_start, block_end=c.block_end,
                sha256=doc.source.sha256, path=path,
                char_start=c.char_span[0] if c.char_span else None,
                char_end=c.char_span[1] if c.char_span else None,
                items=c.items, item_spans=tuple(item_spans(text, c.char_span, c.items)),
                role=c.role,
            ))
    return rows
