"""The small files that steer a build — fetch manifests, corrections, annotations, rejects,
statute profiles — are read as regular UTF-8 files within a size limit, JSON with limits and
YAML without aliases; each bad one is an error naming the file, never a hang or a crash."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from buildds.cli import main
from buildds.errors import BuildError, ExtractError, FetchError, TransformError
from buildds.safeio import load_yaml_strict, read_side_file
from buildds.safeio.yaml_strict import YamlAliasError
from buildds.transform.corrections import load_corrections
from buildds.transform.rikai import load_annotations
from buildds.validate.load import read_rejects

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))


def test_read_side_file_drops_a_bom_and_names_bad_bytes(tmp_path: Path) -> None:
    f = tmp_path / "m.json"
    f.write_bytes(b"\xef\xbb\xbf[1]")
    assert read_side_file(f) == "[1]"
    f.write_bytes("[\"民法\"]".encode("gbk"))
    with pytest.raises(ExtractError, match=r"m\.json: is not UTF-8 text \(byte 2"):
        read_side_file(f)


def test_yaml_aliases_are_refused_tags_too() -> None:
    assert load_yaml_strict("- {id: a, n: 1}\n") == [{"id": "a", "n": 1}]
    with pytest.raises(YamlAliasError, match=r"line 2: YAML aliases \(\*a\) are not accepted"):
        load_yaml_strict(BOMB)
    with pytest.raises(yaml.YAMLError, match="could not determine a constructor"):
        load_yaml_strict("!!python/object/apply:os.system [echo hi]")


def test_a_billion_laughs_corrections_file_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "bomb.yaml").write_text(BOMB, encoding="utf-8")
    with pytest.raises(TransformError, match=r"bomb\.yaml: cannot read corrections: .*aliases"):
        load_corrections(tmp_path)


def test_corrections_that_are_a_fifo_do_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    with pytest.raises(BuildError, match=r"pipe\.yaml: is a named pipe"):
        load_corrections(tmp_path)


@pytest.mark.parametrize("text, why", [
    ('{"files": [{"year": Infinity}]}', "Infinity is not a JSON number"),
    ("[" * 100 + "]" * 100, "nesting of 100 levels exceeds the limit of 64"),
    ('[{"year": ' + "9" * 5000 + "}]", "5000 digits exceeds the limit of 100"),
])
def test_fetch_manifest_limits(tmp_path: Path, text: str, why: str) -> None:
    manifest = tmp_path / "manifest.json"
    manifest.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["fetch", "jbe", "--years", "2019", "--dest",
                                       str(tmp_path / "dest"), "--manifest", str(manifest)])
    assert result.exit_code == 1
    assert "manifest.json: manifest is not valid JSON" in result.output
    assert why in result.output
    assert "Traceback" not in result.output


def test_fetch_manifest_not_utf8(tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.json"
    manifest.write_bytes(b'{"files": ["\xff"]}')
    result = CliRunner().invoke(main, ["fetch", "jbe", "--years", "2019", "--dest",
                                       str(tmp_path / "dest"), "--manifest", str(manifest)])
    assert result.exit_code == 1
    assert "cannot read manifest (is not UTF-8 text (byte 12" in result.output


def test_rejects_with_deep_json_name_the_line(tmp_path: Path) -> None:
    f = tmp_path / "rejects.jsonl"
    f.write_text('{"reason": "ok"}\n' + "[" * 70 + "]" * 70 + "\n", encoding="utf-8")
    with pytest.raises(ExtractError, match=r"rejects\.jsonl: line 2 is not JSON: nesting"):
        read_rejects(f)


def test_annotations_limits(tmp_path: Path) -> None:
    f = tmp_path / "labels.jsonl"
    f.write_text('{"document_id": "a", "number": 1, "labels": ["x"]}\n'
                 '{"document_id": "a", "number": NaN, "labels": ["x"]}\n', encoding="utf-8")
    with pytest.raises(TransformError, match=r"labels\.jsonl: line 2 is not JSON \(NaN is not"):
        load_annotations(f)
    link = tmp_path / "zero.csv"
    link.symlink_to("/dev/zero")
    with pytest.raises(TransformError, match=r"zero\.csv: cannot read the annotation file "
                                             r"\(is a character device"):
        load_annotations(link)
    big = tmp_path / "labels.csv"
    with big.open("wb") as fh:  # sparse: 65 MiB of nothing
        fh.truncate(65 * 1024 * 1024)
    with pytest.raises(TransformError, match="exceeds the limit of 67,108,864 bytes"):
        load_annotations(big)


def test_fetch_error_is_a_build_error() -> None:
    assert issubclass(FetchError, BuildError)


def test_deep_yaml_is_a_limit_not_a_recursion_error(tmp_path: Path) -> None:
    (tmp_path / "deep.yaml").write_text("a: " + "[" * 10_000 + "]" * 10_000 + "\n",
                                        encoding="utf-8")
    with pytest.raises(TransformError, match=r"deep\.yaml: cannot read corrections: line 1: "
                                             r"nesting deeper than the limit of 64 levels"):
        load_corrections(tmp_path)
    block = "x:\n" + "".join("  " * i + "- \n" for i in range(1, 100))
    with pytest.raises(yaml.YAMLError, match="line 65: nesting deeper"):
        load_yaml_strict(block)
    assert load_yaml_strict("a: " + "[" * 60 + "]" * 60) is not None


def test_label_inventory_that_is_a_fifo_or_not_utf8(tmp_path: Path) -> None:
    from buildds.jobs.contracts_labels import read_label_inventory

    (tmp_path / "labels.txt").write_text("\ufeff秘密保持\n損害賠償\n秘密保持\n", encoding="utf-8")
    assert read_label_inventory(tmp_path / "labels.txt") == ["秘密保持", "損害賠償"]
    os.mkfifo(tmp_path / "pipe.txt")
    with pytest.raises(BuildError, match=r"pipe\.txt: cannot read the label inventory \(is a "
                                         r"named pipe"):
        read_label_inventory(tmp_path / "pipe.txt")
    (tmp_path / "sjis.txt").write_bytes("秘密".encode("shift_jis"))
    with pytest.raises(BuildError, match=r"label inventory \(is not UTF-8 text \(byte 0"):
        read_label_inventory(tmp_path / "sjis.txt")
