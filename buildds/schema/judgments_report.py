"""What a ``buildds judgments`` run reports: its inputs, counts, rejects and summary.

:func:`buildds.jobs.judgments.build_judgments` fills a :class:`JudgmentsReport`; the command
prints its summary and failure lines, and ``report.json`` / ``report.md`` are written from it
(:meth:`JudgmentsReport.as_json`, :meth:`JudgmentsReport.to_markdown`). The entries of the
report are records too, each writing the JSON object ``report.json`` has always held:

- :class:`InputEntry` (``inputs[]``), :class:`FailedInput` (``failed[]``),
  :class:`ParseCoverage` (``parse_coverage.<input>``), :class:`InjectionCounts`
  (``injections.<error>``), :class:`ProfileSummary` (``profile``);
- the rejects of each stage of the run (from :mod:`buildds.schema.judgments_rejects`: :class:`ExtractReject`, :class:`InjectReject`,
  :class:`NormalRowReject`, :class:`ValidationReject`): :meth:`RunReject.kwargs` are the
  keyword arguments of :meth:`buildds.pipeline.Rejects.add`, so ``rejects.jsonl`` holds the
  same rows.

A report read back from ``report.json`` (an unchanged rebuild) is :meth:`JudgmentsReport.restore`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from buildds.schema.judgments_rejects import (
    ExtractReject,
    InjectReject,
    NormalRowReject,
    RunReject,
    ValidationReject,
)

if TYPE_CHECKING:
    from buildds.schema.judgments import Judgment

__all__ = [
    "CASE_REASONS",
    "ExtractReject",
    "FailedInput",
    "InjectReject",
    "InjectionCounts",
    "InputEntry",
    "JudgmentsReport",
    "NormalRowReject",
    "ParseCoverage",
    "ProfileSummary",
    "RunReject",
    "ValidationReject",
]

STAGE = "judgments"
#: reject reasons that are about the case, not a defect of the record (an appeal, a case
#: another input holds too)
CASE_REASONS = ("multi_defendant", "no_defendant", "not_first_instance", "duplicate_case")


@dataclass(frozen=True)
class InputEntry:
    """An input whose format was found: ``inputs[]`` of the report."""

    path: str
    format: str
    sha256: str
    encoding: str
    encoding_from: str

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> InputEntry:
        return cls(**data)


@dataclass(frozen=True)
class FailedInput:
    """An input that gave no judgment, and why: ``failed[]`` of the report."""

    path: str
    error: str

    def as_json(self) -> dict[str, str]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, str]) -> FailedInput:
        return cls(**data)

    def line(self) -> str:
        return f"{self.path}: {self.error}"


@dataclass(frozen=True)
class ParseCoverage:
    """Share of an input's parsed judgments that have each field (rounded to 4 places)."""

    facts: float
    reasoning: float
    judgment: float
    charges: float
    articles: float
    sentence: float
    term: float
    fine: float
    amount: float
    factors: float
    defendant: float

    FIELDS: ClassVar[tuple[str, ...]] = ("facts", "reasoning", "judgment", "charges", "articles",
                                         "sentence", "term", "fine", "amount", "factors",
                                         "defendant")

    def as_json(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, float]) -> ParseCoverage | None:
        """``None`` for ``{}`` (an input that gave no judgment)."""
        return cls(**data) if data else None

    @classmethod
    def of(cls, judgments: Sequence[Judgment]) -> ParseCoverage | None:
        """The coverage of an input's judgments; ``None`` when it gave none."""
        if not judgments:
            return None
        tests: dict[str, Callable[[Judgment], bool]] = {
            "facts": lambda j: bool(j.facts.strip()), "reasoning": lambda j: bool(j.reasoning),
            "judgment": lambda j: bool(j.judgment), "charges": lambda j: bool(j.charges),
            "articles": lambda j: bool(j.articles),
            "sentence": lambda j: j.sentence.kind != "none",
            "term": lambda j: j.sentence.months is not None,
            "fine": lambda j: j.sentence.fine_yuan is not None,
            "amount": lambda j: j.amount_involved_yuan is not None,
            "factors": lambda j: bool(j.factors), "defendant": lambda j: bool(j.defendants),
        }
        return cls(**{name: round(sum(1 for j in judgments if tests[name](j)) / len(judgments), 4)
                      for name in cls.FIELDS})


