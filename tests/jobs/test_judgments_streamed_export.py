"""The streamed merge and export of ``buildds judgments`` (buildds.jobs.judgments_merged_rows,
buildds.validate.arbench_stream, buildds.export.arbench_stream) on a small real subset
(needs ../shared): with batches and validation chunks far smaller than the corpus, the
files are byte-identical whatever the shard size and the number of workers and equal to the
whole-corpus path's; the parquet files have fixed-size row groups; ``datasets.load_from_disk``
loads the dataset with the right row counts; chunked validation equals one pass."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from buildds.export import arbench_stream
from buildds.jobs.judgments import build_judgments
from buildds.jobs.judgments_sharded import SHARDS_DIR, local_map
from buildds.validate import arbench_stream as validate_stream
from tests.conftest import shared_path

_BATCH = 4


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The first 30 JuDGE lines."""
    shared = shared_path("realdata", "judgments")
    root = tmp_path_factory.mktemp("corpus")
    judge = (shared / "judge-benchmark" / "test.json").read_text("utf-8").splitlines()[:30]
    (root / "judge.json").write_text("\n".join(judge) + "\n", encoding="utf-8")
    return {"judge": root / "judge.json", "law": shared / "cn-criminal-law",
            "confusable": shared / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv"}


@pytest.fixture(autouse=True)
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches and validation chunks far smaller than the corpus: many of each."""
    monkeypatch.setattr(arbench_stream, "BATCH", _BATCH)
    monkeypatch.setattr(validate_stream, "VALIDATE_CHUNK", 3)


def _build(corpus: dict[str, Path], out: Path, **kw: Any) -> Any:
    return build_judgments([corpus["judge"]], out=out, law_dir=corpus["law"],
                           confusable=corpus["confusable"], progress=False, audit=False, **kw)


def _hashes(out: Path) -> dict[str, str]:
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file()
            and p.name not in ("report.json", "report.md")
            and SHARDS_DIR not in p.relative_to(out).parts}


@pytest.fixture(scope="module")
def whole(corpus: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole-corpus path (shard_bytes 0, rows as a list): the reference."""
    out = tmp_path_factory.mktemp("whole") / "out"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(arbench_stream, "BATCH", _BATCH)
        report = _build(corpus, out, shard_bytes=0)
    assert report.exported
    return out


@pytest.mark.parametrize(("size", "workers"), [(1, 1), (7, 1), (1000, 1), (20_000, 2)])
def test_streamed_files_are_the_same_whatever_the_shards(
        corpus: dict[str, Path], whole: Path, tmp_path: Path, size: int, workers: int) -> None:
    out = tmp_path / "out"
    report = _build(corpus, out, shard_bytes=size, map_fn=local_map(workers))
    assert report.exported and report.shards["shards"] > 1
    assert _hashes(out) == _hashes(whole)
    reference = json.loads((whole / "report.json").read_text("utf-8"))
    assert report.validation == reference["validation"]  # chunked = one pass
    assert report.rows == reference["rows"]


def test_parquet_row_groups_have_a_fixed_size(whole: Path) -> None:
    import pyarrow.parquet as pq

    report = json.loads((whole / "report.json").read_text("utf-8"))
    for split in ("detection", "classification", "correction"):
        meta = pq.ParquetFile(whole / "data" / f"{split}.parquet").metadata
        sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
        assert sum(sizes) == report["rows"][split] > 2 * _BATCH
        assert set(sizes[:-1]) == {_BATCH} and 0 < sizes[-1] <= _BATCH


def test_only_short_columns_carry_statistics_and_dictionaries(whole: Path) -> None:
    """A writer holds every row group's statistics until it closes: none for the long texts
    (their min/max would make the writer grow with the split)."""
    import pyarrow.parquet as pq

    from buildds.export.arbench import INDEXED

    meta = pq.ParquetFile(whole / "data" / "detection.parquet").metadata
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        stats = {group.column(c).path_in_schema: group.column(c).is_stats_set
                 for c in range(group.num_columns)}
        assert {name for name, on in stats.items() if on} == set(INDEXED)
        facts = next(group.column(c) for c in range(group.num_columns)
                     if group.column(c).path_in_schema == "facts")
        assert "RLE_DICTIONARY" not in facts.encodings


def test_load_from_disk_loads_the_streamed_dataset(whole: Path) -> None:
    import datasets
    import pandas as pd

    report = json.loads((whole / "report.json").read_text("utf-8"))
    dd = datasets.load_from_disk(str(whole / "dataset"))
    assert {s: dd[s].num_rows for s in dd} == report["rows"]
    frame = pd.read_parquet(whole / "data" / "detection.parquet")
    assert list(dd["detection"]["id"]) == list(frame["id"]) == sorted(frame["id"])
    assert dd["correction"][0] == dd["classification"][0]
    assert all(label == 1 for label in dd["classification"]["label"])
    card = (whole / "README.md").read_text("utf-8")
    assert f"num_examples: {report['rows']['detection']}" in card


def test_the_split_fingerprint_is_the_tables(whole: Path) -> None:
    import pyarrow.parquet as pq

    from buildds.export.arrow_rows import table_fingerprint

    path = whole / "data" / "detection.parquet"
    table = pq.read_table(path)
    assert (arbench_stream.parquet_fingerprint("t", "fp", "detection", 0, path, chunk=5)
            == table_fingerprint("t", "fp", "detection", 0, table))


def test_chunked_validation_equals_one_pass(corpus: dict[str, Path]) -> None:
    from buildds.extract.judgments import detect_format, load_input
    from buildds.inject_errors.arbench_rows import normal_row
    from buildds.inject_errors.statutes import build_cn_profile
    from buildds.validate.arbench import validate_arbench

    found = detect_format(corpus["judge"])
    assert found.field_map is not None
    rows = sorted((normal_row(j, {}) for j in load_input(corpus["judge"], found.field_map, [])),
                  key=lambda r: r.id)[:12]
    rows.insert(3, rows[2])  # a duplicate across the chunk boundary (rows 0-2 | 3-5)
    rows[7] = dataclasses.replace(rows[7], label=1)  # label does not match error type
    rows[10] = dataclasses.replace(rows[10], facts="")  # empty text
    profile = build_cn_profile(corpus["law"], corpus["confusable"])
    one = validate_arbench(rows, profile=profile)
    chunked = validate_stream.validate_arbench_stream(rows, profile=profile, chunk=3)
    assert not one.ok and {e["check"] for e in one.errors} >= {"schema:field_uniqueness"}
    assert chunked.to_json() == one.to_json()
