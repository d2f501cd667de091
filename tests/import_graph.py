"""The buildds package's own import graph, read with ``ast`` (nothing is imported) by
:mod:`buildds.code_version`, and the floors every import must point down.

Used by ``test_architecture.py`` and runnable to see the current state::

    python -m tests.import_graph
"""

from __future__ import annotations

from buildds.code_version import ROOT, Import, PackageModule, imports_of, package_modules

# The floors, bottom first: a module may import from its own floor and the ones below, never
# from a floor above. Keys are the first component under buildds (a sub-package or a module).
FLOORS: dict[str, int] = {
    # utilities every stage may use; they use nothing above them
    "errors": 0, "text": 0, "safeio": 0, "schema": 1, "httputil": 0,
    # the runner's plumbing: caches, staging folders, worker pools
    "pipeline": 2, "staging": 2, "workers": 2, "code_version": 2, "executors": 2,
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


def graph() -> tuple[dict[str, PackageModule], list[Import]]:
    """Every module of the package and every import of one buildds module by another."""
    known = package_modules()
    return known, [imp for mod in known.values() for imp in imports_of(mod)]


def top(module: PackageModule) -> str:
    """The first component under buildds: the floor a module lives on."""
    parts = module.name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


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


def cross_package_cycles(known: dict[str, PackageModule], edges: list[Import]) -> list[list[str]]:
    adjacency: dict[str, set[str]] = {}
    for imp in edges:
        adjacency.setdefault(imp.importer, set()).add(imp.target)
    return [c for c in strongly_connected(sorted(known), adjacency)
            if len({known[m].package for m in c}) > 1]


def all_cycles(known: dict[str, PackageModule], edges: list[Import]) -> list[list[str]]:
    adjacency: dict[str, set[str]] = {}
    for imp in edges:
        adjacency.setdefault(imp.importer, set()).add(imp.target)
    return strongly_connected(sorted(known), adjacency)


def upward_imports(known: dict[str, PackageModule], edges: list[Import]) -> list[str]:
    found: list[str] = []
    for imp in edges:
        src, dst = known[imp.importer], known[imp.target]
        if dst.name == ROOT:  # buildds/__init__ holds only the version
            continue
        if FLOORS[top(dst)] > FLOORS[top(src)]:
            line = (f"{imp.importer}:{imp.line} imports {imp.target} "
                    f"({top(src)} is below {top(dst)})")
            if line not in found:
                found.append(line)
    return found


def private_imports(known: dict[str, PackageModule], edges: list[Import]) -> list[str]:
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
                         ("cycles inside a package", [" ".join(c) for c in
                                                      all_cycles(mods, imps)
                                                      if c not in cross_package_cycles(mods, imps)]),
                         ("upward imports", upward_imports(mods, imps)),
                         ("private names across packages", private_imports(mods, imps))):
        print(f"# {title}: {len(lines)}")
        for line in lines:
            print(f"  {line}")
