"""Revisions: when each version of a law came into force, from the e-Gov 法令API v2
``law_revisions`` answer or from the curated table shipped with buildds
(``buildds/laws/data/revisions.yaml``) — never from the date a file was downloaded.

* :func:`parse_law_revisions` / :func:`read_law_revisions` — the API answer
  (``{law_info, revisions:[{law_revision_id, amendment_enforcement_date, …,
  current_revision_status}]}``) → :class:`Revision` records, oldest first.
* :func:`load_revisions_table` — the curated table (or another YAML file of the same shape):
  per law, each version's revision id, enforcement date, amending law, the file it describes,
  the articles that file holds unenforced, and a ``sources`` note saying where the date is from.
* :func:`revision_for` — the revision a statute file is: by ``--revision-id`` or by the file's
  name in the table; it must be a revision of the law the file holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from buildds.errors import BuildError, ExtractError
from buildds.safeio import loads_strict, read_side_file
from buildds.schema.laws import LawText, VersionStatus

__all__ = [
    "REVISION_ID",
    "Revision",
    "builtin_table_text",
    "load_revisions_table",
    "parse_law_revisions",
    "read_law_revisions",
    "revision_date",
    "revision_for",
]

#: ``{law_id}_{YYYYMMDD}_{amending law id}``; law ids outside e-Gov use letters and hyphens
REVISION_ID = re.compile(r"^(?P<law>[0-9A-Za-z-]+)_(?P<date>\d{8})_(?P<amend>[0-9A-Za-z-]+)$")

#: e-Gov's current_revision_status → ours (a repealed law's last text did come into force)
_STATUS: dict[str, VersionStatus] = {"CurrentEnforced": "enforced",
                                     "PreviousEnforced": "enforced", "Repeal": "enforced",
                                     "UnEnforced": "unenforced"}


@dataclass(frozen=True)
class Revision:
    """One version of one law as a revisions file describes it."""

    law_id: str
    revision_id: str
    valid_from: date
    law_title: str = ""
    status: VersionStatus = "enforced"
    amended_by: str | None = None
    amendment_title: str | None = None
    promulgated: date | None = None
    #: False when the date rests on something outside the files (a Cabinet Order)
    established: bool = True
    #: the statute file this revision describes (its name), when the table names one
    file: str | None = None
    fetched: date | None = None
    #: first and last article key of a range the file holds unenforced, and why
    unenforced: tuple[str, str] | None = None
    unenforced_note: str | None = None
    sources: str = ""


_DATE_RE = re.compile(r"(\d{4}-\d{2}-\d{2})(?:[T ][0-9:.+\-Z]*)?")


def _date(value: Any, what: str, where: str) -> date:
    """A day from a YAML date, a YAML timestamp (its day: a ``datetime`` would not compare
    with the dates it is checked against) or ``YYYY-MM-DD`` with at most a time after it."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    m = _DATE_RE.fullmatch(str(value).strip())
    if m:
        try:
            return date.fromisoformat(m.group(1))
        except ValueError:
            pass
    raise ExtractError(f"{what}: {value!r} is not a date (YYYY-MM-DD)", source=where)


def revision_date(revision_id: str) -> date | None:
    """The enforcement date a revision id carries (``…_20200401_…`` → 2020-04-01); None for
    anything that is not a revision id or whose date is not a real day."""
    m = REVISION_ID.match(revision_id)
    if not m:
        return None
    try:
        return date(int(m["date"][:4]), int(m["date"][4:6]), int(m["date"][6:]))
    except ValueError:
        return None


def _check_id(revision_id: str, law_id: str, valid_from: date, where: str) -> None:
    m = REVISION_ID.match(revision_id)
    if not m or m["law"] != law_id:
        raise ExtractError(f"revision id {revision_id!r} is not {law_id}_YYYYMMDD_<amending "
                           f"law>", source=where)
    if m["date"] != valid_from.strftime("%Y%m%d"):
        raise ExtractError(f"revision {revision_id}: its date {m['date']} is not its "
                           f"enforcement date {valid_from.isoformat()}", source=where)


def parse_law_revisions(data: Mapping[str, Any], where: str) -> list[Revision]:
    """The revisions of an e-Gov API v2 ``law_revisions`` answer, oldest first. A revision
    without an enforcement date (not yet fixed) takes its scheduled date when there is one,
    else it is left out: it cannot be placed on the calendar."""
    info = data.get("law_info")
    rows = data.get("revisions")
    if not isinstance(info, Mapping) or not isinstance(rows, list):
        raise ExtractError("not an e-Gov law_revisions answer (no law_info/revisions)",
                           source=where)
    law_id = str(info.get("law_id") or "")
    out: list[Revision] = []
    for row in rows:
        if not isinstance(row, Mapping):
            raise ExtractError("a revision is not an object", source=where)
        rid = str(row.get("law_revision_id") or "")
        when = row.get("amendment_enforcement_date") or row.get(
            "amendment_scheduled_enforcement_date")
        if not when:
            continue
        valid_from = _date(when, f"revision {rid}", where)
        _check_id(rid, law_id, valid_from, where)
        status = _STATUS.get(str(row.get("current_revision_status")))
        if status is None:
            raise ExtractError(f"revision {rid}: unknown current_revision_status "
                               f"{row.get('current_revision_status')!r}", source=where)
        promulgated = row.get("amendment_promulgate_date")
        comment = row.get("amendment_enforcement_comment")
        out.append(Revision(
            law_id=law_id, revision_id=rid, valid_from=valid_from,
            law_title=str(row.get("law_title") or ""), status=status,
            amended_by=row.get("amendment_law_num") or None,
            amendment_title=row.get("amendment_law_title") or None,
            promulgated=_date(promulgated, f"revision {rid}", where) if promulgated else None,
            sources=f"e-Gov law_revisions ({Path(where).name})"
                    + (f"; {comment}" if comment else "")))
    return sorted(out, key=lambda r: (r.valid_from, r.revision_id))


