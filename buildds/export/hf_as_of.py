"""What an as-of JBE-QA build (``buildds jbe --as-of DATE``) adds to the export of
:mod:`buildds.export.hf`: the columns of :data:`AS_OF_COLUMNS` on every row — ``status``,
``status_reason``, ``grounds_status`` and ``grounds``, the articles the status rests on (a list
of structs of :data:`GROUND_FIELDS`: the cited articles, else the retrieved ones the impact
assessment used, in :class:`~buildds.schema.laws.ItemGrounds` order) — and the card's
"As of" section (:func:`as_of_card_context`)."""

from __future__ import annotations

from collections import Counter
from typing import Any, get_args

from buildds.schema import JbeItem
from buildds.schema.jbe_build import JbeAsOf, JbeItemStatus
from buildds.schema.laws import GroundStatus

__all__ = ["AS_OF_COLUMNS", "AS_OF_FIELD_DOCS", "GROUND_FIELDS", "as_of_card_context",
           "as_of_features", "as_of_row"]

#: the columns an as-of build adds, after ``is_fewshot``
AS_OF_COLUMNS = ("status", "status_reason", "grounds_status", "grounds")
#: the fields of each ``grounds`` struct (:class:`~buildds.schema.laws.Ground`); ``score`` and
#: ``rank`` are null for explicit grounds, ``paragraph`` for all but a cited paragraph (第N項)
GROUND_FIELDS = ("law_id", "article", "how", "score", "rank", "paragraph")
AS_OF_FIELD_DOCS = {
    "status": "as-of builds: current, terminology_only or needs_review under the law of the "
              "as-of date",
    "status_reason": "as-of builds: the revision(s), enforcement date and articles behind the "
                     "status, or the correction that reviewed the item",
    "grounds_status": "as-of builds: explicit (the item cites articles of its code), retrieved "
                      "(predicted by BM25) or unknown (no grounds: never taken as unaffected)",
    "grounds": "as-of builds: the articles the status rests on (law_id, article, how; score "
               "and rank of a retrieved one; the paragraph cited)",
}
_GROUND_KINDS: tuple[GroundStatus, ...] = get_args(GroundStatus)


def as_of_features(datasets: Any) -> dict[str, Any]:
    """The features of :data:`AS_OF_COLUMNS` (``datasets`` is the imported module)."""
    Value = datasets.Value
    return {"status": Value("string"), "status_reason": Value("string"),
            "grounds_status": Value("string"),
            "grounds": datasets.List({
                "law_id": Value("string"), "article": Value("string"), "how": Value("string"),
                "score": Value("float64"), "rank": Value("int32"),
                "paragraph": Value("int32")})}


def as_of_row(status: JbeItemStatus) -> dict[str, Any]:
    """One row's values of :data:`AS_OF_COLUMNS`."""
    return {"status": status.status, "status_reason": status.reason,
            "grounds_status": status.grounds_status,
            "grounds": [g.model_dump(include=set(GROUND_FIELDS)) for g in status.grounds]}


def as_of_card_context(info: JbeAsOf, items: list[JbeItem], review: list[JbeItem]
                       ) -> dict[str, Any]:
    """The card's as-of section: the date, the statute versions, items per status and per
    grounds status and subject (``items``: every item, in card order), and every item held
    back for review with its reason."""
    by_id = {s.id: s for s in info.statuses}
    grounds: list[dict[str, Any]] = []
    for jp in dict.fromkeys(it.subject_jp for it in items):
        found = Counter(by_id[it.id].grounds_status for it in items if it.subject_jp == jp)
        grounds.append({"subject": jp, **{k: found[k] for k in _GROUND_KINDS}})
    total = Counter(s.grounds_status for s in info.statuses)
    return {
        "date": info.as_of.isoformat(),
        "store_sha256": info.store_sha256,
        "laws": [v.model_dump(mode="json") for v in info.laws],
        "counts": info.counts(),
        "grounds": grounds,
        "grounds_total": {k: total[k] for k in _GROUND_KINDS},
        "review": [{"id": it.id, "reason": by_id[it.id].reason or ""} for it in review],
        "terminology": [{"id": s.id, "reason": s.reason or ""} for s in info.statuses
                        if s.status == "terminology_only"],
        "pending": list(info.pending),
    }
