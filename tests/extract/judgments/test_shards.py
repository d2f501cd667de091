"""Inputs split into shards (buildds.extract.judgments.shards): byte ranges that end at line
ends, gzip line ranges, parquet row groups — each read alone gives the records, line numbers
and rejects of a whole-file read."""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import pytest

from buildds.extract.json_lines import JsonLine, JsonLinesFile, LineReject, open_lines
from buildds.extract.judgments.shards import Shard, shard_format, split_input


def _lines(n: int) -> list[str]:
    """JSON lines of varied length, one bad line, one blank line."""
    out = [json.dumps({"id": f"r{i}", "text": "字" * (i * 7 % 23 + 1)}, ensure_ascii=False)
           for i in range(n)]
    out[5] = '{"id": "bad", '  # malformed JSON
    if n > 9:
        out[9] = ""  # blank: counted as a line, gives nothing
    return out


def _items(source: object) -> list[tuple[str, int, object]]:
    with open_lines(source) as src:  # type: ignore[arg-type]
        return [("ok", i.line, i.value) if isinstance(i, JsonLine) else
                ("reject", i.line, (i.reason, i.message)) for i in src]


def _shard_items(shards: list[Shard]) -> list[tuple[str, int, object]]:
    return [item for s in shards for item in _items(s)]


@pytest.mark.parametrize("size", [1, 7, 50, 1000, 10**9])
def test_byte_ranges_end_at_line_ends_and_read_as_the_whole_file(tmp_path: Path,
                                                                  size: int) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join(_lines(30)) + "\n", encoding="utf-8")
    data = path.read_bytes()
    shards = split_input(path, shard_bytes=size)
    assert shards[0].start == 0 and shards[-1].end == len(data)
    for a, b in itertools.pairwise(shards):
        assert a.end == b.start and data[a.end - 1:a.end] == b"\n"
    assert b"".join(s.read_bytes() for s in shards) == data
    assert len({s.id for s in shards}) == len(shards)
    assert _shard_items(shards) == _items(path)
    bad = [i for i in _shard_items(shards) if i[0] == "reject"]
    assert bad == [("reject", 6, bad[0][2])] and "line 6:" in bad[0][2][1]  # type: ignore[index]


def test_last_line_without_newline(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join(_lines(12)), encoding="utf-8")
    assert _shard_items(split_input(path, shard_bytes=20)) == _items(path)


def test_shard_ids_are_stable_and_follow_the_content(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join(_lines(20)) + "\n", encoding="utf-8")
    first = [s.id for s in split_input(path, shard_bytes=64)]
    assert first == [s.id for s in split_input(path, shard_bytes=64)]
    path.write_text("\n".join(_lines(21)) + "\n", encoding="utf-8")
    assert first[0] != split_input(path, shard_bytes=64)[0].id


@pytest.mark.parametrize("size", [1, 100, 10**9])
def test_gzip_line_ranges(tmp_path: Path, size: int) -> None:
    plain = tmp_path / "c.jsonl"
    text = "\n".join(_lines(25)) + "\n"
    plain.write_text(text, encoding="utf-8")
    packed = tmp_path / "c.jsonl.gz"
    packed.write_bytes(gzip.compress(text.encode("utf-8")))
    shards = split_input(packed, shard_bytes=size)
    assert shard_format(packed) == "jsonl.gz" and all(s.format == "jsonl.gz" for s in shards)
    assert (len(shards) > 1) == (size < len(text))
    assert _shard_items(shards) == _items(plain)


def test_parquet_row_groups(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    records = [{"id": f"r{i}", "text": "文" * (i + 1)} for i in range(10)]
    path = tmp_path / "c.parquet"
    pq.write_table(pa.Table.from_pylist(records), path, row_group_size=3)
    shards = split_input(path, shard_bytes=1)
    assert [(s.start, s.end, s.first_line) for s in shards] == [
        (0, 1, 1), (1, 2, 4), (2, 3, 7), (3, 4, 10)]
    assert _shard_items(shards) == [("ok", i + 1, r) for i, r in enumerate(records)]
    whole = split_input(path, shard_bytes=10**9)
    assert len(whole) == 1 and _shard_items(whole) == _shard_items(shards)


def test_a_shard_is_read_where_a_path_is(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text("\n".join(_lines(8)) + "\n", encoding="utf-8")
    shard = split_input(path, shard_bytes=40)[1]
    with shard.lines_file() as src:
        assert isinstance(src, JsonLinesFile)
        assert src.name == "c.jsonl" and src.sha256 == shard.sha256
        first = next(iter(src))
    assert first.line == shard.first_line and not isinstance(first, LineReject)


@pytest.mark.parametrize("name,data", [("c.jsonl.gz", b"\x1f\x8b\x08\x00not gzip"),
                                       ("c.parquet", b"PAR1 not parquet")])
def test_a_broken_file_is_an_extract_error_naming_it(tmp_path: Path, name: str,
                                                     data: bytes) -> None:
    from buildds.errors import ExtractError

    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ExtractError) as caught:
        split_input(path, shard_bytes=100)
    assert caught.value.source == name and "cannot read" in caught.value.message
