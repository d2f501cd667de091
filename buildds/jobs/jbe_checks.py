"""Checks of ``buildds jbe`` that look at more than one booklet/key pair, or at ``--out``:

* :func:`refuse_copies` — a PDF whose bytes are another requested file's (a key copied into
  another year's folder), or a key with the same answers in the same slots as another's, is
  refused, naming both;
* :func:`check_not_dropping` — a run would replace an export that holds years or subjects the
  run does not build: a :class:`BuildError` asking for ``--replace`` or another ``--out``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.schema import SUBJECTS, Problem

__all__ = ["check_not_dropping", "previous_contents", "refuse_copies"]

STAGE = "jbe-xml"


def refuse_copies(pairs: list[dict[str, Any]], shas: dict[str, str]) -> int:
    """Pairs that share a file (same sha256, ``shas`` maps file name → sha256) or whose keys
    have the same answers in the same slots (``key_answers``). When two or more of them
    built, nothing tells which one is right: all of those fail. A pair that failed on its
    own checks (配点, header) is the copy; it is told which file it copies, and the one
    that built is kept. Returns how many pairs failed here."""
    groups: dict[tuple[str, str], list[tuple[dict[str, Any], str]]] = defaultdict(list)
    for pair in pairs:
        for field in ("booklet", "key"):
            if pair[field] in shas:
                groups[("file", shas[pair[field]])].append((pair, pair[field]))
        if pair["status"] != "failed" and pair.get("key_answers"):
            groups[("answers", pair["key_answers"])].append((pair, pair["key"]))
    failed = 0
    for (kind, digest), members in groups.items():
        if len(members) < 2:
            continue
        built = [pair for pair, _ in members if pair["status"] != "failed"]
        for pair, name in members:
            if len(built) == 1 and pair is built[0]:
                continue
            others = ", ".join(n for p, n in members if p is not pair)
            if kind == "file":
                code, message = "duplicate-file", (
                    f"{name} is the same file as {others} (sha256 {digest[:12]}…): a booklet "
                    "or key belongs to one year and subject")
            else:
                code, message = "duplicate-key", (
                    f"answer key {name} has the same answers in the same slots as {others}: "
                    "at most one of them is the key of its year")
            pair["problems"] = [*pair["problems"], Problem(
                stage=STAGE, code=code, source=name, message=message).model_dump()]
            if pair["status"] != "failed":
                pair.update(status="failed", xml=None, counts={})
                failed += 1
    return failed


def previous_contents(out: Path) -> set[tuple[int, str]]:
    """The (year, subject) pairs the dataset in ``out`` was built from: the built pairs of
    its report.json, and every xml/<year>/<subject>.xml (a later --xml-only run rewrites the
    report but not the dataset). Empty when ``out`` holds no dataset."""
    from buildds.safeio import loads_strict, read_side_file

    if not ((out / "data" / "test.parquet").exists() or (out / "dataset").is_dir()):
        return set()
    held: set[tuple[int, str]] = set()
    report = out / "report.json"
    if report.is_file():
        try:
            data = loads_strict(read_side_file(report))  # within side_file_bytes
            for p in data.get("pairs", []) if isinstance(data, dict) else []:
                if (isinstance(p, dict) and p.get("status") != "failed"
                        and isinstance(p.get("year"), int) and p.get("subject") in SUBJECTS):
                    held.add((p["year"], p["subject"]))
        except (BuildError, OSError, ValueError):
            pass  # unreadable: the XML files below still say what was built
    xml = out / "xml"
    if xml.is_dir():
        for path in xml.glob("*/*.xml"):
            if path.parent.name.isdigit() and path.stem in SUBJECTS:
                held.add((int(path.parent.name), path.stem))
    return held


def _describe(pairs: set[tuple[int, str]]) -> str:
    """``2015–2018, 2020 (all subjects); 2019 kenpo, keiho``: years grouped by subjects."""
    from buildds.jobs.jbe import _years_text

    by_year: dict[int, tuple[str, ...]] = {}
    for year in sorted({y for y, _ in pairs}):
        by_year[year] = tuple(s for s in SUBJECTS if (year, s) in pairs)
    groups: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for year, subjects in by_year.items():
        groups[subjects].append(year)
    parts = []
    for subjects, years in sorted(groups.items(), key=lambda kv: kv[1][0]):
        which = "all subjects" if len(subjects) == len(SUBJECTS) else ", ".join(subjects)
        parts.append(f"{_years_text(years)} ({which})")
    return "; ".join(parts)


def check_not_dropping(out: Path, years: list[int], subjects: list[str]) -> None:
    """Raise :class:`BuildError` when the dataset in ``out`` holds (year, subject) pairs that
    this run does not build: exporting would drop them."""
    held = previous_contents(out)
    dropped = {(y, s) for y, s in held if y not in years or s not in subjects}
    if not dropped:
        return
    raise BuildError(
        f"{out} holds a dataset built from {_describe(held)}; this run builds "
        f"{_describe({(y, s) for y in years for s in subjects})} and would drop "
        f"{_describe(dropped)} from it. Pass --replace to replace that dataset, or choose "
        f"another --out.")
