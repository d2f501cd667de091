"""Clauses + annotations → LegalRikai-style items (seed 000): clause classification
(multi-label, ~500 labels) and clause revision (alert + guidelines → reference revision).

* :func:`view_blocks` gives a document's blocks in one view (``original`` = every tracked
  change rejected) so :func:`buildds.transform.clauses.split_clauses` cuts that view;
* :func:`clause_table` flattens (document, clauses) pairs into rows, one per clause, each
  with a stable ``id`` and its provenance (file, page, block range);
* :func:`load_annotations` reads a CSV or JSONL annotation file;
* :func:`classification_items` / :func:`revision_items` join annotations to clauses on
  (``document_id``, clause ``number``) — or ``clause_id`` — and return the items together with
  every problem (unknown label, clause without labels, annotation without a clause,
  incomplete revision row): nothing is dropped silently;
* :func:`split_items` draws the ``evaluation`` and ``development`` splits, seeded.

A ``document_id`` is the input file's stem (``業務委託契約書``); when two inputs share a stem
(the .docx and the .pdf of one contract) each gets its full file name instead. Annotations
may name a document either way.
"""

from __future__ import annotations

import csv
import json
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any, Literal

from buildds.errors import BuildError, TransformError
from buildds.safeio import loads_strict, read_side_file
from buildds.schema.contracts import Clause, ContractDocument, DocBlock
from buildds.transform.normalize import normalize_text

__all__ = [
    "SPLITS",
    "Annotation",
    "ItemProblem",
    "ItemsResult",
    "classification_items",
    "clause_input_text",
    "clause_table",
    "label_frequencies",
    "load_annotations",
    "revision_items",
    "split_items",
    "view_blocks",
]

View = Literal["accepted", "original"]
SPLITS = ("evaluation", "development")
#: clause kinds an annotator labels; the others (preamble, signature, chapters) are reported
#: as unlabelled only when ``report_all=True``
LABELLED_KINDS = ("article", "section", "supplementary", "appendix")
_LABEL_SEP = re.compile(r"[;|；｜]")


# --------------------------------------------------------------------------- clause table
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


def _document_ids(names: Sequence[str]) -> list[str]:
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
                 view: View = "accepted") -> list[dict[str, Any]]:
    """One row per clause: ``id``, ``source`` (input file name), ``document_id``, ``kind``,
    ``number``, ``number_text``, ``heading``, ``text`` (in ``view``), ``input_text``
    (number + heading + text), ``changed``, ``original_text`` / ``accepted_text`` (the
    clause in each view when it changed, else None), ``page``, ``block_start``,
    ``block_end``, ``sha256`` of the file. ``view`` is the view the clauses were cut in."""
    pairs = list(docs_and_clauses)
    # ids come from the paths relative to the inputs' common folder, so that two inputs in
    # different folders with one file name stay apart; ``source`` is the file name
    paths = [doc.source.path for doc, _ in pairs]
    rows: list[dict[str, Any]] = []
    for (doc, clauses), path, doc_id in zip(pairs, paths, _document_ids(paths)):
        name = PurePath(path).name
        used: Counter[str] = Counter()
        for c in clauses:
            base = (f"{doc_id}-{c.number}" if c.kind in ("article", "section")
                    and c.number is not None else f"{doc_id}-{c.kind}")
            used[base] += 1
            cid = base if used[base] == 1 else f"{base}-{used[base]}"
            original = _block_text(doc, c, "original") if c.changed else None
            accepted = _block_text(doc, c, "accepted") if c.changed else None
            rows.append({
                "id": cid, "source": name, "document_id": doc_id, "kind": c.kind,
                "number": c.number, "number_text": c.number_text, "heading": c.heading,
                "text": c.text,
                "input_text": clause_input_text(c.number_text, c.heading, c.text),
                "changed": c.changed,
                "original_text": original,
                "accepted_text": accepted,
                "page": c.page, "block_start": c.block_start, "block_end": c.block_end,
                "sha256": doc.source.sha256,
            })
    return rows


# --------------------------------------------------------------------------- annotations
@dataclass(frozen=True)
class Annotation:
    """One row of an annotation file (``line`` is its 1-based line, or CSV record + 1)."""

    source: str
    line: int
    document_id: str | None = None
    number: int | None = None
    number_text: str | None = None
    clause_id: str | None = None
    labels: tuple[str, ...] = ()
    id: str | None = None
    text: str | None = None
    ai_alert: str | None = None
    guidelines: str | None = None
    reference_revision: str | None = None


def _norm(value: str) -> str:
    return unicodedata.normalize("NFKC", value).strip()


