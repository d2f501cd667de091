"""Counts of a JBE-QA build beside the seed's published figures (cheap: no parsing code)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from buildds.schema import JbeExclusion, JbeItem
from buildds.schema.jbe_build import JbeItemsSummary
from buildds.transform.jbe_paper import paper_figures

__all__ = ["SEED_COUNTS", "summarize"]

#: JBE-QA's published figures (seed 001, sections 2.3 and 2.5), for comparison only: read
#: from ``jbe_paper_figures.yaml`` (:func:`buildds.transform.jbe_paper.paper_figures`), where
#: each one is cited.
_FIG = paper_figures()
SEED_COUNTS: dict[str, object] = {
    "total": _FIG["items"]["value"],
    "per_subject": {s: f["items"] for s, f in _FIG["subjects"].items()},
    "percent_true": _FIG["percent_true"]["value"],
    "excluded_total": _FIG["excluded"]["value"],
    "excluded_per_subject": {s: f["excluded"] for s, f in _FIG["subjects"].items()},
}


def summarize(items: Iterable[JbeItem], exclusions: Iterable[JbeExclusion]) -> JbeItemsSummary:
    """Counts per subject, share of true items, and excluded questions by reason/subject."""
    items = list(items)
    exclusions = list(exclusions)
    per_subject = Counter(i.subject for i in items)
    per_type = Counter(i.question_type for i in items)
    n_true = sum(i.answer for i in items)
    ex_subject = Counter(e.subject for e in exclusions)
    return JbeItemsSummary(
        total=len(items),
        per_subject=dict(sorted(per_subject.items())),
        per_question_type=dict(sorted(per_type.items())),
        true=n_true,
        percent_true=round(100 * n_true / len(items), 1) if items else 0.0,
        excluded_total=len(exclusions),
        excluded_by_reason=dict(sorted(Counter(e.reason for e in exclusions).items())),
        excluded_per_subject=dict(sorted(ex_subject.items())),
    )
