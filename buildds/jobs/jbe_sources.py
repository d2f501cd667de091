"""Who published each JBE input file, decided from the raw folder's own records: the
``manifest.json`` beside the PDFs (written by :mod:`buildds.sample` for the bundled sample,
with ``"sample": true``; by the data folder's maker for the official files, with their
``official_url``). Matched by sha256, so a renamed file keeps its source and an edited one
loses it. A file no manifest lists is taken as the ministry's official PDF, and its row says
that this was assumed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from buildds.export.sources import project_licence

__all__ = ["MINISTRY", "MINISTRY_LICENCE", "PROJECT", "annotate_inputs"]

MINISTRY = "Ministry of Justice of Japan (法務省)"
MINISTRY_LICENCE = ("© Ministry of Justice of Japan (法務省), published on its website; "
                    "check its terms before redistributing")
PROJECT = "the buildds project (bundled sample: questions written and typeset by buildds)"
MANIFEST = "manifest.json"


def _manifest(raw: Path) -> tuple[dict[str, dict[str, Any]], bool, str]:
    """The manifest's file entries by sha256, its top-level ``sample`` flag, and its path
    (empty when there is none or it is unreadable)."""
    path = raw / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, False, ""
    if not isinstance(data, dict):
        return {}, False, ""
    files = [f for f in data.get("files") or [] if isinstance(f, dict) and f.get("sha256")]
    return {str(f["sha256"]): f for f in files}, bool(data.get("sample")), MANIFEST


def annotate_inputs(inputs: list[dict[str, str]], raw: Path) -> list[dict[str, Any]]:
    """``inputs`` (path, sha256) with ``publisher``, ``licence``, ``url``, ``by_project`` and
    ``basis`` (which record said so) added."""
    by_sha, all_sample, where = _manifest(Path(raw))
    out = []
    for i in inputs:
        entry = by_sha.get(i.get("sha256") or "")
        row: dict[str, Any] = dict(i)
        if entry is not None and (entry.get("sample") or all_sample):
            row.update(publisher=PROJECT, licence=project_licence(), url="", by_project=True,
                       basis=f"{where}: listed as a buildds sample file")
        elif entry is not None:
            note = " (reconstructed typesetting)" if entry.get("reconstructed") else ""
            row.update(publisher=MINISTRY, licence=MINISTRY_LICENCE,
                       url=str(entry.get("official_url") or ""), by_project=False,
                       basis=f"{where}: listed{note}")
        else:
            row.update(publisher=MINISTRY, licence=MINISTRY_LICENCE, url="", by_project=False,
                       basis="assumed: no manifest lists this file")
        out.append(row)
    return out
