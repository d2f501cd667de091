"""Docstrings and comments name modules and functions that exist.

Every ``:mod:``/``:func:``/``:class:``/``:data:``/``:meth:``/``:attr:``/``:exc:`` reference of
the form ``buildds.x.y[.name]`` in ``buildds/`` must name a module (a ``.py`` file or a
package) and, after it, a name that module defines or imports (a class's attribute when the
name is a class defined there); a relative ``:mod:`.name``` names a module next to the file
(a package ``__init__``'s submodule, a module's sibling). Read with ``ast`` — nothing is
imported — so a move or a rename that leaves a stale reference fails here.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "buildds"
ROLE = re.compile(r":(?:mod|func|class|data|meth|attr|exc|obj):`~?([^`<\s]+?)(?:\(\))?`")


def _module_file(dotted: str) -> Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """A module's statements, with those inside its ``if`` and ``try`` blocks."""
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, ast.If | ast.Try):
            for block in (node.body, node.orelse, getattr(node, "finalbody", []),
                          *(h.body for h in getattr(node, "handlers", []))):
                out.extend(_top_level(block))
    return out


@cache
def _names(path: Path) -> dict[str, ast.AST | None]:
    """The names a module defines (with their node) or imports (None), ``import *`` included."""
    names: dict[str, ast.AST | None] = {}
    for node in _top_level(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.setdefault(node.name, node)
        elif isinstance(node, ast.ImportFrom) and node.names[0].name == "*" and node.module:
            star = _module_file(node.module)  # ``from buildds.schema.core import *``
            if star is not None:
                for name in _names(star):
                    names.setdefault(name, None)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                names.setdefault((alias.asname or alias.name).split(".")[0], None)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names.setdefault(target.id, None)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.setdefault(node.target.id, None)
    return names


def _class_attrs(node: ast.ClassDef) -> set[str]:
    attrs = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            attrs.add(item.name)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            attrs.add(item.target.id)
        elif isinstance(item, ast.Assign):
            attrs.update(t.id for t in item.targets if isinstance(t, ast.Name))
    return attrs


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        module = _module_file(".".join(parts[:i]))
        if module is None:
            continue
        rest = parts[i:]
        if not rest:
            return True
        names = _names(module)
        if rest[0] not in names:
            # a submodule of a package named as an attribute
            return _module_file(".".join(parts[:i + 1])) is not None and len(rest) == 1
        node = names[rest[0]]
        if len(rest) > 1 and isinstance(node, ast.ClassDef):
            return rest[1] in _class_attrs(node)
        return True
    return False


def _references() -> list[tuple[str, int, str]]:
    refs = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in ROLE.finditer(line):
                refs.append((path.relative_to(ROOT).as_posix(), lineno, m.group(0)))
    return refs


def _target(ref: str) -> str:
    m = ROLE.search(ref)
    assert m is not None
    return m.group(1)


def test_dotted_references_resolve() -> None:
    stale = [f"{file}:{line}: {ref}" for file, line, ref in _references()
             if _target(ref).startswith("buildds.") and not _resolves(_target(ref))]
    assert not stale, "references to names that do not exist:\n" + "\n".join(stale)


def test_relative_module_references_resolve() -> None:
    stale = []
    for file, line, ref in _references():
        target = _target(ref)
        if not (ref.startswith(":mod:") and target.startswith(".")):
            continue
        name = target.lstrip(".")
        folder = (ROOT / file).parent
        for _ in range(len(target) - len(name) - 1):
            folder = folder.parent
        first = name.split(".")[0]
        if not ((folder / f"{first}.py").is_file() or (folder / first / "__init__.py").is_file()):
            stale.append(f"{file}:{line}: {ref}")
    assert not stale, "relative :mod: references to missing modules:\n" + "\n".join(stale)


@pytest.mark.parametrize("dotted, ok", [
    ("buildds.pipeline", True),
    ("buildds.pipeline.Cache", True),
    ("buildds.safeio.hashing.sha256_file", True),
    ("buildds.extract.ocr_job", False),
    ("buildds.pipeline.no_such_name", False),
])
def test_the_checker_itself(dotted: str, ok: bool) -> None:
    assert _resolves(dotted) is ok
