"""Code versions: the files whose content invalidates a build's cache."""

from __future__ import annotations

from pathlib import Path

import pytest

import buildds
from buildds.pipeline import expand_names, hash_files

PACKAGE = Path(buildds.__file__).parent


def test_wildcards_expand_sorted_and_plain_names_stay(tmp_path: Path):
    (tmp_path / "extract").mkdir()
    for name in ("ocr_b.py", "ocr.py", "ocr_a.py", "pdf.py"):
        (tmp_path / "extract" / name).write_text(name, encoding="utf-8")
    assert expand_names(tmp_path, ["extract/ocr*.py", "missing.py"]) == [
        "extract/ocr.py", "extract/ocr_a.py", "extract/ocr_b.py", "missing.py"]
    before = hash_files(tmp_path, ["extract/ocr*.py"])
    # a new module of a split stage changes the version, as an edit does
    (tmp_path / "extract" / "ocr_c.py").write_text("new", encoding="utf-8")
    assert hash_files(tmp_path, ["extract/ocr*.py"]) != before
    assert hash_files(tmp_path, ["extract/pdf/lines.py"]) == hash_files(tmp_path, ["extract/pdf/lines.py"])


@pytest.mark.parametrize("job", ["jbe", "jbe_dataset", "contracts", "judgments"])
def test_every_code_file_of_a_job_exists(job: str):
    module = __import__(f"buildds.jobs.{job}", fromlist=["_CODE_FILES"])
    names = expand_names(PACKAGE, module._CODE_FILES)
    assert names, job
    assert [n for n in names if not (PACKAGE / n).is_file()] == []
    # every pattern matches something (a renamed module cannot drop out silently)
    for pattern in module._CODE_FILES:
        assert expand_names(PACKAGE, [pattern]) and all(
            (PACKAGE / n).is_file() for n in expand_names(PACKAGE, [pattern])), pattern
