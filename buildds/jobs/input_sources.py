"""Who published each input of a judgments or contracts build, and under which licence,
read from records that lie beside the inputs — never a fixed string — for the dataset card.

Two records are looked for, in the input's folder and then in each folder above it; the
nearest folder holding one wins (at the same folder, the sidecar before PROVENANCE.md):

* ``buildds-sources.yaml`` — the sidecar a user writes to declare their inputs::

      sources:
        - match: "court-2024/*.jsonl"   # glob on the path relative to this file's folder
          publisher: "Example Court Press"
          licence: "CC BY 4.0"
          url: "https://example.org/court-2024"   # optional

  the first entry whose ``match`` fits the input is used;
* ``PROVENANCE.md`` — the data folder's own provenance notes (as in ``../shared/realdata``):
  every markdown table whose first column names a folder or file (in backticks) and that
  has a licence column (``licence``, or ``source repo (licence)``) and/or a source column
  (``source repo @ commit``, ``repo``); the most specific rows that name the input give its
  publisher and licence.

An input no record declares is marked ``not declared`` with how to declare it. Each row
keeps ``basis``: which record (and row or entry) said so, with no absolute path, so the
card is the same wherever the data lies."""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from buildds.errors import BuildError
from buildds.safeio.names import printable_name

__all__ = ["NOT_DECLARED", "PROVENANCE", "SIDECAR", "SourceRecord", "annotate_sources",
           "declared_source", "provenance_rows"]

SIDECAR = "buildds-sources.yaml"
PROVENANCE = "PROVENANCE.md"
NOT_DECLARED = "not declared"
HOW_TO_DECLARE = (f"no {SIDECAR} or {PROVENANCE} beside the input or above it: declare its "
                  f"publisher and licence in a {SIDECAR} (README: \"Declaring where inputs "
                  "come from\")")
_TICKS = re.compile(r"`([^`]+)`")
_SEPARATOR = re.compile(r"^\|\s*:?-{3,}")


@dataclass(frozen=True)
class SourceRecord:
    """What a record says about one input: publisher, licence, url and which record."""

    publisher: str
    licence: str
    url: str
    basis: str


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _plain(text: str) -> str:
    return " ".join(text.replace("`", "").replace("**", "").split())


def _split_licence(cell: str) -> tuple[str, str]:
    """``supota/company (no licence)`` → (``supota/company``, ``no licence``)."""
    text = _plain(cell)
    match = re.match(r"^(.*?)\s*\((.*)\)\s*$", text)
    return (match.group(1), match.group(2)) if match else (text, "")


def provenance_rows(text: str) -> list[tuple[list[str], str, str]]:
    """Every table row of a PROVENANCE.md as (the names in its first cell, publisher,
    licence); rows of tables without a source or licence column are left out."""
    lines = text.splitlines()
    out: list[tuple[list[str], str, str]] = []
    i = 0
    while i + 1 < len(lines):
        if not (lines[i].lstrip().startswith("|") and _SEPARATOR.match(lines[i + 1].strip())):
            i += 1
            continue
        head = [h.lower() for h in _cells(lines[i])]
        lic = next((k for k, h in enumerate(head) if "licen" in h), None)
        src = next((k for k, h in enumerate(head) if k and k != lic
                    and ("source" in h or h == "repo")), None)
        i += 2
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            cells = _cells(lines[i])
            i += 1
            if (lic is None and src is None) or not cells:
                continue
            names = _TICKS.findall(cells[0]) or [_plain(cells[0])]
            publisher = _plain(cells[src]) if src is not None and src < len(cells) else ""
            licence = ""
            if lic is not None and lic < len(cells):
                if head[lic] == "licence" or head[lic] == "license":
                    licence = _plain(cells[lic])
                else:  # "source repo (licence)": the publisher and, in brackets, the licence
                    publisher, licence = _split_licence(cells[lic])
            out.append((names, publisher, licence))
    return out


def _names_input(name: str, rel: str) -> bool:
    name = name.strip()
    if not name:
        return False
    if name.endswith("/"):
        return rel.startswith(name) or rel == name[:-1]
    return rel == name or rel.startswith(name + "/")


