"""A split's parquet data as one file or, past :data:`PART_ROWS` rows, as numbered parts
(issue 18: a parquet writer holds every row group's metadata until it closes — ~22 KB per
row group of the 26 AR-Bench columns, measured — so one file written from a stream of
millions of rows would hold hundreds of MB; each part's writer is closed at its last row).

    data/<split>.parquet                              at most PART_ROWS rows (every
                                                      split of the real corpora)
    data/<split>-00000-of-00008.parquet …             more: PART_ROWS rows per part, the
                                                      last shorter (the Hugging Face Hub's
                                                      own shard naming, read as one split)

The parts are counted in rows, so the files are the same whatever made the rows (the shard
size, the number of workers). Readers take :func:`split_files` in order; the card's
``configs`` name :func:`split_pattern`.
"""

from __future__ import annotations

from pathlib import Path

from buildds.errors import ExportError

__all__ = ["PART_ROWS", "part_names", "split_files", "split_pattern"]

#: rows per parquet part: 200 row groups of 250 rows (~4 MB of writer metadata; ~130 MB of
#: parquet at the JuDGE rows' ~2.6 KB each)
PART_ROWS = 50_000
_DIGITS = "[0-9]" * 5


def part_names(split: str, parts: int) -> list[str]:
    """The file names of a split written as ``parts`` files, in row order."""
    if parts <= 1:
        return [f"{split}.parquet"]
    return [f"{split}-{i:05d}-of-{parts:05d}.parquet" for i in range(parts)]


def split_pattern(split: str, parts: int) -> str:
    """The card's ``data_files`` path of the split (relative to the export folder)."""
    return f"data/{split}.parquet" if parts <= 1 else f"data/{split}-*-of-{parts:05d}.parquet"


def split_files(data_dir: str | Path, split: str) -> list[Path]:
    """The parquet files of ``split`` under ``data_dir`` in row order: its one file, else its
    numbered parts; empty when it has none. Parts of two different counts (files an older
    build left beside a newer one's) are an error, not a mix."""
    data_dir = Path(data_dir)
    one = data_dir / f"{split}.parquet"
    if one.is_file():
        return [one]
    parts = sorted(p for p in data_dir.glob(f"{split}-{_DIGITS}-of-{_DIGITS}.parquet")
                   if p.is_file())
    totals = {p.stem.rsplit("-of-", 1)[1] for p in parts}
    if len(totals) > 1 or (parts and len(parts) != int(totals.pop())):
        raise ExportError(f"the parts of split {split} are not one complete set: "
                          + ", ".join(p.name for p in parts), source=str(data_dir))
    return parts
