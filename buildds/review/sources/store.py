"""What every review source needs to turn a verdict into data safely, and to show edits.

* :func:`digest` — the version of an item's stored verdict data (a short sha256 of its
  canonical JSON; ``None`` — nothing stored — has a version too);
* :func:`locked` — one writer at a time for a verdicts file, across threads (one app) and
  processes (two apps; a person's editor is not covered): the read, version check and write
  of :meth:`~buildds.review.sources.base.ReviewSource.record` happen under it, so a second
  tab's write against the old version is refused instead of overwriting;
* :func:`write_text` — an atomic write (temp file beside it, then ``os.replace``);
* :func:`file_stamp` — a file's (mtime, size): a source reads its output again when the
  stamp of the file a rebuild rewrites changed, so the app shows the rebuilt values;
* :func:`check_verdict` — the action is one the item takes and a note is given where the
  contract requires one (reject, edit, exclude);
* :func:`diff_segments` / :func:`redline_segments` — original vs changed text as the list of
  ``{"op": "same"|"del"|"ins", "text": …}`` segments the evidence templates render as
  ``<del>``/``<ins>``.
"""

from __future__ import annotations

import contextlib
import difflib
import fcntl
import json
import os
import re
import threading
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import Any

from buildds.pipeline import atomic_write_text
from buildds.review.sources.base import ACTIONS, StaleVerdict, Verdict

__all__ = ["check_verdict", "diff_segments", "digest", "expect_version", "file_stamp", "locked",
           "redline_segments", "safe_key", "write_text"]

_THREAD_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_REDLINE = re.compile(r"\{\+(.*?)\+\}|\[-(.*?)-\]", re.DOTALL)


def digest(data: Any) -> str:
    """16 hex digits of the sha256 of ``data`` as canonical JSON (sorted keys)."""
    import hashlib

    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def safe_key(text: str) -> str:
    """``text`` made URL-safe (``[A-Za-z0-9._-]``): every other run of characters becomes
    ``_`` followed by 8 hex digits of the text's digest, so two texts never share a key."""
    if not _UNSAFE.search(text) and text:
        return text
    return f"{_UNSAFE.sub('_', text).strip('_')[:60]}_{digest(text)[:8]}"


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the write lock of ``path``: a thread lock, and ``fcntl.flock`` on its folder
    (created when missing) — no lock file is left beside the data."""
    path = Path(path)
    key = str(path.resolve())
    with _GUARD:
        thread_lock = _THREAD_LOCKS.setdefault(key, threading.Lock())
    with thread_lock:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # closing releases the lock


def file_stamp(path: Path) -> tuple[int, int] | None:
    """(mtime in ns, size) of ``path``, None when it does not exist."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    atomic_write_text(path, text)


def expect_version(key: str, current: str, expected: str) -> None:
    """:class:`StaleVerdict` when ``expected`` is not the ``current`` version of ``key``."""
    if expected != current:
        raise StaleVerdict(f"{key}: the verdict data changed since this page was loaded "
                           f"(version {expected}, now {current}); reload and decide again")


def check_verdict(verdict: Verdict, allowed: Collection[str], *, what: str) -> None:
    """``ValueError`` for an action outside ``allowed`` (``what``: the kind of item, for the
    message) or a reject / edit / exclude without a note."""
    if verdict.action not in ACTIONS:
        raise ValueError(f"unknown action {verdict.action!r} (one of {', '.join(ACTIONS)})")
    if verdict.action not in allowed:
        raise ValueError(f"{what} takes {', '.join(allowed)}, not {verdict.action!r}")
    if verdict.action in ("reject", "edit", "exclude") and not verdict.note.strip():
        raise ValueError(f"{verdict.action}: give the reason in a note")


def _push(out: list[dict[str, str]], op: str, text: str) -> None:
    if not text:
        return
    if out and out[-1]["op"] == op:
        out[-1]["text"] += text
    else:
        out.append({"op": op, "text": text})


def diff_segments(original: str, changed: str, *, glue: int = 2) -> list[dict[str, str]]:
    """``original`` → ``changed`` as same / del / ins segments, per character
    (:class:`difflib.SequenceMatcher` without the junk heuristic: Chinese and Japanese text
    has no spaces); a replacement is its deletion then its insertion. An unchanged stretch
    of at most ``glue`` characters between two changes joins them (``第二百三十六条`` →
    ``第三百五十八条`` reads as one replacement, not three), so the segments, joined by
    op, still give back both texts."""
    ops = difflib.SequenceMatcher(None, original, changed, autojunk=False).get_opcodes()
    merged: list[list[Any]] = []
    for i, (op, a1, a2, b1, b2) in enumerate(ops):
        between = 0 < i < len(ops) - 1 and op == "equal" and a2 - a1 <= glue
        if merged and (op != "equal" or between) and merged[-1][0] == "change":
            merged[-1][2], merged[-1][4] = a2, b2
        else:
            merged.append(["change" if op != "equal" else "equal", a1, a2, b1, b2])
    out: list[dict[str, str]] = []
    for op, a1, a2, b1, b2 in merged:
        if op == "equal":
            _push(out, "same", original[a1:a2])
        else:
            _push(out, "del", original[a1:a2])
            _push(out, "ins", changed[b1:b2])
    return out


def redline_segments(redline: str) -> list[dict[str, str]]:
    """A redline string as the contracts reader writes it (``{+inserted+}``,
    ``[-deleted-]``, :attr:`buildds.schema.contracts.DocBlock.redline`) as segments."""
    out: list[dict[str, str]] = []
    pos = 0
    for m in _REDLINE.finditer(redline):
        _push(out, "same", redline[pos:m.start()])
        if m.group(1) is not None:
            _push(out, "ins", m.group(1))
        else:
            _push(out, "del", m.group(2))
        pos = m.end()
    _push(out, "same", redline[pos:])
    return out
