"""Processes for the fault tests, read from /proc (no psutil): descendants of a process,
whether a pid is still running (a zombie is not)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

__all__ = ["descendants", "needs_proc", "running", "wait_gone"]

needs_proc = pytest.mark.skipif(not sys.platform.startswith("linux")
                                or not Path("/proc/self/stat").exists(),
                                reason="reads processes from Linux /proc")


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, start time) of ``pid``, None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rindex(b")") + 2:].split()
    return fields[0].decode(), int(fields[1]), int(fields[19])


def running(pid: int, started: int | None = None) -> bool:
    """``pid`` is alive (not a zombie) and, when ``started`` is given, is the same process."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z" and (started is None or stat[2] == started)


def descendants(pid: int) -> dict[int, int]:
    """Every live descendant of ``pid``: pid → start time (to tell a reused pid apart)."""
    children: dict[int, list[int]] = {}
    starts: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            stat = _stat(int(name))
            if stat is not None and stat[0] != "Z":
                children.setdefault(stat[1], []).append(int(name))
                starts[int(name)] = stat[2]
    found: dict[int, int] = {}
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found[child] = starts[child]
            todo.append(child)
    return found


def wait_gone(pids: dict[int, int], seconds: float) -> list[int]:
    """Wait up to ``seconds`` for ``pids`` to end; the ones still running."""
    deadline = time.monotonic() + seconds
    while True:
        left = [p for p, start in pids.items() if running(p, start)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)
