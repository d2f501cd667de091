"""The injector registry: one injector per error type, run by :func:`inject_all`; the base
module imports no injector."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from buildds.inject_errors import base
from buildds.inject_errors.registry import ALL_ERRORS, inject_all, injectors
from tests.inject_errors.test_injectors import PROFILE, theft


def test_one_injector_per_error_type() -> None:
    table = injectors(seed=5)
    assert tuple(table) == ALL_ERRORS
    assert all(inj.error_type == etype and inj.seed == 5 for etype, inj in table.items())


def test_base_imports_no_injector() -> None:
    tree = ast.parse(Path(base.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    injector_modules = {f"buildds.inject_errors.{p.stem}"
                        for p in Path(base.__file__).parent.glob("e[1-6]_*.py")}
    assert len(injector_modules) == len(ALL_ERRORS)
    assert not imported & (injector_modules | {"buildds.inject_errors.registry"})


def test_inject_all_is_order_independent_and_ids() -> None:
    a, b = theft(rid="a", factor="", extra=""), theft(rid="b", term="一年")
    done1, skip1 = inject_all([a, b], profile=PROFILE, seed=3)
    done2, skip2 = inject_all([b, a], profile=PROFILE, seed=3)
    assert sorted(d.model_dump_json() for d in done1) == sorted(d.model_dump_json() for d in done2)
    assert sorted(s.model_dump_json() for s in skip1) == sorted(s.model_dump_json() for s in skip2)
    assert {d.id for d in done1} >= {"a-E3-3", "b-E4-3"}
    with pytest.raises(ValueError):
        inject_all([a], profile=PROFILE, errors=("E9",))
