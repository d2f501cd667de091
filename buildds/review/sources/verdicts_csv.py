"""The reviewer's verdicts CSV of a judgments build (``id,valid,note`` — the file
``buildds judgments --review-verdicts`` reads, :mod:`buildds.extract.review_verdicts`) as a
store the review app writes to.

:func:`read_rows` keeps every row, judged or not, in file order (so a file a person started
from ``verdicts_template.csv`` keeps its blank rows and order); the file is first read by the
build's own strict reader, so a file the build would refuse is refused here too (an
:class:`~buildds.errors.ExtractError` naming the file and line) rather than overwritten.
:func:`render_rows` writes them back in the same format (UTF-8, ``\\n`` line ends).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from buildds.extract.review_verdicts import VERDICT_COLUMNS, read_verdicts
from buildds.safeio.files import read_side_file

__all__ = ["read_rows", "render_rows"]


def read_rows(path: Path) -> dict[str, tuple[str, str]]:
    """id → (valid, note) for every row of the verdicts CSV at ``path`` (``valid`` ``yes``,
    ``no`` or ``""``), in file order; empty when the file does not exist."""
    if not path.exists():
        return {}
    read_verdicts(path)  # the build's checks: header, yes/no, no id twice
    text = read_side_file(path)
    reader = csv.reader(io.StringIO(text, newline=""))
    header = [h.strip().lower() for h in next(reader)]
    out: dict[str, tuple[str, str]] = {}
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        cell = dict(zip(header, row, strict=True))
        out[cell["id"].strip()] = (cell["valid"].strip().lower(), cell.get("note", "").strip())
    return out


def render_rows(rows: dict[str, tuple[str, str]]) -> str:
    """The CSV text of ``rows`` (header ``id,valid,note``, rows in their order)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(VERDICT_COLUMNS)
    for rid, (valid, note) in rows.items():
        writer.writerow([rid, valid, note])
    return buf.getvalue()
