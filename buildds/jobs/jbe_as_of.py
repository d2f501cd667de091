"""As-of builds (``buildds jbe --as-of DATE``): each item's standing under the law in force on
DATE, from the law store (:class:`~buildds.laws.store.LawStore`).

After decomposition and corrections, the items are assessed against the store
(:func:`buildds.laws.impact.assess_items`: the law the exam assumed → DATE) and given a
:class:`~buildds.schema.jbe_build.JbeItemStatus`:

* ``unaffected`` → ``current`` (and the only items a few-shot exemplar may be drawn from);
* ``terminology_only`` → ``terminology_only``: still scored, the revision noted;
* ``needs_review`` → ``needs_review``: out of the scored split, with the revision(s), their
  enforcement dates and the articles;
* ``unknown`` → ``needs_review`` too, its reason starting ``impact unknown`` (no grounds, or
  the law text in force on one of the two dates is not held): an item that cannot be
  checked is never taken as unaffected, so it is not scored either;
* ``low_confidence`` (only weakly retrieved grounds changed) → ``needs_review`` too, its reason
  starting ``low confidence`` with the weak grounds and the changes.

Every status also carries the item's grounds as the assessment used them
(``grounds_status`` explicit / retrieved / unknown, and ``grounds``: the cited articles, else
the retrieved ones of rank ≤ its top-k with their score and rank), so the export says what each
decision was based on.

A correction citing a revision (``revision:`` in ``corrections/jbe/*.yaml``) is the review of
such an item: it applies to an item whose grounds that revision changed (for an item with
impact unknown: any revision of the store in force on DATE), through the usual
:func:`~buildds.transform.corrections.apply_corrections` — so a ``label`` correction's
``expect`` must still match, or it is reported stale — and makes the item ``current`` again
(never a few-shot exemplar: its label was reviewed, not unaffected). A correction citing a
revision that comes into force after DATE is ``pending``: neither applied nor stale.

The assessment is cached by the items, the date and the store's content hash
(:func:`store_digest`: every ``versions.json`` and article file), so a rerun with the same
store does no grounding at all and a changed store redoes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date
from pathlib import Path

from buildds.code_version import code_files
from buildds.errors import BuildError
from buildds.laws.revisions import revision_date
from buildds.laws.store import LawStore
from buildds.pipeline import Cache, cache_key, canonical_json, package_code_version
from buildds.safeio.hashing import sha256_bytes, sha256_file
from buildds.schema import JbeExclusion, JbeItem
from buildds.schema.jbe_build import (
    JbeAsOf,
    JbeItemStatus,
    JbeReject,
    StaleCorrection,
    StatuteVersionUsed,
)
from buildds.schema.laws import ItemImpact
from buildds.transform.corrections import Correction, apply_corrections

__all__ = ["SUBJECT_LAWS", "AssessFn", "apply_as_of", "check_as_of", "item_statuses",
           "review_rejects", "store_digest", "versions_used"]

STAGE = "jbe-as-of"
#: the code each exam subject (``JbeItem.subject_jp``) is about — as
#: :data:`buildds.laws.grounding.SUBJECT_LAWS`, without importing the retrieval stack
SUBJECT_LAWS = {"民法": "129AC0000000089", "刑法": "140AC0000000045",
                "憲法": "321CONSTITUTION"}
AssessFn = Callable[..., list[ItemImpact]]


def store_digest(store: LawStore) -> str:
    """The store's content hash: every law's ``versions.json`` and article files, by path."""
    entries = []
    for law in store.laws():
        folder = store.root / law
        for path in sorted([folder / "versions.json", *folder.glob("*.jsonl")]):
            entries.append([f"{law}/{path.name}", sha256_file(path)])
    return sha256_bytes(canonical_json(entries).encode("utf-8"))


def check_as_of(store_dir: Path, as_of: date, subjects_jp: Iterable[str]) -> LawStore:
    """The store, once it is known to hold a version in force on ``as_of`` of every law it
    holds among the subjects' codes; else :class:`BuildError` naming the store and the law
    (no store, a store with none of the codes, a date before a law's first version)."""
    store = LawStore(store_dir)
    if not store.root.is_dir():
        raise BuildError(f"no law store at {store.root}: import statutes with 'buildds laws "
                         f"import FILE --store {store.root}', or pass --law-store")
    wanted = [SUBJECT_LAWS[s] for s in subjects_jp if s in SUBJECT_LAWS]
    held = [law for law in wanted if law in store.laws()]
    if not held:
        raise BuildError(f"the law store {store.root} holds none of the codes of the subjects "
                         f"built ({', '.join(wanted)})")
    for law in held:
        store.version_at(law, as_of)  # a date before the first version is an error
    return store


def versions_used(store: LawStore, as_of: date,
                  subjects_jp: Iterable[str]) -> tuple[StatuteVersionUsed, ...]:
    """The version in force on ``as_of`` of each subject's code the store holds."""
    laws = sorted({SUBJECT_LAWS[s] for s in subjects_jp if s in SUBJECT_LAWS} & set(store.laws()))
    out = []
    for law in laws:
        v = store.version_at(law, as_of)
        out.append(StatuteVersionUsed(law_id=law, law_title=v.law_title,
                                      revision_id=v.revision_id, valid_from=v.valid_from,
                                      sha256=v.source.sha256))
    return tuple(out)


#: the code of the as-of stage and the tables the assessment reads (the revisions table, the
#: exam days, the terminology maps): a cached assessment is stale when any of them changes
_CODE = (("buildds.jobs.jbe_as_of",), ("laws/data/*.yaml",))


def _code_version() -> str:
    return package_code_version(code_files(*_CODE))


def _assess(items: Sequence[JbeItem], store: LawStore, as_of: date, store_sha: str,
            cache: Cache, assess: AssessFn | None,
            exam_dates: Mapping[int, date]) -> list[ItemImpact]:
    """The impact of every item, from the cache when the items, date, exam dates and store
    are the same."""
    items_sha = sha256_bytes(canonical_json(
        [i.model_dump(mode="json") for i in items]).encode("utf-8"))
    key = cache_key(STAGE, _code_version(), [items_sha, store_sha], {
        "as_of": as_of.isoformat(),
        "exam_dates": {str(y): d.isoformat() for y, d in sorted(exam_dates.items())}})
    hit = cache.get(STAGE, key)
    if hit is not None:
        return [ItemImpact.model_validate(x) for x in hit["impacts"]]
    if assess is None:
        from buildds.laws.exam_dates import exam_date_of
        from buildds.laws.impact import assess_items

        impacts = assess_items(items, store, as_of, assumed=exam_date_of(exam_dates))
    else:
        impacts = assess(items, store, as_of)
    cache.put(STAGE, key, {"impacts": [i.model_dump(mode="json") for i in impacts]})
    return impacts


def _from_impact(impact: ItemImpact) -> JbeItemStatus:
    """The item's status from its impact, with the grounds the assessment used (an item
    left with none says ``unknown``)."""
    found = impact.grounds
    if not found.grounds:
        found = found.model_copy(update={"status": "unknown"})
    revisions = tuple(sorted({g.revision_id for g in impact.impacts if g.revision_id}))
    if impact.status == "unaffected":
        return JbeItemStatus(id=impact.item_id, status="current", fewshot_eligible=True,
                             grounds_status=found.status, grounds=found.grounds)
    if impact.status == "unknown":
        return JbeItemStatus(id=impact.item_id, status="needs_review",
                             grounds_status=found.status, grounds=found.grounds,
                             reason=f"impact unknown: {impact.reason or 'no grounds'}")
    what = "; ".join(
        f"{g.change.kind} 第{(g.change.old_article or g.change.new_article or '?')}条"
        f" ({g.ground.law_id}) by {g.revision_id or '?'}"
        f"{', in force ' + g.enforced.isoformat() if g.enforced else ''}"
        for g in impact.impacts)
    if impact.status == "low_confidence":
        what = f"low confidence: {impact.reason}" + (f"; {what}" if what else "")
    return JbeItemStatus(id=impact.item_id, reason=what or impact.reason, revisions=revisions,
                         status=("terminology_only" if impact.status == "terminology_only"
                                 else "needs_review"),
                         grounds_status=found.status, grounds=found.grounds)


def _unknown(status: JbeItemStatus) -> bool:
    return (status.reason or "").startswith("impact unknown")


def item_statuses(items: Sequence[JbeItem], impacts: Sequence[ItemImpact],
                  corrections: Sequence[Correction], *, as_of: date,
                  store_revisions: Iterable[str] = ()) -> tuple[
                      list[JbeItem], list[JbeExclusion], list[StaleCorrection],
                      list[JbeItemStatus], list[str]]:
    """Statuses from the impacts, then the corrections citing a revision: the items (reviewed
    ones updated), the exclusions those corrections add, the stale ones, every item's status
    (item order) and the pending corrections' origins."""
    by_impact = {i.item_id: i for i in impacts}
    current = {it.id: it for it in items}
    status: dict[str, JbeItemStatus] = {}
    for it in items:
        imp = by_impact.get(it.id)
        status[it.id] = (_from_impact(imp) if imp is not None else JbeItemStatus(
            id=it.id, status="needs_review", reason="impact unknown: not assessed"))
    in_force = {r for r in store_revisions if (revision_date(r) or date.max) <= as_of}
    excluded: list[JbeExclusion] = []
    stale: list[StaleCorrection] = []
    pending: list[str] = []
    for c in corrections:
        if c.revision is None:
            continue
        if (revision_date(c.revision) or date.min) > as_of:
            pending.append(c.origin)
            continue
        targets = [i for i in current if c.targets(i)]
        allowed = [t for t in targets if c.revision in (
            status[t].revisions or (in_force if _unknown(status[t]) else ()))]
        for t in targets:
            if t not in allowed:
                stale.append(StaleCorrection(
                    origin=c.origin, id=c.id, action=c.action,
                    message=f"{t}: revision {c.revision} did not change its grounds by "
                            f"{as_of.isoformat()} ({status[t].status}"
                            f"{': ' + ', '.join(status[t].revisions) if status[t].revisions else ''})"))
        if not targets:
            stale.append(StaleCorrection(origin=c.origin, id=c.id, action=c.action,
                                         message=f"no item has id {c.id!r}"))
        if not allowed:
            continue
        done, excl, st = apply_corrections([current[t] for t in allowed], [], [c])
        stale += st
        excluded += excl
        missed = {s.message.split(":", 1)[0] for s in st}
        for t in allowed:
            kept = next((d for d in done if d.id == t), None)
            if kept is None:  # excluded by the correction
                del current[t]
                continue
            current[t] = kept
            if t not in missed:
                status[t] = JbeItemStatus(
                    id=t, status="current", revisions=(c.revision,),
                    reason=f"reviewed for {c.revision} by {c.origin}: {c.reason}",
                    grounds_status=status[t].grounds_status, grounds=status[t].grounds)
    kept_items = [current[it.id] for it in items if it.id in current]
    return (kept_items, excluded, stale, [status[it.id] for it in kept_items], pending)


def apply_as_of(items: Sequence[JbeItem], *, as_of: date, store_dir: Path,
                corrections: Sequence[Correction], cache: Cache,
                assess: AssessFn | None = None, exam_dates: Mapping[int, date] | None = None,
                relabelled: Callable[[JbeItem], bool] = lambda _: False) -> tuple[
                    list[JbeItem], list[JbeExclusion], list[StaleCorrection], JbeAsOf]:
    """Assess ``items`` against the store on ``as_of`` and settle their statuses
    (:func:`item_statuses`); ``relabelled`` says which items a correction relabelled (never
    few-shot exemplars in an as-of build); ``exam_dates`` (year → day) add to the table of
    the days the exams were sat (:mod:`buildds.laws.exam_dates`)."""
    subjects = sorted({it.subject_jp for it in items})
    store = check_as_of(store_dir, as_of, subjects)
    store_sha = store_digest(store)
    impacts = _assess(items, store, as_of, store_sha, cache, assess, exam_dates or {})
    revisions = [v.revision_id for law in store.laws() for v in store.versions(law)]
    kept, excluded, stale, statuses, pending = item_statuses(
        items, impacts, corrections, as_of=as_of, store_revisions=revisions)
    by_id = {it.id: it for it in kept}
    statuses = [s.model_copy(update={"fewshot_eligible": False})
                if s.fewshot_eligible and relabelled(by_id[s.id]) else s for s in statuses]
    info = JbeAsOf(as_of=as_of, store_sha256=store_sha,
                   laws=versions_used(store, as_of, subjects), statuses=tuple(statuses),
                   pending=tuple(pending))
    return kept, excluded, stale, info



def review_rejects(items: Sequence[JbeItem], info: JbeAsOf) -> list[JbeReject]:
    """The ``rejects.jsonl`` lines of an as-of build: every ``needs_review`` item, with the
    revision(s) behind it."""
    status = {s.id: s for s in info.statuses}
    return [JbeReject(stage=STAGE, reason="needs_review", message=status[it.id].reason or "",
                      source=it.source, page=it.page, id=it.id)
            for it in items if status[it.id].status == "needs_review"]
