"""Hardened input reading shared by every stage (the bottom floor: it imports nothing above
:mod:`buildds.errors`).

* :mod:`.files` — open only regular files (no FIFOs, devices or sockets; a symlink is
  resolved and refused when it leaves its input root), read with a byte limit.
* :mod:`.json_strict` — JSON with limits on depth and number size, no ``NaN``/``Infinity``.
* :mod:`.yaml_strict` — YAML without tags that build objects and without aliases.
* :mod:`.limits` — the default of every limit on work an input can multiply, in one table.
* :mod:`.sniff` — what a file's bytes really are (pdf, docx, odt, png …), whatever its name says;
* :mod:`.archive` — a .docx (OOXML zip) opened with limits checked before anything inflates;
* :mod:`.xml` — :func:`~buildds.safeio.xml.safe_parser`, lxml without DTDs, entities or network;
* :mod:`.hashing` — sha256 of bytes, a file or a stream;
* :mod:`.spilled_map` — a string map kept on disk (SQLite), for run-wide registries.

Those four are imported from their modules, never from here: lxml and zipfile are not needed
to start a command.

``load_yaml_strict`` is imported on first use: PyYAML costs ~10 ms, and every command's
start-up (``buildds --help`` included) goes through this package.
"""

from typing import TYPE_CHECKING, Any

from buildds.safeio.files import (
    check_regular_file,
    open_regular,
    read_bytes_limited,
    read_side_file,
)
from buildds.safeio.json_strict import loads_strict
from buildds.safeio.limits import LIMITS, Limit
from buildds.safeio.text_decoding import decode_lines

if TYPE_CHECKING:
    from buildds.safeio.yaml_strict import load_yaml_strict

__all__ = [
    "LIMITS",
    "Limit",
    "check_regular_file",
    "decode_lines",
    "load_yaml_strict",
    "loads_strict",
    "open_regular",
    "read_bytes_limited",
    "read_side_file",
]


def __getattr__(name: str) -> Any:
    if name == "load_yaml_strict":
        from buildds.safeio.yaml_strict import load_yaml_strict

        return load_yaml_strict
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
