"""``buildds judgments`` in shards (buildds.jobs.judgments_sharded) on a small real subset
(needs ../shared): the same files whatever the shard size, the same as the whole-corpus path,
a killed run resumes from the finished shards, a bad record is a reject with its line."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from buildds.jobs.judgments import build_judgments
from buildds.jobs.judgments_shard_task import MARKER
from buildds.jobs.judgments_sharded import SHARDS_DIR, local_map
from tests.conftest import shared_path

#: report.json / report.md say how the run was sharded (and how long it took)
_RUN_FILES = {"report.json", "report.md"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The first 40 JuDGE lines and 25 LeCaRD lines (with one bad line among them)."""
    shared = shared_path("realdata", "judgments")
    root = tmp_path_factory.mktemp("corpus")
    judge = (shared / "judge-benchmark" / "test.json").read_text("utf-8").splitlines()[:40]
    lecard = (shared / "lecard-candidates-subset" / "candidates.jsonl").read_text(
        "utf-8").splitlines()[:25]
    lecard[7] = '{"ajId": "broken", '
    (root / "judge.json").write_text("\n".join(judge) + "\n", encoding="utf-8")
    (root / "lecard.jsonl").write_text("\n".join(lecard) + "\n", encoding="utf-8")
    return {"judge": root / "judge.json", "lecard": root / "lecard.jsonl",
            "law": shared / "cn-criminal-law",
            "confusable": shared / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv"}


def _build(corpus: dict[str, Path], out: Path, **kw: Any) -> Any:
    return build_judgments([corpus["judge"], corpus["lecard"]], out=out, law_dir=corpus["law"],
                           confusable=corpus["confusable"], progress=False, audit=False, **kw)


def _hashes(out: Path) -> dict[str, str]:
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and p.name not in _RUN_FILES
            and SHARDS_DIR not in p.relative_to(out).parts}


