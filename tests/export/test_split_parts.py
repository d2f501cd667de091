"""A split of many rows as numbered parquet parts (buildds.export.split_parts): the rows,
the split fingerprint and every reader (pandas, the eval task, the peers' task files, the
card's Hub configs through ``datasets``) are those of the one-file export."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from buildds.errors import ExportError
from buildds.export import arbench_stream, split_parts
from buildds.export.split_parts import part_names, split_files, split_pattern


def test_names_and_counts() -> None:
    assert part_names("detection", 1) == ["detection.parquet"]
    assert part_names("detection", 3) == ["detection-00000-of-00003.parquet",
                                          "detection-00001-of-00003.parquet",
                                          "detection-00002-of-00003.parquet"]
    assert split_pattern("detection", 1) == "data/detection.parquet"
    assert split_pattern("detection", 3) == "data/detection-*-of-00003.parquet"


def test_split_files_one_file_parts_or_an_error(tmp_path: Path) -> None:
    assert split_files(tmp_path, "detection") == []
    for name in part_names("detection", 2):
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "detection_old.parquet").write_bytes(b"x")  # not a part
    assert [p.name for p in split_files(tmp_path, "detection")] == part_names("detection", 2)
    (tmp_path / "detection-00000-of-00003.parquet").write_bytes(b"x")  # another build's
    with pytest.raises(ExportError, match="not one complete set"):
        split_files(tmp_path, "detection")
    (tmp_path / "detection.parquet").write_bytes(b"x")  # the one file wins
    assert split_files(tmp_path, "detection") == [tmp_path / "detection.parquet"]
    for name in part_names("correction", 3)[:2]:  # a part missing
        (tmp_path / name).write_bytes(b"x")
    with pytest.raises(ExportError, match="correction"):
        split_files(tmp_path, "correction")


def _export(out: Path, monkeypatch: pytest.MonkeyPatch, part_rows: int) -> Any:
    from buildds.evaluate.peers import peer_task_files
    from buildds.export.arbench import export_arbench
    from tests.evaluate.tasks.appellate_review.test_task import _synthetic_rows

    monkeypatch.setattr(split_parts, "PART_ROWS", part_rows)
    monkeypatch.setattr(arbench_stream, "BATCH", 3)
    return export_arbench(_synthetic_rows(), out=out, fingerprint="a" * 32,
                          provenance={}, seed=0,
                          extra_files=peer_task_files("appellate-review"))


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    with pytest.MonkeyPatch.context() as mp:
        root = tmp_path_factory.mktemp("parts")
        return {"one": _export(root / "one", mp, 10_000), "parts": _export(root / "parts", mp, 4)}


def test_parts_hold_the_rows_of_the_one_file(exports: dict[str, Any]) -> None:
    import pyarrow.parquet as pq

    one, parts = exports["one"], exports["parts"]
    n = one.splits["detection"]
    assert n > 8 and one.splits == parts.splits
    files = parts.parquet_files("detection")
    assert [f.name for f in files] == part_names("detection", -(-n // 4))
    assert [pq.ParquetFile(f).metadata.num_rows for f in files] == (
        [4] * (n // 4) + ([n % 4] if n % 4 else []))
    assert all(g <= 3 for f in files for g in
               (pq.ParquetFile(f).metadata.row_group(i).num_rows
                for i in range(pq.ParquetFile(f).metadata.num_row_groups)))
    assert one.parquet_files("detection") == [one.out / "data" / "detection.parquet"]
    # classification and correction: the same rows, parts of their own names
    assert [f.name for f in parts.parquet_files("correction")] == part_names(
        "correction", len(parts.parquet_files("classification")))
    assert one.split_fingerprints == parts.split_fingerprints  # a hash of the table


def test_readers_see_the_same_rows(exports: dict[str, Any]) -> None:
    from buildds.evaluate.tasks.appellate_review.task import load_rows
    from buildds.export.arbench import load_arbench_export

    one, parts = exports["one"].out, exports["parts"].out
    for split in ("detection", "classification", "correction"):
        assert load_arbench_export(parts, split).equals(load_arbench_export(one, split))
        rows, fp = load_rows(parts, split)
        assert rows == load_rows(one, split)[0]
        assert len(fp["parts_sha256"]) == len(split_files(parts / "data", split))


def _peer_utils(export: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"utils_{export.name}",
                                                  export / "lm_eval" / "utils.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_peers_task_files_read_every_part(exports: dict[str, Any]) -> None:
    one, parts = _peer_utils(exports["one"].out), _peer_utils(exports["parts"].out)
    for subtask in ("detection", "classification"):
        assert parts.items(subtask) == one.items(subtask) and one.items(subtask)
    assert parts.correction_items() == one.correction_items() and one.correction_items()


def test_the_card_configs_load_the_parts_through_datasets(exports: dict[str, Any],
                                                          tmp_path: Path) -> None:
    import datasets

    loaded = {name: datasets.load_dataset(str(e.out), cache_dir=str(tmp_path / name))
              for name, e in exports.items()}
    card = (exports["parts"].out / "README.md").read_text(encoding="utf-8")
    assert "path: data/detection-*-of-" in card
    for split in ("detection", "classification", "correction"):
        assert loaded["parts"][split].to_list() == loaded["one"][split].to_list()
        assert loaded["one"][split].num_rows == exports["one"].splits[split]