def _from_provenance(path: Path, rel: str) -> SourceRecord | None:
    rows = [(max(len(n) for n in names if _names_input(n, rel)), names, pub, lic)
            for names, pub, lic in provenance_rows(path.read_text(encoding="utf-8"))
            if any(_names_input(n, rel) for n in names)]
    if not rows:
        return None
    rows.sort(key=lambda r: -r[0])
    publisher = next((r[2] for r in rows if r[2]), "") or NOT_DECLARED
    licence = next((r[3] for r in rows if r[3]), "") or NOT_DECLARED
    used = next(n for n in rows[0][1] if _names_input(n, rel))
    return SourceRecord(publisher=publisher, licence=licence, url="",
                        basis=f"{PROVENANCE} above the input, row `{used}`")


def _from_sidecar(path: Path, rel: str) -> SourceRecord | None:
    import yaml

    from buildds.safeio.yaml_strict import load_yaml_strict

    try:
        data = load_yaml_strict(path.read_bytes())
    except (OSError, ValueError, yaml.YAMLError) as exc:
        raise BuildError(f"cannot read the sources file: {exc}", source=str(path)) from exc
    entries = data.get("sources") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise BuildError("expected a mapping with a list `sources:` (each entry: match, "
                         "publisher, licence, optional url)", source=str(path))
    for n, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) and entry[k]
                                                  for k in ("match", "publisher", "licence")):
            raise BuildError(f"sources entry {n}: needs the texts match, publisher and licence",
                             source=str(path))
        if fnmatch.fnmatchcase(rel, entry["match"]):
            return SourceRecord(publisher=entry["publisher"], licence=entry["licence"],
                                url=str(entry.get("url") or ""),
                                basis=f"{SIDECAR}, entry {n} (`{entry['match']}`)")
    return None


def declared_source(path: str | Path) -> SourceRecord:
    """The record of the nearest folder (the input's, then each above it) that declares
    ``path``; ``not declared`` (and how to declare it) when none does."""
    path = Path(os.path.abspath(path))
    seen: list[str] = []
    for folder in path.parents:
        rel = path.relative_to(folder).as_posix()
        for name, read in ((SIDECAR, _from_sidecar), (PROVENANCE, _from_provenance)):
            record_file = folder / name
            if record_file.is_file():
                found = read(record_file, rel)
                if found is not None:
                    return found
                seen.append(name)
    basis = HOW_TO_DECLARE if not seen else (
        f"{' and '.join(dict.fromkeys(seen))} above the input: no row or entry names it; "
        f"declare its publisher and licence in a {SIDECAR} (README: \"Declaring where "
        "inputs come from\")")
    return SourceRecord(publisher=NOT_DECLARED, licence=NOT_DECLARED, url="", basis=basis)


def _keys(paths: Iterable[Path]) -> dict[str, Path]:
    """Each input path under the names a build records for it: its file name, and its path
    relative to the inputs' common folder (the contracts build's names)."""
    absolute = [Path(os.path.abspath(p)) for p in paths]
    out: dict[str, Path] = {}
    common = Path(os.path.commonpath([str(p.parent) for p in absolute])) if absolute else None
    for p in absolute:
        out.setdefault(printable_name(p.name), p)
        if common is not None and common != Path(common.anchor):
            out[p.relative_to(common).as_posix()] = p
        out[str(p)] = p
    return out


def annotate_sources(entries: Sequence[dict[str, Any]], paths: Sequence[str | Path]
                     ) -> list[dict[str, Any]]:
    """``entries`` (the provenance's inputs: path, sha256 …) with ``publisher``,
    ``licence``, ``url`` and ``basis`` from :func:`declared_source` of the input each names
    (matched among ``paths`` by recorded name). An entry no path matches keeps what it has."""
    keys = _keys(Path(p) for p in paths)
    cache: dict[Path, SourceRecord] = {}
    out = []
    for entry in entries:
        row = dict(entry)
        found = keys.get(str(entry.get("path", "")))
        if found is not None:
            record = cache.get(found) or cache.setdefault(found, declared_source(found))
            row.update(publisher=record.publisher, licence=record.licence, url=record.url,
                       basis=record.basis)
        out.append(row)
    return out
