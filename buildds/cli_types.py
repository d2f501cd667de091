"""click parameter types shared by the commands."""

from __future__ import annotations

import os
import re
from typing import Any

import click

from buildds.safeio.names import printable_name

__all__ = ["Utf8Path", "YearsType", "parse_years"]

_PART = re.compile(r"^\s*(\d{4})\s*(?:[-–~]\s*(\d{4}))?\s*$")


def parse_years(text: str) -> list[int]:
    """``"2015-2024"``, ``"2019"``, ``"2015,2017"`` or ``"2015-2017,2020"`` → sorted years."""
    years: set[int] = set()
    for part in text.split(","):
        m = _PART.match(part)
        if not m:
            raise ValueError(
                f"{part.strip()!r} is not a year or a range (examples: 2019, 2015-2024, 2015,2017)"
            )
        first = int(m.group(1))
        last = int(m.group(2) or first)
        if last < first:
            raise ValueError(f"range {part.strip()!r} runs backwards")
        years.update(range(first, last + 1))
    return sorted(years)


class YearsType(click.ParamType):
    name = "YEARS"

    def convert(self, value, param, ctx):  # type: ignore[no-untyped-def]
        if isinstance(value, list):
            return value
        try:
            return parse_years(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


class Utf8Path(click.Path):
    """``click.Path`` for outputs and exported datasets: the path must be UTF-8, since the
    parquet and Arrow writers (and readers) cannot take a name with undecodable bytes — a
    clear usage error at once instead of a codec error after the whole build."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        text = os.fspath(value)
        if isinstance(text, str):
            shown = printable_name(text)
            if shown != text:
                self.fail(f"'{shown}' is not a UTF-8 path, which the parquet and Arrow "
                          "libraries need (choose one whose name is UTF-8)", param, ctx)
        return super().convert(value, param, ctx)