def read_law_revisions(path: str | Path) -> list[Revision]:
    """:func:`parse_law_revisions` of a saved ``law_revisions`` answer (JSON)."""
    try:
        data = loads_strict(read_side_file(path))
    except ValueError as exc:
        raise ExtractError(f"not JSON: {exc}", source=str(path)) from None
    if not isinstance(data, Mapping):
        raise ExtractError("not an e-Gov law_revisions answer (not an object)",
                           source=str(path))
    return parse_law_revisions(data, str(path))


def _joined(text: Any) -> str:
    # YAML folding puts a space at each line break, which Japanese text does not have
    return re.sub(r"(?<=[^\x00-\x7f]) (?=[^\x00-\x7f])", "", " ".join(str(text).split()))


def _table_row(law: Mapping[str, Any], row: Mapping[str, Any], where: str) -> Revision:
    law_id = str(law["law_id"])
    rid = str(row.get("revision_id") or "")
    valid_from = _date(row.get("valid_from"), f"revision {rid}", where)
    _check_id(rid, law_id, valid_from, where)
    if not str(row.get("sources") or "").strip():
        raise ExtractError(f"revision {rid}: no sources note (where does its date come "
                           f"from?)", source=where)
    unenforced = row.get("unenforced")
    fetched, promulgated = row.get("fetched"), row.get("promulgated")
    return Revision(
        law_id=law_id, revision_id=rid, valid_from=valid_from,
        law_title=str(law.get("law_title") or ""),
        status="unenforced" if row.get("status") == "unenforced" else "enforced",
        amended_by=row.get("amended_by") or None, promulgated=(
            _date(promulgated, f"revision {rid}", where) if promulgated else None),
        established=bool(row.get("established", True)), file=row.get("file") or None,
        fetched=_date(fetched, f"revision {rid}", where) if fetched else None,
        unenforced=(str(unenforced["first"]), str(unenforced["last"])) if unenforced else None,
        unenforced_note=_joined(unenforced["note"]) if unenforced else None,
        sources=_joined(row["sources"]))


def builtin_table_text() -> str:
    """The text of the curated table shipped with buildds."""
    return resources.files("buildds.laws").joinpath("data/revisions.yaml").read_text("utf-8")


def load_revisions_table(path: str | Path | None = None) -> list[Revision]:
    """The curated revisions table (default: the one shipped with buildds), or a saved
    e-Gov ``law_revisions`` answer when ``path`` ends in ``.json``."""
    import yaml

    from buildds.safeio.yaml_strict import load_yaml_strict

    if path is not None and str(path).endswith(".json"):
        return read_law_revisions(path)
    where = str(path) if path is not None else "buildds/laws/data/revisions.yaml"
    text = builtin_table_text() if path is None else read_side_file(path)
    try:
        data = load_yaml_strict(text)
    except yaml.YAMLError as exc:
        raise ExtractError(f"not a revisions table: not valid YAML: {exc}",
                           source=where) from None
    if not isinstance(data, Mapping):
        raise ExtractError("not a revisions table (laws: [{law_id, versions: [...]}]): "
                           + ("the file is empty" if data is None else
                              f"its top level is a {type(data).__name__}"), source=where)
    try:
        laws = data["laws"]
        out = [_table_row(law, row, where) for law in laws for row in law["versions"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ExtractError(f"not a revisions table (laws: [{{law_id, versions: [...]}}]): "
                           f"{exc}", source=where) from None
    return sorted(out, key=lambda r: (r.law_id, r.valid_from))


def revision_for(revisions: Iterable[Revision], text: LawText,
                 revision_id: str | None = None) -> Revision:
    """The revision of one statute file: the one named ``revision_id``, else the one whose
    ``file`` is the file's name; it must be a revision of the law the file holds."""
    where = text.source.path
    name = Path(where).name
    found = [r for r in revisions
             if (r.revision_id == revision_id if revision_id else r.file == name)]
    if not found:
        what = (f"revision {revision_id} is not in the revisions file" if revision_id
                else f"no revision in the revisions file names the file {name}")
        raise BuildError(f"{what}; give --revision-id or a --revisions file that lists it",
                         source=where)
    rev = found[0]
    if rev.law_id != text.law_id:
        raise BuildError(f"the file holds law {text.law_id} ({text.law_title}) but revision "
                         f"{rev.revision_id} is of law {rev.law_id}", source=where)
    return rev