@dataclass(frozen=True)
class InjectionCounts:
    """Injections of one error type: made, skipped, and the skips by reason (sorted)."""

    succeeded: int
    skipped: int
    skip_reasons: dict[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, int]:
        return {"succeeded": self.succeeded, "skipped": self.skipped,
                **{f"skipped:{k}": v for k, v in self.skip_reasons.items()}}

    @classmethod
    def from_json(cls, data: dict[str, int]) -> InjectionCounts:
        return cls(succeeded=data["succeeded"], skipped=data["skipped"],
                   skip_reasons={k.removeprefix("skipped:"): v for k, v in data.items()
                                 if k.startswith("skipped:")})


@dataclass(frozen=True)
class ProfileSummary:
    """The statute profile's own coverage counts, and how many judgments it knows every
    charge of."""

    coverage: dict[str, Any]
    judgments: int
    judgments_all_charges_known: int
    judgments_known_share: float

    _OWN: ClassVar[tuple[str, ...]] = ("judgments", "judgments_all_charges_known",
                                       "judgments_known_share")

    def as_json(self) -> dict[str, Any]:
        return {**self.coverage, "judgments": self.judgments,
                "judgments_all_charges_known": self.judgments_all_charges_known,
                "judgments_known_share": self.judgments_known_share}

    @classmethod
    def of(cls, coverage: dict[str, Any], judgments: Sequence[Judgment],
           knows: Callable[[str], bool]) -> ProfileSummary:
        """The profile's ``coverage`` and the judgments it ``knows`` every charge of."""
        known = sum(1 for j in judgments if j.charges and all(knows(c) for c in j.charges))
        return cls(coverage=dict(coverage), judgments=len(judgments),
                   judgments_all_charges_known=known,
                   judgments_known_share=round(known / len(judgments), 4) if judgments else 0.0)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProfileSummary | None:
        """``None`` for ``{}`` (a run that read no judgment)."""
        if not data:
            return None
        return cls(coverage={k: v for k, v in data.items() if k not in cls._OWN},
                   **{k: data[k] for k in cls._OWN})


