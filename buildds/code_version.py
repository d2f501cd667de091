"""Which source files a stage's output depends on, read from the package's own imports.

A stage's cache key holds a *code version*: a hash of the code that produced the output, so
editing that code invalidates the cache (:func:`buildds.pipeline.cache_key`). Listing those
files by hand goes stale as soon as a module is split or a helper moves, so the list is
computed: :func:`code_files` starts from a stage's entry modules and follows every ``import``
of a ``buildds`` module, at any depth and wherever it is written (a lazy import inside a
function counts), read with :mod:`ast` — nothing is imported or executed.

The same reader gives the package's import graph to ``tests/test_architecture.py``
(:func:`package_modules`, :func:`imports_of`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

__all__ = ["Import", "PackageModule", "code_files", "imports_of", "package_modules"]

ROOT = "buildds"
PACKAGE_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class PackageModule:
    """A module of the package: dotted name, file, and whether it is a package's __init__."""

    name: str
    path: Path
    is_package: bool

    @property
    def package(self) -> str:
        """The package a module belongs to (a package's ``__init__`` belongs to itself)."""
        return self.name if self.is_package else self.name.rpartition(".")[0]

    @property
    def rel(self) -> str:
        """The file's path relative to the package folder, as POSIX."""
        return self.path.relative_to(PACKAGE_DIR).as_posix()


@dataclass(frozen=True)
class Import:
    """One import of a buildds module: who imports what (dotted names), which names a
    ``from … import`` takes, and on which line."""

    importer: str
    target: str
    names: tuple[str, ...]
    line: int


@cache
def package_modules() -> dict[str, PackageModule]:
    """Every module of the installed package by dotted name."""
    found = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = PackageModule(".".join(parts), path, is_package)
    return found


def _resolve(name: str, known: dict[str, PackageModule]) -> str | None:
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def _from_base(node: ast.ImportFrom, module: PackageModule) -> str | None:
    if not node.level:
        return node.module
    anchor = module.package.split(".")
    anchor = anchor[: len(anchor) - node.level + 1]
    return ".".join(anchor + ([node.module] if node.module else []))


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement, however nested (in functions, classes, ifs, tries, loops, withs):
    an import is a statement, so expressions need not be visited — several times faster than
    :func:`ast.walk` over the whole tree."""
    todo = list(reversed(body))
    while todo:
        node = todo.pop()
        yield node
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, name, None)
            if children:
                todo.extend(reversed(children))


def imports_of(module: PackageModule) -> Iterator[Import]:
    """The buildds modules ``module`` imports, in the order they appear in its source."""
    return iter(_imports(module.name))


@cache
def _imports(name: str) -> tuple[Import, ...]:
    known = package_modules()
    module = known[name]
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
    found = []
    for node in _statements(tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = _resolve(alias.name, known)
                if target and target != module.name:
                    found.append(Import(module.name, target, (), node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(node, module)
            if not base or not (base == ROOT or base.startswith(ROOT + ".")):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                # ``from buildds.extract.pdf import lines`` imports a module
                target = sub if sub in known else _resolve(base, known)
                if target and target != module.name:
                    found.append(Import(module.name, target, () if sub in known else
                                        (alias.name,), node.lineno))
    return tuple(found)


@cache
def _closure(entries: tuple[str, ...]) -> tuple[str, ...]:
    known = package_modules()
    seen: set[str] = set()
    todo = [e for e in entries]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        if name not in known:
            raise ValueError(f"{name} is not a module of the {ROOT} package")
        seen.add(name)
        todo += [imp.target for imp in imports_of(known[name]) if imp.target not in seen]
        # importing a module runs its packages' __init__ first
        parent = known[name].package if not known[name].is_package else name.rpartition(".")[0]
        while parent and parent not in seen:
            todo.append(parent)
            parent = parent.rpartition(".")[0]
    return tuple(sorted(known[n].rel for n in seen))


def code_files(entries: Sequence[str], data: Sequence[str] = ()) -> tuple[str, ...]:
    """The files (relative to the package folder) that make up the code of a stage whose
    entry modules are ``entries`` (dotted names): those modules and every buildds module they
    import, directly or not, followed by the data files ``data`` (templates, schemas) the
    stage reads."""
    return _closure(tuple(sorted(entries))) + tuple(data)
