"""Review source for a ``buildds judgments`` output (AR-Bench): is each injected error real?

Recognised by its ``report.json`` (``"stage": "judgments"``). The queue holds the injected
rows of the reviewer's sample (``review/verdicts_template.csv``, written by
``--review-sample N``; reason ``review_sample``), the rows the validator names
(``report.json`` ``validation.errors``; reason ``validation:<check>``) and any row already
judged in the verdicts file (so done items stay visible). Rows are read from
``data/*.parquet`` (only the rows in the queue).

Kind ``judgment``; facets ``error_type``, ``charge``, ``document`` (the source judgment's
id), ``dataset``; evidence (:func:`row_evidence`):

* ``parts`` — ``[{"name", "segments", "changed"}]`` for the judgment, the reasoning and the
  cited articles: original vs injected as ``same``/``del``/``ins`` segments;
* ``why`` — ``[[label, value], …]``, why the injected value is wrong (the statute tier, its
  range, the charge pair …: :func:`buildds.export.review_sample.why_wrong`), and ``tier``;
* ``gold`` — the gold correction; ``edits`` — ``[{"old", "new"}]``; ``statute_text`` — the
  cited articles' text; ``facts``; ``flags`` — ``[{"check", "message"}]`` from the validator;
* ``id``, ``error_type``, ``error_about``, ``error_class``, ``dataset``, ``document``;
* ``actions`` — the verdicts the item takes (``accept``, ``reject``).

Verdicts go to the verdicts CSV (default ``OUT/review/verdicts.csv``), the file
``buildds judgments --review-verdicts`` reads: ``accept`` → ``valid=yes`` (a real,
detectable error of its type), ``reject`` → ``valid=no`` with the note. A rebuild with
``--review-verdicts OUT/review/verdicts.csv`` puts the validity rate in the card.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.review.sources.base import ReviewItem, Verdict
from buildds.review.sources.store import (
    check_verdict,
    diff_segments,
    digest,
    expect_version,
    file_stamp,
    locked,
    safe_key,
    write_text,
)
from buildds.review.sources.verdicts_csv import read_rows, render_rows

__all__ = ["KIND", "JudgmentsSource", "probe", "row_evidence"]

KIND = "judgment"
VERDICTS = Path("review") / "verdicts.csv"
#: what a reviewer can say of an injected row (``evidence["actions"]``)
ACTIONS = ("accept", "reject")
_TEMPLATE = Path("review") / "verdicts_template.csv"


def probe(out: Path) -> JudgmentsSource | None:
    """A :class:`JudgmentsSource` when ``out`` holds a judgments build's ``report.json``."""
    report = _report(out)
    if report is None or report.get("stage") != "judgments":
        return None
    return JudgmentsSource(Path(out))


