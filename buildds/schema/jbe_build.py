"""What a ``buildds jbe`` run passes from stage to stage and writes about itself.

* :class:`JbePairResult` — one booklet + answer key built (or not) into XML: what the
  stage-1 cache stores, what ``report.json`` lists (without the XML) and what stage 2 reads;
* :class:`JbeMissingPair` — a (year, subject) whose files are missing or fail their checks;
* :class:`JbeReject` — one line of ``rejects.jsonl``;
* :class:`JbeTotals` and :class:`JbeItemsSummary` — the run's counts in ``report.json``;
* :class:`JbeBookletItems` — one booklet's items after corrections (the stage-2 cache);
* :class:`StaleCorrection` — a correction that no longer applies;
* :class:`JbeItemStatus`, :class:`StatuteVersionUsed` and :class:`JbeAsOf` — what an as-of
  build (``buildds jbe --as-of DATE``) says about each item and the statute versions it used.

Each record's ``to_json()`` gives exactly the JSON the report and the cache have always held
(same keys, same order, same values), and ``from_json`` reads it back, so a cached result
round-trips and the outputs stay byte-identical.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from buildds.schema.core import Frozen, JbeExclusion, JbeItem, Problem
from buildds.schema.laws import Ground, GroundStatus

__all__ = [
    "ItemStatus",
    "JbeAsOf",
    "JbeBookletItems",
    "JbeItemStatus",
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
    "StatuteVersionUsed",
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
    #: OCR lines whose structure was repaired (buildds.extract.jbe.ocr_repair); absent
    #: without OCR pages
    ocr_repairs: int | None = None

    def to_json(self) -> dict[str, int]:
        data = self.model_dump()
        for name in ("ocr_confidence_pct", "ocr_repairs"):
            if data[name] is None:
                del data[name]
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
    #: OCR'd booklets: tesseract's (mean, least) word confidence per statement, keyed
    #: ``"<question>-<statement index>"`` (buildds.extract.jbe.ocr_confidence)
    ocr_statements: dict[str, tuple[float, float]] | None = None

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
        if xml and self.ocr_statements is not None:  # the cache entry only
            data["ocr_statements"] = {k: list(v) for k, v in self.ocr_statements.items()}
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


#: ``current``: the label holds as of the date (grounds unchanged, or reviewed by a correction
#: citing the revision); ``terminology_only``: a ground changed in wording only (still scored);
#: ``needs_review``: a ground changed in substance, moved or went, or the grounds are unknown
ItemStatus = Literal["current", "terminology_only", "needs_review"]


class JbeItemStatus(Frozen):
    """One item's standing in an as-of build, and why."""

    id: str
    status: ItemStatus
    reason: str | None = None
    #: the revisions that changed the item's grounds (or that its reviewing correction cites)
    revisions: tuple[str, ...] = ()
    #: the impact assessment found the item unaffected and no correction changed its label:
    #: only such items may be few-shot exemplars
    fewshot_eligible: bool = False
    #: how the item's grounds were found (:class:`~buildds.schema.laws.ItemGrounds`)
    grounds_status: GroundStatus = "unknown"
    #: the grounds the assessment was based on (explicit ones, else the retrieved ones of
    #: rank ≤ its top-k), in the order of :class:`~buildds.schema.laws.ItemGrounds`
    grounds: tuple[Ground, ...] = ()


class StatuteVersionUsed(Frozen):
    """The version of one law in force on the as-of date, as the card records it."""

    law_id: str
    law_title: str
    revision_id: str
    valid_from: date
    #: sha256 of the statute file the version was imported from
    sha256: str


class JbeAsOf(Frozen):
    """What an as-of build used and decided: the date, the law store's content hash, the
    versions in force, every item's status (in item order) and the corrections citing a
    revision not yet in force on the date (``pending``: neither applied nor stale)."""

    as_of: date
    store_sha256: str
    laws: tuple[StatuteVersionUsed, ...] = ()
    statuses: tuple[JbeItemStatus, ...] = ()
    pending: tuple[str, ...] = ()

    def counts(self) -> dict[str, int]:
        """Items per status (every status, zeros included) and how many of the
        ``needs_review`` ones could not be assessed (impact unknown)."""
        out = {s: 0 for s in ("current", "terminology_only", "needs_review")}
        for st in self.statuses:
            out[st.status] += 1
        out["impact_unknown"] = sum(1 for st in self.statuses
                                     if (st.reason or "").startswith("impact unknown"))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"as_of": self.as_of.isoformat(), "store_sha256": self.store_sha256,
                "laws": [v.model_dump(mode="json") for v in self.laws],
                "counts": self.counts(),
                "statuses": [s.model_dump(mode="json") for s in self.statuses],
                "pending": list(self.pending)}
