"""What a ``buildds jbe`` run passes from stage to stage and writes about itself.

* :class:`JbePairResult` — one booklet + answer key built (or not) into XML: what the
  stage-1 cache stores, what ``report.json`` lists (without the XML) and what stage 2 reads;
* :class:`JbeMissingPair` — a (year, subject) whose files are missing or fail their checks;
* :class:`JbeReject` — one line of ``rejects.jsonl``;
* :class:`JbeTotals` and :class:`JbeItemsSummary` — the run's counts in ``report.json``;
* :class:`JbeBookletItems` — one booklet's items after corrections (the stage-2 cache);
* :class:`StaleCorrection` — a correction that no longer applies.

Each record's ``to_json()`` gives exactly the JSON the report and the cache have always held
(same keys, same order, same values), and ``from_json`` reads it back, so a cached result
round-trips and the outputs stay byte-identical.
"""

from __future__ import annotations

from typing import Any, Literal

from buildds.schema.core import Frozen, JbeExclusion, JbeItem, Problem

__all__ = [
    "JbeBookletItems",
    "JbeItemsSummary",
    "JbeMissingPair",
    "JbePairResult",
    "JbeReject",
    "JbeTotals",
    "PairCounts",
    "PairStatus",
    "PrintedPair",
    "PrintedTitles",
    "StaleCorrection",
]

PairStatus = Literal["ok", "warning", "failed"]


def _problems_json(problems: tuple[Problem, ...]) -> list[dict[str, Any]]:
    return [p.model_dump(mode="json") for p in problems]


class PrintedTitles(Frozen):
    """What one file's title lines print (``extract.jbe.header.PrintedHeader``)."""

    subjects: tuple[str, ...] = ()
    years: tuple[int, ...] = ()
    page: int | None = None
    #: the title lines read, joined
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"subjects": list(self.subjects), "years": list(self.years), "page": self.page,
                "text": self.text}


class PrintedPair(Frozen):
    """What the booklet and its key print about themselves."""

    booklet: PrintedTitles
    key: PrintedTitles

    def to_json(self) -> dict[str, Any]:
        return {"booklet": self.booklet.to_json(), "key": self.key.to_json()}


class PairCounts(Frozen):
    """What a built booklet holds."""

    pages: int
    ocr_pages: int
    questions: int
    slots: int
    statements: int
    options: int
    #: mean OCR confidence of the OCR pages, rounded; absent without OCR pages
    ocr_confidence_pct: int | None = None

    def to_json(self) -> dict[str, int]:
        data = self.model_dump()
        if self.ocr_confidence_pct is None:
            del data["ocr_confidence_pct"]
        return data


class JbePairResult(Frozen):
    """One booklet + key through stage 1. ``status`` is ``ok``, ``warning`` (built, with
    errors reported) or ``failed`` (no XML); ``problems`` name the file and page.

    ``counts`` is None until the XML is built, ``printed`` until both headers are read, and
    the sha256s and ``key_answers`` (the hash of the key's answers, slot by slot) until the
    pair is built; a pair refused later (a copy of another) keeps them."""

    year: int
    subject: str
    booklet: str
    key: str
    status: PairStatus = "failed"
    xml: str | None = None
    counts: PairCounts | None = None
    problems: tuple[Problem, ...] = ()
    printed: PrintedPair | None = None
    booklet_sha256: str | None = None
    key_sha256: str | None = None
    key_answers: str | None = None

    @property
    def failed(self) -> bool:
        return self.status == "failed"

    def count(self, name: str) -> int:
        """One of :class:`PairCounts` (0 when not counted)."""
        value = getattr(self.counts, name, None) if self.counts is not None else None
        return value or 0

    def to_json(self, *, xml: bool = True) -> dict[str, Any]:
        """The cache entry; with ``xml=False``, the entry of ``report.json``."""
        data: dict[str, Any] = {
            "year": self.year, "subject": self.subject, "booklet": self.booklet,
            "key": self.key, "status": self.status, "xml": self.xml,
            "counts": self.counts.to_json() if self.counts is not None else {},
            "problems": _problems_json(self.problems),
        }
        if self.printed is not None:
            data["printed"] = self.printed.to_json()
        for name in ("booklet_sha256", "key_sha256", "key_answers"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        if not xml:
            del data["xml"]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> JbePairResult:
        """Read back what :meth:`to_json` wrote (a cache entry)."""
        return cls.model_validate({**data, "counts": data.get("counts") or None})


class JbeMissingPair(Frozen):
    """A requested (year, subject) whose booklet or key is missing or fails its checks."""

    year: int
    subject: str
    problems: tuple[Problem, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"year": self.year, "subject": self.subject,
                "problems": _problems_json(self.problems)}


class JbeReject(Frozen):
    """One line of ``rejects.jsonl``: what was not forwarded, why, and where from."""

    stage: str
    reason: str
    message: str
    source: str | None = None
    page: int | None = None
    id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"stage": self.stage, "reason": self.reason, "message": self.message,
                "source": self.source, "page": self.page, "id": self.id}


class JbeTotals(Frozen):
    """The counts at the top of ``report.json``."""

    pairs: int
    xml: int
    failed: int
    missing: int
    questions: int
    slots: int
    statements: int
    problems: int

    def to_json(self) -> dict[str, int]:
        return self.model_dump()


class JbeItemsSummary(Frozen):
    """Counts of a JBE-QA build: items per subject and question type, the share of true
    items, and excluded questions by reason and subject (keys sorted)."""

    total: int
    per_subject: dict[str, int]
    per_question_type: dict[str, int]
    true: int
    percent_true: float
    excluded_total: int
    excluded_by_reason: dict[str, int]
    excluded_per_subject: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return self.model_dump()


class StaleCorrection(Frozen):
    """A correction whose target is gone or no longer reads as it expects."""

    origin: str
    id: str
    action: str
    message: str


class JbeBookletItems(Frozen):
    """One booklet's items and excluded questions after its corrections (the stage-2
    cache entry); ``applied`` counts the corrections that took effect."""

    items: tuple[JbeItem, ...] = ()
    exclusions: tuple[JbeExclusion, ...] = ()
    stale: tuple[StaleCorrection, ...] = ()
    applied: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "items": [i.model_dump(mode="json") for i in self.items],
            "exclusions": [e.model_dump(mode="json") for e in self.exclusions],
            "stale": [s.model_dump(mode="json") for s in self.stale],
            "applied": self.applied,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> JbeBookletItems:
        return cls.model_validate(data)
