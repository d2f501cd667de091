"""The one dataset fingerprint: a hash of an export's data files, the same wherever the
dataset is named — the dataset card, the build's ``report.json``, the eval run's
``leaderboard.json``/``manifest.json`` (its ``dataset_key``) and ``buildds validate``.

Why the data files: they are what a user loads and what a model is scored on, so a
leaderboard row can be matched to the card of the export it was scored on, and any
change to the rows (a rebuild with other inputs, a hand edit) changes it. The build's own
fingerprint (over its inputs and options) stays in the card as "build fingerprint".

Rule: sha256 over the lines ``<split>\\t<sha256 of data/<split>.parquet>\\n``, splits
sorted by name; the first 16 hex digits."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from buildds.safeio.hashing import sha256_bytes, sha256_file

__all__ = ["DATA_DIR", "data_fingerprint", "fingerprint_of_files", "fingerprint_of_hashes"]

#: the folder of an export holding one ``<split>.parquet`` per split
DATA_DIR = "data"


def fingerprint_of_hashes(split_hashes: Mapping[str, str]) -> str:
    """The fingerprint from each split's parquet sha256 (split name → hex digest)."""
    text = "".join(f"{split}\t{split_hashes[split]}\n" for split in sorted(split_hashes))
    return sha256_bytes(text.encode("utf-8"))[:16]


def fingerprint_of_files(files: Mapping[str, str]) -> str:
    """The fingerprint from an exporter's written files (path relative to the export →
    sha256): its ``data/<split>.parquet`` entries; "" when there are none."""
    hashes = {Path(f).stem: h for f, h in files.items()
              if f.startswith(f"{DATA_DIR}/") and f.endswith(".parquet") and f.count("/") == 1}
    return fingerprint_of_hashes(hashes) if hashes else ""


def data_fingerprint(export_dir: str | Path) -> str | None:
    """The fingerprint of the export under ``export_dir`` (its ``data/*.parquet``); None
    when it has no data files (not an export folder)."""
    data = Path(export_dir) / DATA_DIR
    files = sorted(data.glob("*.parquet")) if data.is_dir() else []
    if not files:
        return None
    return fingerprint_of_hashes({p.stem: sha256_file(p) for p in files})
