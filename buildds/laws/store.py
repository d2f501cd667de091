"""The law store: a folder holding the versions of each law keyed by enforcement date.

Layout (``data_raw/laws/store`` by default)::

    <law_id>/versions.json               LawVersion list, sorted by valid_from
    <law_id>/<revision_id>.jsonl         one LawArticle per line (canonical JSON)
    <law_id>/<revision_id>.suppl.jsonl   one SupplProvision (附則) per line; empty when the
                                         file's format carries none (an article JSONL)

:meth:`LawStore.import_text` adds one statute file (a :class:`~buildds.schema.laws.LawText`)
as the version a :class:`~buildds.laws.revisions.Revision` says it is, and recomputes every
``valid_to`` of that law from the next version's ``valid_from``; importing the same text again
writes nothing, and another file's text for a revision the store holds is refused.
:func:`import_files` reads and checks every file (naming each one that fails) before it
writes any. :meth:`LawStore.version_at` and :meth:`LawStore.article_at` answer "which
text applied on this day"; :meth:`LawStore.suppl_provisions` gives a version's 附則 back
from the store, never from the statute file (a store written before the 附則 were kept has no
``.suppl.jsonl``: :meth:`LawStore.has_suppl` tells). Writes are atomic (articles and 附則
first, then the version list), so a killed import leaves the previous store readable.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from buildds.errors import BuildError
from buildds.laws.articles import article_number
from buildds.laws.revisions import REVISION_ID, Revision, load_revisions_table, revision_for
from buildds.pipeline import atomic_write_text, canonical_json
from buildds.safeio import read_bytes_limited
from buildds.safeio.json_strict import loads_strict
from buildds.schema.laws import LawArticle, LawText, LawVersion, SupplProvision

__all__ = ["DEFAULT_STORE", "SUPPL_SUFFIX", "LawStore", "UnenforcedText", "import_files", "import_text",
           "unenforced_keys"]

DEFAULT_STORE = Path("data_raw/laws/store")
_MAX_FILE = 256 * 1024 * 1024
#: the suffix of a version's 附則 file beside its articles
SUPPL_SUFFIX = ".suppl.jsonl"
_Record = TypeVar("_Record", LawArticle, SupplProvision)


class UnenforcedText(BuildError):
    """The store holds an article only as amended by a law not yet in force on the day asked."""


def unenforced_keys(text: LawText, revision: Revision) -> tuple[str, ...]:
    """The article keys of ``text`` within the revision's unenforced range (by article
    number: 155–167 takes 161_2 too)."""
    if revision.unenforced is None:
        return ()
    first, last = ((article_number(k) or -1) for k in revision.unenforced)
    return tuple(a.article for a in text.articles
                 if first <= (article_number(a.article) or -1) <= last)


def _wording(articles: Iterable[LawArticle]) -> list[tuple[str, str]]:
    """What two texts of one revision must agree on: each article's key and wording."""
    return [(a.article, a.flat) for a in articles]


def _first_line(exc: Exception) -> str:
    if isinstance(exc, ValidationError):  # its first line names only the model
        err = exc.errors()[0]
        return f"{'.'.join(map(str, err['loc'])) or 'the record'}: {err['msg']}"
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _records(path: Path, model: type[_Record]) -> list[_Record]:
    """The records of one of the store's JSON-lines files; a damaged line is an error naming
    the file and the line."""
    try:
        text = read_bytes_limited(path, max_bytes=_MAX_FILE).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BuildError(f"a damaged law store file: not UTF-8 (byte {exc.start})",
                         source=str(path)) from None
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line:
            continue
        try:
            out.append(model.model_validate_json(line))
        except ValueError as exc:
            raise BuildError(f"line {n}: a damaged law store file (re-import the law's files "
                             f"into a new store): {_first_line(exc)}", source=str(path)) from None
    return out


