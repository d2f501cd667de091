"""Where a dataset's text comes from, for its card: each source file with its publisher,
licence and sha256, and the licence the card declares, all taken from the build's provenance
(``provenance["inputs"]``, annotated by the job that read the files) — never a fixed string,
so a build from the bundled sample names this project and only a build from the official
files credits their publisher."""

from __future__ import annotations

from importlib import metadata
from typing import Any

__all__ = ["NOT_RECORDED", "card_sources", "front_licence", "project_licence"]

NOT_RECORDED = "not recorded"


def project_licence() -> str:
    """This project's licence, from the installed package's metadata (``pyproject.toml``)."""
    try:
        meta = metadata.metadata("buildds")
    except metadata.PackageNotFoundError:  # pragma: no cover - always installed
        return NOT_RECORDED
    return str(meta.get("License-Expression") or meta.get("License") or NOT_RECORDED)


def card_sources(provenance: dict[str, Any]) -> dict[str, Any]:
    """``rows`` (path, sha256, publisher, licence, url, basis per input, sorted by path),
    ``publishers`` (each with its licence and file count) and ``project_only`` (every file
    was written by this project: the card then declares the project's licence)."""
    raw = provenance.get("inputs") or []
    if isinstance(raw, dict):
        raw = [{"path": k, "sha256": v} for k, v in raw.items()]
    rows = []
    for r in raw:
        r = r if isinstance(r, dict) else {"path": str(r)}
        rows.append({"path": str(r.get("path", "")), "sha256": str(r.get("sha256") or ""),
                     "publisher": str(r.get("publisher") or NOT_RECORDED),
                     "licence": str(r.get("licence") or NOT_RECORDED),
                     "url": str(r.get("url") or ""), "basis": str(r.get("basis") or ""),
                     "format": str(r.get("format") or ""),
                     "by_project": bool(r.get("by_project"))})
    rows.sort(key=lambda r: r["path"])
    publishers: dict[tuple[str, str], int] = {}
    for r in rows:
        key = (r["publisher"], r["licence"])
        publishers[key] = publishers.get(key, 0) + 1
    return {"rows": rows,
            "publishers": [{"publisher": p, "licence": lic, "files": n}
                           for (p, lic), n in sorted(publishers.items())],
            "project_only": bool(rows) and all(r["by_project"] for r in rows),
            "project_licence": project_licence()}


def front_licence(sources: dict[str, Any], other_name: str) -> dict[str, str]:
    """The card front matter's licence: the project's when every source file is the
    project's own, else ``other`` named ``other_name``."""
    if sources["project_only"]:
        return {"license": str(sources["project_licence"]).lower()}
    return {"license": "other", "license_name": other_name}
