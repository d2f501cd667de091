"""Terminology maps: wording that an amending law replaced throughout a statute without
changing what the articles say (懲役・禁錮 → 拘禁刑), applied to an old text before it is
compared with a new one (:func:`buildds.laws.diff.diff_versions`).

A map is a YAML file: ``name``, ``title``, ``source`` (the amending law), ``enforced`` (its
enforcement date) and ``replacements``, a list of ``[old, new]`` pairs. Longer old forms win
over the shorter forms they contain (「懲役若しくは禁錮」 → 「拘禁刑」 before 「懲役」 →
「拘禁刑」). Maps shipped with buildds are in ``buildds/laws/data/terminology_<name>.yaml``:
``kokinkei`` (令和4年法律第67号, enforced 2025-06-01).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from importlib import resources
from pathlib import Path

from buildds.errors import BuildError
from buildds.safeio import read_side_file

__all__ = ["BUILTIN_MAPS", "TerminologyMap", "builtin_terminology", "load_terminology",
           "terminology_between"]

#: names of the maps shipped in buildds/laws/data/terminology_<name>.yaml
BUILTIN_MAPS = ("kokinkei",)


@dataclass(frozen=True)
class TerminologyMap:
    """Old → new wording pairs and the law that made the change."""

    name: str
    replacements: tuple[tuple[str, str], ...]
    title: str = ""
    source: str = ""
    enforced: date | None = None
    _pattern: re.Pattern[str] | None = field(init=False, repr=False, compare=False,
                                             default=None)
    _table: dict[str, str] = field(init=False, repr=False, compare=False,
                                   default_factory=dict)

    def __post_init__(self) -> None:
        olds = sorted({old for old, _ in self.replacements}, key=lambda s: (-len(s), s))
        pattern = re.compile("|".join(map(re.escape, olds))) if olds else None
        object.__setattr__(self, "_pattern", pattern)
        object.__setattr__(self, "_table", dict(reversed(self.replacements)))

    def apply(self, text: str) -> str:
        """``text`` with every old form replaced by its new form (longest match first)."""
        if self._pattern is None:
            return text
        table = self._table
        return self._pattern.sub(lambda m: table[m.group(0)], text)


def _parse(data: object, where: str) -> TerminologyMap:
    if not isinstance(data, dict) or not isinstance(data.get("replacements"), list):
        raise BuildError(f"{where}: a terminology map needs a 'replacements' list")
    pairs: list[tuple[str, str]] = []
    for i, pair in enumerate(data["replacements"], 1):
        if (not isinstance(pair, list) or len(pair) != 2
                or not all(isinstance(s, str) and s for s in pair)):
            raise BuildError(f"{where}: replacement {i} is not a pair [old, new] of texts")
        pairs.append((pair[0], pair[1]))
    enforced = data.get("enforced")
    if enforced is not None and not isinstance(enforced, date):
        raise BuildError(f"{where}: 'enforced' must be a date (YYYY-MM-DD)")
    return TerminologyMap(name=str(data.get("name") or Path(where).stem),
                          replacements=tuple(pairs), title=str(data.get("title") or ""),
                          source=str(data.get("source") or ""), enforced=enforced)


def _load_text(text: str, where: str) -> TerminologyMap:
    import yaml

    from buildds.safeio import load_yaml_strict

    try:
        data = load_yaml_strict(text)
    except yaml.YAMLError as exc:
        raise BuildError(f"{where}: not valid YAML: {exc}") from None
    return _parse(data, where)


def load_terminology(path: str | Path) -> TerminologyMap:
    """Read a terminology map from a YAML file (:class:`BuildError` naming the file when it
    is not one)."""
    return _load_text(read_side_file(path), str(path))


def builtin_terminology(name: str = "kokinkei") -> TerminologyMap:
    """A map shipped with buildds (``kokinkei``: 懲役・禁錮 → 拘禁刑)."""
    res = resources.files("buildds.laws").joinpath("data", f"terminology_{name}.yaml")
    if not res.is_file():
        raise BuildError(f"no built-in terminology map {name!r}")
    return _load_text(res.read_text(encoding="utf-8"), f"terminology_{name}.yaml")


def terminology_between(start: date | None, end: date | None) -> TerminologyMap | None:
    """The built-in map whose law came into force after ``start`` and on or before ``end``
    (either bound may be unknown: None); None when no map applies. With several, the first
    of :data:`BUILTIN_MAPS`."""
    for name in BUILTIN_MAPS:
        m = builtin_terminology(name)
        if m.enforced is None:
            continue
        if (start is None or start < m.enforced) and (end is None or m.enforced <= end):
            return m
    return None
