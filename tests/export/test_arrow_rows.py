"""Rows → Arrow in chunks (:mod:`buildds.export.arrow_rows`): the same table, the same split
fingerprint and the same parquet bytes as the whole-split path of
:func:`buildds.export.common.dataset_dict`, whatever the chunk size."""

from __future__ import annotations

from pathlib import Path

import pytest

from buildds.errors import ExportError
from buildds.export.arbench import arbench_features
from buildds.export.arrow_rows import dataset_dict_of_tables, rows_table, table_fingerprint
from buildds.export.common import dataset_dict, split_fingerprint, write_parquet
from buildds.schema.arbench import COLUMNS, ArbenchRow
from buildds.schema.judgments import SpanEdit

pytest.importorskip("datasets")


def _row(i: int) -> ArbenchRow:
    label = i % 3 != 0
    text = "判决如下：被告人张某犯盗窃罪，判处有期徒刑" + "三年" * (i % 4 + 1) + "\"引号\"\n"
    return ArbenchRow(
        id=f"j{i:03d}-{'E3-0' if label else 'none'}", source_id=f"j{i:03d}", dataset="judge",
        error_type="E3" if label else "none", error_class="prison_term" if label else "none",
        label=1 if label else 0, factor="none", charges=("盗窃", "诈骗")[: i % 3],
        facts=f"事实{i}", judgment=text, original_judgment=text, reasoning="本院认为",
        anomalous_reasoning="本院认为", cited_articles=("第二百六十四条",) * (i % 2),
        anomalous_cited_articles=(), articles_text="", anomalous_articles_text="",
        gold_correction={"months": 36 + i} if label else {},
        rationale={"tier": "3-10年", "b": [1, 2]} if label else {},
        edits=(SpanEdit(start=0, end=1, old="a", new="b"),) if label else (), seed=0,
        input_s1=f"S1 {i}", input_s2="S2", input_s3="S3", input_s4="S4", input_s5="S5")


def _columns(rows: list[ArbenchRow]) -> dict[str, list[object]]:
    dicts = [r.as_dict() for r in rows]
    return {name: [d[name] for d in dicts] for name in COLUMNS}


@pytest.mark.parametrize("chunk", [1, 2, 7, 256])
@pytest.mark.parametrize("n", [0, 1, 13])
def test_table_and_fingerprint_equal_the_whole_split_path(tmp_path: Path, chunk: int,
                                                          n: int) -> None:
    features = arbench_features()
    rows = [_row(i) for i in range(n)]
    cols = _columns(rows)
    whole, fps = dataset_dict({"detection": cols}, features, tag="t", title="T",
                              fingerprint="f", seed=3)
    table = rows_table(rows, features, chunk=chunk)
    assert table.equals(whole["detection"].data.table)
    assert table.column(0).num_chunks == 1  # one array per column, as from_pydict gives
    assert table_fingerprint("t", "f", "detection", 3, table, chunk=chunk) == fps["detection"]
    assert fps["detection"] == split_fingerprint("t", "f", "detection", 3, cols)
    chunked, fps2 = dataset_dict_of_tables({"detection": table}, features, tag="t", title="T",
                                           fingerprint="f", seed=3)
    assert fps2 == fps
    import pyarrow.parquet as pq

    write_parquet(pq, whole["detection"].data.table, tmp_path / "a.parquet")
    write_parquet(pq, chunked["detection"].data.table, tmp_path / "b.parquet")
    assert (tmp_path / "a.parquet").read_bytes() == (tmp_path / "b.parquet").read_bytes()


def test_a_row_that_does_not_fit_is_an_export_error() -> None:
    class Bad:
        def as_dict(self) -> dict[str, object]:
            return {**_row(1).as_dict(), "label": "not a number"}

    with pytest.raises(ExportError, match="split x: rows do not fit the features"):
        rows_table([Bad()], arbench_features(), where="split x: ")
