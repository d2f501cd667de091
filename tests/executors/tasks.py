"""Module-level task functions for the executor tests (picklable by reference, importable by
pool and Ray workers alike)."""

from __future__ import annotations

import os
from pathlib import Path


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError(f"item {x} is bad")
    return x


def die_once(arg: tuple[str, int]) -> int:
    """Item 3 kills its worker process the first time it runs (a marker file remembers);
    run again, it gives its result like any other item."""
    folder, x = arg
    marker = Path(folder) / f"died-{x}"
    if x == 3 and not marker.exists():
        marker.write_text("died once\n", encoding="utf-8")
        os._exit(1)
    return x * 10
