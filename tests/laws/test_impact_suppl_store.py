"""The 附則 impact quotes come from the law store, never from the statute files it was imported
from: a store made in one working directory gives the same transitional provisions from
another one (and with the files gone); a store written before it kept 附則 gives none and the
report says so."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.laws.impact import store_notes
from buildds.laws.impact_memo import SupplMemo, inputs_digest
from buildds.laws.readers import read_law
from buildds.laws.store import SUPPL_SUFFIX, LawStore
from tests.laws.test_impact import NEW, OLD, SUPPL, TABLE, TOUCHED, V2, _assess, _xml
from tests.laws.test_impact_cli import _dataset


def _relative_store(home: Path, monkeypatch: pytest.MonkeyPatch) -> LawStore:
    """A store imported in ``home`` from statute files named relative to it."""
    home.mkdir()
    monkeypatch.chdir(home)
    store = LawStore("store")
    for name, arts, suppl, rev in (("v1.xml", OLD, "", TABLE[0]), ("v2.xml", NEW, SUPPL, TABLE[3])):
        Path(name).write_text(_xml(arts, suppl), encoding="utf-8")
        store.import_text(read_law(Path(name)), rev)
    return store


def test_transitional_from_another_directory(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _relative_store(tmp_path / "a", monkeypatch)
    assert LawStore("store").versions(TABLE[3].law_id)[-1].source.path == "v2.xml"
    here = _assess(LawStore("store"), {"a": ("1",)}, date(2012, 5, 1))["a"]
    elsewhere = tmp_path / "b"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    (tmp_path / "a" / "v2.xml").unlink()  # not even the absolute file is read
    store = LawStore(tmp_path / "a" / "store")
    there = _assess(store, {"a": ("1",)}, date(2012, 5, 1))["a"]
    impact = there.impacts[0]
    assert impact.revision_id == V2
    assert impact.transitional and "なお従前の例による" in impact.transitional[0]
    assert there.model_dump_json() == here.model_dump_json()
    assert store_notes(store) == []


def test_store_written_before_suppl_were_kept(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    store = _relative_store(tmp_path / "a", monkeypatch)
    kept = _assess(store, {"a": ("1",)}, date(2012, 5, 1))["a"].impacts[0]
    before = inputs_digest(store, [TABLE[0].law_id], TABLE, TOUCHED)
    for path in (store.root / TABLE[0].law_id).glob(f"*{SUPPL_SUFFIX}"):
        path.unlink()
    assert inputs_digest(store, [TABLE[0].law_id], TABLE, TOUCHED) != before
    assert not store.has_suppl(TABLE[0].law_id, V2) and store.suppl_provisions(
        TABLE[0].law_id, V2) == ()
    old = _assess(store, {"a": ("1",)}, date(2012, 5, 1))["a"].impacts[0]
    assert kept.transitional and not old.transitional and old.revision_id is None
    notes = store_notes(store)
    assert notes == [f"附則 not in the store for {rid}: re-import the file ({name})"
                     for rid, name in ((TABLE[0].revision_id, "v1.xml"), (V2, "v2.xml"))]
    memo = SupplMemo(store)
    memo.find("令和4年法律第68号", store.versions(TABLE[0].law_id))
    assert len(memo.missing) == 2
    data = _dataset(tmp_path / "jbe")
    res = CliRunner().invoke(main, ["laws", "impact", str(data), "--store", str(store.root),
                                    "--as-of", "2026-01-01", "--from", "2012-05-01",
                                    "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "out" / "impact.md").read_text(encoding="utf-8")
    assert f"- 附則 not in the store for {V2}: re-import the file (v2.xml)" in md
    # re-importing the file brings them back and the note goes
    store.import_text(read_law(Path("v2.xml")), TABLE[3])
    assert store.has_suppl(TABLE[0].law_id, V2) and len(store_notes(store)) == 1
