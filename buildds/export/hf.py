"""JBE-QA items → a Hugging Face ``DatasetDict``, parquet files and a dataset card.

:func:`export_jbe` writes, under ``out``::

    dataset/            DatasetDict.save_to_disk (splits ``test`` and ``fewshot``)
    data/test.parquet   every item, in a stable order (year, subject, question, statement)
    data/fewshot.parquet  the four seeded few-shot exemplars (2 true + 2 false)
    README.md           the dataset card (Hugging Face YAML front matter + Markdown)

and nothing else in ``out`` is touched. An as-of build (``as_of``, :class:`JbeAsOf`) adds
``status``, ``status_reason``, ``grounds_status`` and ``grounds`` columns (the articles the
status rests on: a list of structs, :mod:`buildds.export.hf_as_of`) and a ``needs_review`` split
(``data/needs_review.parquet``) holding the items a law revision may have made wrong: they
leave ``test`` and are never exemplars; the card records the statute versions used, the items
per status and per grounds status. The few-shot exemplars stay in ``test`` with
``is_fewshot=True`` so evaluations can leave them out of scoring (seed 001, section 3.2:
3,464 items, scored over 3,460).

Determinism: the same items, seed and fingerprint give byte-identical files. Rows are sorted
by :func:`item_sort_key` (never by input order), the few-shot draw uses ``random.Random(seed)``
over the sorted items (in an as-of build: :func:`select_fewshot_stable`, so relabelling one
item never changes the exemplars drawn for the others), each split's ``_fingerprint`` is derived from the ``fingerprint``
argument, the seed and the split's content (instead of the random/path-based one ``datasets``
would make up), the shard count is pinned to 1, and the card has no dates.

Atomicity: everything is written into a temp folder beside the targets first; only when all
of it is written are ``dataset/``, ``data/`` and ``README.md`` swapped in with ``os.replace``
(a failed swap is rolled back), so a killed or failed run leaves the previous export intact.

The card template is rendered in jinja2's ``SandboxedEnvironment`` with ``StrictUndefined``.
``datasets`` and ``pyarrow`` come with the ``data`` extra and are imported when needed.
"""

from __future__ import annotations

import hashlib
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from buildds import __version__
from buildds.errors import ExportError, MissingDependency
from buildds.export.common import (
    ExportedDataset,
    check_unique_ids,
    dataset_dict,
    export_inputs,
    feature_rows,
    hub_front_matter,
    json_block,
    render_card,
    require_data,
    write_export,
)
from buildds.export.hf_as_of import (
    AS_OF_COLUMNS,
    AS_OF_FIELD_DOCS,
    as_of_card_context,
    as_of_features,
    as_of_row,
)
from buildds.export.sources import card_sources, front_licence
from buildds.schema import SUBJECTS, JbeExclusion, JbeItem
from buildds.schema.jbe_build import JbeAsOf, JbeItemStatus
from buildds.text import year_of_era
from buildds.transform.jbe_paper import paper_comparison_markdown

if TYPE_CHECKING:
    import datasets
    import pandas

    from buildds.staging import OutputStaging

__all__ = [
    "FEWSHOT_PER_LABEL",
    "SPLITS",
    "SPLITS_AS_OF",
    "ExportResult",
    "export_jbe",
    "item_sort_key",
    "jbe_features",
    "load_jbe_export",
    "select_fewshot",
    "select_fewshot_stable",
]

SPLITS = ("test", "fewshot")
SPLITS_AS_OF = ("test", "fewshot", "needs_review")
FEWSHOT_PER_LABEL = 2
CARD_TEMPLATE = "jbe.md.j2"
SEED_TITLE = "JBE-QA: Japanese Bar Exam QA Dataset for Assessing Legal Domain Knowledge"

FIELD_DOCS = {
    "id": "unique id: era year, subject, question number, statement index (令和６年-民法-18-5)",
    "year": "examination year in the Japanese era format (令和元年)",
    "subject": "legal subject in English",
    "subject_jp": "legal subject in Japanese",
    "instruction": "the question's instruction text",
    "question": "the statement whose truth is asked",
    "label": "original label: Y (true) or N (false)",
    "answer": "standardised answer: true/false",
    "theme": "legal topic of the question (optional)",
    "lead_in": "auxiliary text given apart from the instruction: case, views, dialogue (optional)",
    "remark": "clarifications or supplementary text (optional)",
    "question_type": "how the original question asked about the statement",
    "points": "points of the original question",
    "source": "booklet PDF the statement comes from (relative to the raw folder)",
    "sha256": "sha256 of that booklet",
    "page": "page of the booklet the statement is on",
    "corrections": "ids of the manual corrections applied to this item",
    "ocr_confidence": ("statement read by OCR: tesseract's mean word confidence over it "
                       "(0-100); null for a statement from a PDF text layer"),
    "is_fewshot": "true for the four few-shot exemplars: leave them out of scoring",
    **AS_OF_FIELD_DOCS,
}

_ID_RE = re.compile(r"^(?P<year>[^-]+)-(?P<subject>[^-]+)-(?P<q>\d+)(?:-(?P<s>\d+))?$")
_SUBJECT_RANK = {name: rank for rank, s in enumerate(SUBJECTS.values()) for name in (s.jp, s.en)}
_LAST = 1 << 30


@dataclass(frozen=True, kw_only=True)
class ExportResult(ExportedDataset):
    """What :func:`export_jbe` wrote."""

    #: the few-shot exemplar ids, in the order of the ``fewshot`` split
    fewshot_ids: tuple[str, ...]
    excluded: int

    def parquet(self, split: str = "test") -> Path:
        return self.out / "data" / f"{split}.parquet"


# --------------------------------------------------------------------------- ordering
def _id_key(id_: str, year: str | None, subject: str) -> tuple[Any, ...]:
    m = _ID_RE.match(unicodedata.normalize("NFKC", id_))
    greg = year_of_era(year if year is not None else (m.group("year") if m else ""))
    q = int(m.group("q")) if m else _LAST
    s = int(m.group("s")) if m and m.group("s") else 0
    return (greg if greg is not None else _LAST, _SUBJECT_RANK.get(subject, len(_SUBJECT_RANK)),
            subject, q, s, id_)


def item_sort_key(item: JbeItem) -> tuple[Any, ...]:
    """(year, subject in 憲法/民法/刑法 order, question number, statement index, id):
    numeric, so ``平成27年`` < ``令和元年`` < ``令和６年`` and question 3 < question 18."""
    return _id_key(item.id, item.year, item.subject_jp)


def _exclusion_sort_key(ex: JbeExclusion) -> tuple[Any, ...]:
    return _id_key(ex.id, None, ex.subject)


def select_fewshot(items: Sequence[JbeItem], seed: int = 0,
                   per_label: int = FEWSHOT_PER_LABEL) -> tuple[str, ...]:
    """``per_label`` true and ``per_label`` false item ids drawn with ``random.Random(seed)``
    from the items in :func:`item_sort_key` order (so input order does not matter), then
    shuffled with the same generator so a prompt does not see all trues first."""
    ordered = sorted(items, key=item_sort_key)
    pos = [it.id for it in ordered if it.answer]
    neg = [it.id for it in ordered if not it.answer]
    if len(pos) < per_label or len(neg) < per_label:
        raise ExportError(f"few-shot selection needs {per_label} true and {per_label} false "
                          f"items; have {len(pos)} true and {len(neg)} false")
    rng = random.Random(seed)
    chosen = rng.sample(pos, per_label) + rng.sample(neg, per_label)
    rng.shuffle(chosen)
    return tuple(chosen)


def _rank(seed: int, id_: str) -> tuple[str, str]:
    return hashlib.sha256(f"{seed}\0{id_}".encode()).hexdigest(), id_


def select_fewshot_stable(items: Sequence[JbeItem], seed: int = 0,
                          per_label: int = FEWSHOT_PER_LABEL) -> tuple[str, ...]:
    """``per_label`` true and ``per_label`` false item ids: the first of each label when the
    items are ranked by sha256 of (seed, id), in that rank order. An item's rank depends on
    its own id only, so adding, removing or relabelling an item that is not an exemplar never
    changes the exemplars (``random.sample`` over the whole list would)."""
    ranked = sorted(items, key=lambda it: _rank(seed, it.id))
    pos = [it.id for it in ranked if it.answer][:per_label]
    neg = [it.id for it in ranked if not it.answer][:per_label]
    if len(pos) < per_label or len(neg) < per_label:
        raise ExportError(f"few-shot selection needs {per_label} true and {per_label} false "
                          f"items that the law revisions left unaffected; have {len(pos)} "
                          f"true and {len(neg)} false")
    return tuple(sorted(pos + neg, key=lambda i: _rank(seed, i)))


