"""Is an answer key whole, and does it belong to its booklet?

* :func:`check_numbering` — the key on its own: slot Nos and questions run 1..N, the 配点
  add up to the 満点 (problems, not exceptions);
* :func:`reconcile` — its answer slots sit on the booklet's questions, and
  :func:`check_points` — its 配点 are the booklet's; otherwise a :class:`KeyMismatchError`
  names both files and every difference.
"""

from __future__ import annotations

from collections.abc import Sequence

from buildds.errors import KeyMismatchError
from buildds.schema import AnswerKey, AnswerSlot, Problem

__all__ = ["check_numbering", "check_points", "reconcile"]


def check_numbering(slots: list[AnswerSlot], full_marks: int | None, *,
                    source: str) -> list[Problem]:
    """Nos run 1..N without gaps or repeats; questions run 1..Q; 配点 adds up to 満点."""
    problems: list[Problem] = []

    def add(code: str, message: str) -> None:
        problems.append(Problem(stage="answers", code=code, message=message, source=source))

    nos = [s.no for s in slots]
    if nos != list(range(1, len(nos) + 1)):
        missing = sorted(set(range(1, max(nos, default=0) + 1)) - set(nos))
        repeated = sorted({n for n in nos if nos.count(n) > 1})
        add("slot-numbering", f"slot Nos do not run 1..{len(nos)}: missing {missing}, "
            f"repeated {repeated}")
    order: list[int] = []
    points: dict[int, int | None] = {}
    for s in slots:
        if s.question not in points:
            order.append(s.question)
            points[s.question] = s.points
    if order != list(range(1, len(order) + 1)):
        add("question-numbering", f"questions do not run 1..{len(order)} in slot order: "
            f"{order}")
    total = sum(p or 0 for p in points.values())
    if full_marks is not None and total != full_marks:
        add("points-sum", f"配点 adds up to {total}, but 満点 is {full_marks}")
    return problems


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
