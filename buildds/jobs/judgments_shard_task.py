"""One shard of a sharded ``buildds judgments`` run (:mod:`.judgments_sharded`): parse,
inject and make the rows of the judgments the survey kept in it, and write them under
``<out>/.shards/<shard id>/`` with a completion marker written last.

:func:`build_shard` is a top-level function of one picklable :class:`ShardTask`, so any
``map_fn(fn, tasks)`` runs it (the built-in ``map``, a process pool, a Ray executor). Its
files:

- ``rows-00000.parquet`` … — the shard's injected :class:`~buildds.schema.arbench.ArbenchRow`
  s in id order, in the export's columns (:mod:`buildds.export.arbench_rows_file`: parts
  of at most 1,000 rows; the S1–S5 inputs left empty where the row makes them from its
  parts), read back as the same rows (:func:`read_rows`);
  ``normals-00000.parquet`` … (the same format) and ``match.json`` — every judgment it could offer as
  an untouched row, for the merge's corpus-wide matching
  (:mod:`buildds.jobs.judgments_matched_normals`);
- ``rejects.json`` — the injections skipped and the judgments without a judgment part (each
  a reject of the run, in judgment order), the failed round-trip checks of the injected rows
  (:func:`buildds.validate.arbench.check_edits`: the records stay here), the counts;
- ``done.json`` — the marker: the task's ``key`` (shard id, the file's hash, the code
  version, the settings and the corpus summary's hash). A re-run whose marker holds the
  same key skips the shard: a killed run resumes where it stopped.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buildds.extract.judgments.shards import Shard
from buildds.inject_errors.arbench_rows import setting_inputs
from buildds.schema.arbench import ArbenchRow
from buildds.schema.judgment_fields import JudgmentFieldMap
from buildds.schema.judgments_report import InjectReject, NormalRowReject

__all__ = ["MARKER", "ShardResult", "ShardTask", "SlimRow", "build_shard", "read_rows",
           "release", "slim"]

MARKER = "done.json"
#: a shard's rows (:mod:`buildds.export.arbench_rows_file`)
ROWS_FILE = "rows.parquet"
_CACHE: dict[tuple[str, ...], Any] = {}  # per process: the profile, texts and context
_INPUTS = ("input_s1", "input_s2", "input_s3", "input_s4", "input_s5")


def _inputs_of(row: ArbenchRow) -> dict[str, str]:
    """A row's S1–S5 inputs made again from its parts, as the row was made
    (:func:`buildds.inject_errors.arbench_rows.setting_inputs`)."""
    return setting_inputs(facts=row.facts, judgment=row.judgment, reasoning=row.reasoning,
                          anomalous_reasoning=row.anomalous_reasoning,
                          articles=row.articles_text,
                          anomalous_articles=row.anomalous_articles_text)


@dataclass(frozen=True, kw_only=True)
class SlimRow(ArbenchRow):
    """An :class:`~buildds.schema.arbench.ArbenchRow` held without its S1–S5 inputs (each a
    concatenation of the row's own parts: most of a row's size) until
    :meth:`as_dict` makes them again — the merge of a sharded run holds every row, so its
    rows are slim. The ``input_s*`` attributes are empty; everything reads a row through
    ``as_dict`` (the export) or its other fields."""

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), **_inputs_of(self)}


def slim(row: ArbenchRow) -> ArbenchRow:
    """``row`` as a :class:`SlimRow` when its inputs are made from its parts (always, for
    the rows :func:`~buildds.inject_errors.arbench_rows.arbench_rows` makes), else as is."""
    if any(getattr(row, k) != v for k, v in _inputs_of(row).items()):
        return row
    fields = {f.name: getattr(row, f.name) for f in dataclasses.fields(row)}
    return SlimRow(**{**fields, **dict.fromkeys(_INPUTS, "")})


def release() -> None:
    """Forget what this process cached for the shards (the corpus context: E1 donors)."""
    _CACHE.clear()


@dataclass(frozen=True)
class ShardTask:
    """Everything one shard's work needs (small and picklable)."""

    shard: Shard
    field_map: JudgmentFieldMap
    #: the lines of the judgments the survey kept (read in order, de-duplicated run-wide)
    lines: Sequence[int]
    folder: str
    key: str
    errors: tuple[str, ...]
    seed: int
    normal_share: float
    law_dir: str
    confusable: str
    summary_path: str
    encoding: str | None = None
    max_line_bytes: int | None = None
    first_instance_only: bool = True


@dataclass(frozen=True)
class ShardResult:
    """What a shard gave: its id, whether it was done before (resumed), its row count."""

    shard_id: str
    folder: str
    rows: int
    resumed: bool


def _resources(task: ShardTask) -> tuple[Any, Any, Any]:
    """The statute profile, the article texts and the injection context, once a process."""
    from buildds.inject_errors.arbench_rows import load_article_texts
    from buildds.inject_errors.corpus_summary import CorpusSummary
    from buildds.inject_errors.statutes import build_cn_profile

    key = (task.law_dir, task.confusable, task.summary_path, task.key.split(":")[-1])
    if key not in _CACHE:
        _CACHE.clear()
        profile = build_cn_profile(Path(task.law_dir), Path(task.confusable))
        summary = CorpusSummary.from_json(Path(task.summary_path).read_text("utf-8"))
        _CACHE[key] = (profile, load_article_texts(task.law_dir), summary.context(profile))
    return _CACHE[key]  # type: ignore[no-any-return]


