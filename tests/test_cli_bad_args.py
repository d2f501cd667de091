"""Every CLI command, walked: each path and option is given a missing or invalid value, and
each must end in a clear message (naming the option or the path) with exit 1 or 2 — never a
traceback, never exit 0. New commands and options are picked up by the walk; a command without
an entry in BASE fails the test, so it cannot be forgotten."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from buildds.cli import main

#: arguments that make each command parse (inputs point at PLACEHOLDERs filled per test);
#: the parameter under test is then replaced by a bad value.
BASE: dict[str, list[str]] = {
    "jbe": ["--years", "2019", "--raw", "{empty_dir}", "--out", "{out}", "-q"],
    "fetch jbe": ["--years", "2019", "--dest", "{out}", "--manifest", "{file}"],
    "validate": ["{file}", "--out", "{out}"],
    "contracts": ["{file}", "--out", "{out}", "-q"],
    "judgments": ["{file}", "--out", "{out}", "-q"],
    "eval": ["{empty_dir}", "--model", "majority", "--out", "{out}", "-q"],
    "limits": [],
    "laws import": ["{file}", "--store", "{out}"],
    "laws versions": ["--store", "{out}"],
    "laws fetch": ["129AC0000000089", "--store", "{out}", "--timeout", "1"],
    "laws diff": ["--old", "{file}", "--new", "{file}", "--out", "{out}"],
    "laws impact": ["{empty_dir}", "--store", "{empty_dir}", "--as-of", "2026-01-01",
                    "--out", "{out}"],
    "diff": ["{file}", "{file}", "--out", "{out}"],
    "review": ["{empty_dir}", "--port", "0"],
}


def _leaves(group: click.Command, path: tuple[str, ...] = ()) -> Iterator[tuple[str, click.Command]]:
    if isinstance(group, click.Group):
        for name, cmd in sorted(group.commands.items()):
            yield from _leaves(cmd, path + (name,))
    else:
        yield " ".join(path), group


LEAVES = dict(_leaves(main))


def test_every_command_has_base_arguments() -> None:
    assert set(LEAVES) == set(BASE), "add the new command to BASE in this test"


#: inputs whose click type does not say exists=True (a default that may be absent) but
#: that must exist when given
INPUTS = {("jbe", "raw"), ("jbe", "corrections"), ("judgments", "law_dir"),
          ("judgments", "confusable"), ("fetch jbe", "manifest"), ("review", "raw"),
          ("review", "corrections")}


def _bad_values(command: str, param: click.Parameter,
                places: dict[str, str]) -> list[tuple[str, str]]:
    """(value, why) pairs that must be refused for this parameter."""
    t = param.type
    bad: list[tuple[str, str]] = []
    if isinstance(t, click.Path):
        if t.exists or (command, param.name) in INPUTS:
            bad.append((places["missing"], "missing path"))
        if not t.file_okay:
            bad.append((places["file"], "a file where a folder is wanted"))
        if not t.dir_okay:
            bad.append((places["empty_dir"], "a folder where a file is wanted"))
    elif isinstance(t, click.IntRange) or t is click.INT:
        bad.append(("abc", "not a number"))
        if isinstance(t, click.IntRange) and t.min is not None:
            bad.append((str(t.min - 1), "below the minimum"))
    elif isinstance(t, click.FloatRange) or t is click.FLOAT:
        bad.append(("abc", "not a number"))
        if isinstance(t, click.FloatRange) and t.min is not None:
            bad.append((str(t.min - 1), "below the minimum"))
    elif isinstance(t, click.Choice):
        bad.append(("no-such-choice", "not a choice"))
    elif type(t).__name__ == "YearsType":
        bad.append(("20x5", "not a year"))
    return bad


def _cases() -> Iterator[tuple[str, str, str, str]]:
    for command, cmd in LEAVES.items():
        for param in cmd.params:
            if param.name in ("help",) or getattr(param, "is_flag", False):
                continue
            for value, why in _bad_values(command, param, {k: "{" + k + "}" for k in
                                                  ("missing", "file", "empty_dir")}):
                yield command, param.name or "", value, why


CASES = list(_cases())


def test_the_walk_covers_paths_and_numbers() -> None:
    whys = {why for *_, why in CASES}
    assert {"missing path", "not a number", "below the minimum", "not a choice",
            "a file where a folder is wanted", "not a year"} <= whys
    assert len(CASES) >= 30


def _argv(command: str, param_name: str, bad: str, places: dict[str, str]) -> list[str]:
    cmd = LEAVES[command]
    param = next(p for p in cmd.params if p.name == param_name)
    argv = [a.format(**places) for a in BASE[command]]
    bad = bad.format(**places)
    if isinstance(param, click.Argument):
        # replace the base's positional value(s) for this argument: the first non-option
        positional = [i for i, a in enumerate(argv)
                      if not a.startswith("-") and (i == 0 or not argv[i - 1].startswith("--")
                                                    or argv[i - 1] in ("-q",))]
        argv[positional[0]] = bad
        return [*command.split(), *argv]
    opt = param.opts[0]
    if opt in argv:
        argv[argv.index(opt) + 1] = bad
    else:
        argv += [opt, bad]
    return [*command.split(), *argv]


def _check(result: Result, argv: list[str], bad: str, param: click.Parameter) -> None:
    shown = " ".join(argv)
    assert result.exit_code in (1, 2), f"buildds {shown}: exit {result.exit_code}\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"buildds {shown}: raised {result.exception!r}"
    assert "Traceback" not in result.output
    names = [*getattr(param, "opts", []), param.name or "", param.human_readable_name.upper(),
             bad, Path(bad).name]
    assert any(n and n in result.output for n in names), \
        f"buildds {shown}: the message names neither the option nor the value:\n{result.output}"


@pytest.mark.parametrize(("command", "param_name", "bad", "why"), CASES,
                         ids=[f"{c}:{p}:{w}" for c, p, _, w in CASES])
def test_bad_value_is_refused_clearly(command: str, param_name: str, bad: str, why: str,
                                      tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    file = tmp_path / "some_file.json"
    file.write_text("{}\n", encoding="utf-8")
    places = {"empty_dir": str(empty), "file": str(file), "out": str(tmp_path / "out"),
              "missing": str(tmp_path / "does-not-exist")}
    argv = _argv(command, param_name, bad, places)
    param = next(p for p in LEAVES[command].params if p.name == param_name)
    result = CliRunner().invoke(main, argv, catch_exceptions=True)
    _check(result, argv, bad.format(**places), param)


WITH_REQUIRED = sorted(c for c, cmd in LEAVES.items() if any(p.required for p in cmd.params))


def test_most_commands_have_required_parameters() -> None:
    assert set(WITH_REQUIRED) >= {"jbe", "fetch jbe", "validate", "contracts", "judgments",
                                  "eval"}


@pytest.mark.parametrize("command", WITH_REQUIRED)
def test_missing_required_parameters_are_usage_errors(command: str) -> None:
    result = CliRunner().invoke(main, command.split())
    assert result.exit_code == 2, result.output
    assert "Missing" in result.output