@pytest.fixture(scope="module")
def whole(corpus: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The files of the whole-corpus path (shard_bytes 0): the reference."""
    out = tmp_path_factory.mktemp("whole") / "out"
    report = _build(corpus, out, shard_bytes=0)
    assert report.exported and not report.shards
    return _hashes(out)


@pytest.mark.parametrize("size", [1, 7, 1000])
def test_same_files_whatever_the_shard_size(corpus: dict[str, Path], whole: dict[str, str],
                                            tmp_path: Path, size: int) -> None:
    out = tmp_path / "out"
    report = _build(corpus, out, shard_bytes=size)
    assert report.exported and report.shards["shards"] > (10 if size < 1000 else 3)
    assert report.shards["resumed"] == 0
    assert _hashes(out) == whole
    assert "data/detection.parquet" in whole and "rejects.jsonl" in whole
    assert not (out / SHARDS_DIR).exists()  # removed once the export is in place


def test_two_workers_give_the_same_files(corpus: dict[str, Path], whole: dict[str, str],
                                         tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(corpus, out, shard_bytes=30_000, map_fn=local_map(2))
    assert _hashes(out) == whole


def test_a_bad_record_is_a_reject_with_its_file_and_line(corpus: dict[str, Path],
                                                         tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(corpus, out, shard_bytes=5000)
    rejects = [json.loads(x) for x in (out / "rejects.jsonl").read_text("utf-8").splitlines()]
    bad = [r for r in rejects if r["reason"] == "malformed_json"]
    assert len(bad) == 1 and bad[0]["source"] == "lecard.jsonl" and bad[0]["line"] == 8
    assert bad[0]["message"].startswith("line 8:")


class _Killed(Exception):
    pass


def _killed_after(n: int) -> Callable[[Callable[[Any], Any], Iterable[Any]], list[Any]]:
    """A map_fn that does ``n`` shards, then dies (as a killed run would)."""
    def run(fn: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
        done = []
        for i, item in enumerate(items):
            if i == n:
                raise _Killed
            done.append(fn(item))
        return done
    return run


def test_a_killed_run_resumes_from_the_finished_shards(corpus: dict[str, Path],
                                                       whole: dict[str, str],
                                                       tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(_Killed):
        _build(corpus, out, shard_bytes=20_000, map_fn=_killed_after(4))
    markers = sorted((out / SHARDS_DIR).glob(f"*/{MARKER}"))
    assert len(markers) == 4
    markers[1].unlink()  # this shard was killed before its marker: it is redone
    report = _build(corpus, out, shard_bytes=20_000)
    assert report.shards["resumed"] == 3 and report.shards["shards"] > 4
    assert _hashes(out) == whole


def test_a_changed_setting_redoes_every_shard(corpus: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(_Killed):
        _build(corpus, out, shard_bytes=20_000, map_fn=_killed_after(3))
    report = _build(corpus, out, shard_bytes=20_000, seed=1)
    assert report.shards["resumed"] == 0


def test_gzip_and_parquet_inputs_give_the_same_rows(corpus: dict[str, Path],
                                                    tmp_path: Path) -> None:
    import gzip

    import pyarrow as pa
    import pyarrow.parquet as pq

    lines = corpus["judge"].read_text("utf-8").splitlines()
    packed = tmp_path / "judge.jsonl.gz"
    packed.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8")))
    table = tmp_path / "judge.parquet"
    pq.write_table(pa.Table.from_pylist([json.loads(x) for x in lines]), table,
                   row_group_size=7)
    built = {}
    for name, path in (("jsonl", corpus["judge"]), ("gz", packed), ("parquet", table)):
        report = build_judgments([path], out=tmp_path / name, law_dir=corpus["law"],
                                 confusable=corpus["confusable"], progress=False, audit=False,
                                 shard_bytes=20_000)
        assert report.exported and sum(report.parsed.values()) > 30, name
        assert report.shards["shards"] > 1, name
        built[name] = (tmp_path / name / "data" / "detection.parquet").read_bytes()
    assert built["gz"] == built["jsonl"] and built["parquet"] == built["jsonl"]


def test_slim_rows_export_the_same_values(corpus: dict[str, Path]) -> None:
    import dataclasses
    import pickle

    from buildds.extract.judgments import detect_format, load_input
    from buildds.inject_errors.arbench_rows import normal_row
    from buildds.jobs.judgments_shard_task import SlimRow, slim

    found = detect_format(corpus["judge"])
    assert found.field_map is not None
    judgments = list(load_input(corpus["judge"], found.field_map, []))[:5]
    for j in judgments:
        row = normal_row(j, {})
        thin = pickle.loads(pickle.dumps(slim(row)))
        assert isinstance(thin, SlimRow) and thin.input_s3 == ""
        assert thin.as_dict() == row.as_dict()
        odd = dataclasses.replace(row, input_s1="something else")
        assert slim(odd) is odd  # inputs not made from the parts: kept whole


def test_limit_reads_the_same_judgments_as_the_whole_corpus(corpus: dict[str, Path],
                                                            tmp_path: Path) -> None:
    whole = _build(corpus, tmp_path / "whole", shard_bytes=0, limit=15)
    report = _build(corpus, tmp_path / "sharded", shard_bytes=7, limit=15)
    assert report.parsed == whole.parsed and report.parsed["judge.json"] == 15
    assert _hashes(tmp_path / "sharded") == _hashes(tmp_path / "whole")


def test_a_broken_gzip_input_fails_alone(corpus: dict[str, Path], tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(b"\x1f\x8b\x08\x00not gzip at all")
    report = build_judgments([broken, corpus["judge"]], out=tmp_path / "out",
                             law_dir=corpus["law"], confusable=corpus["confusable"],
                             progress=False, audit=False)
    assert [f.path for f in report.failed] == ["broken.jsonl.gz"]
    assert "cannot read" in report.failed[0].error
    assert report.exported and report.parsed == {"judge.json": sum(report.parsed.values())}
