"""What the sample exam's subjects are written with: the option and marker constants, and
:class:`QuestionBuilder`, which numbers questions and answer slots as they are added."""

from __future__ import annotations

from collections.abc import Sequence

from buildds.sample.model import Block, Item, Question, SlotMode

__all__ = ["COMBINATION_TAB", "KATAKANA", "MARU_BATSU", "MARU_BATSU_TAB", "NOTE_PARTIAL_3",
           "NOTE_PARTIAL_5", "NOTE_UNORDERED", "NUMBERS", "PARTS", "QuestionBuilder", "pairs"]

KATAKANA = "アイウエオカキクケコ"
NUMBERS = "１２３４５６７８９"
PARTS = "ａｂ"

#: ○× table for three statements: the eight options, set three to a line on 14-character stops
MARU_BATSU = tuple(
    f"ア{a}　イ{b}　ウ{c}"
    for a in "○×" for b in "○×" for c in "○×"
)
MARU_BATSU_TAB = 14
#: combination options ``ア　イ`` sit on 7-character stops, all five on one line
COMBINATION_TAB = 7

NOTE_PARTIAL_3 = "2問正解で部分点1点"
NOTE_PARTIAL_5 = "4問正解で部分点2点"
NOTE_UNORDERED = "順不同（部分点なし）"


def pairs(*pairs: str) -> tuple[str, ...]:
    """Combination options from two-letter strings: ``"アイ"`` → ``"ア　イ"``."""
    return tuple(f"{p[0]}　{p[1]}" for p in pairs)


class QuestionBuilder:
    """Numbers questions and answer slots as they are added, so they always run 1..N."""

    def __init__(self) -> None:
        self.questions: list[Question] = []
        self.next_slot = 1

    def _add(self, *, points: int, stem: str, mode: SlotMode, n_slots: int,
             answers: Sequence[str], statements: Sequence[Item] = (),
             lead_ins: Sequence[Block] = (), options: Sequence[str] = (), option_tab: int = 0,
             remark: str | None = None, note: str | None = None, format: str = "") -> None:
        slots = tuple(range(self.next_slot, self.next_slot + n_slots))
        self.next_slot += n_slots
        if len(answers) != n_slots:
            raise ValueError(f"question {len(self.questions) + 1}: {len(answers)} answers "
                             f"for {n_slots} slots")
        self.questions.append(Question(
            number=len(self.questions) + 1, points=points, stem=stem, slot_mode=mode,
            slots=slots, answers=tuple(answers), statements=tuple(statements),
            lead_ins=tuple(lead_ins), options=tuple(options), option_tab=option_tab,
            remark=remark, note=note, format=format))

    def single(self, *, points: int = 2, stem: str, answer: str,
               statements: Sequence[str] = (), numbered: bool = False,
               lead_ins: Sequence[Block] = (), options: Sequence[str] = (),
               option_tab: int = 0, remark: str | None = None, format: str = "") -> None:
        labels = NUMBERS if numbered else KATAKANA
        items = [Item(labels[i], text) for i, text in enumerate(statements)]
        self._add(points=points, stem=stem, mode="single", n_slots=1, answers=[answer],
                  statements=items, lead_ins=lead_ins, options=options,
                  option_tab=option_tab, remark=remark, format=format)

    def per_statement(self, *, points: int, stem: str, answers: str,
                      statements: Sequence[str | tuple[str, str]], note: str,
                      lead_ins: Sequence[Block] = (), format: str = "") -> None:
        items = []
        for i, st in enumerate(statements):
            slot = self.next_slot + i
            if isinstance(st, tuple):  # a pair of views ａ．/ｂ．
                parts = (Item("ａ", st[0]), Item("ｂ", st[1], slot=slot))
                items.append(Item(KATAKANA[i], "", slot=slot, parts=parts))
            else:
                items.append(Item(KATAKANA[i], st, slot=slot))
        self._add(points=points, stem=stem, mode="per_statement", n_slots=len(items),
                  answers=list(answers), statements=items, lead_ins=lead_ins, note=note,
                  format=format)

    def choose_two(self, *, points: int = 3, stem: str, answers: tuple[str, str],
                   statements: Sequence[str], format: str = "") -> None:
        items = [Item(NUMBERS[i], text) for i, text in enumerate(statements)]
        self._add(points=points, stem=stem, mode="unordered", n_slots=2,
                  answers=sorted(answers), statements=items, note=NOTE_UNORDERED,
                  format=format)
