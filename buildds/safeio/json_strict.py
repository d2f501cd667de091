"""JSON as an input, with limits: no ``NaN``/``Infinity`` (not JSON), numbers of at most
``max_digits`` digits (a 5,000-digit integer otherwise costs quadratic time, and Python
refuses past 4,300 with an unhelpful message), and at most ``max_depth`` levels of nesting
(deep nesting otherwise ends in ``RecursionError``).

Errors are :class:`ValueError` subclasses (:class:`JsonLimitError`) so that callers that
already turn ``json.JSONDecodeError`` into a per-record reject handle them the same way.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from buildds.safeio.limits import LIMITS

__all__ = ["JsonLimitError", "json_depth", "loads_strict"]


class JsonLimitError(ValueError):
    """A JSON text that is valid JSON (or nearly) but exceeds a limit, or uses NaN/Infinity."""


def _constant(name: str) -> Any:
    raise JsonLimitError(f"{name} is not a JSON number")


def json_depth(value: Any) -> int:
    """Nesting depth of a decoded value (a scalar is 0, ``[]`` is 1), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            depth += 1
            stack.extend((v, depth) for v in item.values())
        elif isinstance(item, list):
            depth += 1
            stack.extend((v, depth) for v in item)
        deepest = max(deepest, depth)
    return deepest


@functools.lru_cache(maxsize=8)
def _decoder(digit_limit: int) -> json.JSONDecoder:
    """A decoder refusing NaN/Infinity and numbers of more than ``digit_limit`` digits (made
    once per limit: ``json.loads`` with hooks would build one for every record)."""
    parse_int, parse_float = _number_parsers(digit_limit)
    return json.JSONDecoder(parse_constant=_constant, parse_int=parse_int,
                            parse_float=parse_float)


def _number_parsers(digit_limit: int) -> tuple[Any, Any]:
    """(parse_int, parse_float) refusing numbers of more than ``digit_limit`` digits."""

    def check(token: str) -> None:
        digits = sum(c.isdigit() for c in token)
        if digits > digit_limit:
            raise JsonLimitError(f"a number of {digits} digits exceeds the limit of "
                                 f"{digit_limit} (raise it with "
                                 f"{LIMITS['json_number_digits'].how_to_raise})")

    def parse_int(token: str) -> int:
        if len(token) > digit_limit:  # only then can it have too many digits
            check(token)
        return int(token)

    def parse_float(token: str) -> float:
        if len(token) > digit_limit:
            check(token)
        value = float(token)
        if value in (float("inf"), float("-inf")):
            raise JsonLimitError(f"{token} is out of the range of a float")
        return value

    return parse_int, parse_float


def loads_strict(text: str | bytes, *, max_depth: int | None = None,
                 max_digits: int | None = None) -> Any:
    """``json.loads`` with the limits above. Raises ``json.JSONDecodeError`` for bad JSON and
    :class:`JsonLimitError` for a limit (both ``ValueError``)."""
    depth_limit = LIMITS["json_depth"].default if max_depth is None else max_depth
    digit_limit = LIMITS["json_number_digits"].default if max_digits is None else max_digits

    if isinstance(text, bytes):
        text = text.decode("utf-8")
    # Cheap test first: fewer openers than the limit cannot nest deeper than it.
    may_be_deep = text.count("[") + text.count("{") > depth_limit
    if text.startswith("\ufeff"):  # as json.loads: a BOM is an error, not whitespace
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    try:
        value = _decoder(digit_limit).decode(text)
    except RecursionError:
        raise JsonLimitError(f"nesting deeper than the limit of {depth_limit} levels (raise "
                             f"it with {LIMITS['json_depth'].how_to_raise})") from None
    if may_be_deep:
        depth = json_depth(value)
        if depth > depth_limit:
            raise JsonLimitError(f"nesting of {depth} levels exceeds the limit of "
                                 f"{depth_limit} (raise it with "
                                 f"{LIMITS['json_depth'].how_to_raise})")
    return value
