"""The click layer: --years parsing, help text on every command, --version."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from buildds import __version__
from buildds.cli import main
from buildds.cli_types import YearsType, parse_years


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("2019", [2019]),
        ("2015-2024", list(range(2015, 2025))),
        ("2015,2017", [2015, 2017]),
        ("2015-2017,2020", [2015, 2016, 2017, 2020]),
        (" 2015 - 2017 , 2020 ", [2015, 2016, 2017, 2020]),
        ("2020,2015", [2015, 2020]),  # sorted
        ("2015-2016,2016-2017", [2015, 2016, 2017]),  # overlaps merged
        ("2019-2019", [2019]),
        ("2015–2017", [2015, 2016, 2017]),  # en dash, as the README prints ranges
        ("2015~2016", [2015, 2016]),
    ],
)
def test_parse_years(text: str, years: list[int]) -> None:
    assert parse_years(text) == years


BAD_YEARS = ["", "19", "twenty", "2015-", "-2015", "2015,,2017", "2015-2017-2019", "2024-2015",
             "2015,abc", "20155", "2015 2017", "2015..2017"]


@pytest.mark.parametrize("text", BAD_YEARS)
def test_parse_years_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_years(text)


@pytest.mark.parametrize("text", BAD_YEARS)
def test_bad_years_is_a_usage_error_with_examples(text: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(main, ["jbe", "--years", text, "--raw", str(tmp_path),
                                       "--out", str(tmp_path / "out"), "-q"])
    assert result.exit_code == 2, result.output
    assert "--years" in result.output
    if text != "2024-2015":
        assert "examples: 2019, 2015-2024, 2015,2017" in result.output
    else:
        assert "runs backwards" in result.output
    assert not (tmp_path / "out").exists()


def test_bad_years_for_fetch_too(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(main, ["fetch", "jbe", "--years", "abc", "--dest", str(tmp_path)])
    assert result.exit_code == 2
    assert "examples: 2019, 2015-2024, 2015,2017" in result.output


def test_years_type_passes_lists_through() -> None:
    assert YearsType().convert([2019], None, None) == [2019]
    assert YearsType().convert("2019-2020", None, None) == [2019, 2020]


def test_unknown_subject_is_a_usage_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(main, ["jbe", "--years", "2019", "--subjects", "minpo,shoho",
                                       "--raw", str(tmp_path), "-q"])
    assert result.exit_code == 2
    assert "shoho" in result.output


def _walk(group: click.Command, path: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    yield path, group
    if isinstance(group, click.Group):
        for name, cmd in sorted(group.commands.items()):
            yield from _walk(cmd, path + (name,))


ALL_COMMANDS = [" ".join(p) or "buildds" for p, _ in _walk(main)]


def test_walk_finds_the_commands() -> None:
    assert {"buildds", "jbe", "fetch", "fetch jbe"} <= set(ALL_COMMANDS)


@pytest.mark.parametrize("path", [p for p, _ in _walk(main)], ids=ALL_COMMANDS)
def test_every_command_has_help_with_an_example(path: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example" in result.output, f"'buildds {' '.join(path)} --help' has no example"
    # -h works as well as --help
    short = CliRunner().invoke(main, [*path, "-h"])
    assert short.exit_code == 0 and short.output == result.output


@pytest.mark.parametrize("path", [p for p, _ in _walk(main)], ids=ALL_COMMANDS)
def test_every_option_has_help(path: tuple[str, ...]) -> None:
    cmd = main
    for name in path:
        cmd = cmd.commands[name]  # type: ignore[attr-defined]
    for param in cmd.params:
        if isinstance(param, click.Option) and param.name not in ("help", "version"):
            assert param.help, f"option {param.opts} of 'buildds {' '.join(path)}' has no help"


def test_version() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"buildds, version {__version__}"


def test_no_command_shows_usage() -> None:
    result = CliRunner().invoke(main, [])
    assert "Usage:" in result.output
    assert "jbe" in result.output and "fetch" in result.output


def test_the_cli_starts_without_loading_the_heavy_libraries() -> None:
    """`buildds --help` and every command's start stay fast: command modules import what a
    command needs when it runs (a `buildds laws` command once pulled pydantic in at start,
    23 → 137 ms)."""
    heavy = ["pydantic", "lxml", "pandas", "numpy", "pyarrow", "datasets", "pypdfium2", "yaml",
             "jinja2", "rapidfuzz", "httpx", "rich", "starlette", "uvicorn"]
    code = ("import sys, buildds.cli; "
            f"print(' '.join(m for m in {heavy!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == []
