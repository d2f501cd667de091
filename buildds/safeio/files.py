"""Open only what is really a file.

A path named ``.pdf`` may be a FIFO (reading blocks forever), a character device or a link
to ``/dev/zero`` (reading never ends), a socket, or a symlink that leads out of the folder
the user pointed at (``documents/x.pdf -> /etc/shadow``). Every reader of user input goes
through :func:`open_regular`, which

* resolves symlinks and, given ``root``, refuses a target outside ``root``;
* opens with ``O_NONBLOCK`` (so a FIFO cannot block the open) and checks the *opened*
  descriptor with ``fstat`` (so the check and the read are about the same file);
* refuses anything but a regular file, naming what it is.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from buildds.errors import ExtractError, LimitExceeded

__all__ = ["check_regular_file", "describe_mode", "open_regular", "read_bytes_limited",
           "read_side_file"]


def describe_mode(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def _resolve(path: Path, root: str | Path | None) -> Path:
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        raise ExtractError("no such file", source=str(path)) from None
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop
        raise ExtractError(f"cannot resolve the path: {exc}", source=str(path)) from None
    if root is not None:
        real_root = Path(root).resolve()
        if not _inside(real, real_root):
            raise ExtractError(f"is a link to {real}, outside {real_root}; refusing to read it",
                               source=str(path))
    return real


def check_regular_file(path: str | Path, *, root: str | Path | None = None) -> Path:
    """The resolved path of ``path`` when it is a regular file (inside ``root`` when given);
    otherwise :class:`ExtractError` naming the file and what it is. Never opens the file."""
    path = Path(path)
    real = _resolve(path, root)
    try:
        mode = os.stat(real).st_mode
    except OSError as exc:
        raise ExtractError(f"cannot read: {exc.strerror or exc}", source=str(path)) from None
    if not stat.S_ISREG(mode):
        raise ExtractError(f"is {describe_mode(mode)}, not a regular file; refusing to read it",
                           source=str(path))
    return real


def open_regular(path: str | Path, *, root: str | Path | None = None) -> BinaryIO:
    """Open ``path`` for binary reading when it is a regular file (see the module doc)."""
    path = Path(path)
    real = _resolve(path, root)
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ExtractError(f"cannot open: {exc.strerror or exc}", source=str(path)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ExtractError(f"is {describe_mode(mode)}, not a regular file; refusing to "
                               "read it", source=str(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes_limited(path: str | Path, *, max_bytes: int, root: str | Path | None = None,
                       option: str | None = None) -> bytes:
    """The bytes of the regular file ``path``, refusing one larger than ``max_bytes``
    (:class:`LimitExceeded` naming ``option``)."""
    with open_regular(path, root=root) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > max_bytes:
            raise LimitExceeded("file size", f"{size:,} bytes", f"{max_bytes:,} bytes",
                                option=option, source=str(path))
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:  # grew while we read it
        raise LimitExceeded("file size", f"over {max_bytes:,} bytes", f"{max_bytes:,} bytes",
                            option=option, source=str(path))
    return data


def read_side_file(path: str | Path) -> str:
    """The UTF-8 text (a BOM is dropped) of a small input that steers a build — a manifest, a
    corrections or annotations file, rejects, a profile — read as a regular file within the
    ``side_file_bytes`` limit. Undecodable bytes are an :class:`ExtractError` naming the
    file and the byte offset."""
    from buildds.safeio.limits import LIMITS

    data = read_bytes_limited(path, max_bytes=LIMITS["side_file_bytes"].default,
                              option=LIMITS["side_file_bytes"].how_to_raise)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ExtractError(f"is not UTF-8 text (byte {exc.start}: {data[exc.start:exc.start + 4]!r})",
                           source=str(path)) from None