def _report(out: Path) -> dict[str, Any] | None:
    path = Path(out) / "report.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _loads(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) and value[:1] in "[{" else value


def row_evidence(row: Mapping[str, Any], flags: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    """The evidence of one AR-Bench row (a parquet row as a mapping; see the module doc)."""
    from buildds.export.review_sample import ERROR_ABOUT, why_wrong

    rationale = _loads(row.get("rationale")) or {}
    pairs = (("judgment", row.get("original_judgment") or "", row.get("judgment") or ""),
             ("reasoning", row.get("reasoning") or "", row.get("anomalous_reasoning") or ""),
             ("cited articles", "、".join(row.get("cited_articles") or ()),
              "、".join(row.get("anomalous_cited_articles") or ())))
    return {
        "id": row["id"], "error_type": row.get("error_type", ""),
        "error_about": ERROR_ABOUT.get(row.get("error_type", ""), row.get("error_type", "")),
        "error_class": row.get("error_class", ""), "dataset": row.get("dataset", ""),
        "document": row.get("source_id", ""),
        "parts": [{"name": name, "segments": diff_segments(a, b), "changed": a != b}
                  for name, a, b in pairs if a or b],
        "why": [list(p) for p in why_wrong(rationale)],
        "tier": str(rationale.get("tier", "")),
        "gold": _loads(row.get("gold_correction")) or {},
        "edits": [{"old": e.get("old", ""), "new": e.get("new", "")}
                  for e in _loads(row.get("edits")) or []],
        "statute_text": row.get("articles_text") or "",
        "facts": row.get("facts") or "",
        "flags": [{"check": c, "message": m} for c, m in flags],
        "actions": list(ACTIONS),
    }


@dataclass
class JudgmentsSource:
    """A judgments build as a review queue (see the module docstring); ``verdicts``: the CSV
    verdicts are written to (default ``OUT/review/verdicts.csv``)."""

    out: Path
    verdicts: Path | None = None
    kind: str = KIND
    _items: list[ReviewItem] | None = field(default=None, repr=False)
    _ids: dict[str, str] = field(default_factory=dict, repr=False)
    _stamp: tuple[int, int] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.out = Path(self.out)
        if self.verdicts is None:
            self.verdicts = self.out / VERDICTS

    @property
    def verdicts_path(self) -> Path:
        assert self.verdicts is not None
        return Path(self.verdicts)

    def _queue(self) -> dict[str, list[str]]:
        """Row id → its reasons, for every row in the queue."""
        reasons: dict[str, list[str]] = {}
        for rid in read_rows(self.out / _TEMPLATE) if (self.out / _TEMPLATE).exists() else {}:
            reasons.setdefault(rid, []).append("review_sample")
        report = _report(self.out) or {}
        for error in (report.get("validation") or {}).get("errors") or []:
            for rid in error.get("ids") or []:
                reasons.setdefault(str(rid), []).append(f"validation:{error.get('check', '')}")
        for rid in read_rows(self.verdicts_path):
            reasons.setdefault(rid, []).append("judged")
        return reasons

    def _flags(self) -> dict[str, list[tuple[str, str]]]:
        report = _report(self.out) or {}
        out: dict[str, list[tuple[str, str]]] = {}
        for error in (report.get("validation") or {}).get("errors") or []:
            for rid in error.get("ids") or []:
                out.setdefault(str(rid), []).append((str(error.get("check", "")),
                                                     str(error.get("message", ""))))
        return out

    def _rows(self, ids: set[str]) -> dict[str, dict[str, Any]]:
        """The parquet rows with these ids (injected rows only), streamed in batches (flat
        memory whatever the build's size; no pandas import)."""
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        out: dict[str, dict[str, Any]] = {}
        for path in sorted((self.out / "data").glob("*.parquet")):
            wanted = pa.array(sorted(ids - set(out)), type=pa.string())
            if not len(wanted):
                break
            for batch in pq.ParquetFile(path).iter_batches(batch_size=4096):
                mask = pc.is_in(batch.column("id"), value_set=wanted)
                for row in batch.filter(mask).to_pylist():
                    if row.get("label") == 1:
                        out.setdefault(str(row["id"]), row)
        return out

    def items(self) -> Sequence[ReviewItem]:
        """The queue (see the module docstring), by error type then id; rows the data no
        longer holds (a rebuild with other options) are left out; read again after a
        rebuild."""
        stamp = file_stamp(self.out / "report.json")
        if self._items is not None and stamp == self._stamp:
            return self._items
        self._ids, self._stamp = {}, stamp
        queue = self._queue()
        rows = self._rows(set(queue))
        flags = self._flags()
        items = []
        for rid in sorted(rows, key=lambda r: (str(rows[r].get("error_type")), r)):
            row = rows[rid]
            key = safe_key(rid)
            self._ids[key] = rid
            items.append(ReviewItem(
                key=key, kind=KIND, title=f"{row.get('error_type')} · {rid}",
                reasons=tuple(dict.fromkeys(r for r in queue[rid] if r != "judged"))
                or ("judged",),
                facets={"error_type": str(row.get("error_type", "")),
                        "charge": "、".join(row.get("charges") or ()),
                        "document": str(row.get("source_id", "")),
                        "dataset": str(row.get("dataset", ""))},
                evidence=row_evidence(row, flags.get(rid, ()))))
        self._items = items
        return items

    def _row_id(self, key: str) -> str:
        self.items()
        if key not in self._ids:
            raise KeyError(key)
        return self._ids[key]

    def verdict_for(self, key: str) -> Verdict | None:
        """The stored verdict (accept for ``yes``, reject for ``no``), or None."""
        stored = read_rows(self.verdicts_path).get(self._row_id(key))
        if stored is None or not stored[0]:
            return None
        return Verdict(key=key, action="accept" if stored[0] == "yes" else "reject",
                       note=stored[1])

    def version(self, key: str) -> str:
        """Digest of the row's (valid, note) in the verdicts file (None when absent)."""
        stored = read_rows(self.verdicts_path).get(self._row_id(key))
        return digest(list(stored) if stored and stored[0] else None)

    def record(self, verdict: Verdict, expected_version: str) -> str:
        """Write the verdict as the row's line of the verdicts CSV (replaced in place, or
        appended), atomically; the item's new version."""
        rid = self._row_id(verdict.key)
        check_verdict(verdict, ACTIONS, what="an injected row")
        path = self.verdicts_path
        with locked(path):
            rows = read_rows(path)
            stored = rows.get(rid)
            expect_version(verdict.key, digest(list(stored) if stored and stored[0] else None),
                           expected_version)
            value = ("yes" if verdict.action == "accept" else "no", verdict.note.strip())
            rows[rid] = value
            write_text(path, render_rows(rows))
        return digest(list(value))

    def files(self) -> Sequence[Path]:
        """No input files: the evidence is the build's own rows."""
        return ()
