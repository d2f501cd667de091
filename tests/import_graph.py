"""The buildds package's own import graph, read with ``ast`` (nothing is imported).

Used by ``test_architecture.py`` and runnable to see the current state::

    python -m tests.import_graph
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import buildds

PACKAGE_DIR = Path(buildds.__file__).parent
ROOT = "buildds"

# The floors, bottom first: a module may import from its own floor and the ones below, never
# from a floor above. Keys are the first component under buildds (a sub-package or a module).
FLOORS: dict[str, int] = {
    # utilities every stage may use; they use nothing above them
    "errors": 0, "text": 0, "safeio": 0, "schema": 1, "httputil": 0,
    # the runner's plumbing: caches, staging folders, worker pools
    "pipeline": 2, "staging": 2, "workers": 2,
    "extract": 3,
    "transform": 4,
    "laws": 5,
    "inject_errors": 6,
    "validate": 7, "export": 7,
    "evaluate": 8,
    "sample": 9, "fetch": 9,
    "jobs": 10,
    "review": 10,
    "commands": 11, "cli_types": 11, "cli_group": 11,
    "cli": 12, "__main__": 13, "__init__": 0,
}


@dataclass(frozen=True)
class Import:
    importer: str        # dotted module name
    target: str          # dotted module name inside buildds
    names: tuple[str, ...]  # names taken with ``from … import``
    line: int


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    is_package: bool

    @property
    def package(self) -> str:
        """The package a module belongs to (a package's __init__ belongs to itself)."""
        return self.name if self.is_package else self.name.rpartition(".")[0]

    @property
    def top(self) -> str:
        parts = self.name.split(".")
        return parts[1] if len(parts) > 1 else "__init__"


def modules() -> dict[str, Module]:
    found = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        rel = path.relative_to(PACKAGE_DIR.parent).with_suffix("")
        parts = list(rel.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = Module(".".join(parts), path, is_package)
    return found


def _resolve(name: str, known: dict[str, Module]) -> str | None:
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: Module, known: dict[str, Module]) -> Iterator[Import]:
    tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(ROOT + ".") or alias.name == ROOT:
                    target = _resolve(alias.name, known)
                    if target:
                        yield Import(module.name, target, (), node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module:
            base = node.module
            if node.level:
                anchor = module.package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + [node.module])
            if not (base == ROOT or base.startswith(ROOT + ".")):
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in known:  # ``from buildds.extract import pdf`` imports a module
                    yield Import(module.name, sub, (), node.lineno)
                else:
                    target = _resolve(base, known)
                    if target:
                        yield Import(module.name, target, (alias.name,), node.lineno)


def graph() -> tuple[dict[str, Module], list[Import]]:
    known = modules()
    edges = [imp for mod in known.values() for imp in imports_of(mod, known)
             if imp.target != imp.importer]
    return known, edges


def strongly_connected(nodes: list[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components of more than one node, sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    item = stack.pop()
                    on_stack.discard(item)
                    component.append(item)
                    if item == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out)


def cross_package_cycles(known: dict[str, Module], edges: list[Import]) -> list[list[str]]:
    adjacency: dict[str, set[str]] = {}
    for imp in edges:
        adjacency.setdefault(imp.importer, set()).add(imp.target)
    return [c for c in strongly_connected(sorted(known), adjacency)
            if len({known[m].package for m in c}) > 1]


def upward_imports(known: dict[str, Module], edges: list[Import]) -> list[str]:
    found = []
    for imp in edges:
        src, dst = known[imp.importer], known[imp.target]
        if dst.name == ROOT:  # buildds/__init__ holds only the version
            continue
        if FLOORS[dst.top] > FLOORS[src.top]:
            found.append(f"{imp.importer}:{imp.line} imports {imp.target} "
                         f"({src.top} is below {dst.top})")
    return found


def private_imports(known: dict[str, Module], edges: list[Import]) -> list[str]:
    found = []
    for imp in edges:
        private = [n for n in imp.names if n.startswith("_") and not n.startswith("__")]
        if private and known[imp.importer].package != known[imp.target].package:
            found.append(f"{imp.importer}:{imp.line} takes {', '.join(private)} "
                         f"from {imp.target}")
    return found


if __name__ == "__main__":
    mods, imps = graph()
    for title, lines in (("cycles across packages", [" ".join(c) for c in
                                                    cross_package_cycles(mods, imps)]),
                         ("upward imports", upward_imports(mods, imps)),
                         ("private names across packages", private_imports(mods, imps))):
        print(f"# {title}: {len(lines)}")
        for line in lines:
            print(f"  {line}")
