"""The manifest of official bar-exam PDF URLs: reading and checking the source manifest, and
writing ``<dest>/manifest.json`` with the sha256 of every verified file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from buildds.errors import BuildError, FetchError
from buildds.pipeline import atomic_write_text
from buildds.safeio import loads_strict, read_side_file

__all__ = ["ManifestEntry", "default_manifest_path", "entry_sort_key", "load_manifest",
           "read_json_entries", "write_dest_manifest"]

_SUBJECT_ORDER = ("kenpo", "minpo", "keiho")
_KIND_ORDER = ("mondai", "seito")
_REPO_MANIFEST = Path(__file__).resolve().parents[2] / "data_raw" / "jbe" / "manifest.json"


@dataclass(frozen=True)
class ManifestEntry:
    year: int
    subject: str
    kind: str
    url: str | None
    sha256: str | None
    raw: dict[str, Any]
    #: the URL was inferred from the ministry's numbering, not seen published
    inferred: bool = False

    @property
    def url_hint(self) -> str | None:
        """Where to look for a file without a known URL (the manifest's ``url_hint``)."""
        hint = self.raw.get("url_hint")
        return str(hint) if hint else None

    @property
    def label(self) -> str:
        """``平成27年 憲法 answer key (正解及び配点)``: what the file is, for people."""
        what = ("question booklet (短答式試験問題集)" if self.kind == "mondai"
                else "answer key (正解及び配点)")
        era = self.raw.get("era") or str(self.year)
        subject = self.raw.get("subject_jp") or self.subject
        return f"{era} {subject} {what}"

    @property
    def key(self) -> tuple[int, str, str]:
        return (self.year, self.subject, self.kind)

    @property
    def rel(self) -> str:
        return f"{self.year}/{self.subject}-{self.kind}.pdf"


def default_manifest_path() -> Path:
    """The repository's ``data_raw/jbe/manifest.json`` (found relative to the package), else
    ``./data_raw/jbe/manifest.json``."""
    if _REPO_MANIFEST.exists():
        return _REPO_MANIFEST
    return Path("data_raw") / "jbe" / "manifest.json"


def read_json_entries(path: Path) -> tuple[dict[str, Any], list[Any]]:
    """The top-level object (without ``files``) and the entry list of a manifest."""
    try:
        data = loads_strict(read_side_file(path))
    except BuildError as exc:
        raise FetchError(f"cannot read manifest ({exc.message})", source=str(path)) from exc
    except OSError as exc:
        raise FetchError(f"cannot read manifest ({exc.strerror or exc})", source=str(path)) from exc
    except ValueError as exc:  # JSONDecodeError and the JSON limits
        raise FetchError(f"manifest is not valid JSON ({exc})", source=str(path)) from exc
    if isinstance(data, list):
        return {}, data
    if isinstance(data, dict) and isinstance(data.get("files"), list):
        return {k: v for k, v in data.items() if k != "files"}, data["files"]
    raise FetchError("manifest must be a list of entries or an object with a 'files' list",
                     source=str(path))


def load_manifest(path: Path) -> tuple[dict[str, Any], list[ManifestEntry]]:
    """The top-level object (without ``files``) and the checked entries of a manifest."""
    top, items = read_json_entries(path)
    out: list[ManifestEntry] = []
    seen: set[tuple[int, str, str]] = set()
    for i, e in enumerate(items):
        where = f"entry {i + 1}"
        if not isinstance(e, dict) or not {"year", "subject", "kind"} <= e.keys():
            raise FetchError(f"{where} needs year, subject and kind", source=str(path))
        try:
            year = int(e["year"])
        except (TypeError, ValueError):
            raise FetchError(f"{where}: year {e['year']!r} is not a number",
                             source=str(path)) from None
        subject, kind = str(e["subject"]), str(e["kind"])
        if subject not in _SUBJECT_ORDER:
            raise FetchError(f"{where}: unknown subject {subject!r}", source=str(path))
        if kind not in _KIND_ORDER:
            raise FetchError(f"{where}: unknown kind {kind!r} (mondai or seito)", source=str(path))
        entry = ManifestEntry(year, subject, kind, e.get("official_url") or None,
                              e.get("sha256") or None, dict(e), inferred=e.get("inferred") is True)
        # The target path is always derived from year/subject/kind (the layout that
        # extract/jbe/raw.py reads); a manifest path that disagrees is an error, never a place
        # to write to.
        if e.get("path") not in (None, entry.rel):
            raise FetchError(f"{where}: path {e['path']!r} should be {entry.rel!r}",
                             source=str(path))
        if entry.inferred and not (entry.url and str(e.get("inferred_from") or "").strip()):
            raise FetchError(f"{where}: an inferred official_url needs `inferred_from`, saying "
                             "how it was inferred (else set official_url to null and give a "
                             "url_hint)", source=str(path))
        if entry.url and urlsplit(entry.url).scheme not in ("http", "https"):
            raise FetchError(f"{where}: official_url is not an http(s) URL", source=str(path))
        if entry.key in seen:
            raise FetchError(f"{where}: duplicate entry for {entry.rel}", source=str(path))
        seen.add(entry.key)
        out.append(entry)
    return top, out


def entry_sort_key(e: dict[str, Any]) -> tuple[Any, ...]:
    subj, kind = str(e.get("subject")), str(e.get("kind"))
    return (int(e.get("year", 0)),
            _SUBJECT_ORDER.index(subj) if subj in _SUBJECT_ORDER else 99, subj,
            _KIND_ORDER.index(kind) if kind in _KIND_ORDER else 99, kind)


def write_dest_manifest(path: Path, source_top: dict[str, Any],
                         updates: dict[tuple[int, str, str], tuple[ManifestEntry, str | None]]) -> None:
    """Merge ``updates`` (entry, sha256) into ``path``; keep every other entry and key."""
    if path.exists():
        top, items = read_json_entries(path)
    else:
        top, items = dict(source_top), []
    by_key: dict[tuple[int, str, str], dict[str, Any]] = {}
    others: list[Any] = []
    for e in items:
        try:
            by_key[(int(e["year"]), str(e["subject"]), str(e["kind"]))] = e
        except (TypeError, KeyError, ValueError):
            others.append(e)
    for key, (entry, sha) in updates.items():
        merged = dict(by_key.get(key, {}))
        merged.update({k: v for k, v in entry.raw.items() if k != "sha256"})
        merged["path"] = entry.rel
        merged["sha256"] = sha
        by_key[key] = merged
    files = sorted(by_key.values(), key=entry_sort_key) + others
    text = json.dumps({**top, "files": files}, ensure_ascii=False, indent=1) + "\n"
    atomic_write_text(path, text)
