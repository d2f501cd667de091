"""What a review source yields and what it accepts: the contract between the web app and the
build outputs it reviews.

A *source* knows one kind of build output (a JBE build, a contracts build, a judgments build,
a High Bar eval run). It lists the items that need a person (:class:`ReviewItem`, each with
its reasons, filterable facets and evidence) and turns a person's :class:`Verdict` into data
— a corrections YAML entry, a review CSV row, a lawyer-verdicts line — never into an edit of
the build's outputs. A rebuild then picks the verdict up.

Two browser tabs must not lose each other's work: every item has a *version* (a digest of
the verdict data stored for it), a write names the version it was made against, and a write
against a stale version raises :class:`StaleVerdict` instead of overwriting.
"""

from __future__ import annotations

import importlib

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

__all__ = ["ACTIONS", "ReviewItem", "ReviewSource", "StaleVerdict", "UnknownOutput", "Verdict",
           "KINDS", "detect_source"]

ACTIONS = ("accept", "reject", "edit", "exclude")
"""What a reviewer can say of an item: it is right; it is wrong (an injection that is not a
real error, a judge verdict the lawyer overrules); it is right after these edits; leave it
out of the dataset."""


class StaleVerdict(Exception):
    """A verdict written against a version of the item's verdict data that is no longer the
    current one (another tab or person wrote in between)."""


class UnknownOutput(Exception):
    """No review source recognises the folder."""


@dataclass(frozen=True)
class ReviewItem:
    """One thing a person should check.

    ``key`` is stable across rebuilds and URL-safe (``[A-Za-z0-9._-]``); ``reasons`` say why
    it is in the queue (``validation:label_balance``, ``ocr_low_confidence``,
    ``needs_review:<revision>``, ``review_sample``, ``judge_disagreement`` …); ``facets`` are
    the filterable attributes (``subject``, ``year``, ``document``, ``error_type`` …);
    ``fields`` the current values a reviewer may edit (``text``, ``label`` …); ``evidence``
    the kind-specific, JSON-able material shown beside the item (paths in it are relative to
    the output folder or are input files listed by :meth:`ReviewSource.files`)."""

    key: str
    kind: str
    title: str
    reasons: tuple[str, ...]
    facets: Mapping[str, str] = field(default_factory=dict)
    fields: Mapping[str, str] = field(default_factory=dict)
    evidence: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    """A reviewer's decision on one item. ``changes`` holds the edited fields (for
    ``edit``); ``note`` the reviewer's reason (required for ``reject``, ``edit`` and
    ``exclude``); ``revision`` the law revision id when the change follows a law change."""

    key: str
    action: str
    changes: Mapping[str, str] = field(default_factory=dict)
    note: str = ""
    reviewer: str = ""
    revision: str = ""


class ReviewSource(Protocol):
    """One build output seen as a review queue."""

    kind: str
    out: Path

    def items(self) -> Sequence[ReviewItem]:
        """Every item that needs review, in a stable order."""

    def verdict_for(self, key: str) -> Verdict | None:
        """The verdict already stored for ``key`` (done), or None (left)."""

    def version(self, key: str) -> str:
        """A digest of the verdict data stored for ``key``, for optimistic concurrency."""

    def record(self, verdict: Verdict, expected_version: str) -> str:
        """Write ``verdict`` as data (atomically) and return the item's new version; raise
        :class:`StaleVerdict` when ``expected_version`` is not the current one, ``KeyError``
        for an unknown key and ``ValueError`` for a verdict the item cannot take."""

    def files(self) -> Sequence[Path]:
        """Input files (outside ``out``) the app may serve as evidence, e.g. source PDFs."""


KINDS = ("jbe", "contracts", "judgments", "highbar")
"""The source modules, tried in this order: ``buildds.review.sources.<kind>``, each with a
``probe(out: Path) -> ReviewSource | None`` that recognises its kind of output folder."""


def detect_source(out: str | Path) -> ReviewSource:
    """The source for ``out``: the first source module whose ``probe`` recognises it."""
    folder = Path(out)
    if not folder.is_dir():
        raise UnknownOutput(f"{folder}: not a folder")
    for kind in KINDS:
        name = f"buildds.review.sources.{kind}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        probe: Callable[[Path], ReviewSource | None] = module.probe
        found = probe(folder)
        if found is not None:
            return found
    raise UnknownOutput(f"{folder}: not a build output buildds can review "
                        f"(known: {', '.join(KINDS)})")
