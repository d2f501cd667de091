"""The label inventory a contracts build may be given (``--labels``): one label a line."""

from __future__ import annotations

from pathlib import Path

from buildds.errors import BuildError
from buildds.safeio import read_side_file

__all__ = ["read_label_inventory"]


def read_label_inventory(path: Path) -> list[str]:
    """The labels in ``path``, in order, each once; blank lines skipped."""
    try:
        lines = read_side_file(path).splitlines()
    except BuildError as exc:
        raise BuildError(f"cannot read the label inventory ({exc.message})",
                         source=str(path)) from exc
    return list(dict.fromkeys(s.strip() for s in lines if s.strip()))