# --------------------------------------------------------------------------- the report
@dataclass
class JudgmentsReport:
    """The run's summary; ``code_version`` is the job's (written into ``report.json``)."""

    out: Path
    code_version: str = ""
    inputs: list[InputEntry] = field(default_factory=list)
    failed: list[FailedInput] = field(default_factory=list)
    #: judgments parsed, per input name
    parsed: dict[str, int] = field(default_factory=dict)
    #: rejected records, per reason (sorted)
    rejected: dict[str, int] = field(default_factory=dict)
    coverage: dict[str, ParseCoverage | None] = field(default_factory=dict)
    injections: dict[str, InjectionCounts] = field(default_factory=dict)
    profile: ProfileSummary | None = None
    #: rows per task
    rows: dict[str, int] = field(default_factory=dict)
    validation: dict[str, Any] | None = None
    validation_md: str = ""
    fingerprint: str = ""
    #: the export's data fingerprint (:mod:`buildds.export.data_fingerprint`), "" when not
    #: exported: the one the card, ``buildds validate`` and the eval's dataset key show
    data_fingerprint: str = ""
    exported: bool = False
    unchanged: bool = False
    #: rows that failed validation and were left out of the export (see rejects.jsonl)
    dropped: int = 0
    #: the shortcut audit (buildds.validate.shortcut_audit) as report.json holds it, and
    #: its report.md section; None when it did not run (--no-audit)
    shortcut_audit: dict[str, Any] | None = None
    shortcut_md: str = ""
    seconds: float = 0.0
    #: a reviewer's validity rates (``--review-verdicts``): per error type and ``all``, the
    #: :class:`~buildds.schema.review.ValidityRate` fields; None without verdicts
    review: list[dict[str, Any]] | None = None
    #: per input and per error type vs AR-Bench, law dates (:mod:`buildds.jobs.judgments_corpus`)
    corpus: dict[str, Any] = field(default_factory=dict)
    corpus_md: str = ""
    #: a sharded run (:mod:`buildds.jobs.judgments_sharded`): shards, resumed, shard bytes
    shards: dict[str, Any] = field(default_factory=dict)
    #: the untouched rows matched per error type (:mod:`buildds.inject_errors.normal_matching`):
    #: quota, rows per bin level, shortfall; and its report.md section
    normal_matching: dict[str, Any] = field(default_factory=dict)
    normal_matching_md: str = ""

    @property
    def ok(self) -> bool:
        return self.validation is None or bool(self.validation.get("ok", True))

    @property
    def audit_ok(self) -> bool:
        """Whether the shortcut audit passed (or did not run)."""
        return self.shortcut_audit is None or bool(self.shortcut_audit.get("ok", True))

    @property
    def bad_records(self) -> int:
        """Input records that are defective (every reject reason but the case's own:
        several defendants, none named)."""
        return sum(n for k, n in self.rejected.items() if k not in CASE_REASONS)

    def rejected_line(self) -> str:
        """``12 rejected: encoding 2, multi_defendant 10`` (or ``0 rejected``)."""
        line = f"{sum(self.rejected.values())} rejected"
        if self.rejected:
            line += ": " + ", ".join(f"{k} {n}" for k, n in self.rejected.items())
        return line

    def failure_lines(self) -> list[str]:
        """One line per input that gave no judgment: ``<file>: <why>``."""
        return [f.line() for f in self.failed]

    def summary_line(self) -> str:
        if self.unchanged:
            return f"unchanged (fingerprint {self.fingerprint}) — see {self.out / 'report.md'}"
        done = sum(c.succeeded for c in self.injections.values())
        skipped = sum(c.skipped for c in self.injections.values())
        line = (f"parsed {sum(self.parsed.values())} judgments ({self.rejected_line()}), "
                f"{done} injections ({skipped} skipped); rows: "
                + ", ".join(f"{n} {t}" for t, n in self.rows.items()))
        if self.failed:
            line += f"; {len(self.failed)} input file(s) FAILED"
        if self.dropped:
            line += f"; {self.dropped} rows dropped by validation"
        if not self.ok:
            line += f"; VALIDATION FAILED ({len(self.validation['errors'])} errors, not exported)"  # type: ignore[index]
        elif not done:
            line += "; nothing to export: no injection could be made (reasons in the report)"
        if not self.audit_ok:
            line += (f"; SHORTCUT AUDIT FAILED ({len(self.shortcut_audit['failures'])} "  # type: ignore[index]
                     "detector(s) find injected rows by surface cues)")
        return line + f" — see {self.out / 'report.md'}"

    def as_json(self) -> dict[str, Any]:
        """The content of ``report.json``."""
        return {
            "stage": STAGE, "code_version": self.code_version, "fingerprint": self.fingerprint,
            "data_fingerprint": self.data_fingerprint,
            "inputs": [i.as_json() for i in self.inputs],
            "failed": [f.as_json() for f in self.failed], "parsed": self.parsed,
            "rejected": self.rejected, "dropped_rows": self.dropped,
            "parse_coverage": {name: c.as_json() if c else {}
                               for name, c in self.coverage.items()},
            "injections": {e: c.as_json() for e, c in self.injections.items()},
            "profile": self.profile.as_json() if self.profile else {}, "rows": self.rows,
            "exported": self.exported, "validation": self.validation,
            **({"review": self.review} if self.review is not None else {}),
            **({"corpus": self.corpus} if self.corpus else {}),
            **({"shards": self.shards} if self.shards else {}),
            **({"normal_matching": self.normal_matching} if self.normal_matching else {}),
            "shortcut_audit": self.shortcut_audit,
        }

    def restore(self, previous: dict[str, Any]) -> None:
        """Take the counts of the ``report.json`` of an export that is still current."""
        self.parsed, self.rejected = previous["parsed"], previous["rejected"]
        self.coverage = {name: ParseCoverage.from_json(c)
                         for name, c in previous["parse_coverage"].items()}
        self.injections = {e: InjectionCounts.from_json(c)
                           for e, c in previous["injections"].items()}
        self.profile, self.rows = ProfileSummary.from_json(previous["profile"]), previous["rows"]
        self.validation, self.exported = previous["validation"], True
        self.dropped = previous.get("dropped_rows", 0)
        self.data_fingerprint = previous.get("data_fingerprint", "")
        self.review = previous.get("review")
        self.shortcut_audit = previous.get("shortcut_audit")
        self.normal_matching = previous.get("normal_matching", {})
        if "failed" in previous:  # inputs found bad while parsing
            self.failed = [FailedInput.from_json(f) for f in previous["failed"]]
        self.unchanged = True

    def to_markdown(self) -> str:
        """The content of ``report.md``."""
        names = ParseCoverage.FIELDS
        lines = ["# AR-Bench build (buildds judgments)", "", self.summary_line(), "",
                 (f"fingerprint `{self.fingerprint}`; data fingerprint: "
                  f"`{self.data_fingerprint or '–'}`; exported: {self.exported}"), "",
                 "## Inputs", "", "| input | format | encoding | parsed |", "|---|---|---|---:|"]
        lines += [f"| {i.path} | {i.format} | {i.encoding} ({i.encoding_from}) | "
                  f"{self.parsed.get(i.path, 0)} |" for i in self.inputs]
        if self.failed:
            lines += ["", "Failed inputs (no judgment read from them):", ""]
            lines += [f"- {line}" for line in self.failure_lines()]
        lines += ["", "Rejected records: " + (", ".join(f"{k} {v}" for k, v in self.rejected.items())
                                              or "none")
                  + " (each with its file and line in rejects.jsonl)", ""]
        if self.dropped:
            lines += [(f"Rows left out because they failed validation: {self.dropped} (stage "
                      "`validate` in rejects.jsonl)"), ""]
        lines += ["## Parse coverage (share of parsed judgments with the field)", "",
                  "| input | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
        for name, cov in self.coverage.items():
            values = cov.as_json() if cov else {}
            lines.append(f"| {name} | " + " | ".join(f"{values.get(f, 0):.2f}" for f in names)
                         + " |")
        lines += ["", "## Injections", "", "| error | succeeded | skipped | skip reasons |",
                  "|---|---:|---:|---|"]
        for etype, c in self.injections.items():
            reasons = ", ".join(f"{k} {v}" for k, v in c.skip_reasons.items())
            lines.append(f"| {etype} | {c.succeeded} | {c.skipped} | {reasons} |")
        lines += ["", "## Statute profile coverage", "", "| measure | value |", "|---|---:|"]
        lines += [f"| {k} | {v} |" for k, v in (self.profile.as_json() if self.profile
                                                 else {}).items()]
        if self.corpus_md:
            lines += ["", self.corpus_md]
        lines += ["", self.validation_md or "", ""]
        if self.review is not None:
            from buildds.schema.review import ValidityRate

            lines += ["## Reviewer's verdicts (validity rate)", "",
                      "| error type | valid / judged (95% Wilson interval) |", "|---|---|"]
            lines += [f"| {r['error_type']} | {ValidityRate(**r).as_text()} |"
                      for r in self.review]
            lines.append("")
        if self.normal_matching_md:
            lines += [self.normal_matching_md, ""]
        if self.shortcut_md:
            lines += [self.shortcut_md, ""]
        return "\n".join(lines)
