"""The untouched rows of ``buildds judgments`` matched per error type (issue 13,
:mod:`buildds.inject_errors.normal_matching`), for the whole-corpus run and the sharded one.

Whole corpus: :func:`match_corpus` selects over the judgments in memory. Sharded: the
selection needs corpus-wide counts, so each shard writes every judgment it could offer as an
untouched row — its row in ``normals.parquet`` (id order, slim, as its rows) and
its rank and bins, with the bins of the shard's injected rows, in ``match.json``
(:func:`shard_candidates`); the merge selects over all shards' ``match.json`` files
(:func:`match_shards`: the candidates streamed once into a SQLite file,
:mod:`buildds.inject_errors.normal_matching_store`, that keeps the choices and the rows left
out too: nothing per row is held in memory) and the merged rows
take the chosen rows from ``normals.parquet`` (:func:`chosen_normals`), recording the type each
was drawn for as the whole-corpus run does. Both runs call the same
:func:`~buildds.inject_errors.normal_matching.select_matched`: the same rows, byte for byte.

The selection's figures (quota, rows per bin level, shortfall, injected rows left out per
type) go to ``report.json`` ``normal_matching`` and report.md; an injected row left out is a
reject (``no_matched_untouched_row``) and counts as a skip of its type.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.inject_errors.normal_matching import (
    Candidate,
    Matching,
    candidates_of,
    injected_bins,
    match_judgments,
    matched_rationale,
    select_matched,
    unmatched_rows,
)

if TYPE_CHECKING:
    from buildds.inject_errors.normal_matching_store import MatchStore
    from buildds.schema.arbench import ArbenchRow

__all__ = ["MATCH_FILE", "NORMALS_FILE", "UNMATCHED", "UNMATCHED_MESSAGE", "chosen_normals",
           "match_corpus", "match_shards", "record_matching", "shard_candidates"]

MATCH_FILE = "match.json"
#: the skip reason of an injected row left out, and its message
UNMATCHED = "no_matched_untouched_row"
UNMATCHED_MESSAGE = ("the corpus has too few untouched rows with this row's charge, penalty "
                     "kind, term and fine: a reader could tell it by its values")
#: a shard's candidate untouched rows, in the row file format of its rows
#: (:mod:`buildds.export.arbench_rows_file`)
NORMALS_FILE = "normals.parquet"


def record_matching(run: Any, matching: Matching, left_out: Iterable[tuple[str, str, str]]
                    ) -> None:
    """The selection's figures into the run's report and each injected row left out
    (``left_out``: row id, source id, error type; sorted) a reject."""
    from buildds.schema.judgments_rejects import InjectReject

    for _, source_id, etype in left_out:
        run.reject(InjectReject(reason=UNMATCHED, message=UNMATCHED_MESSAGE, id=source_id,
                                error_type=etype))
    for etype, n in sorted(matching.left_out.items()):  # made, but not a row: a skip
        counts = run.report.injections.get(etype)
        if counts is not None:
            reasons = {**counts.skip_reasons, UNMATCHED: n}
            run.report.injections[etype] = type(counts)(
                succeeded=counts.succeeded - n, skipped=counts.skipped + n,
                skip_reasons=dict(sorted(reasons.items())))
    run.report.normal_matching = matching.as_json()
    run.report.normal_matching_md = matching.to_markdown()


def match_corpus(run: Any, judgments: Sequence[Any], done: Sequence[Any], profile: Any
                 ) -> tuple[Mapping[str, tuple[str, int]], set[str]]:
    """The whole-corpus run's untouched rows (judgment id → (error type, bin level)) and
    the injected row ids left out (``profile``: the charges' chapters)."""
    matching, left_out = match_judgments(judgments, done, share=run.normal_share, seed=run.seed,
                                         profile=profile)
    source = {r.id: (r.source_id, str(r.error_type)) for r in done}
    record_matching(run, matching, sorted((i, *source[i]) for i in left_out))
    return matching.chosen, set(left_out)


def shard_candidates(judgments: Sequence[Any], done: Sequence[Any], seed: int, profile: Any
                     ) -> str:
    """A shard's ``match.json`` text: its candidates (rank, id, bins) and the bins of its
    injected rows (the candidates' rows themselves go to :data:`NORMALS_FILE`)."""
    cands = candidates_of(judgments, seed, profile)
    data = {"candidates": [[c.rank, c.id, list(c.bins)] for c in cands],
            "injected": [[i, r.source_id, t, list(b)]
                         for (i, t, b), r in zip(injected_bins(done, profile), done,
                                                 strict=True)]}
    return json.dumps(data, ensure_ascii=False)


def _match_data(folders: Sequence[str]) -> Iterator[dict[str, Any]]:
    for folder in folders:
        yield json.loads((Path(folder) / MATCH_FILE).read_text("utf-8"))


def match_shards(run: Any, folders: Sequence[str], store: MatchStore
                 ) -> tuple[Mapping[str, tuple[str, int]], Container[str]]:
    """The sharded run's untouched rows and the injected row ids left out, over every
    shard's ``match.json`` (streamed: one shard's file at a time, once per pass), kept in
    ``store`` (the two results are its views)."""
    def candidates() -> Iterator[Candidate]:
        for data in _match_data(folders):
            for r, i, bins in data["candidates"]:
                yield Candidate(r, i, tuple(bins))  # type: ignore[arg-type]

    def injected() -> Iterator[tuple[str, str, str, tuple[str, ...]]]:
        for data in _match_data(folders):
            for i, source_id, t, b in data["injected"]:
                yield i, source_id, t, tuple(b)

    share, seed = run.normal_share, run.seed
    matching = select_matched(candidates, ((t, b) for _, _, t, b in injected()),  # type: ignore[misc]
                              share=share, seed=seed, store=store)
    left = unmatched_rows(lambda: ((i, t, b) for i, _, t, b in injected()),  # type: ignore[misc]
                          matching, share=share, seed=seed, store=store)
    store.add_sources((i, s) for i, s, _, _ in injected() if i in left)
    record_matching(run, matching, store.left.rows())
    return matching.chosen, store.left


def chosen_normals(rows: Iterable[ArbenchRow], chosen: Mapping[str, tuple[str, int]]
                   ) -> Iterator[ArbenchRow]:
    """The chosen ones of a shard's candidate rows (read from its :data:`NORMALS_FILE`), in
    their order, each recording the error type it was drawn for (as
    :func:`~buildds.inject_errors.arbench_rows.normal_row` does)."""
    for row in rows:
        if row.source_id in chosen:
            yield dataclasses.replace(row, rationale=matched_rationale(*chosen[row.source_id]))
