"""What :func:`~buildds.fetch.fetch_jbe` returns: the files downloaded, skipped and failed."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["FetchFailure", "FetchResult", "FetchedFile"]


@dataclass(frozen=True)
class FetchedFile:
    """A file that was downloaded, or found already present."""

    path: str  #: relative to dest, e.g. ``2015/kenpo-mondai.pdf``
    url: str | None
    sha256: str | None  #: None for a present file nobody has a checksum for


@dataclass(frozen=True)
class FetchFailure:
    """A file that could not be fetched, and why."""

    path: str
    url: str | None
    reason: str
    #: no URL is known: the user downloads it by hand (``what`` it is, ``hint`` where to look)
    by_hand: bool = False
    what: str = ""
    hint: str | None = None


@dataclass
class FetchResult:
    dest: Path
    manifest: Path  #: the source manifest that was read
    downloaded: list[FetchedFile] = field(default_factory=list)
    skipped: list[FetchedFile] = field(default_factory=list)
    failed: list[FetchFailure] = field(default_factory=list)
    #: ``<path>: sha256 <old> -> <new>`` for every lock entry ``--update-lock`` replaced
    lock_changes: list[str] = field(default_factory=list)

    def missing(self) -> list[str]:
        """The failed files that are not present under ``dest`` (what a build would lack)."""
        return [f.path for f in self.failed if not (self.dest / f.path).is_file()]

    def summary_line(self) -> str:
        n = len(self.downloaded)
        return (f"fetched {n} file{'' if n == 1 else 's'}, {len(self.skipped)} already present, "
                f"{len(self.failed)} failed")

    def hand_lines(self, lock_name: str) -> list[str]:
        """What the user must download by hand (the files without a known URL that are not
        present), where to save each one, and that the next run records their sha256."""
        todo = [f for f in self.failed if f.by_hand and not (self.dest / f.path).is_file()]
        if not todo:
            return []
        head = (f"{len(todo)} file(s) have no known official URL: download each by hand from "
                "the Ministry of Justice website (司法試験 pages) and save it as shown:")
        lines = [head]
        for f in todo:
            lines.append(f"  {f.what}  ->  {self.dest / f.path}")
            if f.hint:
                lines.append(f"      where to look: {f.hint}")
        lines.append(f"Then run the same command again: a placed file is checked (it must be a "
                     f"PDF) and its sha256 recorded in {self.dest / lock_name}, so every later "
                     "run verifies it.")
        return lines

    def failure_lines(self) -> list[str]:
        """One line per failed file: ``<path>: <reason> (<url>)``."""
        return [f"{f.path}: {f.reason}" + (f" ({f.url})" if f.url else "") for f in self.failed]
