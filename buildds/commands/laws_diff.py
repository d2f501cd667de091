"""``buildds laws diff``: a thin click shell over :func:`buildds.laws.diff.diff_versions` and
:func:`buildds.laws.diff_report.write_diff`, reading the two versions from the law store (by
date) or from two statute files."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from buildds.cli_types import Utf8Path
from buildds.errors import BuildError

if TYPE_CHECKING:  # imported when a command runs: `buildds --help` stays fast
    from buildds.laws.terminology import TerminologyMap
    from buildds.schema.laws import LawArticle

__all__ = ["diff"]


def _versions_from_store(store: Path, law: str, start: date, end: date
                         ) -> tuple[list[LawArticle], list[LawArticle], tuple[str, str],
                                    list[str]]:
    """The articles of the versions in force on ``start`` and ``end``, their revision ids,
    and a note for each version that holds articles not yet in force."""
    from buildds.laws.store import LawStore

    s = LawStore(store)
    old_v, new_v = s.version_at(law, start), s.version_at(law, end)
    notes = [f"{v.revision_id} holds articles {', '.join(v.unenforced_articles)} as amended "
             f"by a law not yet in force ({v.unenforced_note or 'see its 附則'}): their "
             f"changes are not in force on {day.isoformat()}"
             for v, day in ((old_v, start), (new_v, end)) if v.unenforced_articles]
    return (s.articles(law, old_v.revision_id), s.articles(law, new_v.revision_id),
            (old_v.revision_id, new_v.revision_id), notes)


def _versions_from_files(old: Path, new: Path) -> tuple[list[LawArticle], list[LawArticle]]:
    from buildds.laws.readers import read_law

    return list(read_law(old).articles), list(read_law(new).articles)


def _terminology(choice: str, start: date | None, end: date | None) -> TerminologyMap | None:
    from buildds.laws.terminology import (
        BUILTIN_MAPS,
        builtin_terminology,
        load_terminology,
        terminology_between,
    )

    if choice == "none":
        return None
    if choice == "auto":
        return terminology_between(start, end)
    if choice in BUILTIN_MAPS:
        return builtin_terminology(choice)
    return load_terminology(choice)


def _day(value: datetime | None) -> date | None:
    return value.date() if value is not None else None


@click.command("diff", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("law", required=False)
@click.option("--from", "from_", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="The old version: the one in force on this day (YYYY-MM-DD).")
@click.option("--to", type=click.DateTime(["%Y-%m-%d"]), default=None,
              help="The new version: the one in force on this day (YYYY-MM-DD).")
@click.option("--store", type=Utf8Path(file_okay=False, path_type=Path),
              default=Path("data_raw/laws/store"), show_default=True,
              help="The law store (buildds laws import) to read the versions from.")
@click.option("--old", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="The old version as a statute file (instead of the store).")
@click.option("--new", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="The new version as a statute file (with --old).")
@click.option("--terminology", default="auto", show_default=True,
              help="Wording map applied to the old text: a built-in name (kokinkei: "
              "懲役・禁錮→拘禁刑), a YAML file, 'none', or 'auto' (the built-in map whose law "
              "came into force between --from and --to).")
@click.option("--out", type=Utf8Path(file_okay=False, path_type=Path), required=True,
              help="Output folder: changes.jsonl and summary.md.")
def diff(law: str | None, from_: datetime | None, to: datetime | None, store: Path,
         old: Path | None, new: Path | None, terminology: str, out: Path) -> None:
    """How each article of a law changed between two versions: unchanged, added, deleted
    (now 「削除」), removed, moved (renumbered), terminology (only the wording a map
    replaces) or substantive, with a similarity and the paragraphs that changed.

    Reads the versions in force on --from and --to from the law store, or two statute
    files given with --old and --new. Writes changes.jsonl (one change a line) and
    summary.md under --out, and prints a one-line summary.

    Exit codes: 0 written; 1 a version or file could not be read; 2 a bad option.

    \b
    Example:
      buildds laws diff 129AC0000000089 --from 2023-06-14 --to 2026-01-01 --out build/diff
      buildds laws diff --old keiho_2023.html --new keiho_2026.xml --out build/diff
    """
    from buildds.laws.diff import diff_versions
    from buildds.laws.diff_report import count_kinds, write_diff

    start, end = _day(from_), _day(to)
    if (old is None) != (new is None):
        raise click.UsageError("give both --old and --new, or neither")
    notes: list[str] = []
    try:
        if old is not None and new is not None:
            old_arts, new_arts = _versions_from_files(old, new)
            labels = (old.name, new.name)
        else:
            if law is None or start is None or end is None:
                raise click.UsageError("give LAW, --from and --to (or --old and --new)")
            if start > end:
                raise click.UsageError(f"--from {start.isoformat()} is after --to "
                                       f"{end.isoformat()}: the old version comes first")
            old_arts, new_arts, labels, notes = _versions_from_store(store, law, start, end)
        tmap = _terminology(terminology, start, end)
        changes = diff_versions(old_arts, new_arts, terminology=tmap)
        either = new_arts or old_arts
        law_id = law or (either[0].law_id if either else "")
        jsonl, _summary = write_diff(changes, out, law_id=law_id, from_label=labels[0],
                                     to_label=labels[1], notes=notes)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    counts = {k: n for k, n in count_kinds(changes).items() if n}
    shown = ", ".join(f"{n} {k}" for k, n in counts.items())
    click.echo(f"{law_id} {labels[0]} → {labels[1]}: {len(changes)} articles ({shown}); "
               f"wrote {jsonl} and summary.md" + (f" ({len(notes)} note(s) on text not yet "
                                                  "in force)" if notes else ""))
