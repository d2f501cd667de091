"""The corrections step of ``buildds contracts``: clause corrections
(:mod:`buildds.transform.contract_corrections`, ``corrections/contracts/*.yaml`` by default)
applied to the clause table on every build.

:func:`load_corrections` reads them before any slow extraction (a malformed file fails the run
at once, naming the file); :func:`apply_corrections` applies them and records what they did:
an excluded clause and a stale entry each become a reject with its reason (never a silent
drop or a silent skip), and ``report.json`` gets ``corrections``: the folder (absolute, so
``buildds review`` writes where the next build reads), the number of entries, the origins
that applied and the stale ones.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.errors import BuildError, TransformError

if TYPE_CHECKING:
    from collections import Counter

    from buildds.pipeline import Rejects
    from buildds.schema.contracts import ClauseRow
    from buildds.transform.contract_corrections import ContractCorrection

__all__ = ["apply_corrections", "load_corrections"]


class _Loaded(list["ContractCorrection"]):
    """The entries of a folder, remembering the folder (None: no corrections asked for)."""

    folder: Path | None = None


def load_corrections(folder: Path | None) -> _Loaded:
    """The entries of ``folder`` (none when it is None or missing); :class:`BuildError`
    naming the file for a malformed one."""
    from buildds.transform.contract_corrections import load_contract_corrections

    loaded = _Loaded()
    if folder is None:
        return loaded
    loaded.folder = Path(os.path.abspath(folder))
    try:
        loaded.extend(load_contract_corrections(folder))
    except TransformError as exc:
        raise BuildError(exc.message, source=exc.source) from exc
    return loaded


def apply_corrections(problems: Counter[str], rejects: Rejects, rows: Sequence[ClauseRow],
                      loaded: _Loaded) -> tuple[list[ClauseRow], dict[str, Any] | None]:
    """``rows`` after the entries of ``loaded``, and the summary for ``report.json`` (None
    when no folder was given); rejects (counted in ``problems``) for excluded clauses
    (``correction_exclude``) and stale entries (``stale_correction``)."""
    from buildds.transform.contract_corrections import apply_contract_corrections

    if loaded.folder is None:
        return list(rows), None
    result = apply_contract_corrections(rows, loaded)
    for row, c in result.excluded:
        rejects.add(stage="corrections", reason="correction_exclude",
                    message=f"{c.origin}: {c.reason}", source=row.path or row.source,
                    page=row.page, id=row.id)
        problems["correction_exclude"] += 1
    for s in result.stale:
        rejects.add(stage="corrections", reason="stale_correction", message=s.message,
                    source=s.origin, id=s.id)
        problems["stale_correction"] += 1
    return result.rows, {"folder": str(loaded.folder), "entries": len(loaded),
                         "applied": [c.origin for c in result.applied],
                         "stale": [s.model_dump() for s in result.stale]}
