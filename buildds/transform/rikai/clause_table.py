"""The clause table: one row per clause, in one view, with a stable ``id`` and provenance.

:func:`view_blocks` gives a document's blocks in one view (``original`` = every tracked change
rejected) so :func:`buildds.transform.clauses.split_clauses` cuts that view;
:func:`clause_table` flattens (document, clauses) pairs into rows
(:class:`~buildds.schema.contracts.ClauseRow`). A ``document_id`` is the
input file's stem; when two inputs share a stem each gets its full file name instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import PurePath
from typing import Literal

from buildds.schema.contracts import Clause, ClauseRow, ContractDocument, DocBlock
from buildds.text import normalize_text

__all__ = ["View", "clause_input_text", "clause_table", "document_ids", "view_blocks"]

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


def document_ids(names: Sequence[str]) -> list[str]:
    """The file's stem; its name when two inputs share a stem (a .docx and a .pdf of one
    contract); its relative path when two inputs in different folders share the name."""
    stems = Counter(PurePath(n).stem for n in names)
    files = Counter(PurePath(n).name for n in names)
    out = []
    for n in names:
        p = PurePath(n)
        out.append(p.stem if stems[p.stem] == 1 else p.name if files[p.name] == 1 else n)
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
    None), ``page``, ``block_start``, ``block_end``, ``sha256`` of the file. ``view`` is the
    view the clauses were cut in."""
    pairs = list(docs_and_clauses)
    # ids come from the paths relative to the inputs' common folder, so that two inputs in
    # different folders with one file name stay apart; ``source`` is the file name
    paths = [doc.source.path for doc, _ in pairs]
    rows: list[ClauseRow] = []
    for (doc, clauses), path, doc_id in zip(pairs, paths, document_ids(paths)):
        name = PurePath(path).name
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
                sha256=doc.source.sha256,
            ))
    return rows
