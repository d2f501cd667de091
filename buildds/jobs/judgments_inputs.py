"""The input side of ``buildds judgments``: one run's settings and what it collects
(:class:`JudgmentsRun`), the options checked before any work, and step "read" — each input's
format found by content (the first built-in field mapping whose keys a line has: JuDGE
``fd``/``text_id``, CAIL ``fact``/``meta``, LeCaRD ``ajId``/``qw``/``pjjg``, Caseformer
``id``/``fact``/``reason``/``result``/``content``), or the one ``--input-format`` names.
Used by :mod:`buildds.jobs.judgments`, which composes the steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.errors import BuildError
from buildds.inject_errors import ALL_ERRORS
from buildds.pipeline import Rejects
from buildds.schema.judgments_report import (
    ExtractReject,
    FailedInput,
    InputEntry,
    JudgmentsReport,
    ParseCoverage,
    RunReject,
)

if TYPE_CHECKING:
    from buildds.executors import ExecutorSpec
    from buildds.extract.judgments import JudgmentInput
    from buildds.schema.judgments import Judgment, JudgmentReject

__all__ = ["LAW_FILE", "JudgmentsRun", "check_options", "detect_format", "read_inputs",
           "sha256_regular", "take_records", "take_rejects"]

LAW_FILE = "criminal_law_PRC_2023_amendment12.md"


@dataclass
class JudgmentsRun:
    """One run's settings, and what it collects on the way: the report and the rejects."""

    out: Path
    errors: list[str]
    seed: int
    limit: int | None
    normal_share: float
    encoding: str | None
    max_line_bytes: int | None
    options: dict[str, Any]
    report: JudgmentsReport
    rejects: Rejects = field(default_factory=Rejects)
    #: ``--input-format``: a built-in name or a mapping file (None: detected per file)
    input_format: str | None = None
    #: ``--keep-appeals``: read appeal and retrial judgments too (else ``not_first_instance``)
    keep_appeals: bool = False
    #: ``--executor`` / ``--ray-address``: the executor (name, address, jobs) the records'
    #: shards run on (:mod:`buildds.executors`; None: the local default)
    executor: ExecutorSpec | None = None

    def reject(self, record: RunReject) -> None:
        self.rejects.add(**record.kwargs())


def detect_format(path: Path, *, encoding: str | None = None) -> str:
    """The format (``judge``, ``cail``, ``lecard``, ``caseformer``) of the first JSON object
    with one built-in format's keys (read as the parse reads,
    :func:`buildds.extract.judgments.detect_format`); :class:`BuildError` otherwise."""
    from buildds.extract.judgments import detect_format as probe

    found = probe(path, encoding=encoding)
    if found.format is None:
        raise BuildError(found.no_format_message(), source=found.name)
    return found.format


def sha256_regular(path: Path) -> str:
    """sha256 of a statute file, read only if it is a regular file (a FIFO cannot hang)."""
    from buildds.safeio.files import open_regular
    from buildds.safeio.hashing import sha256_stream

    with open_regular(path) as fh:
        return sha256_stream(fh)


def check_options(profile: str, errors: Sequence[str], inputs: Sequence[Path],
                   law_dir: Path | None, confusable: Path) -> None:
    """:class:`BuildError` for options no run can be made with (``law_dir`` None: a law
    store gives the text)."""
    if profile != "cn":
        raise BuildError(f"unknown profile {profile!r} (only 'cn' is supported)")
    unknown = [e for e in errors if e not in ALL_ERRORS]
    if unknown or not errors:
        raise BuildError(f"unknown error types {unknown} (choose from {', '.join(ALL_ERRORS)})")
    if not inputs:
        raise BuildError("no input files")
    if law_dir is not None and not (law_dir / LAW_FILE).is_file():
        raise BuildError(f"the law folder has no {LAW_FILE} (pass --law DIR)",
                         source=str(law_dir))
    if not confusable.is_file():
        raise BuildError("no confusable-charge table here (pass --confusable "
                         "legalattack_sheet1_similar_charges.csv)", source=str(confusable))


def read_inputs(run: JudgmentsRun, inputs: Sequence[Path]) -> list[JudgmentInput]:
    """Step "read": each input's format; an input without one is a failed input (its lines
    are rejects)."""
    from buildds.errors import ExtractError
    from buildds.extract.judgments import detect_format as probe
    from buildds.extract.judgments import resolve_field_map
    from buildds.extract.judgments.shards import shard_format, split_input
    from buildds.safeio.names import printable_name

    fmap = resolve_field_map(run.input_format)
    if fmap is not None and run.input_format not in (None, fmap.name):  # a mapping file
        run.options["input_format"] = fmap.model_dump(mode="json")
    elif fmap is not None:
        run.options["input_format"] = fmap.name
    if run.keep_appeals:
        run.options["keep_appeals"] = True
    probed: list[JudgmentInput] = []
    for path in map(Path, inputs):
        try:  # a .gz or .parquet input is probed through its first shard
            found = probe(path if shard_format(path) == "jsonl" else split_input(
                path, shard_bytes=1 << 16)[0], encoding=run.encoding,
                max_line_bytes=run.max_line_bytes, field_map=fmap)
        except (ExtractError, OSError, EOFError) as exc:  # OSError: a broken .gz/.parquet
            run.report.failed.append(FailedInput(path=printable_name(path.name), error=(
                exc.message if isinstance(exc, ExtractError) else f"cannot read: {exc}")))
            continue
        if found.format is None:
            run.report.failed.append(FailedInput(path=found.name,
                                                 error=found.no_format_message()))
            for line, reason, message in found.rejects:
                run.reject(ExtractReject(reason=reason, message=message, source=found.name,
                                         id=None, line=line, dataset=None))
            continue
        probed.append(found)
        run.report.inputs.append(InputEntry(
            path=found.name, format=found.format, sha256=found.sha256,
            encoding=found.encoding.name, encoding_from=found.encoding.found_by))
    return probed


def take_rejects(run: JudgmentsRun, name: str, n: int, got: Sequence[JudgmentReject]) -> None:
    """One input's rejects into the run, a failed input when it gave no judgment (``n``
    judgments kept), and its count."""
    from collections import Counter

    report = run.report
    for r in got:
        run.reject(ExtractReject(reason=r.reason, message=r.message, source=r.source,
                                 id=r.id, line=r.line, dataset=r.dataset))
    if not n:
        why = Counter(str(r.reason) for r in got)
        report.failed.append(FailedInput(path=name, error=(
            f"no usable judgment: all {len(got)} records rejected ("
            + ", ".join(f"{k} {c}" for k, c in sorted(why.items())) + ")")))
    report.parsed[name] = n


def take_records(run: JudgmentsRun, name: str, mine: list[Judgment],
                 got: Sequence[JudgmentReject], judgments: list[Judgment]) -> None:
    """What one input gave, into the run: its rejects, a failed input when it gave no
    judgment, its counts and coverage (:func:`take_rejects`), and its judgments appended to
    ``judgments``."""
    take_rejects(run, name, len(mine), got)
    run.report.coverage[name] = ParseCoverage.of(mine)
    judgments.extend(mine)
