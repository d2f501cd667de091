"""The record types of the bundled sample exam (question text, slots, answers).

Kept apart from :mod:`buildds.sample.content` (the questions themselves) and from
:mod:`buildds.sample.typeset_booklet` (the drawing), and free of reportlab, so that tests and
the pipeline can read the ground truth without the ``sample`` extra installed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "Block",
    "Item",
    "Question",
    "SlotMode",
    "fw_number",
    "no_marker",
    "slot_marker",
]

SlotMode = Literal["single", "per_statement", "unordered"]

_FW = str.maketrans("0123456789", "０１２３４５６７８９")


def fw_number(n: int) -> str:
    """A number as the booklets print it: full-width for 1–9, half-width from 10."""
    return str(n).translate(_FW) if n < 10 else str(n)


def no_marker(n: int) -> str:
    """``［No.５］``, ``［No.14］``."""
    return f"［No.{fw_number(n)}］"


@dataclass(frozen=True)
class Item:
    """A statement (``ア．…``), a numbered statement (``１．…``) or a nested view (``ａ．…``).

    ``slot`` is the answer slot the statement carries at its end (``［No.n］``); for a
    statement with ``parts`` the marker ends the last part, as in the booklets."""

    label: str
    text: str
    slot: int | None = None
    parts: tuple[Item, ...] = ()


@dataclass(frozen=True)
class Block:
    """A lead-in block under its own heading: ``【事 例】``, ``【見 解】``, ``【会 話】``, ``【語句群】``.

    ``paragraphs`` are indented paragraphs (事例/見解), ``speakers`` are ``(speaker, text)``
    turns with a hanging indent (会話), ``words`` are the word choices set on tab stops
    (語句群, each ``ア．…``)."""

    kind: str
    paragraphs: tuple[str, ...] = ()
    speakers: tuple[tuple[str, str], ...] = ()
    words: tuple[str, ...] = ()

    @property
    def heading(self) -> str:
        """The heading as printed: two-character headings are letter-spaced (``【事 例】``)."""
        return f"【{' '.join(self.kind)}】" if len(self.kind) == 2 else f"【{self.kind}】"


@dataclass(frozen=True)
class Question:
    """One question of a sample booklet, with its correct answers.

    ``stem`` is the question sentence without the remark and without the answer-slot marker;
    :attr:`full_stem` puts the three together as printed. ``answers`` has one entry per slot
    (for a choose-two question, the two correct numbers in ascending order). ``options`` are
    the option texts without their numbers; ``option_tab`` is the tab-stop width in characters
    when several options share a line (0: one option per line)."""

    number: int
    points: int
    stem: str
    slot_mode: SlotMode
    slots: tuple[int, ...]
    answers: tuple[str, ...]
    statements: tuple[Item, ...] = ()
    lead_ins: tuple[Block, ...] = ()
    options: tuple[str, ...] = ()
    option_tab: int = 0
    remark: str | None = None
    #: the 備考 note of the answer key ("2問正解で部分点1点", "順不同（部分点なし）")
    note: str | None = None
    #: short description of the format, for documentation and tests
    format: str = field(default="", compare=False)

    @property
    def marker(self) -> str:
        return slot_marker(self)

    @property
    def full_stem(self) -> str:
        return self.stem + (self.remark or "") + self.marker


def slot_marker(q: Question) -> str:
    """The answer-slot marker that ends the stem, in the 2022+ punctuation (``、``)."""
    if q.slot_mode == "single":
        return f"（解答欄は、{no_marker(q.slots[0])}）"
    if q.slot_mode == "unordered":
        return f"（解答欄は、{no_marker(q.slots[0])}、{no_marker(q.slots[1])}順不同）"
    first, last = q.statements[0].label, q.statements[-1].label
    return (f"（解答欄は、{first}から{last}の順に{no_marker(q.slots[0])}から"
            f"{no_marker(q.slots[-1])}）")
