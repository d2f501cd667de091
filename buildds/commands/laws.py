"""``buildds laws``: statute versions keyed by enforcement date — import files into a law
store, list its versions, fetch versions from the e-Gov API v2 (:mod:`buildds.laws`)."""

from __future__ import annotations

import sys
from datetime import date, datetime
from pathlib import Path

import click

from buildds.cli_types import Utf8Path
from buildds.errors import BuildError

__all__ = ["laws"]

_STORE = click.option("--store", type=Utf8Path(file_okay=False, path_type=Path),
                      default=Path("data_raw/laws/store"), show_default=True,
                      help="Law store folder.")


@click.group("laws", context_settings={"help_option_names": ["-h", "--help"]})
def laws() -> None:
    """Statute versions keyed by enforcement date: import, list, fetch.

    \b
    Example:
      buildds laws import ../shared/realdata/laws/jp-penal-code/keiho_2013-11_oldsystem.txt
      buildds laws versions 140AC0000000045
    """


def _register_diff() -> None:
    from buildds.commands.laws_diff import diff
    from buildds.commands.laws_impact import impact

    laws.add_command(diff)
    laws.add_command(impact)


_register_diff()


@laws.command("import")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_STORE
@click.option("--revisions", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Revisions file: a curated table (.yaml) or a saved e-Gov "
              "law_revisions answer (.json) [default: the table shipped with buildds].")
@click.option("--revision-id", default=None, metavar="ID",
              help="The revision of the (one) FILE, e.g. 140AC0000000045_20230713_505AC0000000066.")
def import_cmd(files: tuple[Path, ...], store: Path, revisions: Path | None,
               revision_id: str | None) -> None:
    """Import statute files (e-Gov XML/HTML, old-system text, PRC Markdown, the LegalAttack
    per-article JSON, the store's own article JSONL) as the versions
    the revisions file says they are. Nothing is written unless every file reads and has a
    revision of the law it holds.

    \b
    Example:
      buildds laws import keiho_2013-11_oldsystem.txt keiho_egov_api_v1_2026-01-01.xml \\
          --store data_raw/laws/store
    """
    from buildds.laws.store import import_files

    try:
        done = import_files(store, list(files), revisions=revisions, revision_id=revision_id)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    for v in done:
        click.echo(f"{v.law_id} {v.revision_id}: {v.articles} articles, in force from "
                   f"{v.valid_from.isoformat()}")


@laws.command("versions")
@click.argument("law", required=False)
@_STORE
def versions_cmd(law: str | None, store: Path) -> None:
    """List the versions in the store: law, revision id, valid_from, valid_to, status,
    articles, source; articles held unenforced are listed under their version.

    \b
    Example:
      buildds laws versions 140AC0000000045 --store data_raw/laws/store
    """
    from buildds.laws.store import LawStore

    s = LawStore(store)
    ids = [law] if law else s.laws()
    try:
        rows = [v for lid in ids for v in s.versions(lid)]
    except BuildError as exc:
        raise click.ClickException(str(exc)) from exc
    if not rows:
        raise click.ClickException(f"no versions{' of ' + law if law else ''} in {store}")
    click.echo("law\trevision_id\tvalid_from\tvalid_to\tstatus\tarticles\tsource")
    for v in rows:
        click.echo("\t".join([v.law_id, v.revision_id, v.valid_from.isoformat(),
                              v.valid_to.isoformat() if v.valid_to else "-", v.status,
                              str(v.articles), Path(v.source.path).name]))
        if v.unenforced_articles:
            click.echo(f"  unenforced: {len(v.unenforced_articles)} articles "
                       f"({v.unenforced_articles[0]}–{v.unenforced_articles[-1]}): "
                       f"{v.unenforced_note}")


def _date(ctx: click.Context, param: click.Parameter, value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return datetime.strptime(value, "%Y-%m-%d").date()
    except ValueError:
        raise click.BadParameter(f"{value!r}: expected a date YYYY-MM-DD") from None


@laws.command("fetch")
@click.argument("law_id")
@_STORE
@click.option("--as-of", callback=_date, default=None, metavar="DATE",
              help="Fetch the revision in force on DATE (YYYY-MM-DD) [default: the latest "
                   "enforced].")
@click.option("--timeout", type=click.FloatRange(min=1), default=30.0, show_default=True,
              help="Seconds per request.")
def fetch_cmd(law_id: str, store: Path, as_of: date | None, timeout: float) -> None:
    """Fetch a law's revision list and its text from the e-Gov API v2 and import it. The
    answers are kept under STORE/raw/. Offline, prints what to download and where to put it,
    and exits 1.

    \b
    Example:
      buildds laws fetch 129AC0000000089 --store data_raw/laws/store --as-of 2024-04-01
    """
    import re

    from buildds.laws.egov_client import EgovClient, fetch_into_store

    if not re.fullmatch(r"[0-9A-Za-z-]+", law_id):  # it names a URL path and a file
        raise click.BadParameter(f"{law_id!r} is not an e-Gov law id (e.g. 129AC0000000089)",
                                 param_hint="'LAW_ID'")
    try:
        with EgovClient(timeout=timeout) as client:
            v = fetch_into_store(store, law_id, as_of=as_of, client=client)
    except BuildError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    click.echo(f"{v.law_id} {v.revision_id}: {v.articles} articles, in force from "
               f"{v.valid_from.isoformat()}")
