"""The on-disk string map (buildds.safeio.spilled_map) answers as a dict would, and leaves
no file behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from buildds.extract.judgments import CaseRegistry
from buildds.safeio.spilled_map import SpilledMap


def test_it_answers_as_a_dict(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "ids.sqlite"
    path.parent.mkdir()
    path.write_text("an old run's file")  # replaced, not read
    m = SpilledMap(path)
    d: dict[str, str] = {}
    for i in range(500):
        for target in (m, d):
            target[f"id-{i % 300}"] = f"file line {i}"  # repeats overwrite, as a dict
    assert len(m) == len(d) == 300
    assert m["id-7"] == d["id-7"] and m.get("nope") is None and m.get("nope", "x") == "x"
    assert "id-299" in m and "id-300" not in m and 3 not in m
    assert sorted(m) == sorted(d)
    del m["id-1"]
    assert "id-1" not in m and m.pop("id-2") == "file line 302"
    with pytest.raises(KeyError):
        m["id-1"]
    with pytest.raises(KeyError):
        del m["id-1"]
    m.close()
    assert not path.exists()
    with pytest.raises(ValueError, match="closed"):
        m.get("id-3")


def test_a_case_registry_on_disk_finds_what_a_dict_finds(tmp_path: Path) -> None:
    with SpilledMap(tmp_path / "cases.sqlite") as store:
        on_disk, in_memory = CaseRegistry(store), CaseRegistry()
        claims = [(["2018渝0240刑初301号", "a1"], "a.jsonl line 1"),
                  (["b2"], "a.jsonl line 2"),
                  ([None, "a1"], "b.jsonl line 9"),  # the same case by its other key
                  (["2018渝0240刑初301号"], "b.jsonl line 10")]
        got = [(on_disk.claim(k, w), in_memory.claim(k, w)) for k, w in claims]
    assert all(a == b for a, b in got)
    assert got[2][0] == ("a1", "a.jsonl line 1") and got[3][0] == ("2018渝0240刑初301号", "a.jsonl line 1")
    assert not (tmp_path / "cases.sqlite").exists()
