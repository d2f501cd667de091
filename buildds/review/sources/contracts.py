"""Review source for a ``buildds contracts`` output: the clauses the build flags.

Recognised by its ``report.json`` (``"stage": "contracts"``) and ``clauses.jsonl``. The
queue holds every clause (a row of ``clauses.jsonl``) that

* a clause check flagged (``report.json`` ``clause_flags``, matched by document and first
  paragraph; reason ``validation:<code>``) — flags on a whole document (``no_clauses``)
  have no clause to correct and are not in the queue (they stay in ``report.md``);
* lies on an OCR'd page below the confidence threshold
  (:data:`buildds.extract.contracts.confidence.LOW_CONFIDENCE`; reason ``ocr_low_confidence``);
* changed under tracked changes (reason ``tracked_changes``).

Kind ``contract``; facets ``document``, ``kind`` (article, section …), ``reason``; field
``text`` (the clause body); evidence: :func:`~.contracts_evidence.clause_evidence`.

Verdicts become entries of ``review.yaml`` in the corrections folder the build reads
(``report.json`` ``corrections.folder``, else ``corrections/contracts``;
:mod:`buildds.transform.contract_corrections`): ``accept`` → ``action: accept``, ``edit``
with ``changes={"text": …}`` → ``action: text``, ``exclude`` → ``action: exclude``; each with
``expect`` — the digest of the clause text the reviewer saw — and the note as ``reason``.
Entries are appended (a later one for the same clause is made on the text the earlier ones
leave), so a rebuild applies them in order and the chain stays checkable.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.review.sources.base import ReviewItem, Verdict
from buildds.review.sources.contracts_evidence import clause_evidence
from buildds.review.sources.store import (
    check_verdict,
    digest,
    expect_version,
    file_stamp,
    locked,
    safe_key,
    write_text,
)

__all__ = ["KIND", "REVIEW_FILE", "ContractsSource", "probe"]

KIND = "contract"
REVIEW_FILE = "review.yaml"
_ACTIONS = {"accept": "accept", "edit": "text", "exclude": "exclude"}


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def probe(out: Path) -> ContractsSource | None:
    """A :class:`ContractsSource` when ``out`` holds a contracts build."""
    report = _json(Path(out) / "report.json")
    if not isinstance(report, dict) or report.get("stage") != "contracts" or not (
            Path(out) / "clauses.jsonl").is_file():
        return None
    return ContractsSource(Path(out))


@dataclass
class ContractsSource:
    """A contracts build as a review queue (see the module docstring); ``corrections``: the
    folder verdicts are written to (default: the one the build read)."""

    out: Path
    corrections: Path | None = None
    kind: str = KIND
    _report: dict[str, Any] = field(default_factory=dict, repr=False)
    _rows: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    _items: list[ReviewItem] | None = field(default=None, repr=False)
    _stamp: tuple[int, int] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.out = Path(self.out)
        self._report = _json(self.out / "report.json") or {}
        if self.corrections is None:
            folder = (self._report.get("corrections") or {}).get("folder")
            self.corrections = Path(folder) if folder else Path("corrections/contracts")

    @property
    def review_file(self) -> Path:
        assert self.corrections is not None
        return Path(self.corrections) / REVIEW_FILE

    def _queue(self, rows: list[dict[str, Any]]) -> dict[str, tuple[list[str], list[Any],
                                                                     dict[str, Any] | None]]:
        """Row id → (reasons, its flags, its OCR page) for every clause in the queue."""
        from buildds.extract.contracts.confidence import LOW_CONFIDENCE

        by_start = {(r.get("path") or r.get("source"), r["block_start"] + 1): r["id"]
                    for r in rows}
        queue: dict[str, tuple[list[str], list[Any], dict[str, Any] | None]] = {}
        for f in self._report.get("clause_flags") or []:
            rid = by_start.get((f.get("source"), f.get("paragraph")))
            if f.get("clause") is not None and rid is not None:
                entry = queue.setdefault(rid, ([], [], None))
                entry[0].append(f"validation:{f.get('code')}")
                entry[1].append(f)
        low = {(str(f.get("file")), int(p)): float(c) for f in self._report.get("files") or []
               for p, c in (f.get("ocr_page_confidence") or {}).items() if float(c) < LOW_CONFIDENCE}
        for r in rows:
            page = (str(r.get("path") or r.get("source")), r.get("page"))
            if page in low:
                reasons, flags, _ = queue.get(r["id"], ([], [], None))
                queue[r["id"]] = ([*reasons, "ocr_low_confidence"], flags,
                                  {"page": page[1], "confidence": low[page]})
            if r.get("changed"):
                queue.setdefault(r["id"], ([], [], None))[0].append("tracked_changes")
        return queue

    def items(self) -> Sequence[ReviewItem]:
        """The queue, in ``clauses.jsonl`` order; read again after a rebuild."""
        stamp = file_stamp(self.out / "report.json")
        if self._items is not None and stamp == self._stamp:
            return self._items
        self._report, self._rows, self._stamp = _json(self.out / "report.json") or {}, {}, stamp
        text = (self.out / "clauses.jsonl").read_text(encoding="utf-8")
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        queue = self._queue(rows)
        items = []
        for row in rows:
            if row["id"] not in queue:
                continue
            reasons, flags, ocr = queue[row["id"]]
            key = safe_key(row["id"])
            self._rows[key] = row
            title = " ".join(str(x) for x in (row.get("number_text"), row.get("heading")) if x)
            items.append(ReviewItem(
                key=key, kind=KIND, title=f"{row.get('source')} · {title or row['id']}",
                reasons=tuple(dict.fromkeys(reasons)),
                facets={"document": str(row.get("path") or row.get("source")),
                        "kind": str(row.get("kind", "")), "reason": reasons[0]},
                fields={"text": str(row.get("text", ""))},
                evidence=clause_evidence(self.out, row, flags, ocr, self._inputs().get(
                    str(row.get("path") or row.get("source"))))))
        self._items = items
        return items

    def _row(self, key: str) -> dict[str, Any]:
        self.items()
        if key not in self._rows:
            raise KeyError(key)
        return self._rows[key]

    def _entries(self) -> list[dict[str, Any]]:
        """The entries of ``review.yaml``, each checked as the build checks it."""
        import yaml

        from buildds.safeio import load_yaml_strict
        from buildds.transform.contract_corrections import ContractCorrection

        if not self.review_file.exists():
            return []
        data = load_yaml_strict(self.review_file.read_text(encoding="utf-8")) or []
        if not isinstance(data, list):
            # the file's content, not an argument's type: the app reports it as a bad verdict
            raise ValueError(  # noqa: TRY004
                f"{self.review_file}: not a YAML list of corrections")
        for n, entry in enumerate(data, start=1):
            try:
                ContractCorrection(**entry)
            except (TypeError, ValueError, yaml.YAMLError) as exc:
                raise ValueError(f"{self.review_file}: entry {n}: {exc}") from None
        return [dict(e) for e in data]

    def _mine(self, rid: str, entries: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
        return [(n, e) for n, e in enumerate(entries, start=1) if e.get("id") == rid]

    def current_text(self, key: str, entries: list[dict[str, Any]] | None = None) -> str:
        """The clause text as the next build will see it before any new entry: the built
        text, with this folder's entries the build has not applied yet applied on top."""
        from buildds.transform.contract_corrections import text_digest

        row = self._row(key)
        done = self._report.get("corrections") or {}
        seen = set(done.get("applied") or []) | {s.get("origin") for s in done.get("stale") or []}
        text = str(row.get("text", ""))
        for n, e in self._mine(row["id"], self._entries() if entries is None else entries):
            if f"{REVIEW_FILE}#{n}" in seen or text_digest(text) != e.get("expect"):
                continue
            if e.get("action") == "text":
                text = str(e.get("text", ""))
        return text

    def verdict_for(self, key: str) -> Verdict | None:
        """The last entry written for the clause, as a verdict (None when none)."""
        mine = self._mine(self._row(key)["id"], self._entries())
        if not mine:
            return None
        e = mine[-1][1]
        action = {"accept": "accept", "text": "edit", "exclude": "exclude"}[e["action"]]
        return Verdict(key=key, action=action,
                       changes={"text": e["text"]} if action == "edit" else {},
                       note=str(e.get("reason", "")), reviewer=str(e.get("reviewer") or ""))

    def version(self, key: str) -> str:
        """Digest of every ``review.yaml`` entry for the clause."""
        return digest([e for _, e in self._mine(self._row(key)["id"], self._entries())])

    def record(self, verdict: Verdict, expected_version: str) -> str:
        """Append the verdict's entry to ``review.yaml`` (atomically); the new version."""
        import yaml

        from buildds.transform.contract_corrections import text_digest

        rid = self._row(verdict.key)["id"]
        check_verdict(verdict, tuple(_ACTIONS), what="a clause")
        if verdict.action == "edit" and (set(verdict.changes) != {"text"}
                                         or not str(verdict.changes["text"]).strip()):
            raise ValueError("a clause is edited as its text: changes={'text': …}")
        with locked(self.review_file):
            entries = self._entries()
            expect_version(verdict.key, digest([e for _, e in self._mine(rid, entries)]),
                           expected_version)
            entry: dict[str, Any] = {
                "id": rid, "action": _ACTIONS[verdict.action],
                "expect": text_digest(self.current_text(verdict.key, entries)),
                "reason": verdict.note.strip() or "checked in buildds review"}
            if verdict.action == "edit":
                entry["text"] = str(verdict.changes["text"])
            if verdict.reviewer.strip():
                entry["reviewer"] = verdict.reviewer.strip()
            entries.append(entry)
            write_text(self.review_file, yaml.safe_dump(entries, allow_unicode=True,
                                                        sort_keys=False, width=100))
        return digest([e for _, e in self._mine(rid, entries)])

    def _inputs(self) -> dict[str, Path]:
        """Recorded file name → the input file, for the files with pages (PDFs, scans,
        images) that are still there (``report.json`` ``input_root``)."""
        root = self._report.get("input_root")
        out: dict[str, Path] = {}
        for f in self._report.get("files") or []:
            name = str(f.get("file", ""))
            if f.get("format") not in ("pdf", "scan", "image") or not name:
                continue
            path = Path(name) if Path(name).is_absolute() or not root else Path(root) / name
            if path.is_file():
                out[name] = path
        return out

    def files(self) -> Sequence[Path]:
        """The input PDFs, scans and images, whose pages the evidence may show."""
        return sorted(set(self._inputs().values()))
