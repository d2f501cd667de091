"""``buildds judgments`` in shards (issues 13 and 18): the parse, inject and rows steps run
shard by shard, so no step holds the corpus, and the outputs equal a whole-corpus run's
byte for byte, whatever the shard size and the number of workers.

1. **Survey** (:func:`survey`, one light pass in input order, in this process): every input
   is split into shards (:func:`buildds.extract.judgments.shards.split_input`) and read
   once; what later steps need of the whole corpus is kept as small summaries — the ids
   and cases seen (de-duplication across files, the first kept), the lines kept per shard,
   the parse counts and coverage per input, the judgment dates (counted), and the corpus
   priors and capped E1 donors (:class:`~buildds.inject_errors.corpus_summary.CorpusSummary`,
   written to ``<out>/.shards/summary.json``). The judgments themselves are dropped.
2. **Shards** (:func:`~buildds.jobs.judgments_shard_task.build_shard`, through the seam
   ``map_fn(fn, tasks)`` → results in input order: the built-in ``map``, a process pool
   (:func:`local_map`), or another engine's executor): each shard's rows and rejects under
   ``<out>/.shards/<shard id>/`` with a completion marker; a re-run skips the shards whose
   marker matches (a killed run resumes).
3. **Merge** (:func:`merge_shards`): the rows of every shard merged in id order (each
   shard's rows are sorted), the rejects in the order a whole-corpus run gives them (the
   injection skips of every shard, then the judgments without a judgment part), the
   injection counts summed. Seeds come from judgment ids, never from order, so the rows are
   the same whichever shard a judgment fell in.

The merged rows then go through the run's validation, audit and export steps
(:mod:`buildds.jobs.judgments`) as a whole-corpus run's rows do. Memory: the survey and the
shards hold one shard and the summaries (flat as the corpus grows, once the E1 donor pool
is at its cap); the merge holds no row: the steps after it read the rows as a stream, a
k-way merge over the shards' row files (:mod:`.judgments_merged_rows`).
"""

from __future__ import annotations

import contextlib
import json
import shutil
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from buildds.extract.judgments.shards import DEFAULT_SHARD_BYTES, Shard, split_input
from buildds.inject_errors import SkipInjection
from buildds.inject_errors.corpus_summary import CorpusSummary
from buildds.inject_errors.normal_matching import LEVELS
from buildds.inject_errors.normal_matching_store import MatchStore
from buildds.inject_errors.tiers import charge_profile
from buildds.jobs.judgments_inputs import JudgmentsRun, take_rejects
from buildds.jobs.judgments_matched_normals import match_shards
from buildds.jobs.judgments_merged_rows import MergedRows
from buildds.jobs.judgments_rejects_spill import SpilledList, SpilledRejects
from buildds.jobs.judgments_shard_task import (
    ShardResult,
    ShardTask,
    build_shard,
    release,
)
from buildds.pipeline import canonical_json
from buildds.safeio.hashing import sha256_bytes
from buildds.schema.judgments_report import (
    FailedInput,
    InjectionCounts,
    ParseCoverage,
    ProfileSummary,
)

if TYPE_CHECKING:
    from buildds.executors import ExecutorSpec
    from buildds.extract.judgments import JudgmentInput
    from buildds.schema.judgments import Judgment

__all__ = [
    "DEFAULT_SHARD_BYTES",
    "SHARDS_DIR",
    "MapFn",
    "Survey",
    "charge_known",
    "local_map",
    "merge_shards",
    "remove_shards",
    "shard_runner",
    "sharded_rows",
    "survey",
]

SHARDS_DIR = ".shards"
#: the untouched-row matching's scratch file, under :data:`SHARDS_DIR`
MATCH_STORE = "match.sqlite"
#: ``map_fn(fn, items)``: ``fn`` of every item, results in input order
MapFn = Callable[[Callable[[Any], Any], Iterable[Any]], Iterable[Any]]


def charge_known(profile: Any, charge: str) -> bool:
    """Whether ``charge`` resolves to a charge of the profile (through its alias index:
    bracketed alternatives, 罪, renamed charges), as the injectors resolve it."""
    try:
        charge_profile(profile, charge)
    except SkipInjection:
        return False
    return True