def build_shard(task: ShardTask) -> ShardResult:
    """The shard's rows and rejects into its folder, then its marker (see the module
    docstring); a shard whose marker holds ``task.key`` is not redone."""
    folder = Path(task.folder)
    marker = folder / MARKER
    if marker.is_file() and json.loads(marker.read_text("utf-8")).get("key") == task.key:
        rows = json.loads(marker.read_text("utf-8"))["rows"]
        return ShardResult(task.shard.id, task.folder, rows, resumed=True)
    from buildds.export.arbench_rows_file import write_rows_parts
    from buildds.pipeline import (
        atomic_write_text,
        release_freed_memory,
        use_system_allocator,
    )

    use_system_allocator()  # as the driver (a pool or Ray worker is a process of its own)
    profile, texts, ctx = _resources(task)
    judgments = _parse(task)
    done, skips = _inject(task, judgments, profile, ctx)
    from buildds.inject_errors.arbench_rows import arbench_rows, normal_row
    from buildds.jobs.judgments_matched_normals import MATCH_FILE, NORMALS_FILE, shard_candidates
    from buildds.validate.arbench import check_edits

    rows = arbench_rows(judgments, done, texts=texts, profile=profile, seed=task.seed,
                        normals={})  # the untouched rows: chosen by the merge, corpus-wide
    normals = sorted((normal_row(j, texts, profile, seed=task.seed) for j in judgments
                      if j.judgment.strip()), key=lambda r: r.id)  # every candidate's row
    by_id = {d.id: d for d in done}
    rejects = {
        "inject": [InjectReject(reason=s.reason, message=s.message, id=s.source_id,
                                error_type=s.error_type).kwargs() for s in skips],
        "normal": _normal_rejects(judgments),
        "roundtrip": {r.id: failed for r in rows if r.label == 1  # the failures only
                      if (failed := check_edits(r, by_id[r.id])) is not None},
        "succeeded": dict(Counter(d.error_type for d in done)),
        "skipped": {e: dict(Counter(s.reason for s in skips if s.error_type == e))
                    for e in task.errors},
    }
    folder.mkdir(parents=True, exist_ok=True)
    marker.unlink(missing_ok=True)  # written again last: it vouches for the files beside it
    for name, made in ((ROWS_FILE, rows), (NORMALS_FILE, normals)):  # slim: inputs left empty
        write_rows_parts((ArbenchRow.as_dict(slim(r)) for r in made), folder, name)
    atomic_write_text(folder / "rejects.json", json.dumps(rejects, ensure_ascii=False))
    atomic_write_text(folder / MATCH_FILE, shard_candidates(judgments, done, task.seed, profile))
    atomic_write_text(marker, json.dumps({"key": task.key, "rows": len(rows)}))
    n = len(rows)
    del rows, normals, judgments, done, rejects, by_id
    release_freed_memory()  # the shard's rows, before the next shard of this process
    return ShardResult(task.shard.id, task.folder, n, resumed=False)


def _parse(task: ShardTask) -> list[Any]:
    """The judgments the survey kept in this shard, parsed as the survey parsed them."""
    from buildds.errors import BuildError
    from buildds.extract.judgments import CaseRegistry, load_input

    wanted = set(task.lines)
    got = [j for j in load_input(task.shard, task.field_map, [], encoding=task.encoding,
                                 max_line_bytes=task.max_line_bytes, seen={},
                                 cases=CaseRegistry(),
                                 first_instance_only=task.first_instance_only)
           if j.line in wanted]
    if len(got) != len(wanted):
        raise BuildError(f"lines {sorted(wanted - {j.line for j in got})[:5]} no longer give "
                         "a judgment: the input changed during the run", source=task.shard.name)
    return got


def _inject(task: ShardTask, judgments: list[Any], profile: Any, ctx: Any
            ) -> tuple[list[Any], list[Any]]:
    """Every (judgment, error type) injection against the run's corpus context, as
    :func:`buildds.inject_errors.inject_all` makes it."""
    from buildds.inject_errors import injectors, lazy_random
    from buildds.schema.judgments import InjectedJudgment

    table = injectors(task.seed)
    done: list[Any] = []
    skipped: list[Any] = []
    for judgment in judgments:
        for etype in task.errors:
            rng = lazy_random(f"{task.seed}:{judgment.id}:{etype}")
            result = table[etype].inject(judgment, rng, ctx)
            (done if isinstance(result, InjectedJudgment) else skipped).append(result)
    return done, skipped


def read_rows(folder: str | Path, name: str = ROWS_FILE) -> Iterator[ArbenchRow]:
    """The rows a shard wrote to its file ``name`` (or its parts), one at a time
    (:class:`SlimRow` s where the inputs were left empty, else the row as it was)."""
    from buildds.export.arbench_rows_file import read_row_dicts, row_files

    for path in row_files(folder, name):  # the file, or its parts one after another
        for data in read_row_dicts(path):
            yield (SlimRow if all(data[k] == "" for k in _INPUTS) else ArbenchRow).from_dict(data)


def _normal_rejects(judgments: list[Any]) -> list[dict[str, Any]]:
    """As the whole-corpus run's rows step: a judgment without a judgment part cannot be a
    normal row (any other can: the merge matches them to the injected rows)."""
    return [NormalRowReject(id=j.id, dataset=j.dataset).kwargs() for j in judgments
            if not j.judgment.strip()]
