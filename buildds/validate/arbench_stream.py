"""AR-Bench validation of a stream of rows in id order, chunk by chunk (issues 13 and 18).

:func:`validate_arbench_stream` gives the :class:`~buildds.validate.arbench.ArbenchValidation`
that :func:`~buildds.validate.arbench.validate_arbench` gives for all the rows at once, while
holding one chunk of rows (and its data frame) at a time: each chunk is validated on its own
and the results are merged — the errors by check and message (their ids joined; the
message names the first failing row, as in one pass), the checks and counts summed. Every
check is of one row, except unique ids: in id order a duplicate is the row after it, so
the last id of a chunk is compared with the first of the next (and within a chunk, the
schema's own uniqueness check sees it).

What stays for the whole corpus is small: the failing ids and the counts of the rows'
(error type, factor, error class, dataset, label), never the rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from itertools import islice
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from buildds.pipeline import release_freed_memory
from buildds.validate import arbench as one_pass
from buildds.validate.arbench import ArbenchValidation, _counts

if TYPE_CHECKING:
    from buildds.schema.arbench import ArbenchRow

__all__ = ["VALIDATE_CHUNK", "validate_arbench_stream"]

#: rows validated at once
VALIDATE_CHUNK = 500
_KEYS = ("error_type", "factor", "error_class", "dataset", "label")
_UNIQUE = ("schema:field_uniqueness", "id")


def _chunks(rows: Iterable[ArbenchRow], size: int) -> Iterator[list[ArbenchRow]]:
    it = iter(rows)
    while chunk := list(islice(it, size)):
        yield chunk


class _Stubs:
    """The rows' counted keys as stand-ins (one object per distinct key, repeated), what
    :func:`~buildds.validate.arbench._counts` reads of the rows."""

    def __init__(self, keys: Counter[tuple[Any, ...]]) -> None:
        self._keys = keys

    def __len__(self) -> int:
        return sum(self._keys.values())

    def __iter__(self) -> Iterator[Any]:
        for key, n in sorted(self._keys.items(), key=lambda kv: repr(kv[0])):
            stub = SimpleNamespace(**dict(zip(_KEYS, key, strict=True)))
            for _ in range(n):
                yield stub


def validate_arbench_stream(rows: Iterable[ArbenchRow], *, chunk: int | None = None,
                            **how: Any) -> ArbenchValidation:
    """:func:`~buildds.validate.arbench.validate_arbench` (``how``: its keyword arguments)
    of ``rows`` given in id order, ``chunk`` rows at a time (default
    :data:`VALIDATE_CHUNK`; see the module docstring)."""
    schema: dict[tuple[str, str], tuple[set[str], str]] = {}
    semantic: dict[tuple[str, str], tuple[list[str], str]] = {}
    checked: Counter[str] = Counter()
    keys: Counter[tuple[Any, ...]] = Counter()
    last: str | None = None
    for part in _chunks(rows, chunk or VALIDATE_CHUNK):
        if last is not None and part[0].id == last:
            schema.setdefault(_UNIQUE, (set(), "id fails field_uniqueness"))[0].add(last)
        last = part[-1].id
        keys.update(tuple(getattr(r, k) for k in _KEYS) for r in part)
        result = one_pass.validate_arbench(part, **how)  # read at call time (patchable)
        checked.update(result.checked)
        _merge_errors(result.errors, schema, semantic)
        del part, result
        release_freed_memory()  # the chunk's frame and rows, given back before the next
    report = ArbenchValidation()
    report.errors = [{"check": c, "column": col, "ids": sorted(ids), "message": msg}
                     for (c, col), (ids, msg) in sorted(schema.items())]
    report.errors += [{"check": c, "column": "", "ids": sorted(ids), "message": f"{first}: {msg}"}
                      for (c, msg), (ids, first) in sorted(semantic.items())]
    report.checked = dict(checked)
    report.counts = _counts(_Stubs(keys))  # type: ignore[arg-type]
    return report


def _merge_errors(errors: Iterable[Mapping[str, Any]],
                  schema: dict[tuple[str, str], tuple[set[str], str]],
                  semantic: dict[tuple[str, str], tuple[list[str], str]]) -> None:
    """One chunk's errors into the run's: schema errors by (check, column), the others by
    (check, message without its first id), the first id of the first chunk kept."""
    for e in errors:
        if str(e["check"]).startswith("schema:"):
            schema.setdefault((e["check"], e["column"]), (set(), e["message"]))[0].update(e["ids"])
            continue
        first, _, message = str(e["message"]).partition(": ")
        ids, _first = semantic.setdefault((e["check"], message), ([], first))
        ids.extend(e["ids"])
