"""A small sample exam written by the project, typeset to PDF (booklets + answer keys).

``SAMPLE_DIR`` holds the bundled PDFs (``2025/<subject>-<mondai|seito>.pdf`` and
``manifest.json``), so ``buildds jbe`` runs offline out of the box. The questions are
original (not the Ministry of Justice's); :func:`expected` gives their correct parse and
answers. :func:`write_sample` regenerates the files (needs the ``sample`` extra: reportlab
and the IPAMincho font); ``python -m buildds.sample`` rewrites the bundled folder.
"""

from __future__ import annotations

from pathlib import Path

from buildds.sample.content import SUBJECT_CODES, YEAR
from buildds.sample.truth import SampleQuestion, answer_rows, booklet_layout, expected

__all__ = [
    "SAMPLE_DIR",
    "SAMPLE_YEAR",
    "SUBJECT_CODES",
    "SampleQuestion",
    "answer_rows",
    "booklet_layout",
    "expected",
    "write_sample",
]

#: the bundled sample: <SAMPLE_DIR>/2025/<subject>-<mondai|seito>.pdf and manifest.json
SAMPLE_DIR = Path(__file__).resolve().parent / "pdf"
SAMPLE_YEAR = YEAR


def write_sample(dest: Path) -> list[Path]:
    """Typeset the sample into ``dest``; see :func:`buildds.sample.write.write_sample`."""
    from buildds.sample.write import write_sample as _write

    return _write(dest)
