"""Counts of a JBE-QA build beside the seed's published figures (cheap: no parsing code)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from buildds.schema import JbeExclusion, JbeItem
from buildds.schema.jbe_build import JbeItemsSummary

__all__ = ["SEED_COUNTS", "summarize"]

#: JBE-QA's published figures (seed 001, sections 2.3 and 2.5), for comparison only.
SEED_COUNTS: dict[str, object] = {
    "total": 3464,
    "per_subject": {"Civil Code": 1998, "Penal Code": 811, "Constitution": 655},
    "percent_true": 47.6,
    "excluded_total": 52,
    "excluded_per_subject": {"Penal Code": 46, "Constitution": 5, "Civil Code": 1},
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