# --------------------------------------------------------------------------- datasets
def jbe_features(*, status: bool = False) -> datasets.Features:
    """The declared features: every :class:`JbeItem` field, then ``is_fewshot`` (and, in
    an as-of build, :data:`AS_OF_COLUMNS`)."""
    datasets, _, _ = require_data()
    Value, Sequence_ = datasets.Value, datasets.Sequence
    return datasets.Features({
        "id": Value("string"),
        "year": Value("string"),
        "subject": Value("string"),
        "subject_jp": Value("string"),
        "instruction": Value("string"),
        "question": Value("string"),
        "label": Value("string"),
        "answer": Value("bool"),
        "theme": Value("string"),
        "lead_in": Value("string"),
        "remark": Value("string"),
        "question_type": Value("string"),
        "points": Value("int32"),
        "source": Value("string"),
        "sha256": Value("string"),
        "page": Value("int32"),
        "corrections": Sequence_(Value("string")),
        "ocr_confidence": Value("float64"),
        "is_fewshot": Value("bool"),
        **(as_of_features(datasets) if status else {}),
    })


def _columns(items: Sequence[JbeItem], fewshot: set[str],
             statuses: dict[str, JbeItemStatus] | None = None) -> dict[str, list[Any]]:
    names = [*JbeItem.model_fields, "is_fewshot", *(AS_OF_COLUMNS if statuses is not None
                                                    else ())]
    cols: dict[str, list[Any]] = {n: [] for n in names}
    for it in items:
        row = it.model_dump()
        row["corrections"] = list(row["corrections"])
        row["is_fewshot"] = it.id in fewshot
        if statuses is not None:
            row.update(as_of_row(statuses[it.id]))
        for n in names:
            cols[n].append(row[n])
    return cols


# --------------------------------------------------------------------------- card
def _card_context(items: list[JbeItem], exclusions: list[JbeExclusion],
                  fewshot_ids: tuple[str, ...], features: datasets.Features,
                  sizes: dict[str, dict[str, int]],
                  fingerprint: str, split_fps: dict[str, str], seed: int,
                  provenance: dict[str, Any], validation: dict[str, Any] | None,
                  splits: Sequence[str] = SPLITS) -> dict[str, Any]:
    by_id = {it.id: it for it in items}
    subjects = sorted({(it.subject_jp, it.subject) for it in items},
                      key=lambda s: (_SUBJECT_RANK.get(s[0], len(_SUBJECT_RANK)), s[0]))

    def label_counts(rows: list[JbeItem]) -> dict[str, Any]:
        y = sum(1 for it in rows if it.label == "Y")
        return {"total": len(rows), "Y": y, "N": len(rows) - y}

    subject_rows = []
    for jp, en in subjects:
        rows = [it for it in items if it.subject_jp == jp]
        few = sum(1 for it in rows if it.id in fewshot_ids)
        subject_rows.append({"jp": jp, "en": en, "test": len(rows), "fewshot": few,
                             "scored": len(rows) - few, **label_counts(rows)})
    years = sorted({it.year for it in items},
                   key=lambda y: (year_of_era(y) or _LAST, y))
    year_rows = []
    for y in years:
        rows = [it for it in items if it.year == y]
        per_subject = [sum(1 for it in rows if it.subject_jp == jp) for jp, _ in subjects]
        year_rows.append({"year": y, "gregorian": year_of_era(y) or "?",
                          "per_subject": per_subject, **label_counts(rows)})

    reasons = Counter(ex.reason for ex in exclusions)
    reason_rows = []
    for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        subj = Counter(ex.subject for ex in exclusions if ex.reason == reason)
        reason_rows.append({"reason": reason, "count": n, "by_subject": ", ".join(
            f"{s} {c}" for s, c in sorted(subj.items(),
                                          key=lambda kv: (_SUBJECT_RANK.get(kv[0], 99), kv[0])))})
    excl_subjects = Counter(ex.subject for ex in exclusions)

    opts = provenance.get("options", {})
    extra = {k: v for k, v in provenance.items()
             if k not in ("inputs", "options", "code_version", "version")}
    n = len(items)
    sources = card_sources(provenance)
    front_matter = hub_front_matter({
        "pretty_name": "JBE-QA (Japanese Bar Exam QA), built by buildds",
        "language": ["ja"],
        **front_licence(sources, "japan-moj-bar-exam-questions"),
        "task_categories": ["text-classification", "question-answering"],
        "tags": ["legal", "japanese-law", "bar-exam", "jbe-qa"],
    }, n=n + sizes.get("needs_review", {}).get("num_examples", 0), splits=splits, sizes=sizes,
        features=features)
    return {
        "front_matter": front_matter,
        "seed_title": SEED_TITLE,
        "version": __version__,
        "n_items": n,
        "n_ocr": sum(1 for it in items if it.ocr_confidence is not None),
        "n_scored": n - len(fewshot_ids),
        "labels": label_counts(items),
        "subjects": subject_rows,
        "subject_names": [jp for jp, _ in subjects],
        "years": year_rows,
        "exclusions": exclusions,
        "exclusion_reasons": reason_rows,
        "exclusion_subjects": sorted(excl_subjects.items(),
                                     key=lambda kv: (_SUBJECT_RANK.get(kv[0], 99), kv[0])),
        "fewshot": [by_id[i] for i in fewshot_ids],
        "features": feature_rows(features, FIELD_DOCS),
        "fingerprint": fingerprint,
        "split_fingerprints": [(s, split_fps[s]) for s in splits],
        "seed": seed,
        "code_version": str(provenance.get("code_version") or provenance.get("version")
                            or __version__),
        "inputs": export_inputs(provenance),
        "options": json_block(opts),
        "provenance_extra": json_block(extra) if extra else None,
        "validation": json_block(validation) if validation is not None else None,
        "as_of": None, "sources": sources,
        "paper_comparison": "\n".join(paper_comparison_markdown(items, exclusions)).strip(),
    }


