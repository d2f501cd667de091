"""The OCR package reads images and knows no PDF: buildds.extract.pdf imports it, never the
reverse (read with ast, as tests/import_graph.py does), and its public names are importable."""

from __future__ import annotations

from buildds.extract import docx, ocr, pdf
from tests.import_graph import graph


def test_ocr_imports_nothing_from_pdf() -> None:
    _, edges = graph()
    upward = [f"{e.importer}:{e.line} imports {e.target}" for e in edges
              if e.importer.startswith("buildds.extract.ocr")
              and e.target.startswith("buildds.extract.pdf")]
    assert upward == []


def test_public_names_are_there() -> None:
    for package in (docx, ocr, pdf):
        assert all(hasattr(package, name) for name in package.__all__), package.__name__
