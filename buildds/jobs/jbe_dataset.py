"""JBE stage 2 inside ``buildds jbe``: XML → items → corrections → validation → export.

Per booklet, the items are cached by the XML's hash, the hash of the corrections that target
that booklet (ids starting ``令和６年-民法-``) and the code version: editing one correction
file redoes only that booklet's items. The whole dataset has a fingerprint (every item and
exclusion, the seed, the balance bound, the code); when it equals the one recorded with the
existing export, validation and export are skipped and nothing is written — which is what
makes a no-change rebuild take well under a second (pandas, pandera and ``datasets`` are not
even imported then).

With ``as_of`` (``buildds jbe --as-of DATE``), the items are then assessed against the law
store (:mod:`buildds.jobs.jbe_as_of`): each gets a status, the corrections citing a revision
are applied, the fingerprint holds the date, the store's content hash and every status, and
the export gains a ``needs_review`` split and ``status`` columns. Without it, nothing of that
runs and the outputs are what they always were.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds.code_version import code_files
from buildds.export.data_fingerprint import DATA_DIR, data_fingerprint, fingerprint_of_hashes
from buildds.jobs.jbe_ocr import DEFAULT_OCR, OcrSettings, attach_ocr_confidence, low_confidence
from buildds.pipeline import Cache, cache_key, canonical_json, package_code_version
from buildds.safeio.hashing import sha256_bytes
from buildds.schema import SUBJECTS, JbeExclusion, JbeItem
from buildds.schema.jbe_build import JbeAsOf, JbeBookletItems, JbePairResult, StaleCorrection
from buildds.staging import OutputStaging
from buildds.text import era_fullwidth
from buildds.transform.corrections import Correction, corrections_digest, corrections_for

if TYPE_CHECKING:
    from buildds.jobs.jbe_as_of import AssessFn

__all__ = ["AsOfOptions", "DatasetOutcome", "build_jbe_dataset", "items_code_version"]

STAGE = "jbe-items"
#: the code that makes a booklet's items from its XML, and the code of the export
#: (modules with every buildds module they import — buildds.code_version — and data files)
_CODE = (("buildds.transform.jbe_items", "buildds.transform.corrections", "buildds.export.xml",
          "buildds.schema.jbe_build"), ("jobs/jbe_dataset.py",))
_EXPORT_CODE = (("buildds.export.hf", "buildds.validate.report", "buildds.evaluate.peers.render"),
                ("export/cards/jbe.md.j2", "evaluate/peers/templates/jbe_core.py.j2",
                 "evaluate/peers/templates/jbe_inspect.py.j2",
                 "evaluate/peers/templates/jbe_lm_eval.yaml.j2",
                 "evaluate/peers/templates/jbe_lm_eval_utils.py.j2",
                 "evaluate/prompts/jbe_system.txt", "evaluate/prompts/jbe_user.j2"))
MARKER = ".dataset-fingerprint"


def items_code_version() -> str:
    return package_code_version(code_files(*_CODE))


@dataclass(frozen=True)
class AsOfOptions:
    """``--as-of DATE --law-store DIR [--exam-date YEAR=DATE]``; ``assess`` stands in for
    :func:`buildds.laws.impact.assess_items` (tests)."""

    day: date
    store: Path
    #: ``--exam-date YEAR=DATE``: the day an exam was sat, where the shipped table has none
    exam_dates: tuple[tuple[int, date], ...] = ()
    assess: AssessFn | None = None


@dataclass
class DatasetOutcome:
    items: list[JbeItem] = field(default_factory=list)
    exclusions: list[JbeExclusion] = field(default_factory=list)
    stale: list[StaleCorrection] = field(default_factory=list)
    applied: int = 0
    booklets_cached: int = 0
    booklets_built: int = 0
    fingerprint: str = ""
    #: the export's data fingerprint (:mod:`buildds.export.data_fingerprint`): the one the
    #: card, the eval leaderboard and ``buildds validate`` show
    data_fingerprint: str = ""
    exported: bool = False
    unchanged: bool = False
    validation: dict[str, Any] | None = None
    validation_md: str = ""
    fewshot_ids: tuple[str, ...] = ()
    #: what an as-of build used and decided (None in a default build)
    as_of: JbeAsOf | None = None
    #: OCR'd items with a low confidence (buildds.jobs.jbe_ocr.low_confidence); None
    #: without OCR'd booklets
    ocr_flagged: list[dict[str, Any]] | None = None

    @property
    def validation_errors(self) -> int:
        return len((self.validation or {}).get("errors", []))

    def as_json(self) -> dict[str, Any]:
        from buildds.transform.jbe_summary import SEED_COUNTS, summarize

        data = {
            "fingerprint": self.fingerprint,
            "data_fingerprint": self.data_fingerprint,
            "summary": summarize(self.items, self.exclusions).to_json(),
            "seed_reference": SEED_COUNTS,
            "corrections": {"applied": self.applied,
                            "stale": [s.model_dump() for s in self.stale]},
            "exclusions": [e.model_dump() for e in self.exclusions],
            "fewshot_ids": list(self.fewshot_ids),
            "validation": self.validation,
        }
        if self.as_of is not None:  # a default build's report keeps its keys
            data["as_of"] = self.as_of.to_json()
        if self.ocr_flagged is not None:
            data["ocr_low_confidence"] = self.ocr_flagged
        return data


def _booklet_items(pair: JbePairResult, corrections: list[Correction],
                   cache: Cache) -> tuple[JbeBookletItems, bool]:
    """The booklet's items after its corrections, and whether they came from the cache."""
    year, subject = pair.year, pair.subject
    prefix = f"{era_fullwidth(year)}-{SUBJECTS[subject].jp}-"
    mine = corrections_for(corrections, prefix)
    xml = (pair.xml or "").encode("utf-8")
    key = cache_key(STAGE, items_code_version(), [sha256_bytes(xml), corrections_digest(mine)],
                    {})
    hit = cache.get(STAGE, key)
    if hit is not None:
        return JbeBookletItems.from_json(hit), True
    from buildds.export.xml import parse_exam_xml  # not needed on a warm run
    from buildds.transform.corrections import apply_corrections
    from buildds.transform.jbe_items import decompose

    booklet, answer_key = parse_exam_xml(xml, source=f"xml/{year}/{subject}.xml")
    items, exclusions = decompose(booklet, answer_key)
    items, exclusions, stale = apply_corrections(items, exclusions, mine)
    value = JbeBookletItems(
        items=tuple(items), exclusions=tuple(exclusions), stale=tuple(stale),
        applied=sum(len(i.corrections) for i in items)
        + sum(1 for e in exclusions if e.reason == "correction"))
    cache.put(STAGE, key, value.to_json())
    return value, False


