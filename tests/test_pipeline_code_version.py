"""Code versions: the files whose content invalidates a build's cache."""

from __future__ import annotations

from pathlib import Path

import pytest

import buildds
from buildds.code_version import code_files
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


JOBS = {"jbe": "_CODE", "jbe_dataset": "_CODE", "contracts": "_CODE", "judgments": "_CODE"}


def _code(job: str, attr: str = "_CODE") -> tuple[str, ...]:
    module = __import__(f"buildds.jobs.{job}", fromlist=[attr])
    return code_files(*getattr(module, attr))


@pytest.mark.parametrize("job", sorted(JOBS))
def test_every_code_file_of_a_job_exists(job: str):
    names = _code(job)
    assert names and [n for n in names if not (PACKAGE / n).is_file()] == []
    assert f"jobs/{job}.py" in names


def test_a_stage_code_version_follows_its_imports_and_no_further():
    xml = _code("jbe")
    # what the XML stage imports, however deep: the booklet reader, the PDF reader behind it,
    # OCR behind that, the era arithmetic, the hardened XML parser
    for rel in ("extract/jbe/booklet.py", "extract/jbe/body.py", "extract/pdf/lines.py",
                "extract/ocr/worker_pool.py", "text/era.py", "safeio/xml.py",
                "export/schemas/jbe_exam.xsd"):
        assert rel in xml, rel
    # and not the later stages: editing the card must not redo the OCR
    assert not [n for n in xml if n.startswith(("export/hf", "validate/", "transform/"))]
    items = _code("jbe_dataset")
    assert "transform/jbe_items.py" in items and "export/hf.py" not in items
    export = _code("jbe_dataset", "_EXPORT_CODE")
    assert {"export/hf.py", "validate/checks.py", "export/cards/jbe.md.j2"} <= set(export)
    judgments = _code("judgments")
    assert {"inject_errors/e2_omission_of_charges.py", "extract/judgments/sentence.py",
            "text/numerals.py", "export/cards/arbench.md.j2"} <= set(judgments)


def test_a_lazy_import_inside_a_function_counts(tmp_path: Path, monkeypatch):
    """The graph is read from the source, so an import written inside a function (as the
    jobs do, to start fast) is followed like one at the top."""
    import buildds.code_version as cv

    pkg = tmp_path / "buildds"
    (pkg / "a").mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a" / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a" / "top.py").write_text("def f():\n    from buildds.a import low\n",
                                      encoding="utf-8")
    (pkg / "a" / "low.py").write_text("from buildds.b import x\n", encoding="utf-8")
    (pkg / "b.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.setattr(cv, "PACKAGE_DIR", pkg)
    cv.package_modules.cache_clear()
    cv._closure.cache_clear()
    cv._imports.cache_clear()
    try:
        assert cv.code_files(["buildds.a.top"], ["data.j2"]) == (
            "__init__.py", "a/__init__.py", "a/low.py", "a/top.py", "b.py", "data.j2")
        with pytest.raises(ValueError, match="buildds.nowhere is not a module"):
            cv.code_files(["buildds.nowhere"])
    finally:
        cv.package_modules.cache_clear()
        cv._closure.cache_clear()
        cv._imports.cache_clear()
