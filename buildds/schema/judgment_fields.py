"""Where a judgments corpus keeps each part of a judgment: a declared field mapping
(:class:`JudgmentFieldMap`).

Users bring their own corpora, so ``buildds judgments`` reads a JSON-lines file by a mapping
from the parts a :class:`~buildds.schema.judgments.Judgment` needs (id, full text, facts,
reasoning, judgment part, date, charges, the case key shared across corpora, the procedure)
to the record's keys. A key may be a dotted path into nested objects (``meta.accusation``).
The built-in mappings (``judge``, ``cail``, ``lecard``, ``caseformer``) live in
:mod:`buildds.extract.judgments.field_maps`, which also reads a user mapping from YAML.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from buildds.schema.core import Frozen

__all__ = ["FIELD_PATH", "JudgmentFieldMap"]

#: a record key, or a dotted path of keys into nested objects
FIELD_PATH = r"^[^.\s][^.]*(\.[^.\s][^.]*)*$"


class JudgmentFieldMap(Frozen):
    """Which key of a JSON record holds which part of a judgment.

    ``detect``: the keys that make a record this format (all of them, or any one with
    ``detect_mode: any``); ``reader``: ``mapped`` reads the parts below; ``judge`` and
    ``cail`` are the dedicated readers of those corpora (their own layouts: a full text to
    split, or a fact text with a structured meta). For ``mapped``: ``id`` (the record's id,
    unique across all inputs: a repeat is ``duplicate_id``; none declared: ``<name>-<line>``),
    ``case_key`` (the case id other corpora share: a case read before from any input is
    ``duplicate_case``), ``full_text`` (the whole judgment; without it the parts are joined
    by newlines), ``facts``, ``reasoning`` (本院认为 …), ``judgment`` (the operative part,
    判决如下 …; without it the full text is split at its last 判决如下), ``date`` (the judgment
    date as text; without it the last Chinese-numeral date of the full text), ``charges``
    (a list of charge names, checked against the parsed ones), ``procedure`` (text naming
    the procedure, e.g. ``…一审刑事判决书``: only first-instance judgments are kept)."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,31}$")
    description: str = ""
    reader: Literal["judge", "cail", "mapped"] = "mapped"
    detect: tuple[str, ...] = Field(min_length=1)
    detect_mode: Literal["all", "any"] = "all"
    id: str | None = Field(default=None, pattern=FIELD_PATH)
    case_key: str | None = Field(default=None, pattern=FIELD_PATH)
    full_text: str | None = Field(default=None, pattern=FIELD_PATH)
    facts: str | None = Field(default=None, pattern=FIELD_PATH)
    reasoning: str | None = Field(default=None, pattern=FIELD_PATH)
    judgment: str | None = Field(default=None, pattern=FIELD_PATH)
    date: str | None = Field(default=None, pattern=FIELD_PATH)
    charges: str | None = Field(default=None, pattern=FIELD_PATH)
    procedure: str | None = Field(default=None, pattern=FIELD_PATH)

    @model_validator(mode="after")
    def _has_text(self) -> JudgmentFieldMap:
        if self.reader == "mapped" and self.full_text is None and self.judgment is None:
            raise ValueError("a mapping needs full_text or judgment (the operative part)")
        return self

    def matches(self, record: dict[str, object]) -> bool:
        """Whether ``record`` has this format's ``detect`` keys (top-level or dotted)."""
        found = (_has_path(record, key) for key in self.detect)
        return any(found) if self.detect_mode == "any" else all(found)

    def part_paths(self) -> dict[str, str]:
        """The declared parts: {part name: record path}."""
        parts = ("id", "case_key", "full_text", "facts", "reasoning", "judgment", "date",
                 "charges", "procedure")
        return {p: getattr(self, p) for p in parts if getattr(self, p) is not None}


def _has_path(record: object, path: str) -> bool:
    for key in path.split("."):
        if not isinstance(record, dict) or key not in record:
            return False
        record = record[key]
    return True
