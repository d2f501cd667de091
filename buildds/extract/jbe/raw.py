"""Find the bar-exam PDFs of the requested years in a raw folder, and check them.

Layout: ``<raw>/<year>/<subject>-<mondai|seito>.pdf`` (``subject`` ∈ kenpo, minpo, keiho),
optionally with ``<raw>/manifest.json`` whose entries (``year``, ``subject``, ``kind``,
``sha256``) are verified when present: a file whose bytes do not match is reported, never
used silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from buildds.errors import ExtractError
from buildds.safeio import check_regular_file, loads_strict, read_side_file
from buildds.safeio.hashing import sha256_file
from buildds.schema import SUBJECTS, Problem

__all__ = [
    "FIRST_YEAR",
    "ExamFiles",
    "discover_exam_files",
]

#: The earliest exam year the parsers know (the seed's range starts here).
FIRST_YEAR = 2015


@dataclass
class ExamFiles:
    year: int
    subject: str
    mondai: Path | None
    seito: Path | None
    #: path names relative to the raw root, as recorded in provenance
    mondai_name: str | None = None
    seito_name: str | None = None
    problems: list[Problem] = field(default_factory=list)


def _load_manifest(raw: Path) -> list[dict]:
    path = raw / "manifest.json"
    if not path.exists():
        return []
    try:
        data = loads_strict(read_side_file(path))
    except ValueError as exc:  # JSONDecodeError and the JSON limits
        raise ExtractError(f"manifest is not valid JSON ({exc})", source=str(path)) from exc
    entries = data.get("files", data) if isinstance(data, dict) else data
    return [e for e in entries if isinstance(e, dict)]


def _manifest_entry(manifest: list[dict], rel: str, year: int, subject: str,
                    kind: str) -> dict | None:
    """The entry for ``rel``: by path when entries have one (``pdf/2024/minpo-mondai.pdf``
    matches ``2024/minpo-mondai.pdf``; a scanned variant of the same booklet does not),
    else by year, subject and kind."""
    for e in manifest:
        p = str(e.get("path") or "")
        if p and (p == rel or p.endswith("/" + rel)):
            return e
    for e in manifest:
        if not e.get("path") and (e.get("year"), e.get("subject"), e.get("kind")) == (
                year, subject, kind):
            return e
    return None


def discover_exam_files(
    raw: str | Path, years: list[int], subjects: list[str] | None = None, *, verify: bool = True
) -> list[ExamFiles]:
    """One :class:`ExamFiles` per (year, subject), in year then subject order. Missing or
    mismatching files are recorded as problems on the entry, never raised, so the other
    years still build."""
    raw = Path(raw)
    if not raw.is_dir():
        raise ExtractError(f"raw folder does not exist: {raw}")
    manifest = _load_manifest(raw) if verify else []
    out: list[ExamFiles] = []
    for year in years:
        for subject in subjects or list(SUBJECTS):
            entry = ExamFiles(year=year, subject=subject, mondai=None, seito=None)
            if year < FIRST_YEAR:
                entry.problems.append(Problem(
                    stage="discover", code="unknown-year",
                    message=f"year {year} is not supported (the parsers know {FIRST_YEAR} onwards)",
                    source=f"{year}/{subject}"))
                out.append(entry)
                continue
            for kind in ("mondai", "seito"):
                rel = f"{year}/{subject}-{kind}.pdf"
                path = raw / rel
                if not path.exists():
                    what = "question booklet" if kind == "mondai" else "answer key"
                    hint = "" if (raw / str(year)).is_dir() else f" (no folder {raw / str(year)})"
                    entry.problems.append(Problem(
                        stage="discover", code=f"missing-{kind}",
                        message=f"{what} not found: {path}{hint}", source=rel))
                    continue
                # a FIFO or a link to /dev/zero would hang the checksum and the reader; a link
                # out of --raw (/etc/shadow) would have its first bytes quoted in the report
                try:
                    check_regular_file(path, root=raw)
                except ExtractError as exc:
                    entry.problems.append(Problem(stage="discover", code="not-a-regular-file",
                                                  message=exc.message, source=rel))
                    continue
                m = _manifest_entry(manifest, rel, year, subject, kind)
                if m and m.get("sha256"):
                    actual = sha256_file(path)
                    if actual != m["sha256"]:
                        entry.problems.append(Problem(
                            stage="discover", code="checksum-mismatch",
                            message=(f"sha256 {actual[:12]}… does not match the manifest "
                                     f"({m['sha256'][:12]}…); the file changed or is damaged"),
                            source=rel))
                        continue
                setattr(entry, kind, path)
                setattr(entry, f"{kind}_name", rel)
            out.append(entry)
    return out
