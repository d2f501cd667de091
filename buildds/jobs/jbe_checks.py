"""Checks of ``buildds jbe`` that look at more than one booklet/key pair, or at ``--out``:

* :func:`refuse_copies` — a PDF whose bytes are another requested file's (a key copied into
  another year's folder), or a key with the same answers in the same slots as another's, is
  refused, naming both (the pairs are :class:`~buildds.schema.jbe_build.JbePairResult`);
* :func:`check_not_dropping` — a run would replace an export that holds years or subjects the
  run does not build: a :class:`BuildError` asking for ``--replace`` or another ``--out``.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.schema import SUBJECTS, Problem
from buildds.schema.jbe_build import JbePairResult

__all__ = ["check_not_dropping", "previous_contents", "refuse_copies", "years_text"]

STAGE = "jbe-xml"


def refuse_copies(pairs: list[JbePairResult], shas: dict[str, str]) -> list[JbePairResult]:
    """Pairs that share a file (same sha256, ``shas`` maps file name → sha256) or whose keys
    have the same answers in the same slots (``key_answers``). When two or more of them
    built, nothing tells which one is right: all of those fail. A pair that failed on its
    own checks (配点, header) is the copy; it is told which file it copies, and the one
    that built is kept. Returns ``pairs`` with those that fail here failed."""
    # members are indices into ``pairs``: a pair may be in a group twice (its booklet and key)
    groups: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
    for i, pair in enumerate(pairs):
        for name in (pair.booklet, pair.key):
            if name in shas:
                groups[("file", shas[name])].append((i, name))
        if not pair.failed and pair.key_answers:
            groups[("answers", pair.key_answers)].append((i, pair.key))
    result = list(pairs)
    for (kind, digest), members in groups.items():
        if len(members) < 2:
            continue
        built = [i for i, _ in members if not result[i].failed]
        for i, name in members:
            if len(built) == 1 and i == built[0]:
                continue
            others = ", ".join(n for j, n in members if j != i)
            if kind == "file":
                code, message = "duplicate-file", (
                    f"{name} is the same file as {others} (sha256 {digest[:12]}…): a booklet "
                    "or key belongs to one year and subject")
            else:
                code, message = "duplicate-key", (
                    f"answer key {name} has the same answers in the same slots as {others}: "
                    "at most one of them is the key of its year")
            pair = result[i]
            update: dict[str, Any] = {"problems": (*pair.problems, Problem(
                stage=STAGE, code=code, source=name, message=message))}
            if not pair.failed:
                update.update(status="failed", xml=None, counts=None)
            result[i] = pair.model_copy(update=update)
    return result


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


def years_text(years: list[int]) -> str:
    """2015–2024 for a contiguous run, else 2015, 2017."""
    if len(years) > 1 and years == list(range(years[0], years[-1] + 1)):
        return f"{years[0]}–{years[-1]}"
    return ", ".join(str(y) for y in years)


def _describe(pairs: set[tuple[int, str]]) -> str:
    """``2015–2018, 2020 (all subjects); 2019 kenpo, keiho``: years grouped by subjects."""
    by_year: dict[int, tuple[str, ...]] = {}
    for year in sorted({y for y, _ in pairs}):
        by_year[year] = tuple(s for s in SUBJECTS if (year, s) in pairs)
    groups: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for year, subjects in by_year.items():
        groups[subjects].append(year)
    parts = []
    for subjects, years in sorted(groups.items(), key=lambda kv: kv[1][0]):
        which = "all subjects" if len(subjects) == len(SUBJECTS) else ", ".join(subjects)
        parts.append(f"{years_text(years)} ({which})")
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
