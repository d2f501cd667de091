"""The package's shape stays as architecture.md draws it: every import points down the
stages, no import cycles, no private names across packages, packages with a public surface,
modules and functions small enough to read.

Read with ast (tests/import_graph.py, buildds.code_version); nothing is imported.
A module or function may be longer than the limit when a comment says why: a line starting
with ``# long:`` among a module's first 40 lines, or right above a function's ``def`` (or its
decorators).
"""

from __future__ import annotations

import ast

import pytest

from tests.import_graph import (
    FLOORS,
    all_cycles,
    cross_package_cycles,
    graph,
    private_imports,
    top,
    upward_imports,
)

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80
WHY = "# long:"

KNOWN, EDGES = graph()


def test_every_first_level_name_has_a_floor():
    assert sorted({top(m) for m in KNOWN.values()} - set(FLOORS)) == []


def test_no_import_points_up_the_stages():
    assert upward_imports(KNOWN, EDGES) == []


def test_no_import_cycle_between_packages():
    assert cross_package_cycles(KNOWN, EDGES) == []


def test_no_import_cycle_inside_a_package():
    # a base class that imports its subclasses (a registry in the base) is such a cycle
    assert all_cycles(KNOWN, EDGES) == []


def test_no_private_name_is_imported_across_packages():
    assert private_imports(KNOWN, EDGES) == []


def _packages():
    return [m for m in KNOWN.values() if m.is_package and m.name != "buildds"]


@pytest.mark.parametrize("module", _packages(), ids=lambda m: m.name)
def test_a_package_says_what_it_holds_and_its_public_names(module):
    tree = ast.parse(module.path.read_text(encoding="utf-8"))
    assert ast.get_docstring(tree), f"{module.rel}: no docstring"
    names = {t.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
             for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
             if isinstance(t, ast.Name)}
    assert "__all__" in names, f"{module.rel}: no __all__"


def _justified(lines: list[str], line: int) -> bool:
    """A ``# long:`` comment on one of the lines just above ``line`` (1-based), skipping
    decorators and other comments."""
    i = line - 2
    while i >= 0 and lines[i].strip().startswith(("@", "#")):
        if lines[i].strip().startswith(WHY):
            return True
        i -= 1
    return False


def test_no_module_is_too_long_without_a_reason():
    long = []
    for module in KNOWN.values():
        lines = module.path.read_text(encoding="utf-8").splitlines()
        if len(lines) > MAX_MODULE_LINES and not any(
                line.startswith(WHY) for line in lines[:40]):
            long.append(f"{module.rel}: {len(lines)} lines")
    assert long == []


def test_no_function_is_too_long_without_a_reason():
    long = []
    for module in KNOWN.values():
        text = module.path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                size = node.end_lineno - node.lineno + 1
                if size > MAX_FUNCTION_LINES and not _justified(lines, first):
                    long.append(f"{module.rel}:{node.lineno} {node.name}: {size} lines")
    assert long == []


def test_the_checks_can_fail():
    """The graph reader sees what it must: a real upward import and a real cycle, built
    from two fake modules, are found."""
    from buildds.code_version import Import, PackageModule

    low = PackageModule("buildds.extract.x", KNOWN["buildds.extract"].path, False)
    high = PackageModule("buildds.jobs.y", KNOWN["buildds.jobs"].path, False)
    known = {**KNOWN, low.name: low, high.name: high}
    edges = [Import(low.name, high.name, ("_secret",), 1), Import(high.name, low.name, (), 1)]
    assert upward_imports(known, edges) == [
        "buildds.extract.x:1 imports buildds.jobs.y (extract is below jobs)"]
    assert cross_package_cycles(known, edges) == [[low.name, high.name]]
    assert private_imports(known, edges) == [
        "buildds.extract.x:1 takes _secret from buildds.jobs.y"]
