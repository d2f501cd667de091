"""Does an answer key belong to its booklet? Its answer slots must sit on the booklet's
questions (:func:`reconcile`) and its 配点 must be the booklet's (:func:`check_points`);
otherwise a :class:`KeyMismatchError` names both files and every difference.
"""

from __future__ import annotations

from collections.abc import Sequence

from buildds.errors import KeyMismatchError
from buildds.schema import AnswerKey, Problem

__all__ = ["check_points", "reconcile"]


def reconcile(
    booklet_slots: dict[int, int], key: AnswerKey, *, booklet_name: str
) -> list[Problem]:
    """Check that the booklet's answer slots (No → question) are the key's.

    A disagreement means one of the two files was read wrongly or belongs to another
    year/subject, so pairing them would mislabel answers: raise :class:`KeyMismatchError`
    naming both files and listing every difference. Returns ``[]`` when they agree."""
    in_key = {s.no: s.question for s in key.slots}
    only_booklet = sorted(set(booklet_slots) - set(in_key))
    only_key = sorted(set(in_key) - set(booklet_slots))
    moved = sorted(n for n in set(in_key) & set(booklet_slots) if in_key[n] != booklet_slots[n])
    if not (only_booklet or only_key or moved):
        return []
    parts = []
    if only_booklet:
        parts.append(f"slots only in the booklet: {_nos(only_booklet)}")
    if only_key:
        parts.append(f"slots only in the key: {_nos(only_key)}")
    if moved:
        shown = ", ".join(f"No {n} (booklet 問 {booklet_slots[n]}, key 問 {in_key[n]})"
                          for n in moved[:10])
        more = f" and {len(moved) - 10} more" if len(moved) > 10 else ""
        parts.append(f"slots on different questions: {shown}{more}")
    raise KeyMismatchError(
        f"question booklet {booklet_name} and answer key {key.source.path} disagree on the "
        f"answer slots; " + "; ".join(parts),
        source=booklet_name,
    )


def check_points(
    booklet_points: dict[int, int], key: AnswerKey, *, booklet_name: str
) -> list[Problem]:
    """Check that every question's 配点 in the booklet (``（配点：２）``) is the key's.

    Keys of other years often have the very same slots (民法: 36 or 37 single-slot questions
    every year) but never the same 配点 on every question, so a disagreement means the key is
    not this booklet's: raise :class:`KeyMismatchError` naming both files and the questions.
    Questions the key prints no 配点 for are not compared. Returns ``[]`` when they agree."""
    in_key: dict[int, int] = {}
    for s in key.slots:
        if s.points is not None:
            in_key.setdefault(s.question, s.points)
    differ = sorted(q for q in set(booklet_points) & set(in_key)
                    if booklet_points[q] != in_key[q])
    if not differ:
        return []
    shown = ", ".join(f"問 {q} (booklet {booklet_points[q]}, key {in_key[q]})"
                      for q in differ[:10])
    more = f" and {len(differ) - 10} more" if len(differ) > 10 else ""
    raise KeyMismatchError(
        f"question booklet {booklet_name} and answer key {key.source.path} disagree on the "
        f"配点 of {len(differ)} question(s): {shown}{more}; is the key another year's?",
        source=booklet_name,
    )


def _nos(nos: Sequence[int]) -> str:
    shown = ", ".join(f"No {n}" for n in nos[:15])
    return shown + (f" and {len(nos) - 15} more" if len(nos) > 15 else "")
