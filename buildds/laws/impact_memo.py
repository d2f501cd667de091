"""What :func:`buildds.laws.impact.assess_items` keeps between and within runs.

* :class:`SupplMemo` — :class:`~buildds.laws.impact_suppl.SupplIndex` answering each 附則
  look-up, article match and excerpt once (thousands of grounds ask the same few);
* :func:`inputs_digest` — a content hash of everything a run's laws are made of: the store
  (by absolute path), its ``versions.json``, article and 附則 files of the laws, the revisions
  table and the touched-articles map — never a statute file outside the store. A run whose digest equals the last one's reuses
  its loaded articles, diffs and 附則 (:func:`remembered`); any changed byte makes them anew.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from buildds.laws.impact_suppl import SupplIndex, names_article, transitional_excerpts
from buildds.laws.revisions import Revision
from buildds.laws.store import SUPPL_SUFFIX, LawStore
from buildds.safeio.hashing import sha256_file
from buildds.schema.laws import LawVersion, SupplProvision

__all__ = ["SupplMemo", "inputs_digest", "remembered"]

T = TypeVar("T")


class SupplMemo(SupplIndex):
    """:class:`SupplIndex` with :meth:`find`, :meth:`names` and :meth:`excerpts` answered once
    per question (each :meth:`find` scans every 附則 of the files)."""

    def __init__(self, store: LawStore) -> None:
        super().__init__(store)
        self._found: dict[tuple[str | None, tuple[str, ...]], SupplProvision | None] = {}
        self._names: dict[tuple[int, str], bool] = {}
        self._excerpts: dict[tuple[int, str], tuple[str, ...]] = {}

    def find(self, amended_by: str | None, versions: Sequence[LawVersion]
             ) -> SupplProvision | None:
        key = (amended_by, tuple(v.revision_id for v in versions))
        if key not in self._found:
            self._found[key] = super().find(amended_by, versions)
        return self._found[key]

    def names(self, provision: SupplProvision, article: str) -> bool:
        """:func:`names_article` of the provision's text, once per provision and article."""
        key = (id(provision), article)  # provisions live in this index: their ids stay theirs
        if key not in self._names:
            self._names[key] = names_article(provision.full_text, article)
        return self._names[key]

    def excerpts(self, provision: SupplProvision, article: str) -> tuple[str, ...]:
        """:func:`transitional_excerpts`, once per provision and article."""
        key = (id(provision), article)
        if key not in self._excerpts:
            self._excerpts[key] = transitional_excerpts(provision, article)
        return self._excerpts[key]


def _file(path: str | os.PathLike[str]) -> str:
    absolute = os.path.abspath(path)
    try:
        return f"{absolute}\t{sha256_file(absolute)}"
    except OSError:
        return f"{absolute}\t-"


def inputs_digest(store: LawStore, law_ids: Iterable[str], table: Sequence[Revision],
                  touched: Mapping[str, frozenset[str]]) -> str:
    """The content hash of a run's law inputs (see the module docstring)."""
    parts = [os.path.abspath(store.root)]
    for law_id in sorted(set(law_ids)):
        parts.append(_file(store.root / law_id / "versions.json"))
        for v in store.versions(law_id):
            parts += [_file(store.root / law_id / f"{v.revision_id}{suffix}")
                      for suffix in (".jsonl", SUPPL_SUFFIX)]
    parts += [repr(r) for r in table]  # frozen dataclasses: every field, in order
    parts += [f"{k}\t{sorted(v)}" for k, v in sorted(touched.items())]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


_LAST: dict[str, Any] = {}


def remembered(digest: str, make: Callable[[], T]) -> T:
    """``make()``, or what it gave for the same ``digest`` last time (only the last is kept)."""
    if digest not in _LAST:
        _LAST.clear()
        _LAST[digest] = make()
    value: T = _LAST[digest]
    return value
