"""The rejects of each stage of a ``buildds judgments`` run, as rows of ``rejects.jsonl``:
:class:`ExtractReject`, :class:`InjectReject`, :class:`NormalRowReject`,
:class:`ValidationReject`; :meth:`RunReject.kwargs` are the keyword arguments of
:meth:`buildds.pipeline.Rejects.add`. :mod:`buildds.schema.judgments_report` re-exports them."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

__all__ = ["ExtractReject", "InjectReject", "NormalRowReject", "RunReject", "ValidationReject"]


@dataclass(frozen=True)
class RunReject:
    """A row of ``rejects.jsonl``; :meth:`kwargs` are :meth:`Rejects.add`'s keywords."""

    STAGE: ClassVar[str] = ""

    def kwargs(self) -> dict[str, Any]:
        return {"stage": self.STAGE, **{f.name: getattr(self, f.name) for f in fields(self)}}


@dataclass(frozen=True)
class ExtractReject(RunReject):
    """A line of an input that is not a judgment (or of an input with no known format)."""

    STAGE: ClassVar[str] = "extract"
    reason: str
    message: str
    source: str
    id: str | None
    line: int
    dataset: str | None


@dataclass(frozen=True)
class InjectReject(RunReject):
    """An injection that could not be made validly."""

    STAGE: ClassVar[str] = "inject"
    reason: str
    message: str
    id: str
    error_type: str


@dataclass(frozen=True)
class NormalRowReject(RunReject):
    """A judgment without a judgment part: it cannot be a normal row."""

    STAGE: ClassVar[str] = "arbench"
    id: str
    dataset: str
    reason: str = "no_judgment_part"
    message: str = "no judgment text: cannot be a normal row"


@dataclass(frozen=True)
class ValidationReject(RunReject):
    """A row left out of the export because it failed a check (``reason``)."""

    STAGE: ClassVar[str] = "validate"
    reason: str
    message: str
    id: str
    source_id: str
    dataset: str
