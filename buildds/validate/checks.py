"""Checks beyond the pandera model: extraction artefacts, duplicates, exclusions (the label
balance is in :mod:`buildds.validate.balance`).

Every check reads a DataFrame of JBE-QA items (the columns of
:class:`buildds.schema.JbeItem`) and returns findings keyed by item id:

* **flags** (:class:`FlagEntry`) — worth a look, not wrong by themselves: leftover
  ``［No.３］`` slot markers, page-number lines (``- 12 -``), ``(cid:123)`` glyphs,
  unbalanced brackets, statements that stop mid-sentence, a （参照条文） block glued onto a
  statement, ASCII spaces inside Japanese
  text (letter-spaced extraction), invisible or private-use characters, the same statement
  twice within a subject, a true share outside the balance bound, an excluded question
  that still has items.
* **errors** (:class:`ErrorEntry`) — the dataset is wrong: U+FFFD or control characters
  in text, an exclusion without a reason or a message.

The text checks are table-driven (:data:`TEXT_CHECKS`): a name, a severity, the columns
it reads and a function ``text -> message | None``.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

import numpy as np
import pandas as pd
import regex

from buildds.validate.schemas import id_sort_key

__all__ = [
    "TEXT_CHECKS",
    "TEXT_COLUMNS",
    "ErrorEntry",
    "FlagEntry",
    "TextCheck",
    "bad_characters",
    "cid_glyph",
    "duplicate_statements",
    "exclusion_findings",
    "exclusion_rows",
    "invisible_characters",
    "page_number_line",
    "reference_block",
    "slot_marker",
    "space_in_japanese",
    "text_findings",
    "unbalanced_brackets",
    "unfinished_statement",
]

#: the free-text fields of an item, in the order findings name them
TEXT_COLUMNS: tuple[str, ...] = ("question", "instruction", "theme", "lead_in", "remark")


class ErrorEntry(TypedDict):
    check: str
    column: str
    ids: list[str]
    message: str


class FlagEntry(TypedDict):
    check: str
    id: str
    message: str


def snippet(text: str, width: int = 24, *, tail: bool = False) -> str:
    """A short one-line excerpt for a message."""
    flat = re.sub(r"\s+", " ", text).strip()
    if len(flat) <= width:
        return flat
    return "…" + flat[-width:] if tail else flat[:width] + "…"


# --------------------------------------------------------------------------- text checks
_SLOT_MARKER = re.compile(r"\[\s*No\s*(?:\.\s*\d*|\d+)\s*\]?", re.IGNORECASE)
_DASHES = "-‐‑‒–—―−"
_PAGE_LINE = re.compile(rf"^\s*[{_DASHES}]\s*\d{{1,3}}\s*[{_DASHES}]\s*$", re.MULTILINE)
_PAGE_INLINE = re.compile(rf"[{_DASHES}]\s+\d{{1,3}}\s+[{_DASHES}]")
_CID = re.compile(r"\(cid:\d+\)")
_OPEN_TO_CLOSE = {"（": "）", "(": "）", "「": "」", "『": "』", "【": "】", "〔": "〕"}
_CLOSERS = {"）": "（", ")": "（", "」": "「", "』": "『", "】": "【", "〕": "〔"}
_END_OK = re.compile(r"。[」』）)】〕”’]*$")
_CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff10-\uff19\uff21-\uff5a"
_SPACED = re.compile(rf"[{_CJK}] +[{_CJK}]")
# One regex pass per text instead of a unicodedata call per character (3,000 items with long
# lead-ins: 0.9 s → a few ms).
_BAD_CHAR = regex.compile(r"[\p{Cc}\ufffd--[\n\t]]", regex.V1)
_INVISIBLE = regex.compile(r"[\p{Cf}\p{Co}]")
_REFERENCE = re.compile(r"[（(〔【]参照条文[）)〕】]")


def slot_marker(text: str) -> str | None:
    """A leftover answer-slot marker ``［No.３］`` / ``[No.3]``."""
    m = _SLOT_MARKER.search(unicodedata.normalize("NFKC", text))
    return f"leftover slot marker {m.group(0)!r}" if m else None


def page_number_line(text: str) -> str | None:
    """A page number that slipped into the text: a line ``- 12 -`` (or ``- 12 -`` inline)."""
    norm = unicodedata.normalize("NFKC", text)
    m = _PAGE_LINE.search(norm) or _PAGE_INLINE.search(norm)
    return f"page number {m.group(0).strip()!r} in text" if m else None


def cid_glyph(text: str) -> str | None:
    """``(cid:123)``: a glyph the PDF text layer could not map to a character."""
    found = sorted(set(_CID.findall(text)))
    return f"unmapped glyph {', '.join(found[:3])}" if found else None


def unbalanced_brackets(text: str) -> str | None:
    """Brackets （）「」『』【】〔〕 that do not pair up (ASCII () count as （）)."""
    stack: list[tuple[str, int]] = []
    for pos, ch in enumerate(text):
        if ch in _OPEN_TO_CLOSE:
            stack.append(("（" if ch == "(" else ch, pos))
        elif ch in _CLOSERS:
            want = _CLOSERS[ch]
            if not stack or stack[-1][0] != want:
                return f"unmatched {ch!r} at {snippet(text[max(0, pos - 12):pos + 1], tail=True)!r}"
            stack.pop()
    if stack:
        ch, pos = stack[-1]
        return f"unclosed {ch!r} at {snippet(text[pos:pos + 13])!r}"
    return None


def unfinished_statement(text: str) -> str | None:
    """A statement that does not end in 。 (optionally followed by closing brackets)."""
    stripped = text.rstrip()
    if not stripped or _END_OK.search(stripped):
        return None
    return f"does not end in 。: {snippet(stripped, tail=True)!r}"


def reference_block(text: str) -> str | None:
    """A （参照条文） block (the statute text printed under a question) inside a statement:
    the block was glued onto the last statement."""
    m = _REFERENCE.search(text)
    return f"contains {m.group(0)!r} block: {snippet(text[m.start():])!r}" if m else None


def space_in_japanese(text: str) -> str | None:
    """An ASCII space between two Japanese characters (letter-spaced extraction)."""
    m = _SPACED.search(text)
    return f"space inside Japanese text: {m.group(0)!r}" if m else None


def bad_characters(text: str) -> str | None:
    """U+FFFD (a failed decode) or control characters other than newline and tab."""
    bad = sorted(set(_BAD_CHAR.findall(text)))
    if not bad:
        return None
    return "contains " + ", ".join(f"U+{ord(ch):04X}" for ch in bad)


def invisible_characters(text: str) -> str | None:
    """Zero-width / format characters (U+200B, U+FEFF …) and private-use code points
    (gaiji the PDF mapped into the private-use area)."""
    bad = sorted(set(_INVISIBLE.findall(text)))
    if not bad:
        return None
    return "contains " + ", ".join(f"U+{ord(ch):04X}" for ch in bad)


@dataclass(frozen=True)
class TextCheck:
    name: str
    severity: Literal["error", "flag"]
    columns: tuple[str, ...]
    find: Callable[[str], str | None]


TEXT_CHECKS: tuple[TextCheck, ...] = (
    TextCheck("bad_character", "error", TEXT_COLUMNS, bad_characters),
    TextCheck("slot_marker", "flag", TEXT_COLUMNS, slot_marker),
    TextCheck("page_number", "flag", TEXT_COLUMNS, page_number_line),
    TextCheck("cid_glyph", "flag", TEXT_COLUMNS, cid_glyph),
    TextCheck("unbalanced_brackets", "flag", TEXT_COLUMNS, unbalanced_brackets),
    TextCheck("unfinished_statement", "flag", ("question",), unfinished_statement),
    TextCheck("reference_block", "flag", ("question",), reference_block),
    TextCheck("space_in_japanese", "flag", ("question", "lead_in"), space_in_japanese),
    TextCheck("invisible_character", "flag", TEXT_COLUMNS, invisible_characters),
)


def item_ids(df: pd.DataFrame) -> list[str]:
    """The id of each row (``<row n>`` where the id is missing), positionally."""
    if "id" not in df.columns:
        return [f"<row {i}>" for i in range(len(df))]
    return [v if isinstance(v, str) and v.strip() else f"<row {i}>"
            for i, v in enumerate(df["id"])]


def text_findings(df: pd.DataFrame, checks: Iterable[TextCheck] = TEXT_CHECKS
                  ) -> tuple[list[ErrorEntry], list[FlagEntry]]:
    """Run the text checks over every item; errors are grouped per (check, column)."""
    ids = item_ids(df)
    errors: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    flags: list[FlagEntry] = []
    for check in checks:
        for column in check.columns:
            if column not in df.columns:
                continue
            for id_, value in zip(ids, df[column]):
                if not isinstance(value, str):
                    continue
                message = check.find(value)
                if message is None:
                    continue
                if check.severity == "error":
                    got_ids, messages = errors.setdefault((check.name, column), ([], []))
                    got_ids.append(id_)
                    messages.append(message)
                else:
                    flags.append({"check": check.name, "id": id_,
                                  "message": f"{column}: {message}"})
    error_entries: list[ErrorEntry] = []
    for (name, column), (got_ids, messages) in errors.items():
        examples = "; ".join(sorted(set(messages))[:3])
        error_entries.append({"check": name, "column": column,
                              "ids": sorted(set(got_ids), key=id_sort_key),
                              "message": f"{column} {examples}"})
    return error_entries, flags


# --------------------------------------------------------------------------- duplicates
def _normalise_statement(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).lower()


def duplicate_statements(df: pd.DataFrame) -> list[FlagEntry]:
    """The same statement text (NFKC, whitespace ignored) twice within one subject: every
    id of the group is flagged and names the others."""
    if "question" not in df.columns:
        return []
    ids = item_ids(df)
    subjects = df["subject"] if "subject" in df.columns else pd.Series([""] * len(df))
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for id_, subject, text in zip(ids, subjects, df["question"]):
        if isinstance(text, str) and text.strip():
            groups[(str(subject), _normalise_statement(text))].append(id_)
    flags: list[FlagEntry] = []
    for (subject, _), members in groups.items():
        if len(members) < 2:
            continue
        for id_ in members:
            others = [o for o in sorted(members, key=id_sort_key) if o != id_]
            shown = ", ".join(others[:5])
            if len(others) > 5:
                shown += f" (+{len(others) - 5} more)"
            flags.append({"check": "duplicate_statement", "id": id_,
                          "message": f"same statement as {shown} ({subject})"})
    return flags


# --------------------------------------------------------------------------- exclusions
def _clean(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, float) and np.isnan(v):
        return None
    return v


def exclusion_rows(exclusions: Iterable[Mapping[str, Any]] | pd.DataFrame | None
                   ) -> list[dict[str, Any]]:
    """Exclusions as plain dicts (NaN → None), from a list of dicts/records or a DataFrame."""
    if exclusions is None:
        return []
    if isinstance(exclusions, pd.DataFrame):
        records: Iterable[Any] = exclusions.to_dict(orient="records")
    else:
        records = exclusions
    rows = []
    for r in records:
        if hasattr(r, "model_dump"):
            r = r.model_dump()
        rows.append({str(k): _clean(v) for k, v in dict(r).items()})
    return rows


def _exclusion_key(row: Mapping[str, Any], n: int) -> str:
    for key in ("id", "source"):
        v = row.get(key)
        if isinstance(v, str) and v.strip():
            return v
    return f"<exclusion {n}>"


def exclusion_findings(rows: list[dict[str, Any]], item_ids_: Iterable[str]
                       ) -> tuple[list[ErrorEntry], list[FlagEntry], dict[str, list[str]]]:
    """(errors, flags, ids by reason) for the excluded questions.

    Error: an exclusion without a non-empty ``reason`` or ``message``. Flag: an excluded
    question id that still has items (``<question id>-<n>``) in the dataset."""
    no_reason: list[str] = []
    no_message: list[str] = []
    by_reason: dict[str, list[str]] = defaultdict(list)
    ids = [i for i in item_ids_ if isinstance(i, str)]
    question_ids = Counter(i.rsplit("-", 1)[0] for i in ids)
    all_ids = set(ids)
    flags: list[FlagEntry] = []
    for n, row in enumerate(rows):
        key = _exclusion_key(row, n)
        reason = row.get("reason")
        message = row.get("message")
        if not (isinstance(reason, str) and reason.strip()):
            no_reason.append(key)
            reason = "(missing)"
        if not (isinstance(message, str) and message.strip()):
            no_message.append(key)
        by_reason[reason].append(key)
        qid = row.get("id")
        if isinstance(qid, str) and (question_ids.get(qid) or qid in all_ids):
            flags.append({"check": "excluded_but_present", "id": qid,
                          "message": f"excluded ({reason}) but the dataset has "
                                     f"{question_ids.get(qid, 0) or 1} item(s) for it"})
    errors: list[ErrorEntry] = []
    if no_reason:
        errors.append({"check": "exclusion_reason", "column": "reason",
                       "ids": sorted(set(no_reason), key=id_sort_key),
                       "message": "excluded question without a reason"})
    if no_message:
        errors.append({"check": "exclusion_message", "column": "message",
                       "ids": sorted(set(no_message), key=id_sort_key),
                       "message": "excluded question without a message"})
    return errors, flags, {r: sorted(ids, key=id_sort_key) for r, ids in sorted(by_reason.items())}
