"""A file whose name is not UTF-8 is read, named with \\xNN escapes in every record, report
and message, and never crashes a JSON writer."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from buildds.cli import main
from buildds.errors import ExtractError
from buildds.safeio.names import printable_name
from buildds.schema.core import Problem, Source

SAMPLE_DOCX = next((Path(__file__).resolve().parents[2] / "buildds" / "sample" / "highbar")
                   .rglob("*.docx"))


def _not_utf8(folder: Path, stem: bytes, suffix: str) -> Path:
    return Path(os.fsdecode(bytes(folder) + b"/" + stem + suffix.encode()))


def test_printable_name() -> None:
    assert printable_name("契約書.docx") == "契約書.docx"
    assert printable_name(os.fsdecode(b"a\xff\xfe.pdf")) == "a\\xff\\xfe.pdf"
    assert printable_name(Path(os.fsdecode(b"d/\xe5.json"))) == "d/\\xe5.json"


def test_records_and_errors_store_printable_names() -> None:
    name = os.fsdecode(b"x\xff.pdf")
    assert Source(path=name, sha256="0" * 64).model_dump_json()  # would raise on a surrogate
    assert Problem(stage="s", code="c", message="m", source=name).source == "x\\xff.pdf"
    assert str(ExtractError("bad", source=name, page=2)) == "x\\xff.pdf, page 2: bad"


def test_contracts_with_a_name_that_is_not_utf8(tmp_path: Path) -> None:
    odd = _not_utf8(tmp_path, b"\x8c\x5f\x96\xf1", ".docx")  # 契約 in Shift_JIS
    shutil.copyfile(SAMPLE_DOCX, odd)
    good = tmp_path / "good.docx"
    shutil.copyfile(SAMPLE_DOCX, good)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["contracts", str(odd), str(good), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert "processed 2 files" in result.output
    sources = {json.loads(line)["source"] for line in
               (out / "clauses.jsonl").read_text("utf-8").splitlines()}
    assert sources == {"\\x8c_\\x96\\xf1.docx", "good.docx"}


def test_output_and_dataset_paths_must_be_utf8(tmp_path: Path) -> None:
    """pyarrow cannot write or read a path with undecodable bytes: a usage error at once,
    not a codec error after the whole build."""
    odd = _not_utf8(tmp_path, b"out\xfe", "")
    odd.mkdir()
    sample = Path(__file__).resolve().parents[2] / "buildds" / "sample" / "pdf"
    for argv in (["jbe", "--years", "2025", "--raw", str(sample), "--out", str(odd), "-q"],
                 ["validate", str(odd)],
                 ["eval", str(odd), "--model", "majority", "--out", str(tmp_path / "e")],
                 ["judgments", str(SAMPLE_DOCX), "--out", str(odd)],
                 ["contracts", str(SAMPLE_DOCX), "--out", str(odd)]):
        result = CliRunner().invoke(main, argv)
        assert result.exit_code == 2, (argv, result.output)
        assert "out\\xfe' is not a UTF-8 path, which the parquet and Arrow libraries need" \
            in result.output, result.output