@contextlib.contextmanager
def shard_runner(map_fn: MapFn | None, executor: ExecutorSpec | None) -> Iterator[MapFn]:
    """What runs the shards: ``map_fn`` when given; else the executor ``executor`` names
    (``--executor ray``: its ``map``, closed when the block ends); else the built-in map."""
    if map_fn is not None:
        yield map_fn
    elif executor is not None and executor.name != "local":
        running = executor.make()
        try:
            yield running.map
        finally:
            running.close()
    else:
        yield map


def local_map(workers: int = 1) -> MapFn:
    """The default seam: the built-in ``map`` for one worker, else a process pool
    (:func:`buildds.pipeline.run_parallel`, results in input order)."""
    if workers <= 1:
        return map

    def pooled(fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        from buildds.pipeline import run_parallel

        return run_parallel(fn, items, processes=workers)

    return pooled


class DatedCorpus:
    """The judgment dates of the corpus, counted: what the report's law-dates section reads
    of the judgments (one stub with ``judgment_date`` per judgment, made as it is read)."""

    def __init__(self, dates: Counter[date | None]) -> None:
        self._dates = dates

    def __len__(self) -> int:
        return sum(self._dates.values())

    def __iter__(self) -> Iterator[Any]:
        for day, n in sorted(self._dates.items(), key=lambda x: (x[0] is None, x[0] or date.min)):
            stub = SimpleNamespace(judgment_date=day)
            for _ in range(n):
                yield stub


@dataclass
class Survey:
    """What the survey keeps: the shards with the lines they keep, the corpus summary, the
    dates, and the counts the report needs."""

    #: per shard its input and the lines it keeps (8 bytes a judgment: ``array('q')``)
    shards: list[tuple[JudgmentInput, Shard, array[int]]] = field(default_factory=list)
    summary: CorpusSummary = field(default_factory=CorpusSummary)
    dates: Counter[date | None] = field(default_factory=Counter)
    known: int = 0

    @property
    def judgments(self) -> int:
        return self.summary.judgments


def survey(run: JudgmentsRun, probed: Sequence[JudgmentInput], statutes: Any, *,
           shard_bytes: int = DEFAULT_SHARD_BYTES) -> Survey:
    """Step "parse" in one light pass (see the module docstring): every input's judgments
    (the first ``limit`` of each) and rejects, the counts and coverage per input."""
    from buildds.extract.judgments import CaseRegistry
    from buildds.safeio.spilled_map import SpilledMap

    report, found_all = run.report, Survey(summary=CorpusSummary(seed=run.seed))
    # every reject from here on goes to a file, not memory (.judgments_rejects_spill)
    run.rejects = SpilledRejects(run.out / SHARDS_DIR / "rejects.jsonl", run.rejects)
    # judgment ids and case keys -> where first read, across the inputs: on disk, not held
    seen = SpilledMap(run.out / SHARDS_DIR / "ids.sqlite")
    case_keys = SpilledMap(run.out / SHARDS_DIR / "cases.sqlite")
    try:
        _survey_inputs(run, probed, statutes, found_all, seen, CaseRegistry(case_keys),
                       shard_bytes)
    finally:
        seen.close()
        case_keys.close()
    report.rejected = dict(sorted(Counter(r["reason"] for r in run.rejects.rows).items()))
    n = found_all.judgments
    report.profile = ProfileSummary(
        coverage=dict(statutes.coverage), judgments=n,
        judgments_all_charges_known=found_all.known,
        judgments_known_share=round(found_all.known / n, 4) if n else 0.0)
    return found_all


def _survey_inputs(run: JudgmentsRun, probed: Sequence[JudgmentInput], statutes: Any,
                   found_all: Survey, seen: Any, cases: Any, shard_bytes: int) -> None:
    """Each input of the survey into ``found_all`` (its failure, rejects and counts into
    the run's report); ``seen`` and ``cases``: the ids and cases read so far."""
    for found in probed:
        got = SpilledList(run.out / SHARDS_DIR / "input-rejects.jsonl")  # this input's
        try:
            _survey_input(run, found, statutes, found_all, seen, cases, shard_bytes, got)
        finally:
            got.close()


def _survey_input(run: JudgmentsRun, found: JudgmentInput, statutes: Any, found_all: Survey,
                  seen: Any, cases: Any, shard_bytes: int, got: Any) -> None:
    """One input, shard by shard, each judgment counted then dropped, into ``found_all``;
    its rejects appended to ``got`` and taken into the run once it is read whole (an input
    unreadable half-way: its failure instead)."""
    from buildds.errors import ExtractError
    from buildds.extract.judgments import load_input

    assert found.field_map is not None
    part, n, known = CorpusSummary(seed=run.seed), 0, 0
    coverage: Counter[str] = Counter()
    dates: Counter[date | None] = Counter()
    kept: list[tuple[Shard, array[int]]] = []
    try:
        for shard in split_input(found.path, shard_bytes=shard_bytes,
                                 encoding=found.encoding.name, sha256=found.sha256):
            if run.limit is not None and n >= run.limit:
                break
            kept.append((shard, array("q")))
            for j in load_input(shard, found.field_map, got, encoding=run.encoding,
                                max_line_bytes=run.max_line_bytes, seen=seen, cases=cases,
                                first_instance_only=not run.keep_appeals):
                n += 1
                kept[-1][1].append(j.line)
                part.add(j)
                dates[j.judgment_date] += 1
                known += _counts_one(j, statutes, coverage)
                if run.limit is not None and n >= run.limit:
                    break
    except (ExtractError, OSError, EOFError) as exc:  # unreadable half-way: failed
        run.report.failed.append(FailedInput(path=found.name, error=(
            exc.message if isinstance(exc, ExtractError) else f"cannot read: {exc}")))
        return
    _take(run, found.name, n, coverage, got)
    found_all.summary.merge(part)
    found_all.dates.update(dates)
    found_all.known += known
    found_all.shards += [(found, s, lines) for s, lines in kept if lines]


def _counts_one(j: Judgment, statutes: Any, coverage: Counter[str]) -> int:
    """Count one judgment's parse coverage into ``coverage``; 1 when the profile knows every
    charge of it (as :meth:`ProfileSummary.of` counts)."""
    one = ParseCoverage.of([j])
    assert one is not None
    for name in ParseCoverage.FIELDS:
        coverage[name] += int(getattr(one, name))
    return int(bool(j.charges) and all(charge_known(statutes, c) for c in j.charges))


def _take(run: JudgmentsRun, name: str, n: int, coverage: Counter[str], got: Sequence[Any]
          ) -> None:
    """One input's rejects, failure when it gave no judgment, count
    (:func:`~buildds.jobs.judgments_inputs.take_rejects`) and coverage (from counts)."""
    take_rejects(run, name, n, got)
    report = run.report
    report.coverage[name] = (ParseCoverage(**{f: round(coverage[f] / n, 4)
                                              for f in ParseCoverage.FIELDS}) if n else None)


def _tasks(run: JudgmentsRun, found: Survey, *, law_dir: Path, confusable: Path) -> list[ShardTask]:
    """One task per shard that keeps a judgment; the corpus summary written for them."""
    from buildds.pipeline import atomic_write_text

    folder = run.out / SHARDS_DIR
    summary_text = found.summary.to_json()
    summary_path = folder / "summary.json"
    atomic_write_text(summary_path, summary_text)
    settings = sha256_bytes(canonical_json({
        "options": run.options, "code": run.report.code_version, "encoding": run.encoding,
        "law": str(law_dir), "confusable": str(confusable),
        "summary": sha256_bytes(summary_text.encode()),
    }).encode())[:24]
    tasks = []
    for fi, shard, lines in found.shards:
        assert fi.field_map is not None
        key = sha256_bytes(f"{shard.id}:{shard.sha256}:".encode() + lines.tobytes())[:24]
        tasks.append(ShardTask(
            shard=shard, field_map=fi.field_map, lines=lines, folder=str(folder / shard.id),
            key=f"{key}:{settings}", errors=tuple(run.errors), seed=run.seed,
            normal_share=run.normal_share, law_dir=str(law_dir), confusable=str(confusable),
            summary_path=str(summary_path), encoding=run.encoding,
            max_line_bytes=run.max_line_bytes, first_instance_only=not run.keep_appeals))
    return tasks


def merge_shards(run: JudgmentsRun, results: Sequence[ShardResult]
                 ) -> tuple[MergedRows, dict[str, str | None]]:
    """The rows of every shard in id order (streamed from the shards' files:
    :class:`~buildds.jobs.judgments_merged_rows.MergedRows`), the failed edit round trips, and
    into the run the rejects (in a whole-corpus run's order: the injections' of every shard,
    then the normal rows', each shard's file read once per kind, never all held) and the
    injection counts."""
    succeeded: Counter[str] = Counter()
    reasons: dict[str, Counter[str]] = {e: Counter() for e in run.errors}
    roundtrip: dict[str, str | None] = {}
    for kind in ("inject", "normal"):
        for result in results:
            data = json.loads((Path(result.folder) / "rejects.json").read_text("utf-8"))
            for kwargs in data[kind]:
                run.rejects.add(**kwargs)
            if kind == "inject":
                roundtrip.update(data["roundtrip"])
                succeeded.update(data["succeeded"])
                for etype, counts in data["skipped"].items():
                    reasons.setdefault(etype, Counter()).update(counts)
    for etype in run.errors:
        why = reasons[etype]
        run.report.injections[etype] = InjectionCounts(
            succeeded=succeeded[etype], skipped=sum(why.values()),
            skip_reasons=dict(sorted(why.items())))
    folders = [r.folder for r in results]  # untouched rows: matched corpus-wide (issue 13)
    store = MatchStore(len(LEVELS), run.out / SHARDS_DIR / MATCH_STORE)
    normals, left_out = match_shards(run, folders, store)
    merged = MergedRows(folders, [r.rows for r in results], normals=normals, left_out=left_out)
    compacted = merged.compacted(run.out / SHARDS_DIR / "runs")
    if compacted is not merged:  # the choices are in the run files now
        store.close()
    return compacted, roundtrip


def sharded_rows(run: JudgmentsRun, probed: Sequence[JudgmentInput], *, law_dir: Path,
                 confusable: Path, shard_bytes: int = DEFAULT_SHARD_BYTES,
                 map_fn: MapFn | None = None
                 ) -> tuple[Any, Any, MergedRows, dict[str, str | None]]:
    """Survey, shards and merge (the module docstring): the statute profile, the judgment
    dates (a :class:`DatedCorpus`, where the steps after take the judgments; empty when no
    judgment was read: nothing else is done), the rows and the
    round-trip results. ``report.shards`` counts the shards, those resumed from an earlier
    run, and the E1 donors the cap left out."""
    from buildds.inject_errors.statutes import build_cn_profile
    from buildds.pipeline import use_system_allocator

    use_system_allocator()  # trimmed between batches: the peak does not creep with them
    statutes = build_cn_profile(law_dir, confusable)
    found = survey(run, probed, statutes, shard_bytes=shard_bytes)
    if not found.judgments:
        return statutes, DatedCorpus(Counter()), MergedRows([], []), {}
    found.summary.settle(statutes)  # E1's charge plan, once, for every shard
    tasks = _tasks(run, found, law_dir=law_dir, confusable=confusable)
    dropped = found.summary.donors_dropped
    found.summary.donors.clear()  # written for the shards; not held while they run
    results = list((map_fn or map)(build_shard, tasks))
    release()  # the context the shards built in this process (a built-in map)
    run.report.shards = {"shards": len(results),
                         "resumed": sum(1 for r in results if r.resumed),
                         "shard_bytes": shard_bytes, "donors_dropped": dropped}
    rows, roundtrip = merge_shards(run, results)
    return statutes, DatedCorpus(found.dates), rows, roundtrip


def remove_shards(out: Path) -> None:
    """The shards' folder, once the export they made is in place."""
    shutil.rmtree(Path(out) / SHARDS_DIR, ignore_errors=True)