def build_jbe_dataset(pairs: list[JbePairResult], out: Path, *, corrections: list[Correction],
                      cache: Cache, seed: int, balance: tuple[float, float],
                      provenance: dict[str, Any], staging: OutputStaging,
                      as_of: AsOfOptions | None = None,
                      ocr: OcrSettings = DEFAULT_OCR) -> DatasetOutcome:
    """Items of every built booklet, then (with ``as_of``) their statuses, then (unless
    unchanged) validation and export — into the run's ``staging``, swapped in with the run's
    other outputs."""
    outcome = DatasetOutcome()
    for pair in pairs:
        if pair.failed or not pair.xml:
            continue
        value, cached = _booklet_items(pair, corrections, cache)
        outcome.booklets_cached += cached
        outcome.booklets_built += not cached
        outcome.items.extend(attach_ocr_confidence(value.items, pair.ocr_statements))
        outcome.exclusions.extend(value.exclusions)
        outcome.stale.extend(value.stale)
        outcome.applied += value.applied
    if as_of is not None and outcome.items:
        _settle_as_of(outcome, as_of, corrections, cache)
    ocr_conf = {p.booklet: p.ocr_statements for p in pairs if p.ocr_statements}
    if ocr_conf:
        outcome.ocr_flagged = low_confidence(outcome.items, ocr_conf, ocr)

    fields: dict[str, Any] = {
        "items": [i.model_dump(mode="json") for i in outcome.items],
        "exclusions": [e.model_dump(mode="json") for e in outcome.exclusions],
        "seed": seed, "balance": list(balance), "provenance": provenance,
        "code": [items_code_version(), package_code_version(code_files(*_EXPORT_CODE))],
    }
    if outcome.as_of is not None:
        fields["as_of"] = outcome.as_of.to_json()
    payload = canonical_json(fields)
    outcome.fingerprint = sha256_bytes(payload.encode("utf-8"))[:32]

    marker = out / MARKER
    previous = cache.get("jbe-export", outcome.fingerprint)
    if (previous is not None and marker.exists()
            and marker.read_text("utf-8").strip() == outcome.fingerprint
            and (out / "data" / "test.parquet").exists() and (out / "dataset").is_dir()):
        outcome.unchanged = True
        outcome.validation = previous["validation"]
        outcome.validation_md = previous["validation_md"]
        outcome.fewshot_ids = tuple(previous["fewshot_ids"])
        outcome.data_fingerprint = data_fingerprint(out) or ""
        outcome.exported = True
        return outcome

    if not outcome.items:
        return outcome
    from buildds.evaluate.peers import peer_task_files
    from buildds.export.hf import export_jbe
    from buildds.validate.report import items_frame, validate_jbe

    report = validate_jbe(_frame(outcome, items_frame),
                          [e.model_dump() for e in outcome.exclusions], balance_bounds=balance)
    outcome.validation = json.loads(report.to_json())
    outcome.validation_md = report.to_markdown(level=2)
    if not report.ok:
        # A dataset that fails its schema is not exported: the report names the ids to fix.
        staging.remove(marker)
        return outcome
    result = export_jbe(outcome.items, outcome.exclusions, out=out,
                        fingerprint=outcome.fingerprint, provenance=provenance, seed=seed,
                        validation=outcome.validation, staging=staging, as_of=outcome.as_of,
                        extra_files=peer_task_files("jbe"))
    outcome.fewshot_ids = result.fewshot_ids
    outcome.data_fingerprint = fingerprint_of_hashes(
        {Path(f).stem: h for f, h in result.files.items()
         if f.startswith(f"{DATA_DIR}/") and f.endswith(".parquet")})
    outcome.exported = True
    cache.put("jbe-export", outcome.fingerprint,
              {"validation": outcome.validation, "validation_md": outcome.validation_md,
               "fewshot_ids": list(result.fewshot_ids)})
    # last in the swap: it vouches for the dataset beside it
    staging.write_text(marker, outcome.fingerprint + "\n", last=True)
    return outcome


