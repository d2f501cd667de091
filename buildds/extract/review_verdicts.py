"""A reviewer's verdicts CSV (``id,valid,note``; the file ``--review-sample`` writes as
``review/verdicts_template.csv``) read strictly: :func:`read_verdicts`.

UTF-8 with or without a BOM; the header must name ``id`` and ``valid`` (``note`` optional, in
any order, nothing else); ``valid`` is ``yes`` or ``no`` (any case), or empty for a row not
judged yet (left out); an id twice is an error. Every error is an
:class:`~buildds.errors.ExtractError` naming the file and the line. Whether the ids are rows of
the build is checked where the rows are known (:func:`check_verdict_ids`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Sequence
from pathlib import Path

from buildds.errors import ExtractError
from buildds.safeio.files import read_side_file
from buildds.safeio.names import printable_name
from buildds.schema.review import ReviewVerdict

__all__ = ["VERDICT_COLUMNS", "check_verdict_ids", "read_verdicts"]

VERDICT_COLUMNS = ("id", "valid", "note")
_VALUES = {"yes": True, "no": False}


def read_verdicts(path: str | Path) -> list[ReviewVerdict]:
    """The judged rows of the verdicts CSV at ``path``, in file order (see the module
    docstring); :class:`ExtractError` naming the file and line for anything else."""
    path = Path(path)
    name = printable_name(path.name)
    reader = csv.reader(io.StringIO(read_side_file(path), newline=""))
    out: list[ReviewVerdict] = []
    seen: dict[str, int] = {}
    try:
        header = next(reader, None)
        if header is None:
            raise ExtractError("is empty: expected the header id,valid,note", source=str(path))
        cols = [h.strip().lower() for h in header]
        bad = [c for c in cols if c not in VERDICT_COLUMNS] or [
            c for c in ("id", "valid") if c not in cols]
        if bad or len(set(cols)) != len(cols):
            raise ExtractError(f"line 1: header {','.join(header)!r} is not id,valid,note "
                               f"(unknown, missing or repeated: {', '.join(bad) or 'repeated'})",
                               source=str(path))
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(cols):
                raise ExtractError(f"line {line}: {len(row)} fields, the header has {len(cols)}",
                                   source=str(path))
            cell = dict(zip(cols, row, strict=True))
            rid, value = cell["id"].strip(), cell["valid"].strip().lower()
            if not rid:
                raise ExtractError(f"line {line}: empty id", source=str(path))
            if rid in seen:
                raise ExtractError(f"line {line}: id {rid!r} already judged on line {seen[rid]}",
                                   source=str(path))
            seen[rid] = line
            if not value:
                continue  # not judged yet
            if value not in _VALUES:
                raise ExtractError(f"line {line}: valid is {cell['valid']!r}; write yes or no "
                                   "(or leave it empty)", source=str(path))
            out.append(ReviewVerdict(id=rid, valid=_VALUES[value],
                                     note=cell.get("note", "").strip(), source=name, line=line))
    except csv.Error as exc:
        raise ExtractError(f"line {reader.line_num}: not a readable CSV row ({exc})",
                           source=str(path)) from None
    return out


def check_verdict_ids(verdicts: Sequence[ReviewVerdict], known: Collection[str], *,
                      source: str | Path | None = None) -> None:
    """:class:`ExtractError` for the first verdict whose id is not in ``known`` (the build's
    injected rows), naming its file (``source``, else the name it was read under) and line."""
    for v in verdicts:
        if v.id not in known:
            raise ExtractError(f"line {v.line}: id {v.id!r} is not an injected row of this "
                               "build (check the seed, --errors and the inputs)",
                               source=str(source) if source is not None else v.source)
