"""What a JBE build output says needs a person, read without changing anything.

A JBE build (``buildds jbe``) leaves ``report.json`` (validation flags and errors, stale
corrections, OCR'd items of low confidence), ``data/*.parquet`` (the items; an as-of build's
``needs_review`` split holds the items a law revision may have made wrong) and
``xml/<year>/<subject>.xml`` (each question's stem, options and answer-key slots). This
module turns those into the reasons an item is queued and the question context shown beside
it; :mod:`buildds.review.sources.jbe` makes the :class:`~.base.ReviewItem` records.

Reasons (an item may have several):

* ``validation:<check>`` — a validation flag or error names the item or its question;
* ``ocr_low_confidence`` — the statement was read by OCR below the build's threshold;
* ``needs_review:<revision>`` (or ``needs_review`` when the build names no revision) — an
  as-of build found that a law revision changed the item's grounds;
* ``stale_correction`` — a correction targeting the item no longer applies;
* ``spot_check`` — a seeded sample of the other items (the build flags nothing on a clean
  booklet, and a clean booklet still needs a person's look): the items whose sha256 of the
  id comes first.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.safeio import loads_strict, read_side_file

__all__ = ["JbeBuild", "QuestionContext", "is_jbe_build", "mapping_of", "question_context", "read_build"]

_REVISION = re.compile(r"[0-9A-Za-z-]+_\d{8}_[0-9A-Za-z-]+")
_SPLITS = ("test", "fewshot", "needs_review")


@dataclass
class JbeBuild:
    """The parts of a JBE build output a review needs."""

    out: Path
    report: dict[str, Any]
    #: every item row (parquet columns), each id once, in the export's order
    rows: list[dict[str, Any]]
    #: item id → its reasons, in the order found
    reasons: dict[str, list[str]] = field(default_factory=dict)
    #: (path relative to the raw folder, sha256) of each booklet and key the build read
    inputs: dict[str, str] = field(default_factory=dict)


def is_jbe_build(out: Path) -> bool:
    """Whether ``out`` is a ``buildds jbe`` dataset build: its report is the JBE one (stage
    ``jbe-xml`` with a dataset) and the export is there."""
    if not ((out / "report.json").is_file() and (out / "data" / "test.parquet").is_file()):
        return False
    try:
        report = loads_strict(read_side_file(out / "report.json"))
    except (OSError, ValueError, BuildError):
        return False
    return isinstance(report, dict) and report.get("stage") == "jbe-xml" \
        and isinstance(report.get("dataset"), dict)


def _rows(out: Path) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    seen: set[str] = set()
    rows: list[dict[str, Any]] = []
    for split in _SPLITS:
        path = out / "data" / f"{split}.parquet"
        if not path.is_file():
            continue
        for row in pq.read_table(path).to_pylist():
            if row["id"] not in seen:
                seen.add(row["id"])
                rows.append({**row, "split": split})
    return rows


def _targets(ids: Sequence[str], target: str) -> list[str]:
    return [i for i in ids if i == target or i.startswith(target + "-")]


def _add(reasons: dict[str, list[str]], item: str, reason: str) -> None:
    got = reasons.setdefault(item, [])
    if reason not in got:
        got.append(reason)


def read_build(out: Path, *, spot_check: int) -> JbeBuild:
    """The build in ``out`` with every item's reasons (``spot_check``: how many otherwise
    unflagged items to sample)."""
    report = loads_strict(read_side_file(out / "report.json"))
    rows = _rows(out)
    ids = [r["id"] for r in rows]
    reasons: dict[str, list[str]] = {}
    dataset = report.get("dataset") or {}
    validation = dataset.get("validation") or {}
    for entry in [*(validation.get("errors") or []), *(validation.get("flags") or [])]:
        if isinstance(entry, dict) and isinstance(entry.get("id"), str):
            for item in _targets(ids, entry["id"]):
                _add(reasons, item, f"validation:{entry.get('check', 'flag')}")
    for entry in dataset.get("ocr_low_confidence") or []:
        for item in _targets(ids, str(entry.get("id", ""))):
            _add(reasons, item, "ocr_low_confidence")
    for row in rows:
        if row.get("status") == "needs_review" or row["split"] == "needs_review":
            revisions = _REVISION.findall(row.get("status_reason") or "")
            for rev in revisions or [""]:
                _add(reasons, row["id"], f"needs_review:{rev}" if rev else "needs_review")
    for entry in (dataset.get("corrections") or {}).get("stale") or []:
        for item in _targets(ids, str(entry.get("id", ""))):
            _add(reasons, item, "stale_correction")
    rest = sorted((i for i in ids if i not in reasons),
                  key=lambda i: hashlib.sha256(i.encode("utf-8")).hexdigest())
    for item in rest[:max(0, spot_check)]:
        _add(reasons, item, "spot_check")
    inputs = {}
    for pair in report.get("pairs") or []:
        for role in ("booklet", "key"):
            if pair.get(role) and pair.get(f"{role}_sha256"):
                inputs[str(pair[role])] = str(pair[f"{role}_sha256"])
    return JbeBuild(out=out, report=report, rows=rows, reasons=reasons, inputs=inputs)


@dataclass(frozen=True)
class QuestionContext:
    """A question of the exam XML as the item page shows it."""

    stem: str = ""
    key_source: str = ""
    #: (slot number, answer, points) of each answer-key slot of the question
    key_rows: tuple[tuple[str, str, str], ...] = ()
    #: the slot the statement answers (per-statement questions), "" otherwise
    slot: str = ""
    options: tuple[tuple[str, str], ...] = ()
    statements: tuple[tuple[str, str], ...] = ()


def _text(el: Any) -> str:
    return "\n".join(t.strip() for t in el.itertext() if t.strip())


def question_context(xml: Path, number: str, statement: int) -> QuestionContext:
    """Stem, options, statements and answer-key rows of question ``number`` in ``xml``;
    ``statement`` (from 1) picks the statement whose key slot is marked."""
    if not xml.is_file():
        return QuestionContext()
    from lxml import etree

    from buildds.safeio.xml import safe_parser

    root = etree.fromstring(xml.read_bytes(), safe_parser())
    q = next((el for el in root.iter("question") if el.get("number") == number), None)
    if q is None:
        return QuestionContext(key_source=root.get("key_source", ""))
    stem = q.find("stem")
    top = q.findall("statement")
    slot = ""
    if 1 <= statement <= len(top):
        slot = top[statement - 1].get("slot", "")
    return QuestionContext(
        stem=_text(stem) if stem is not None else "",
        key_source=root.get("key_source", ""),
        key_rows=tuple((s.get("no", ""), s.get("answer", ""), s.get("points", ""))
                       for s in q.findall("slot")),
        slot=slot,
        options=tuple((o.get("number", ""), _text(o)) for o in q.findall("option")),
        statements=tuple((s.get("label", ""), _text(s)) for s in top),
    )


def mapping_of(row: Mapping[str, Any], names: Sequence[str]) -> dict[str, str]:
    """The non-empty text values of ``row`` among ``names``, as strings."""
    return {n: str(row[n]) for n in names if row.get(n) not in (None, "")}
