"""The bundled sample exam: 令和7年 (2025) 短答式 in 憲法, 民法 and 刑法.

The questions are **original**, written for buildds in the style of the bar exam (the
wording of stems, markers and options follows the official booklets of 2022 onwards); they
are not the Ministry of Justice's questions and are not an official exam. The answers are
correct under the law in force in 2025 as far as the authors know, but the sample exists to
test the pipeline, not to study from.

Each subject has six or seven questions and at least ten answer slots, so the slot numbers
reach the half-width ``［No.10］``. Between them the subjects cover every format the booklet
parser has to handle (see :data:`FORMATS` and the ``format`` of each question):

* combination of correct/wrong statements ア〜オ, options ``１．ア イ ２．ア エ …`` on one line;
* ○× table over three statements, eight options three to a line;
* one 1/2 slot per statement (``アからウの順に［No.５］から［No.７］``), each statement ending
  in its own ``［No.n］``, in 憲法 also with nested ａ．/ｂ． views;
* choose two (``［No.１］、［No.２］順不同``);
* lead-in blocks ``【事 例】``, ``【見 解】``, ``【会 話】`` and ``【語句群】`` with blanks （ａ）…;
* numbered statements ``１．…`` (刑法) with a single answer or two;
* a remark ``なお、…。`` in the stem;
* a ``［No.`` marker broken across lines and questions (even option grids) that run across a
  page break — those come out of the layout and are checked by the tests.

One module per subject (:mod:`.kenpo`, :mod:`.minpo`, :mod:`.keiho`) holds its questions as
data, written with :mod:`.builder`.
"""

from __future__ import annotations

from buildds.sample.content import keiho, kenpo, minpo
from buildds.sample.model import Question, no_marker

__all__ = ["FORMATS", "QUESTIONS", "SUBJECT_CODES", "YEAR", "full_marks"]

YEAR = 2025
SUBJECT_CODES = ("kenpo", "minpo", "keiho")

QUESTIONS: dict[str, tuple[Question, ...]] = {
    "kenpo": tuple(kenpo.questions()),
    "minpo": tuple(minpo.questions()),
    "keiho": tuple(keiho.questions()),
}


def full_marks(subject: str) -> int:
    """満点: the sum of the question points (the sample has fewer questions than the real exam)."""
    return sum(q.points for q in QUESTIONS[subject])


#: (subject, question, format, slots) rows, for documentation
FORMATS: tuple[tuple[str, int, str, str], ...] = tuple(
    (s, q.number, q.format, "、".join(no_marker(n) for n in q.slots))
    for s in SUBJECT_CODES for q in QUESTIONS[s]
)
