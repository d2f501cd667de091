"""Staged outputs: a run writes beside its targets and swaps everything in at the end.

A build's outputs (the XML, the dataset, the card, the report, the rejects) must never be a
mix of two runs: disk full, a read-only folder, Ctrl-C or kill -9 half-way through writing
must leave the last good outputs whole. :class:`OutputStaging` collects one run's writes::

    staging = OutputStaging(out)
    staging.write_text(out / "report.json", text)   # unchanged bytes: nothing staged
    staging.remove(out / "xml/2019/kenpo.xml")       # goes at commit
    folder = staging.tree("dataset")                  # a whole folder, written in place
    staging.commit()                                   # everything swapped in

* Writes go to ``out/.export.XXXXXXXX/<path>`` (the staging folder, created on the first
  write, so a run with nothing to write creates nothing). A file that already holds the same
  bytes is not staged: unchanged outputs keep their mtime.
* :meth:`~OutputStaging.commit` moves each old target aside into the staging folder and the
  new one into place (``os.replace``, so no bytes are copied and no space is needed); if a
  move fails, everything already moved is put back. Removals go first, entries marked
  ``last`` (a fingerprint marker that vouches for the rest) go last.
* Any failure while staging (:class:`~buildds.errors.ExportError` naming the target path and
  the reason, e.g. ``build/jbe/xml/2019/kenpo.xml: cannot write: No space left on device``)
  discards the staging folder and leaves ``out`` as it was.

Staging folders belong to the run that holds an exclusive ``flock`` on them; the lock goes
with the process (exit, crash, kill -9). :func:`clean_stale_staging`, called when a run
starts, removes the folders in ``out`` matching our own pattern whose owner is gone. A short
lock on ``out`` itself (shared while a folder is created, exclusive while cleaning and while
committing) keeps two concurrent runs into one ``out`` from removing each other's folder or
interleaving their swaps.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Self

from buildds.errors import ExportError
from buildds.pipeline import holds_bytes

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locks, stale folders are kept
    fcntl = None  # type: ignore[assignment]

__all__ = ["STAGING_PREFIX", "OutputStaging", "clean_stale_staging", "is_staging_name",
           "write_error"]

STAGING_PREFIX = ".export."
#: what ``tempfile.mkdtemp(prefix=STAGING_PREFIX)`` makes: nothing else is ever removed
_STAGING_NAME = re.compile(re.escape(STAGING_PREFIX) + r"[a-z0-9_]{8}")
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)


def is_staging_name(name: str) -> bool:
    return _STAGING_NAME.fullmatch(name) is not None


def write_error(exc: OSError, path: str | Path) -> ExportError:
    """``<path>: cannot write: <reason>`` for an OSError met while writing ``path``."""
    return ExportError(f"cannot write: {exc.strerror or exc}", source=str(path))


@contextlib.contextmanager
def _locked(folder: Path, *, exclusive: bool) -> Iterator[None]:
    """Hold a ``flock`` on ``folder`` (a directory) for the block; without locking support
    (not POSIX, a file system that refuses) the block runs unlocked."""
    fd = None
    if fcntl is not None:
        try:
            fd = os.open(folder, _DIR_FLAGS)
            fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        except OSError:
            if fd is not None:
                os.close(fd)
            fd = None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock


def clean_stale_staging(out: str | Path) -> list[Path]:
    """Remove the staging folders in ``out`` left by runs that are gone (interrupted, killed,
    out of space); a live run's folder is locked and stays. Returns what was removed.
    Best effort: a folder that cannot be removed (read-only ``out``) is left alone."""
    out = Path(out)
    removed: list[Path] = []
    if fcntl is None or not out.is_dir():
        return removed
    try:
        with _locked(out, exclusive=True):
            for entry in os.scandir(out):
                if not is_staging_name(entry.name) or not entry.is_dir(follow_symlinks=False):
                    continue
                try:
                    fd = os.open(entry.path, _DIR_FLAGS | getattr(os, "O_NOFOLLOW", 0))
                except OSError:
                    continue
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:  # held by a live run (or unlockable): not ours to remove
                    continue
                else:
                    shutil.rmtree(entry.path, ignore_errors=True)
                    if not os.path.lexists(entry.path):
                        removed.append(Path(entry.path))
                finally:
                    os.close(fd)
    except OSError:
        pass
    return removed


def _discard(folder: Path, fd: int | None) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)  # releases the lock


class OutputStaging:
    """One run's outputs under ``out``, staged and swapped in together (module docstring)."""

    def __init__(self, out: str | Path):
        self.out = Path(out)
        self._folder: Path | None = None
        self._finalizer: weakref.finalize | None = None
        #: relative path → "file" | "tree" | "remove", in the order they were staged
        self._entries: dict[str, str] = {}
        self._last: set[str] = set()
        self.committed = False

    # ------------------------------------------------------------------ staging
    @property
    def folder(self) -> Path:
        """The staging folder, created (and stale ones cleaned) on first use."""
        if self._folder is None:
            try:
                self.out.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise write_error(exc, exc.filename or self.out) from exc
            clean_stale_staging(self.out)
            try:
                with _locked(self.out, exclusive=False):
                    folder = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.out))
                    fd: int | None = None
                    if fcntl is not None:  # the lock that marks the folder as ours, live
                        with contextlib.suppress(OSError):
                            fd = os.open(folder, _DIR_FLAGS)
                            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                raise write_error(exc, self.out) from exc
            self._folder = folder
            # an exception that skips commit() and discard() must not leave it behind
            self._finalizer = weakref.finalize(self, _discard, folder, fd)
        return self._folder

    def _rel(self, path: str | Path) -> str:
        """``path`` relative to ``out``: a path under ``out`` (``out / "report.json"``) or
        one relative to it (``"dataset"``)."""
        p = Path(path)
        try:
            rel = p.relative_to(self.out)
        except ValueError:
            rel = p
        if rel.is_absolute() or ".." in rel.parts or not rel.parts:
            raise ValueError(f"{path} is not inside {self.out}")
        return rel.as_posix()

    def target_of(self, path: str | Path) -> Path:
        """The output path a path inside the staging folder stands for (error messages)."""
        if self._folder is not None:
            with contextlib.suppress(ValueError):
                return self.out / Path(path).relative_to(self._folder)
        return Path(path)

    def write_bytes(self, path: str | Path, data: bytes, *, last: bool = False) -> bool:
        """Stage ``data`` for ``path`` (inside ``out``); False when ``path`` already holds
        exactly these bytes (nothing is staged, and a pending removal is dropped)."""
        rel = self._rel(path)
        target = self.out / rel
        if holds_bytes(target, data):
            self._entries.pop(rel, None)
            return False
        staged = self.folder / rel
        try:
            staged.parent.mkdir(parents=True, exist_ok=True)
            with open(staged, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            self.discard()
            raise write_error(exc, target) from exc
        except BaseException:
            self.discard()
            raise
        self._entries[rel] = "file"
        if last:
            self._last.add(rel)
        return True

    def write_text(self, path: str | Path, text: str, *, last: bool = False) -> bool:
        return self.write_bytes(path, text.encode("utf-8"), last=last)

    def remove(self, path: str | Path) -> None:
        """Remove ``path`` (inside ``out``) at commit, if it is there."""
        rel = self._rel(path)
        if os.path.lexists(self.out / rel):
            self._entries[rel] = "remove"
        else:
            self._entries.pop(rel, None)

    def tree(self, name: str) -> Path:
        """A path inside the staging folder for a whole output (a folder such as ``dataset``
        or a file written by a library): at commit it replaces ``out/<name>``."""
        rel = self._rel(name)
        self._entries[rel] = "tree"
        return self.folder / rel

    @property
    def pending(self) -> dict[str, str]:
        return dict(self._entries)

    # ------------------------------------------------------------------ commit / discard
    def commit(self) -> None:
        """Swap every staged entry into ``out`` (module docstring); then remove the staging
        folder. Raises :class:`ExportError` (after putting everything back) when a move fails."""
        if self.committed:
            return
        order = ([r for r, k in self._entries.items() if k == "remove"]
                 + [r for r, k in self._entries.items() if k != "remove" and r not in self._last]
                 + [r for r, k in self._entries.items() if k != "remove" and r in self._last])
        if order:
            folder = self.folder
            aside_root = folder / ".replaced"
            done: list[tuple[Path, Path | None, bool]] = []
            target = self.out
            try:
                with _locked(self.out, exclusive=True):
                    aside_root.mkdir(exist_ok=True)
                    for i, rel in enumerate(order):
                        target = self.out / rel
                        aside: Path | None = None
                        if os.path.lexists(target):
                            aside = aside_root / str(i)
                            os.replace(target, aside)
                        placed = self._entries[rel] != "remove"
                        done.append((target, aside, placed))
                        if placed:
                            target.parent.mkdir(parents=True, exist_ok=True)
                            os.replace(folder / rel, target)
            except BaseException as exc:
                self._roll_back(done)
                self.discard()
                if isinstance(exc, OSError):
                    where = exc.filename if exc.filename and not str(exc.filename).startswith(
                        str(folder)) else target
                    raise write_error(exc, where) from exc
                raise
        self.committed = True
        self.discard()

    @staticmethod
    def _roll_back(done: list[tuple[Path, Path | None, bool]]) -> None:
        for target, aside, placed in reversed(done):
            with contextlib.suppress(OSError):
                if placed and os.path.lexists(target):
                    if target.is_dir() and not target.is_symlink():
                        shutil.rmtree(target)
                    else:
                        target.unlink()
                if aside is not None:
                    os.replace(aside, target)

    def discard(self) -> None:
        """Remove the staging folder and everything staged (idempotent)."""
        self._entries.clear()
        self._last.clear()
        if self._finalizer is not None:
            self._finalizer()  # runs _discard once
        self._folder = None
        self._finalizer = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()