# --------------------------------------------------------------------------- writing
def export_jbe(items: Sequence[JbeItem], exclusions: Sequence[JbeExclusion], *, out: Path,
               fingerprint: str, provenance: dict[str, Any], seed: int = 0,
               validation: dict[str, Any] | None = None,
               staging: OutputStaging | None = None,
               as_of: JbeAsOf | None = None,
               extra_files: Mapping[str, str] | None = None) -> ExportResult:
    """Write the JBE-QA export (``dataset/``, ``data/*.parquet``, ``README.md``) under ``out``
    (into the run's ``staging``, when given: swapped in when the run commits). With
    ``as_of``, the ``needs_review`` items go to their own split, the exemplars are drawn
    with :func:`select_fewshot_stable` from the few-shot eligible items, and every row has
    its status. ``extra_files`` (the peers' task files, path → text) are written beside
    ``data/``.

    Raises :class:`ExportError` for duplicate ids, a label that disagrees with ``answer``,
    too few items for the few-shot draw, or a failed write (the previous export is kept)."""
    out = Path(out)
    ordered = sorted(items, key=item_sort_key)
    check_unique_ids(it.id for it in ordered)
    for it in ordered:
        if (it.label == "Y") != it.answer:
            raise ExportError(f"item {it.id}: label {it.label} disagrees with answer {it.answer}",
                              source=it.source, page=it.page)
    statuses = {s.id: s for s in as_of.statuses} if as_of is not None else None
    splits = SPLITS if statuses is None else SPLITS_AS_OF
    review = [it for it in ordered if statuses and statuses[it.id].status == "needs_review"]
    test = [it for it in ordered if not (statuses and statuses[it.id].status == "needs_review")]
    fewshot_ids = (select_fewshot(ordered, seed) if statuses is None else select_fewshot_stable(
        [it for it in test if statuses[it.id].fewshot_eligible], seed))
    by_id = {it.id: it for it in ordered}
    features = jbe_features(status=statuses is not None)
    fewset = set(fewshot_ids)
    split_items = {"test": test, "fewshot": [by_id[i] for i in fewshot_ids],
                   "needs_review": review}

    dd, split_fps = dataset_dict(
        {split: _columns(split_items[split], fewset, statuses) for split in splits}, features,
        tag="buildds-jbe", title="JBE-QA", fingerprint=fingerprint, seed=seed,
        citation=SEED_TITLE, license="other (exam questions © Ministry of Justice of Japan)")

    excl = sorted(exclusions, key=_exclusion_sort_key)
    def card(sizes: dict[str, dict[str, int]], data_fp: str) -> str:
        context = _card_context(test, excl, fewshot_ids, features, sizes, fingerprint,
                                split_fps, seed, provenance, validation, splits)
        context["data_fingerprint"] = data_fp
        if as_of is not None:
            context["as_of"] = as_of_card_context(as_of, ordered, review)
        return render_card(context, CARD_TEMPLATE)

    files = write_export(dd, out=out, splits=splits, what="JBE-QA", staging=staging, card=card,
                         extra_files=extra_files)
    return ExportResult(out=out, fingerprint=fingerprint, seed=seed,
                        splits={s: len(split_items[s]) for s in splits},
                        split_fingerprints=split_fps, fewshot_ids=fewshot_ids,
                        excluded=len(excl), files=files)


def load_jbe_export(path: str | Path) -> pandas.DataFrame:
    """The ``test`` split of an export as a DataFrame. ``path`` is the export folder (or
    its ``data/test.parquet``). ``corrections`` cells are numpy arrays of str."""
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover
        raise MissingDependency("pandas", core=True) from exc
    path = Path(path)
    file = path if path.is_file() else path / "data" / "test.parquet"
    if not file.is_file():
        raise ExportError("no JBE-QA export here (data/test.parquet is missing); "
                          "run `buildds jbe` first", source=str(path))
    return pd.read_parquet(file, engine="pyarrow")
