"""File names as text. On POSIX a file name is bytes; Python hands a name that is not UTF-8
to us with lone surrogates (``'a\\udcff.docx'``), which cannot be written as UTF-8 — a
report, a JSON record or a console line naming that file would crash. :func:`printable_name`
turns each undecodable byte into a visible ``\\xff`` escape, so the name can be shown and
stored while the file itself is still opened by its real (surrogate-escaped) path."""

from __future__ import annotations

import os

__all__ = ["printable_name"]


def printable_name(name: str | os.PathLike[str]) -> str:
    """``name`` with every undecodable byte written as ``\\xNN`` (a UTF-8 name is unchanged)."""
    text = os.fspath(name)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return text
