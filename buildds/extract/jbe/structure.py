"""Statement or option? Decided by how the question refers to its numbered blocks.

A booklet prints numbered blocks ``１．…`` after the stem in two roles:

* **options** — they *refer to* the question's statements or name an answer built from
  them: a set of labels (``１．ア イ``, ``１．アとウ``), a ○× row (``１．ア○ イ× ウ○``), a count
  (``１．２個``), an assignment (``１．Ａ－ア Ｂ－ウ``), or a combination of values the stem
  asks to combine (``Ｂ：１２５０万円 Ｃ：…`` under ``…を組み合わせたものは``);
* **statements** — the answer key's number names the block itself: the question has no
  labelled statements (ア．…) for options to refer to, the stem asks for one or two blocks
  that have a property (``…ものはどれか``, ``…を２個選びなさい``), and each block says
  something (``強盗致傷罪の教唆犯が成立する。``) rather than listing labels.

Where the blocks stand (after a 【事例】, after ``後記``) does not decide it: 2018 刑法 Q17 and
2015 刑法 Q18 print numbered statements after a 【事例】 under ``後記１から５までのうちどれか``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

__all__ = ["numbered_blocks_are_statements", "refers_to_labels"]

#: what an option that refers to statements is made of: labels, marks, counts, connectors
_REFERENCE_ONLY = re.compile(
    r"^[\sア-ンａ-ｅa-eＡ-ＥA-E○〇×０-９0-9個とのみ及び並びに、，,・\-－ーⅠ-ⅩIVX①-⑳]*$")
#: a stem that asks for a combination or a count: its numbered blocks are answers
_COMBINES = re.compile(r"組合せ|組み合わせ|個数|いくつ|何個")


def refers_to_labels(text: str) -> bool:
    """True when an option's text only refers to labels, marks or a count (``ア イ``,
    ``ア○ イ×``, ``２個``, ``Ａ－ア Ｂ－ウ``), so it is an option of the question."""
    return bool(_REFERENCE_ONLY.match(unicodedata.normalize("NFC", text)))


def numbered_blocks_are_statements(stem: str, labelled_statements: int,
                                   option_texts: Sequence[str]) -> bool:
    """Whether numbered blocks read as options are in fact the question's statements:
    there are no labelled statements, the stem does not ask to combine or count, and no
    block merely refers to labels."""
    if labelled_statements or not option_texts or _COMBINES.search(stem):
        return False
    return all(_says_something(t) for t in option_texts)


def _says_something(text: str) -> bool:
    """A sentence, not a label list nor a bare value (``１００万円``): it has kana and more
    than a few characters."""
    return not refers_to_labels(text) and len(text.strip()) >= 6 and bool(_KANA.search(text))


_KANA = re.compile(r"[ぁ-ん]")
