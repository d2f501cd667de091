"""Every limit on work that an input can multiply, with its default and the option that
raises it. A limit that is hit raises :class:`buildds.errors.LimitExceeded` (or, inside a
per-document stage, becomes that document's problem), whose message names the input, the
value, the limit and the option.

Modules read their default from :data:`LIMITS` so that the README's table, ``--help`` and
the code cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LIMITS", "Limit"]


@dataclass(frozen=True)
class Limit:
    name: str
    default: int
    unit: str
    option: str | None
    what: str


_ALL = [
    Limit("json_depth", 64, "levels", None, "nesting depth of one JSON value"),
    Limit("json_number_digits", 100, "digits", None, "digits of one JSON number"),
]

LIMITS: dict[str, Limit] = {lim.name: lim for lim in _ALL}
