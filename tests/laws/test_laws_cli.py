"""`buildds laws import / versions / fetch`, and the three real 刑法 versions in a store."""

from __future__ import annotations

import socket
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.laws.store import LawStore, UnenforcedText
from tests.conftest import shared_path

LAW = "140AC0000000045"


def _keiho_files() -> list[Path]:
    pytest.importorskip("buildds.laws.readers")
    return [shared_path("realdata", "laws", "jp-penal-code", "keiho_2013-11_oldsystem.txt"),
            shared_path("realdata", "statutes", f"{LAW}_20230713_505AC0000000066.html"),
            shared_path("realdata", "laws", "jp-penal-code", "keiho_egov_api_v1_2026-01-01.xml")]


@pytest.mark.shared
def test_real_keiho_versions(tmp_path: Path) -> None:
    files = _keiho_files()
    store = tmp_path / "store"
    result = CliRunner().invoke(main, ["laws", "import", *map(str, files), "--store", str(store)])
    assert result.exit_code == 0, result.output
    s = LawStore(store)
    picks = {d: s.version_at(LAW, d).revision_id for d in
             (date(2016, 1, 1), date(2024, 1, 1), date(2025, 7, 1))}
    assert picks == {date(2016, 1, 1): f"{LAW}_20110714_423AC0000000074",
                     date(2024, 1, 1): f"{LAW}_20230713_505AC0000000066",
                     date(2025, 7, 1): f"{LAW}_20250601_504AC0000000067"}
    latest = s.versions(LAW)[-1]
    assert latest.fetched == date(2026, 1, 1) and latest.valid_from == date(2025, 6, 1)
    assert {"155", "161_2", "167"} <= set(latest.unenforced_articles)
    assert "199" not in latest.unenforced_articles
    with pytest.raises(UnenforcedText, match="155"):
        s.article_at(LAW, "155", date(2026, 1, 1))
    assert "拘禁刑" in s.article_at(LAW, "199", date(2026, 1, 1)).flat
    assert "懲役" in s.article_at(LAW, "199", date(2024, 1, 1)).flat
    shown = CliRunner().invoke(main, ["laws", "versions", LAW, "--store", str(store)])
    assert shown.exit_code == 0, shown.output
    assert "2023-07-13\t2025-06-01\tenforced" in shown.output
    assert "unenforced:" in shown.output and "令和7年法律第39号" in shown.output
    before = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    again = CliRunner().invoke(main, ["laws", "import", *map(str, files), "--store", str(store)])
    assert again.exit_code == 0
    assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == before


@pytest.mark.shared
def test_import_refuses_a_mismatched_revision(tmp_path: Path) -> None:
    files = _keiho_files()
    result = CliRunner().invoke(main, [
        "laws", "import", str(files[0]), "--store", str(tmp_path),
        "--revision-id", "129AC0000000089_20230614_505AC0000000053"])
    assert result.exit_code == 1
    assert "holds law 140AC0000000045" in result.output
    assert not any(tmp_path.iterdir())


def test_versions_of_an_empty_store(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["laws", "versions", "--store", str(tmp_path)])
    assert result.exit_code == 1
    assert "no versions" in result.output


def test_fetch_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("BUILDDS_EGOV_API", f"http://127.0.0.1:{port}/api/2")
    result = CliRunner().invoke(main, ["laws", "fetch", LAW, "--store", str(tmp_path)])
    assert result.exit_code == 1
    assert "cannot reach" in result.output and "save it as" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("sub", ["import", "versions", "fetch"])
def test_help_has_an_example(sub: str) -> None:
    result = CliRunner().invoke(main, ["laws", sub, "--help"])
    assert result.exit_code == 0 and "Example" in result.output


def test_import_names_every_bad_file_and_writes_nothing(tmp_path: Path) -> None:
    empty, binary = tmp_path / "empty.xml", tmp_path / "renamed_pdf.xml"
    empty.write_bytes(b"")
    binary.write_bytes(b"%PDF-1.7\n\xe2\xe3\xcf\xd3\n")
    store = tmp_path / "store"
    result = CliRunner().invoke(main, ["laws", "import", str(empty), str(binary),
                                       "--store", str(store)])
    assert result.exit_code == 1
    assert "2 of 2 files cannot be imported; nothing was written" in result.output
    assert "empty.xml: not a statute file" in result.output
    assert "renamed_pdf.xml: not UTF-8 text" in result.output
    assert "Traceback" not in result.output and not store.exists()


@pytest.mark.shared
def test_import_refuses_another_file_as_a_held_revision(tmp_path: Path) -> None:
    old, html, _ = _keiho_files()
    store = tmp_path / "store"
    assert CliRunner().invoke(main, ["laws", "import", str(html), "--store",
                                     str(store)]).exit_code == 0
    before = {p: p.read_bytes() for p in store.rglob("*") if p.is_file()}
    result = CliRunner().invoke(main, [
        "laws", "import", str(old), "--store", str(store),
        "--revision-id", f"{LAW}_20230713_505AC0000000066"])
    assert result.exit_code == 1
    assert "keiho_2013-11_oldsystem.txt" in result.output and "another text" in result.output
    assert {p: p.read_bytes() for p in store.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("law_id", ["../../etc", "140AC0000000045/x", "a b", ""])
def test_fetch_refuses_a_law_id_that_is_not_one(tmp_path: Path, law_id: str) -> None:
    result = CliRunner().invoke(main, ["laws", "fetch", law_id, "--store", str(tmp_path / "s"),
                                       "--timeout", "1"])
    assert result.exit_code == 2, result.output
    assert "not an e-Gov law id" in result.output and "download by hand" not in result.output
    assert not (tmp_path / "s").exists()


def test_versions_of_a_damaged_store(tmp_path: Path) -> None:
    (tmp_path / LAW).mkdir()
    (tmp_path / LAW / "versions.json").write_text("{garbage", encoding="utf-8")
    result = CliRunner().invoke(main, ["laws", "versions", "--store", str(tmp_path)])
    assert result.exit_code == 1
    assert "versions.json: a damaged law store file" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