def _settle_as_of(outcome: DatasetOutcome, as_of: AsOfOptions,
                  corrections: list[Correction], cache: Cache) -> None:
    """Statuses of the items under the law of ``as_of.day``; the corrections citing a
    revision applied (their exclusions and stale ones added to the outcome)."""
    from buildds.jobs.jbe_as_of import apply_as_of

    label_fixes = {c.origin for c in corrections if c.action == "label"}
    items, excluded, stale, info = apply_as_of(
        outcome.items, as_of=as_of.day, store_dir=as_of.store, corrections=corrections,
        cache=cache, assess=as_of.assess, exam_dates=dict(as_of.exam_dates),
        relabelled=lambda it: any(o in label_fixes for o in it.corrections))
    outcome.applied += sum(1 for s in info.statuses if s.reason and s.reason.startswith(
        "reviewed for ")) + len(excluded)
    outcome.items = items
    outcome.exclusions += excluded
    outcome.stale += stale
    outcome.as_of = info


def _frame(outcome: DatasetOutcome, items_frame: Any) -> Any:
    """The items as a DataFrame to validate; an as-of build's with its status columns."""
    df = items_frame(outcome.items)
    if outcome.as_of is not None:
        df["status"] = [s.status for s in outcome.as_of.statuses]
        df["status_reason"] = [s.reason for s in outcome.as_of.statuses]
    return df
