"""Revisions from the e-Gov API v2 law_revisions answer and from the curated table."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from buildds.errors import BuildError, ExtractError
from buildds.laws.revisions import (
    load_revisions_table,
    parse_law_revisions,
    read_law_revisions,
    revision_for,
)
from buildds.schema.core import Source
from buildds.schema.laws import LawText
from tests.conftest import shared_path


def test_real_law_revisions_answer() -> None:
    path = shared_path("realdata", "laws", "egov-api",
                       "law_revisions_response_503AC0000000036.json")
    (rev,) = read_law_revisions(path)
    assert rev.revision_id == "503AC0000000036_20240607_506AC0000000046"
    assert rev.valid_from == date(2024, 6, 7)
    assert rev.promulgated == date(2024, 6, 7)
    assert rev.amended_by == "令和六年法律第四十六号"
    assert rev.law_title == "デジタル庁設置法"
    assert rev.status == "enforced"  # PreviousEnforced


def _answer(*rows: dict[str, object]) -> dict[str, object]:
    return {"law_info": {"law_id": "140AC0000000045"}, "revisions": list(rows)}


def _row(rid: str, when: str | None, status: str = "CurrentEnforced") -> dict[str, object]:
    return {"law_revision_id": rid, "law_title": "刑法", "amendment_enforcement_date": when,
            "amendment_law_num": "令和七年法律第三十九号", "current_revision_status": status}


def test_unenforced_status_and_order() -> None:
    revs = parse_law_revisions(_answer(
        _row("140AC0000000045_20270331_507AC0000000039", "2027-03-31", "UnEnforced"),
        _row("140AC0000000045_20250601_504AC0000000067", "2025-06-01")), "x.json")
    assert [r.valid_from for r in revs] == [date(2025, 6, 1), date(2027, 3, 31)]
    assert [r.status for r in revs] == ["enforced", "unenforced"]


def test_a_revision_id_whose_date_is_not_its_enforcement_date_is_refused() -> None:
    with pytest.raises(ExtractError, match="20250601.*2025-06-02"):
        parse_law_revisions(_answer(
            _row("140AC0000000045_20250601_504AC0000000067", "2025-06-02")), "x.json")


def test_not_an_answer(tmp_path: Path) -> None:
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps({"laws": []}), encoding="utf-8")
    with pytest.raises(ExtractError, match="r.json.*law_revisions"):
        read_law_revisions(bad)


def test_curated_table() -> None:
    table = {r.revision_id: r for r in load_revisions_table()}
    # rows without a file are revisions whose text is not held (gaps, read by laws/impact.py)
    keiho = [r for r in table.values() if r.law_id == "140AC0000000045" and r.file]
    assert [r.valid_from for r in keiho] == [date(2011, 7, 14), date(2023, 7, 13),
                                             date(2025, 6, 1)]
    latest = table["140AC0000000045_20250601_504AC0000000067"]
    assert latest.unenforced == ("155", "167")
    assert "令和7年法律第39号" in (latest.unenforced_note or "")
    assert latest.fetched == date(2026, 1, 1) and latest.valid_from != latest.fetched
    assert not latest.established
    prc = [r.valid_from for r in table.values() if r.law_id == "CN-CRIMINAL-LAW"]
    assert prc == [date(2017, 11, 4), date(2021, 3, 1), date(2024, 3, 1)]
    assert all(r.sources for r in table.values())
    # YAML folding leaves no space inside Japanese text
    assert "令和九年三月三十一日までの間" in (latest.unenforced_note or "")


def test_table_rows_need_a_source(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("laws:\n- law_id: '140AC0000000045'\n  versions:\n"
                    "  - {revision_id: 140AC0000000045_20230713_505AC0000000066, "
                    "valid_from: 2023-07-13}\n", encoding="utf-8")
    with pytest.raises(ExtractError, match="no sources note"):
        load_revisions_table(path)


def test_table_dates_are_days(tmp_path: Path) -> None:
    """A YAML timestamp is its day (a datetime failed later, compared with dates); a date
    with trailing text is refused (it was cut to its first ten characters)."""
    row = ("laws:\n- law_id: '140AC0000000045'\n  versions:\n"
           "  - {{revision_id: 140AC0000000045_20230713_505AC0000000066, valid_from: {}, "
           "sources: s}}\n")
    path = tmp_path / "t.yaml"
    path.write_text(row.format("2023-07-13 10:30:00"), encoding="utf-8")
    (rev,) = load_revisions_table(path)
    assert type(rev.valid_from) is date and rev.valid_from == date(2023, 7, 13)
    assert rev.valid_from <= date(2023, 7, 13)
    path.write_text(row.format("'2023-07-13 and later'"), encoding="utf-8")
    with pytest.raises(ExtractError, match="'2023-07-13 and later' is not a date"):
        load_revisions_table(path)


def _text(law_id: str, name: str) -> LawText:
    return LawText(law_id=law_id, law_title="刑法", articles=(),
                   source=Source(path=f"/x/{name}", sha256="0" * 64))


def test_revision_for_matches_file_and_law() -> None:
    table = load_revisions_table()
    rev = revision_for(table, _text("140AC0000000045", "keiho_2013-11_oldsystem.txt"))
    assert rev.revision_id == "140AC0000000045_20110714_423AC0000000074"
    with pytest.raises(BuildError, match="holds law 129AC0000000089.*of law 140AC0000000045"):
        revision_for(table, _text("129AC0000000089", "x.xml"),
                     "140AC0000000045_20230713_505AC0000000066")
    with pytest.raises(BuildError, match="no revision in the revisions file names the file other.xml; give"):
        revision_for(table, _text("140AC0000000045", "other.xml"))


@pytest.mark.parametrize(("body", "why"), [
    ("a: &x {b: 1}\nlaws: *x\n", "aliases"),
    ("laws: !!python/object:os.system {}\n", "constructor"),
    ("laws: " + "[" * 200 + "]" * 200 + "\n", "nesting deeper"),
    ("laws: [\n", "expected the node content"),
    ("", "the file is empty"),
    ("- 1\n", "top level is a list"),
])
def test_a_bad_revisions_yaml_is_an_error_naming_the_file(tmp_path: Path, body: str,
                                                           why: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ExtractError, match=why) as got:
        load_revisions_table(path)
    assert "bad.yaml" in str(got.value) and "not a revisions table" in str(got.value)


def test_revision_date_reads_the_date_a_revision_id_carries() -> None:
    from datetime import date

    from buildds.laws.revisions import revision_date

    assert revision_date("129AC0000000089_20200401_429AC0000000044") == date(2020, 4, 1)
    assert revision_date("CN-CRIMINAL-LAW_20240301_AMENDMENT-XII") == date(2024, 3, 1)
    assert revision_date("129AC0000000089_20201301_429AC0000000044") is None  # no such day
    assert revision_date("not a revision") is None