class LawStore:
    """One store folder."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    # ------------------------------------------------------------------ reading
    def laws(self) -> list[str]:
        """The law ids with versions in the store."""
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if (p / "versions.json").is_file())

    def versions(self, law_id: str) -> list[LawVersion]:
        """The versions of one law, oldest first (empty when the store has none)."""
        path = self.root / law_id / "versions.json"
        if not path.is_file():
            return []
        try:
            data = loads_strict(read_bytes_limited(path, max_bytes=_MAX_FILE))
            # sorted here, not trusted: a hand-edited file out of order must not change
            # which version is in force on a day
            return sorted((LawVersion.model_validate(v) for v in data),
                          key=lambda v: (v.valid_from, v.revision_id))
        except (ValueError, TypeError) as exc:
            raise BuildError(f"a damaged law store file (re-import the law's files into a "
                             f"new store): {_first_line(exc)}", source=str(path)) from None

    def version_at(self, law_id: str, day: date) -> LawVersion:
        """The version of ``law_id`` in force on ``day``: the last with valid_from ≤ day."""
        found = self.versions(law_id)
        if not found:
            raise BuildError(f"law {law_id} has no versions in the store {self.root}; "
                             f"import one with: buildds laws import FILE --store {self.root}")
        before = [v for v in found if v.valid_from <= day]
        if not before:
            raise BuildError(f"law {law_id}: {day.isoformat()} is before its first version in "
                             f"the store ({found[0].revision_id}, in force from "
                             f"{found[0].valid_from.isoformat()})")
        return before[-1]

    def articles(self, law_id: str, revision_id: str) -> list[LawArticle]:
        """The articles of one version, in the order of the text."""
        path = self.root / law_id / f"{revision_id}.jsonl"
        if not REVISION_ID.match(revision_id) or not path.is_file():
            raise BuildError(f"law {law_id}: no version {revision_id} in the store {self.root}")
        return _records(path, LawArticle)

    def _suppl_path(self, law_id: str, revision_id: str) -> Path:
        if not REVISION_ID.match(revision_id):
            raise BuildError(f"law {law_id}: no version {revision_id} in the store {self.root}")
        return self.root / law_id / f"{revision_id}{SUPPL_SUFFIX}"

    def has_suppl(self, law_id: str, revision_id: str) -> bool:
        """Whether the store keeps the 附則 of this version (False for a store written before
        they were kept: re-import the version's file)."""
        return self._suppl_path(law_id, revision_id).is_file()

    def suppl_provisions(self, law_id: str, revision_id: str) -> tuple[SupplProvision, ...]:
        """The 附則 of one version as its file printed them, in order; empty when its format
        carries none or the store does not keep them (:meth:`has_suppl`)."""
        path = self._suppl_path(law_id, revision_id)
        if not path.is_file():
            return ()
        return tuple(_records(path, SupplProvision))

    def article_at(self, law_id: str, article: str, day: date, *,
                   allow_unenforced: bool = False) -> LawArticle:
        """Article ``article`` (e-Gov key, ``"208_2"``) as it read on ``day``. An article the
        version holds only as amended by a law not yet in force raises
        :class:`UnenforcedText` unless ``allow_unenforced``; an article that is in no
        version of the law is an error naming it."""
        version = self.version_at(law_id, day)
        hit = next((a for a in self.articles(law_id, version.revision_id)
                    if a.article == article), None)
        if hit is None:
            seen = [v.revision_id for v in self.versions(law_id)
                    if any(a.article == article for a in self.articles(law_id, v.revision_id))]
            where = (f"it is in {', '.join(seen)} only" if seen
                     else "it is in no version of the law in the store")
            raise BuildError(f"law {law_id}: article {article} is not in the version in force "
                             f"on {day.isoformat()} ({version.revision_id}); {where}")
        if article in version.unenforced_articles and not allow_unenforced:
            raise UnenforcedText(
                f"law {law_id}: article {article} of {version.revision_id} reads as amended by "
                f"a law not yet in force on {day.isoformat()} ({version.unenforced_note}); "
                f"its text in force on that day is not in the store")
        return hit

    # ------------------------------------------------------------------ writing
    def _check_same_revision(self, held: list[LawVersion], version: LawVersion,
                             text: LawText) -> None:
        """Another file's text may not replace a version the store holds (the same file,
        re-read, may: a reader fixed since)."""
        old = next((v for v in held if v.revision_id == version.revision_id), None)
        if old is None or old.source.sha256 == text.source.sha256:
            return
        if _wording(self.articles(text.law_id, old.revision_id)) != _wording(text.articles):
            raise BuildError(
                f"law {text.law_id}: the store holds {version.revision_id} from "
                f"{Path(old.source.path).name} with another text; one revision has one "
                f"text — check which file is that revision, or import this one into "
                f"another --store", source=text.source.path)

    def _checked(self, text: LawText,
                 revision: Revision) -> tuple[LawVersion, list[LawVersion]]:
        """The version ``text`` would be and the law's other versions, or the error that
        refuses it (nothing is written)."""
        if text.law_id != revision.law_id:
            raise BuildError(f"the file holds law {text.law_id} ({text.law_title}) but "
                             f"revision {revision.revision_id} is of law {revision.law_id}",
                             source=text.source.path)
        version = LawVersion(
            law_id=text.law_id, law_title=text.law_title, revision_id=revision.revision_id,
            valid_from=revision.valid_from, status=revision.status,
            amended_by=revision.amended_by, fetched=revision.fetched, source=text.source,
            articles=len(text.articles), unenforced_articles=unenforced_keys(text, revision),
            unenforced_note=revision.unenforced_note)
        held = self.versions(text.law_id)
        self._check_same_revision(held, version, text)
        others = [v for v in held if v.revision_id != version.revision_id]
        clash = [v for v in others if v.valid_from == version.valid_from]
        if clash:
            raise BuildError(
                f"law {text.law_id}: {version.revision_id} and {clash[0].revision_id} both come "
                f"into force on {version.valid_from.isoformat()}; one law cannot have two "
                f"versions from the same day", source=text.source.path)
        return version, others

    def import_text(self, text: LawText, revision: Revision) -> LawVersion:
        """Add ``text`` (its articles and 附則) as ``revision`` (re-importing the same text
        writes nothing) and
        recompute the ``valid_to`` of every version of the law. Errors name the law and the
        dates: a file of another law, two versions from the same day, another text of a
        revision the store holds."""
        version, others = self._checked(text, revision)
        ordered = sorted([*others, version], key=lambda v: v.valid_from)
        chained = [v.model_copy(update={"valid_to": nxt.valid_from if nxt else None})
                   for v, nxt in zip(ordered, [*ordered[1:], None], strict=True)]
        folder = self.root / text.law_id
        lines = "".join(canonical_json(a.model_dump(mode="json")) + "\n" for a in text.articles)
        atomic_write_text(folder / f"{version.revision_id}.jsonl", lines)
        atomic_write_text(folder / f"{version.revision_id}{SUPPL_SUFFIX}", "".join(
            canonical_json(p.model_dump(mode="json")) + "\n" for p in text.suppl_provisions))
        atomic_write_text(folder / "versions.json", json.dumps(
            [v.model_dump(mode="json") for v in chained], ensure_ascii=False, indent=1,
            sort_keys=True) + "\n")
        return next(v for v in chained if v.revision_id == version.revision_id)


def import_text(store: LawStore | str | Path, text: LawText, revision: Revision) -> LawVersion:
    """:meth:`LawStore.import_text` on a store folder."""
    target = store if isinstance(store, LawStore) else LawStore(store)
    return target.import_text(text, revision)


def import_files(store: LawStore | str | Path, paths: list[Path], *,
                 revisions: Path | None = None,
                 revision_id: str | None = None) -> list[LawVersion]:
    """Read every statute file and find its revision (in ``revisions``, default the curated
    table; or ``revision_id``) before anything is written, then import them in order."""
    from buildds.laws.readers import read_law

    if revision_id and len(paths) > 1:
        raise BuildError("--revision-id names the revision of one file; give one FILE")
    table = load_revisions_table(revisions)
    pairs, failed = [], []
    for path in paths:
        try:
            text = read_law(path)
            pairs.append((text, revision_for(table, text, revision_id)))
        except BuildError as exc:  # every bad file is named, not only the first
            failed.append(str(exc))
    if failed:
        raise BuildError(failed[0] if len(failed) == 1 else
                         f"{len(failed)} of {len(paths)} files cannot be imported; nothing "
                         f"was written:\n  " + "\n  ".join(failed))
    seen: dict[tuple[str, date], str] = {}
    texts: dict[str, LawText] = {}
    for text, rev in pairs:
        key = (rev.law_id, rev.valid_from)
        if seen.get(key, rev.revision_id) != rev.revision_id:
            raise BuildError(f"law {rev.law_id}: {seen[key]} and {rev.revision_id} both come "
                             f"into force on {rev.valid_from.isoformat()}",
                             source=text.source.path)
        seen[key] = rev.revision_id
        first = texts.setdefault(rev.revision_id, text)
        if first is not text and _wording(first.articles) != _wording(text.articles):
            raise BuildError(f"{first.source.path} and {text.source.path} are both revision "
                             f"{rev.revision_id} but their texts differ", source=text.source.path)
    pairs = [(t, r) for t, r in pairs if texts[r.revision_id] is t]
    target = store if isinstance(store, LawStore) else LawStore(store)
    for text, rev in pairs:  # every file checked against the store before any is written
        target._checked(text, rev)
    return [target.import_text(text, rev) for text, rev in pairs]
