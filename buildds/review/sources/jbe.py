"""The JBE build output (``buildds jbe``) as a review queue.

Queued: items a validation check flagged, OCR'd statements of low confidence, items a law
revision may have made wrong (``needs_review``, as-of builds), items of stale corrections, and
a seeded spot check of the rest (:mod:`.jbe_build` says how each reason is found).

Evidence per item: the original booklet page (the PDF under the ``--raw`` folder the build
read, served only when its sha256 is the one the build recorded), the statement's box on it
(:func:`buildds.review.pages.locate_text`; on a scanned page, in its OCR lines:
:mod:`buildds.review.ocr_boxes`), the question's stem, options and answer-key rows
from the exam XML, the key PDF, and the item's current values.

Verdicts become entries of the corrections folder the build reads (``--corrections``, the
same default as ``buildds jbe``): :mod:`.jbe_verdicts`. A rebuild with that folder applies
them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from buildds.review.sources.base import ReviewItem, Verdict
from buildds.review.sources.jbe_build import (
    is_jbe_build,
    mapping_of,
    question_context,
    read_build,
)
from buildds.review.sources.jbe_verdicts import TEXT_FIELDS, CorrectionsFolder, entries_for

__all__ = ["DEFAULT_CORRECTIONS", "DEFAULT_RAW", "DEFAULT_SPOT_CHECK", "JbeSource", "item_key",
           "probe"]

DEFAULT_RAW = Path("data_raw/jbe")
DEFAULT_CORRECTIONS = Path("corrections/jbe")
#: how many unflagged items the spot check adds to the queue
DEFAULT_SPOT_CHECK = 10
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def item_key(row: Mapping[str, Any]) -> str:
    """A URL-safe key stable across rebuilds: ``2025-minpo-3-2`` for ``令和７年-民法-3-2``
    (year and subject from the booklet's path, question and statement from the id)."""
    source = str(row.get("source", ""))
    year, _, name = source.partition("/")
    subject = name.split("-")[0]
    tail = str(row["id"]).split("-")[2:]
    return _UNSAFE.sub("_", "-".join([year, subject, *tail]))


def probe(out: Path) -> JbeSource | None:
    """A :class:`JbeSource` when ``out`` is a JBE build (default inputs), else None."""
    return JbeSource(out) if is_jbe_build(out) else None


class JbeSource:
    """One JBE build output as a review source (see the module docstring)."""

    kind = "jbe"

    def __init__(self, out: Path, *, raw: Path = DEFAULT_RAW,
                 corrections: Path = DEFAULT_CORRECTIONS, spot_check: int = DEFAULT_SPOT_CHECK):
        self.out = Path(out)
        self.raw = Path(raw)
        self.corrections = CorrectionsFolder(Path(corrections))
        self.spot_check = spot_check
        self._lock = threading.Lock()
        self._items: list[ReviewItem] | None = None
        self._rows: dict[str, dict[str, Any]] = {}
        self._lines: dict[Path, Any] = {}
        self._stamp: tuple[int, int] | None = None

    # -- the protocol -----------------------------------------------------------------------

    def items(self) -> Sequence[ReviewItem]:
        """The queued items, read again when the build changed (a rebuild while the app
        runs shows the new values)."""
        report = self.out / "report.json"
        stamp = (report.stat().st_mtime_ns, report.stat().st_size) if report.is_file() else None
        with self._lock:
            if self._items is None or stamp != self._stamp:
                self._rows, self._lines = {}, {}
                self._items = self._load()
                self._stamp = stamp
            return self._items

    def verdict_for(self, key: str) -> Verdict | None:
        return self.corrections.verdict_for(key)

    def version(self, key: str) -> str:
        return self.corrections.version(key, self._row(key)["id"])

    def record(self, verdict: Verdict, expected_version: str) -> str:
        row = self._row(verdict.key)
        entries = entries_for(verdict, row)
        year, _, name = str(row["source"]).partition("/")
        file_name = f"{year}-{name.split('-')[0]}.yaml"
        return self.corrections.record(verdict, row["id"], entries, file_name, expected_version)

    def files(self) -> Sequence[Path]:
        """The booklets and keys under ``raw`` whose sha256 is the one the build read."""
        self.items()
        return sorted(self._verified.values())

    # -- building the items -----------------------------------------------------------------

    def _row(self, key: str) -> dict[str, Any]:
        self.items()
        if key not in self._rows:
            raise KeyError(key)
        return self._rows[key]

    def _load(self) -> list[ReviewItem]:
        from buildds.safeio.hashing import sha256_file

        build = read_build(self.out, spot_check=self.spot_check)
        self._verified: dict[str, Path] = {}
        self._problems: dict[str, str] = {}
        for rel, sha in build.inputs.items():
            path = (self.raw / rel).resolve()
            if not path.is_file():
                self._problems[rel] = f"{self.raw / rel} not found (give the build's --raw)"
            elif sha256_file(path) != sha:
                self._problems[rel] = f"{self.raw / rel} is not the file the build read " \
                                      "(its sha256 differs)"
            else:
                self._verified[rel] = path
        items = []
        for row in build.rows:
            reasons = build.reasons.get(row["id"])
            if not reasons:
                continue
            key = item_key(row)
            self._rows[key] = row
            items.append(self._item(key, row, tuple(reasons)))
        return items

    def _item(self, key: str, row: dict[str, Any], reasons: tuple[str, ...]) -> ReviewItem:
        source = str(row["source"])
        year, _, name = source.partition("/")
        parts = str(row["id"]).split("-")
        facets = {"subject": str(row.get("subject_jp") or row.get("subject") or ""),
                  "year": year, "document": source,
                  "question_type": str(row.get("question_type") or "")}
        fields = {"label": str(row["label"]),
                  **mapping_of(row, ("instruction", *TEXT_FIELDS))}
        return ReviewItem(key=key, kind=self.kind, title=str(row["id"]), reasons=reasons,
                          facets=facets, fields=fields,
                          evidence=self._evidence(row, year, name.split("-")[0], parts))

    def _evidence(self, row: dict[str, Any], year: str, subject: str,
                  parts: list[str]) -> dict[str, Any]:
        source = str(row["source"])
        number = parts[2] if len(parts) > 2 else ""
        statement = int(parts[3]) if len(parts) > 3 and parts[3].isdigit() else 0
        ctx = question_context(self.out / "xml" / year / f"{subject}.xml", number, statement)
        pdf = self._verified.get(source)
        key_pdf = self._verified.get(ctx.key_source)
        page = int(row["page"])
        evidence: dict[str, Any] = {
            "item_id": row["id"], "source": source, "page": page, "sha256": row["sha256"],
            "pdf": str(pdf) if pdf else None, "pdf_problem": self._problems.get(source, ""),
            "key_source": ctx.key_source, "key_pdf": str(key_pdf) if key_pdf else None,
            "stem": ctx.stem, "lead_in": row.get("lead_in") or "", "theme": row.get("theme") or "",
            "instruction": row.get("instruction") or "", "question": row["question"],
            "label": row["label"], "question_type": row.get("question_type") or "",
            "options": [list(o) for o in ctx.options],
            "statements": [list(s) for s in ctx.statements],
            "key_rows": [list(k) for k in ctx.key_rows], "key_slot": ctx.slot,
            "corrections": list(row.get("corrections") or []),
            "ocr_confidence": row.get("ocr_confidence"), "split": row.get("split", ""),
            "status_reason": row.get("status_reason") or "",
            "field_choices": {"label": ["Y", "N"]},
        }
        if pdf is not None:
            return self._with_box(evidence, pdf, page, str(row["question"]))
        return evidence

    def _with_box(self, evidence: dict[str, Any], pdf: Path, page: int,
                  text: str) -> dict[str, Any]:
        """``evidence`` with the page size and the statement's box on it (``bbox`` None when
        not found); on a scanned page the box is looked for in its OCR lines when the item
        page first asks for it (:class:`~buildds.review.ocr_boxes.OcrBoxEvidence`)."""
        from buildds.review.ocr_boxes import OCR_CACHE, OcrBoxEvidence
        from buildds.review.pages import locate_text, page_lines

        if pdf not in self._lines:
            self._lines[pdf] = page_lines(pdf)
        doc = self._lines[pdf]
        if not 1 <= page <= len(doc.pages):
            return {**evidence, "bbox": None, "box_from": ""}
        here = doc.pages[page - 1]
        evidence["page_size"] = [here.width, here.height]
        if not here.lines:  # a scanned page: no text layer
            return OcrBoxEvidence(evidence, pdf=pdf, page=page, text=text,
                                  cache_dir=self.out / OCR_CACHE)
        box = locate_text([ln for p in doc.pages[page - 1:page + 1] for ln in p.lines], text)
        return {**evidence, "bbox": [round(v, 2) for v in box] if box else None,
                "box_from": "text layer" if box else ""}