def _labels(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.strip()
        if value.startswith("["):
            try:
                value = loads_strict(value)
            except ValueError:  # not JSON after all: a separated list
                pass
    parts = _LABEL_SEP.split(value) if isinstance(value, str) else [str(v) for v in value]
    seen: dict[str, None] = {}
    for p in parts:
        p = p.strip()
        if p:
            seen.setdefault(p, None)
    return tuple(seen)


def _opt(row: dict[str, Any], *keys: str) -> str | None:
    for k in keys:
        v = row.get(k)
        if v is not None and str(v).strip() != "":
            return str(v)
    return None


def _annotation(row: dict[str, Any], source: str, line: int) -> Annotation:
    number_raw = _opt(row, "number", "clause_number", "article")
    number: int | None = None
    number_text: str | None = None
    if number_raw is not None:
        det = _norm(number_raw)
        if re.fullmatch(r"[0-9]+", det):
            number = int(det)
        elif re.fullmatch(r"[0-9]+\.0", det):
            number = int(float(det))
        else:
            number_text = det
    return Annotation(
        source=source, line=line,
        document_id=_opt(row, "document_id", "document", "doc_id"),
        number=number, number_text=number_text,
        clause_id=_opt(row, "clause_id"),
        labels=_labels(row.get("labels", row.get("label"))),
        id=_opt(row, "id"),
        text=_opt(row, "text", "clause", "original_clause"),
        ai_alert=_opt(row, "ai_alert", "alert"),
        guidelines=_opt(row, "guidelines", "guideline", "guidance"),
        reference_revision=_opt(row, "reference_revision", "revision"),
    )


def load_annotations(path: str | Path) -> list[Annotation]:
    """Read a CSV (header row) or JSONL annotation file. Keys: ``document_id``, ``number``
    (or ``clause_id``), ``labels`` (a list, a JSON list, or ``;``/``|``-separated), and for
    revision ``text``, ``ai_alert``, ``guidelines``, ``reference_revision``. Raises
    :class:`TransformError` naming the file and line for a file that cannot be parsed."""
    path = Path(path)
    name = str(path)
    suffix = path.suffix.lower()
    if suffix not in (".jsonl", ".ndjson", ".json", ".csv", ".tsv"):
        raise TransformError("annotations must be .csv, .tsv or .jsonl", source=name)
    try:
        raw = read_side_file(path)
    except BuildError as exc:
        raise TransformError(f"cannot read the annotation file ({exc.message})",
                             source=name) from exc
    out: list[Annotation] = []
    if suffix in (".jsonl", ".ndjson", ".json"):
        for n, line in enumerate(raw.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                row = loads_strict(line)
            except ValueError as exc:  # JSONDecodeError and the JSON limits
                why = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
                raise TransformError(f"line {n} is not JSON ({why})", source=name) from exc
            if not isinstance(row, dict):
                raise TransformError(f"line {n} is not a JSON object", source=name)
            out.append(_annotation(row, name, n))
    else:
        reader = csv.DictReader(raw.splitlines(),
                                delimiter="\t" if suffix == ".tsv" else ",")
        for row in reader:
            out.append(_annotation({k.strip(): v for k, v in row.items() if k}, name,
                                   reader.line_num))
    return out


# --------------------------------------------------------------------------- joining
@dataclass(frozen=True)
class ItemProblem:
    """Why an annotation or a clause did not become (all of) an item."""

    reason: str  # unknown-label | unlabelled-clause | unmatched-annotation | incomplete-annotation
    message: str
    source: str | None = None
    id: str | None = None
    line: int | None = None
    page: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "message": self.message, "source": self.source,
                "id": self.id, "line": self.line, "page": self.page}


@dataclass
class ItemsResult:
    items: list[dict[str, Any]] = field(default_factory=list)
    problems: list[ItemProblem] = field(default_factory=list)
    label_inventory: list[str] = field(default_factory=list)


class _ClauseIndex:
    def __init__(self, clauses: Sequence[dict[str, Any]]):
        self.by_id = {c["id"]: c for c in clauses}
        self.by_number: dict[tuple[str, int], dict[str, Any]] = {}
        self.by_text: dict[tuple[str, str], dict[str, Any]] = {}
        self.doc_alias: dict[str, str] = {}
        for c in clauses:
            for alias in (c["document_id"], c["source"], PurePath(c["source"]).stem):
                self.doc_alias.setdefault(alias, c["document_id"])
            if c["number"] is not None and c["kind"] in ("article", "section"):
                self.by_number.setdefault((c["document_id"], c["number"]), c)
            if c["number_text"]:
                self.by_text.setdefault((c["document_id"], _norm(c["number_text"])), c)

    def find(self, a: Annotation) -> dict[str, Any] | None:
        if a.clause_id is not None:
            return self.by_id.get(a.clause_id)
        doc = self.doc_alias.get(a.document_id or "")
        if doc is None:
            return None
        if a.number is not None:
            return self.by_number.get((doc, a.number))
        if a.number_text is not None:
            return self.by_text.get((doc, a.number_text))
        return None


def _where(a: Annotation) -> str:
    if a.clause_id is not None:
        return f"clause {a.clause_id}"
    return f"document {a.document_id!r}, clause {a.number if a.number is not None else a.number_text}"


def _item_base(c: dict[str, Any]) -> dict[str, Any]:
    return {"id": c["id"], "document_id": c["document_id"], "source": c["source"],
            "number": c["number"], "heading": c["heading"], "page": c["page"],
            "text": c["input_text"]}


def classification_items(clauses: Sequence[dict[str, Any]], annotations: Sequence[Annotation],
                         *, label_inventory: Sequence[str] | None = None,
                         report_all: bool = False) -> ItemsResult:
    """Items ``{id, text, labels, document_id, source, number, heading, page}`` for every
    clause with at least one known label (several annotation rows for one clause are merged).

    ``label_inventory`` defaults to every label the annotations use (sorted). Reported:
    labels outside the inventory (``unknown-label``, the label is left out), labellable
    clauses with no (known) label (``unlabelled-clause``; with ``report_all`` also preambles,
    signatures and chapters) and annotations naming no clause (``unmatched-annotation``)."""
    result = ItemsResult()
    inventory = (list(label_inventory) if label_inventory is not None
                 else sorted({lab for a in annotations for lab in a.labels}))
    known = set(inventory)
    result.label_inventory = inventory
    index = _ClauseIndex(clauses)
    labels: dict[str, dict[str, None]] = {}
    for a in annotations:
        c = index.find(a)
        if c is None:
            result.problems.append(ItemProblem(
                "unmatched-annotation", f"no clause for {_where(a)}", a.source, a.id, a.line))
            continue
        mine = labels.setdefault(c["id"], {})
        for lab in a.labels:
            if lab in known:
                mine.setdefault(lab, None)
            else:
                result.problems.append(ItemProblem(
                    "unknown-label", f"label {lab!r} is not in the label inventory",
                    a.source, c["id"], a.line, c["page"]))
    for c in clauses:
        found = labels.get(c["id"])
        if found:
            result.items.append({**_item_base(c), "labels": list(found)})
        elif report_all or c["kind"] in LABELLED_KINDS:
            why = "has no labels" if c["id"] not in labels else "has no known label"
            result.problems.append(ItemProblem(
                "unlabelled-clause", f"{c['kind']} {c['number_text'] or c['id']} {why}",
                c["source"], c["id"], None, c["page"]))
    result.items.sort(key=lambda it: it["id"])
    return result


def revision_items(clauses: Sequence[dict[str, Any]],
                   annotations: Sequence[Annotation]) -> ItemsResult:
    """Items ``{id, text, ai_alert, guidelines, reference_revision, document_id, source,
    number, heading, page}``. A row with its own ``text`` stands alone; otherwise its clause
    is found by (``document_id``, ``number``) or ``clause_id`` and its text used. Rows
    missing ``ai_alert``/``guidelines``/``reference_revision`` are ``incomplete-annotation``;
    rows naming no clause are ``unmatched-annotation``."""
    result = ItemsResult()
    index = _ClauseIndex(clauses)
    used: Counter[str] = Counter()
    for a in annotations:
        missing = [k for k in ("ai_alert", "guidelines", "reference_revision")
                   if getattr(a, k) is None]
        if missing:
            result.problems.append(ItemProblem(
                "incomplete-annotation", f"row has no {', '.join(missing)}", a.source, a.id,
                a.line))
            continue
        if a.text is not None:
            c = index.find(a) if (a.clause_id or a.document_id) else None
            base: dict[str, Any] = {"id": c["id"] if c else f"row-{a.line:05d}", "document_id":
                    c["document_id"] if c else a.document_id, "source": c["source"] if c
                    else PurePath(a.source).name, "number": c["number"] if c else a.number,
                    "heading": c["heading"] if c else None, "page": c["page"] if c else None,
                    "text": a.text}
        else:
            c = index.find(a)
            if c is None:
                result.problems.append(ItemProblem(
                    "unmatched-annotation", f"no clause for {_where(a)} (and no text)",
                    a.source, a.id, a.line))
                continue
            base = _item_base(c)
        item_id: str = a.id or str(base["id"])
        used[item_id] += 1
        if used[item_id] > 1:
            item_id = f"{item_id}-{used[item_id]}"
        result.items.append({**base, "id": item_id, "ai_alert": a.ai_alert,
                             "guidelines": a.guidelines,
                             "reference_revision": a.reference_revision})
    result.items.sort(key=lambda it: it["id"])
    return result


def label_frequencies(items: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Label → number of items carrying it, most frequent first (ties by label)."""
    counts = Counter(lab for it in items for lab in it["labels"])
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


# --------------------------------------------------------------------------- splits
def split_items(items: Sequence[dict[str, Any]], *, eval_share: float = 0.2,
                seed: int = 0) -> dict[str, list[dict[str, Any]]]:
    """``evaluation`` (``round(n * eval_share)`` items drawn with ``random.Random(seed)``
    from the items sorted by id) and ``development`` (the rest); each split in id order.
    The input order never matters."""
    if not 0.0 <= eval_share <= 1.0:
        raise TransformError(f"eval_share must be between 0 and 1, not {eval_share}")
    ordered = sorted(items, key=lambda it: it["id"])
    ids = [it["id"] for it in ordered]
    if len(set(ids)) != len(ids):
        dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
        raise TransformError(f"duplicate item ids: {', '.join(dupes[:5])}")
    chosen = set(random.Random(seed).sample(ids, round(len(ids) * eval_share)))
    return {"evaluation": [it for it in ordered if it["id"] in chosen],
            "development": [it for it in ordered if it["id"] not in chosen]}
