"""``buildds laws impact``: a thin click shell over :func:`buildds.laws.impact.assess_items`
and :func:`buildds.laws.impact_report.write_impact` — which items of a JBE-QA build a law
revision touches."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from buildds.cli_types import Utf8Path
from buildds.errors import BuildError

if TYPE_CHECKING:  # imported when the command runs: `buildds --help` stays fast
    from buildds.schema.core import JbeItem

__all__ = ["impact"]


def load_dataset_items(dataset: Path) -> list[JbeItem]:
    """The items of a ``buildds jbe`` output folder (every ``data/*.parquet`` split), by id,
    read as ``buildds diff`` and ``buildds validate`` read exports
    (:func:`buildds.validate.export_splits.load_splits`)."""
    import pandas as pd
    from pydantic import ValidationError

    from buildds.errors import ExtractError
    from buildds.schema.core import JbeItem
    from buildds.validate.export_splits import load_splits

    if not (dataset.is_dir() and any((dataset / "data").glob("*.parquet"))):
        raise BuildError(f"{dataset}: no JBE-QA build here (no data/*.parquet); run "
                         f"`buildds jbe` first")
    try:
        export = load_splits(dataset)
    except ExtractError as exc:
        raise BuildError(f"{exc}; laws impact reads the output folder of `buildds jbe`"
                         ) from None
    if export.kind.name != "jbe":
        article = "an" if export.kind.name[0] in "aeiou" else "a"
        raise BuildError(f"{dataset}: {article} {export.kind.name} export, not a JBE-QA build; "
                         f"laws impact reads the output folder of `buildds jbe`")
    fields = set(JbeItem.model_fields)
    items: dict[str, JbeItem] = {}
    for name, frame in export.splits.items():
        for row in frame.to_dict("records"):
            clean = {k: (None if isinstance(v, float) and pd.isna(v) else v)
                     for k, v in row.items() if k in fields}
            corrections = clean.get("corrections")
            clean["corrections"] = () if corrections is None else tuple(corrections)
            try:
                item = JbeItem.model_validate(clean)
            except ValidationError as exc:
                raise BuildError(f"{dataset / 'data' / (name + '.parquet')}: row "
                                 f"{row.get('id')!r} is not a JBE-QA item "
                                 f"({exc.errors()[0]['loc']})") from None
            items[item.id] = item
    return [items[k] for k in sorted(items)]


def _exam_dates(values: tuple[str, ...]) -> dict[int, date]:
    from buildds.laws.exam_dates import parse_exam_date

    out: dict[int, date] = {}
    for value in values:
        try:
            year, day = parse_exam_date(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--exam-date'") from None
        out[year] = day
    return out


def _fixed_day(day: date) -> Callable[[JbeItem], date]:
    return lambda _item: day


@click.command("impact", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("dataset", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--store", type=Utf8Path(file_okay=False, path_type=Path),
              default=Path("data_raw/laws/store"), show_default=True,
              help="The law store (buildds laws import) holding the versions.")
@click.option("--as-of", type=click.DateTime(["%Y-%m-%d"]), required=True,
              help="Compare with the law in force on this day (YYYY-MM-DD).")
@click.option("--from", "from_", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="Take every item as written for the law in force on this day, instead "
              "of its exam day.")
@click.option("--exam-date", multiple=True, metavar="YEAR=DATE",
              help="The exam day of one year (repeatable), e.g. 2019=2019-05-19; overrides "
              "buildds/laws/data/exam_dates.yaml.")
@click.option("--top-k", type=click.IntRange(min=1, max=20), default=3, show_default=True,
              help="Retrieved grounds assessed for an item that cites no article.")
@click.option("--margin", type=click.FloatRange(min=0.0, max=1.0), default=0.85,
              show_default=True,
              help="A retrieved ground scoring below MARGIN × the item's top score is weak: "
              "its change makes the item low_confidence, not needs_review (0: off).")
@click.option("--out", type=Utf8Path(file_okay=False, path_type=Path), required=True,
              help="Output folder: impact.jsonl, impact.md, impact.png.")
def impact(dataset: Path, store: Path, as_of: datetime, from_: datetime | None,
           exam_date: tuple[str, ...], top_k: int, margin: float, out: Path) -> None:
    """Which items of a JBE-QA build (DATASET, a `buildds jbe` output folder) have grounds
    that changed between the law their exam assumed (the law in force on the exam day, or
    --from) and the law in force on --as-of: needs_review, low_confidence (the changed
    article is only a weakly retrieved ground), terminology_only (wording only,
    e.g. 懲役 → 拘禁刑), unaffected, or unknown (no grounds, no text of the law, or the text
    in force on a day is not in the store). Writes impact.jsonl, impact.md (counts per
    status × subject × year and per revision, the items to review with the revision and its
    transitional 附則) and impact.png (with the `eval` extra), and prints the counts.

    Exit codes: 0 written; 1 the dataset or the store could not be read; 2 a bad option.

    \b
    Example:
      buildds laws impact build/jbe --store data_raw/laws/store --as-of 2026-01-01 \\
        --out build/impact
    """
    from collections import Counter

    from buildds.jobs.jbe_as_of import check_as_of
    from buildds.laws.exam_dates import exam_date_of
    from buildds.laws.impact import assess_items, store_notes
    from buildds.laws.impact_report import STATUSES, write_impact
    from buildds.laws.store import LawStore

    overrides = _exam_dates(exam_date)
    day = as_of.date()
    try:
        items = load_dataset_items(dataset)
        law_store = LawStore(store)
        if not law_store.laws():
            raise BuildError(f"{store}: no law versions in this store; import some with "
                             f"`buildds laws import FILE --store {store}`")
        # as `buildds jbe --as-of`: a date before a code's first version is an error
        check_as_of(store, day, {item.subject_jp for item in items})
        fixed = from_.date() if from_ is not None else None
        assumed = exam_date_of(overrides) if fixed is None else _fixed_day(fixed)
        impacts = assess_items(items, law_store, day, assumed=assumed, top_k=top_k,
                               margin=margin)
        notes = [f"--from {fixed.isoformat()}: every item taken as written for that day's law"
                 ] if fixed else []
        notes += store_notes(law_store)
        write_impact(out, impacts, items, as_of=day, notes=notes)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    counts: Counter[str] = Counter(i.status for i in impacts)
    click.echo(f"{len(impacts)} items as of {day.isoformat()}: "
               + ", ".join(f"{counts[s]} {s}" for s in STATUSES) + f"; wrote {out}/impact.md")
