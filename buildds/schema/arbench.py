"""The AR-Bench row (seed 003): what :mod:`buildds.inject_errors.arbench_rows` makes,
:mod:`buildds.validate.arbench` checks and :mod:`buildds.export.arbench` writes.

One :class:`ArbenchRow` per judgment *version* (a normal judgment or one injected error).
:meth:`ArbenchRow.as_dict` is the row as the export holds it — the columns of
:data:`COLUMNS`, in that order (the export's features follow it), the list columns as
lists and the JSON columns (``gold_correction``, ``rationale``, ``edits``) as compact JSON
text with sorted keys.

``edits`` are typed (:class:`~buildds.schema.judgments.SpanEdit`). ``gold_correction`` and
``rationale`` stay mappings: their keys depend on the error type (``{"charge": …}``,
``{"months": …}``, ``{"factor": …, "article": …}`` …; a rationale names a tier, a range, a
confusable pair …) and they are the injection's own ``dict[str, object]``
(:class:`~buildds.schema.judgments.InjectedJudgment`), which the injectors build.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from buildds.schema.judgments import ErrorClass, ErrorType, SpanEdit

__all__ = ["COLUMNS", "FACTOR_GROUPS", "ArbenchRow", "FactorGroup"]

#: AR-Bench's factor category of a judgment (Figure 3)
FactorGroup = Literal["none", "mitigating", "aggravating", "mixed"]
FACTOR_GROUPS: tuple[str, ...] = FactorGroup.__args__  # type: ignore[attr-defined]


def _json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True, kw_only=True)
class ArbenchRow:
    """One AR-Bench row: a normal judgment (``label`` 0, ``error_type``/``error_class``
    ``none``) or an injected one (``label`` 1). Field order is the column order."""

    #: ``<source id>-<error type>-<seed>``, or ``<source id>-none`` for a normal judgment
    id: str
    source_id: str
    dataset: str
    error_type: ErrorType | Literal["none"]
    error_class: ErrorClass | Literal["none"]
    label: Literal[0, 1]
    factor: FactorGroup
    #: the original judgment's charges (without 罪)
    charges: tuple[str, ...]
    facts: str
    #: the (anomalous) judgment part, and the one the court wrote
    judgment: str
    original_judgment: str
    #: the normal reasoning, and the reasoning after injection
    reasoning: str
    anomalous_reasoning: str
    #: labels (``第六十七条``) of the articles the normal / anomalous reasoning cites
    cited_articles: tuple[str, ...]
    anomalous_cited_articles: tuple[str, ...]
    articles_text: str
    anomalous_articles_text: str
    #: the values to restore (empty for a normal row)
    gold_correction: Mapping[str, object]
    #: why the injected value is wrong (a normal row: the error type it was drawn for,
    #: ``matched_for``, and the bin, ``matched_on`` — :mod:`buildds.inject_errors.normal_matching`)
    rationale: Mapping[str, object]
    edits: tuple[SpanEdit, ...]
    seed: int
    #: the exact model input of the settings S1–S5
    input_s1: str
    input_s2: str
    input_s3: str
    input_s4: str
    input_s5: str

    def as_dict(self) -> dict[str, Any]:
        """The row as the export holds it (see the module docstring)."""
        return {
            "id": self.id, "source_id": self.source_id, "dataset": self.dataset,
            "error_type": self.error_type, "error_class": self.error_class,
            "label": self.label, "factor": self.factor, "charges": list(self.charges),
            "facts": self.facts, "judgment": self.judgment,
            "original_judgment": self.original_judgment, "reasoning": self.reasoning,
            "anomalous_reasoning": self.anomalous_reasoning,
            "cited_articles": list(self.cited_articles),
            "anomalous_cited_articles": list(self.anomalous_cited_articles),
            "articles_text": self.articles_text,
            "anomalous_articles_text": self.anomalous_articles_text,
            "gold_correction": _json(dict(self.gold_correction)),
            "rationale": _json(dict(self.rationale)),
            "edits": _json([e.model_dump() for e in self.edits]), "seed": self.seed,
            "input_s1": self.input_s1, "input_s2": self.input_s2, "input_s3": self.input_s3,
            "input_s4": self.input_s4, "input_s5": self.input_s5,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """The row :meth:`as_dict` gave ``data`` (a shard's parquet row read back): the list
        columns as tuples, the JSON columns parsed, the edits typed again."""
        return cls(**{**{f.name: data[f.name] for f in fields(cls)},
                      "charges": tuple(data["charges"]),
                      "cited_articles": tuple(data["cited_articles"]),
                      "anomalous_cited_articles": tuple(data["anomalous_cited_articles"]),
                      "gold_correction": json.loads(data["gold_correction"]),
                      "rationale": json.loads(data["rationale"]),
                      "edits": tuple(SpanEdit.model_validate(e) for e in json.loads(data["edits"]))})


#: the row columns, in order (the export's features follow this order)
COLUMNS: tuple[str, ...] = tuple(f.name for f in fields(ArbenchRow))
