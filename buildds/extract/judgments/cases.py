"""Which case a judgment decides, and at which instance: the case number of its header
(:func:`case_number`), the procedure (:func:`procedure_of`: first instance, appeal,
retrial), and the cases already read across all inputs (:class:`CaseRegistry`), so one case
published in two corpora (JuDGE's ``text_id`` is LeCaRD's ``ajId``) or as two documents is
kept once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, MutableMapping
from typing import Literal

__all__ = ["CaseRegistry", "Procedure", "case_number", "procedure_of"]

Procedure = Literal["first", "appeal", "retrial", "unknown"]

#: a case number: （2018）渝0240刑初301号, (2015)浦刑初字第43号, 〔2017〕…号
_CASE_NO_RE = re.compile(r"[（(〔\[［]\s*(?:19|20)\d\d\s*[）)〕\]］]\s*[^\s，,。；;：:（）()]{1,24}?号")
_BRACKETS = str.maketrans("", "", "（）()〔〕[]［］ \u3000")
#: how far into the text the court's own case number is printed (the header)
_HEADER_CHARS = 400
_PROCEDURE_WORDS: tuple[tuple[str, Procedure], ...] = (
    ("再审", "retrial"), ("二审", "appeal"), ("终审", "appeal"), ("一审", "first"))
_CASE_NO_PROCEDURE: tuple[tuple[str, Procedure], ...] = (
    ("刑再", "retrial"), ("刑监", "retrial"), ("刑申", "retrial"), ("刑终", "appeal"),
    ("刑初", "first"))


def case_number(full_text: str) -> str | None:
    """The case number printed in the header (the first 400 characters), brackets and
    spaces removed (``2018渝0240刑初301号``); None without one."""
    m = _CASE_NO_RE.search(full_text[:_HEADER_CHARS])
    return m[0].translate(_BRACKETS) if m else None


def procedure_of(title: str | None, number: str | None) -> Procedure:
    """The procedure named by a document's title or type (``…一审刑事判决书``, 刑事一审,
    二审, 再审), else by its case number (刑初 first, 刑终 appeal, 刑再/刑监/刑申 retrial)."""
    for word, kind in _PROCEDURE_WORDS:
        if title and word in title:
            return kind
    for word, kind in _CASE_NO_PROCEDURE:
        if number and word in number:
            return kind
    return "unknown"


class CaseRegistry:
    """The case keys read so far (a declared case id, a case number) → where the first
    judgment of that case was read (``<file> line <n>``), across every input of a run;
    ``store``: where to keep them (a dict by default; a run that must not hold one entry per
    judgment gives a :class:`~buildds.safeio.spilled_map.SpilledMap`)."""

    def __init__(self, store: MutableMapping[str, str] | None = None) -> None:
        self._first: MutableMapping[str, str] = {} if store is None else store

    def claim(self, keys: Iterable[str | None], where: str) -> tuple[str, str] | None:
        """(key, where it was first read) when one of ``keys`` is known; otherwise every
        key is recorded as read at ``where`` and None is returned."""
        wanted = [k for k in dict.fromkeys(keys) if k]
        for key in wanted:
            if key in self._first:
                return key, self._first[key]
        for key in wanted:
            self._first[key] = where
        return None
