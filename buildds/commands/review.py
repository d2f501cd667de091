"""``buildds review OUT``: the local web app where a person checks what a build flagged
(:mod:`buildds.review`). Starlette and uvicorn are imported only when the command runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

__all__ = ["review"]

#: the same defaults as ``buildds jbe --raw`` and ``--corrections``
_RAW = Path("data_raw/jbe")
_CORRECTIONS = Path("corrections/jbe")


def _given_folder(ctx: click.Context, name: str, value: Path) -> None:
    """A folder given on the command line must exist (a default may be absent)."""
    if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT \
            and not value.is_dir():
        raise click.BadParameter(f"{value} is not a folder", param_hint=f"'--{name}'")


def _check_dependencies() -> None:
    from buildds.errors import MissingDependency

    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        raise click.ClickException(str(MissingDependency(
            "starlette/uvicorn", "review", hint="the review web app"))) from exc


def _source(out: Path, raw: Path, corrections: Path, spot_check: int) -> Any:
    from buildds.review.sources.base import UnknownOutput, detect_source

    try:
        source = detect_source(out)
    except UnknownOutput as exc:
        raise click.ClickException(str(exc)) from exc
    if source.kind == "jbe":
        from buildds.review.sources.jbe import JbeSource

        source = JbeSource(out, raw=raw, corrections=corrections, spot_check=spot_check)
    return source


@click.command("review", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("out", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port on 127.0.0.1 (the app never listens elsewhere); 0 picks a free one.")
@click.option("--open", "open_browser", is_flag=True,
              help="Open the queue in the default web browser.")
@click.option("--raw", type=click.Path(file_okay=False, path_type=Path), default=_RAW,
              show_default=True,
              help="JBE: the --raw folder the build read (the original PDFs shown as evidence).")
@click.option("--corrections", type=click.Path(file_okay=False, path_type=Path),
              default=_CORRECTIONS, show_default=True,
              help="JBE: the --corrections folder the build reads; verdicts become entries "
                   "of its <year>-<subject>.yaml files.")
@click.option("--spot-check", type=click.IntRange(0, 100_000), default=10, show_default=True,
              help="JBE: also queue this many unflagged items (a seeded sample).")
@click.option("--reviewer", default="", help="Your name, stored with each verdict.")
@click.pass_context
def review(ctx: click.Context, out: Path, port: int, open_browser: bool, raw: Path,
           corrections: Path, spot_check: int, reviewer: str) -> None:
    """Serve a local web app to review what the build in OUT flagged: a queue with filters
    and progress, each item beside its evidence (for JBE: the original page with the
    statement highlighted, the stem and the answer-key row), keyboard shortcuts (a accept,
    r reject, e edit, x exclude, j/k next/previous, ? help). Verdicts are written as data
    (JBE: corrections/jbe/*.yaml entries), never into OUT; rebuild to apply them.

    Listens on 127.0.0.1 only; the printed URL carries a random session token, and nothing
    is served without it. Needs:  pip install 'buildds[review]'.

    \b
    Exit codes: 0 stopped, 1 OUT is not a build output it can review or the port is taken,
    2 a bad option, 130 interrupted.

    \b
    Example:
      buildds jbe --years 2025 --raw buildds/sample/pdf --out build/sample
      buildds review build/sample --raw buildds/sample/pdf --open
    """
    _given_folder(ctx, "raw", raw)
    _given_folder(ctx, "corrections", corrections)
    _check_dependencies()
    from buildds.review.app import create_app
    from buildds.review.security import new_token
    from buildds.review.server import HOST, bind, serve

    source = _source(out, raw, corrections, spot_check)
    items = source.items()
    done = sum(1 for i in items if source.verdict_for(i.key) is not None)
    token = new_token()
    try:
        sock = bind(port)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {HOST}:{port} ({exc.strerror}); "
                                   "try another --port, or --port 0") from exc
    url = f"http://{HOST}:{sock.getsockname()[1]}/?token={token}"
    click.echo(f"buildds review: {source.kind} build {out}: {len(items)} items to review, "
               f"{done} done")
    click.echo(f"open  {url}", color=False)
    click.echo("Ctrl-C stops the server", err=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    serve(create_app(source, token, reviewer=reviewer), sock)
