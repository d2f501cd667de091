"""The backend registry: a spec in, a backend out; the base module imports no backend."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from buildds.errors import BuildError
from buildds.evaluate.backends import BACKEND_KINDS, check_spec, make_backend
from buildds.evaluate.backends.mock import MockBackend

BACKENDS = Path(__file__).resolve().parents[3] / "buildds" / "evaluate" / "backends"


def test_base_imports_no_backend() -> None:
    tree = ast.parse((BACKENDS / "base.py").read_text("utf-8"))
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    assert not {m for m in imported if m.startswith("buildds.evaluate.backends")}


@pytest.mark.parametrize(("spec", "message"), [
    ("nosuch:x", ("unknown backend 'nosuch:x': expected one of openai:<model>, mock[:<mode>], "
                 "majority, random:<seed>, tfidf, replay:<file>, hf:<path>, oracle")),
    ("openai", "backend 'openai': give a model, e.g. openai:gpt-4o"),
    ("replay:", "backend 'replay:': give a file, e.g. replay:samples.jsonl"),
    ("hf", "backend 'hf': give a model folder, e.g. hf:models/qwen"),
    ("mock:nosuch", ("unknown mock mode 'nosuch': expected one of parity, ones, zeros, bad, "
                    "echo, error")),
    ("random:x", "backend 'random:x': the seed must be an integer, e.g. random:13"),
])
def test_bad_specs_are_refused_with_their_message(spec: str, message: str) -> None:
    with pytest.raises(BuildError) as info:
        check_spec(spec)
    assert info.value.message == message


def test_every_kind_is_a_spec_and_mock_builds() -> None:
    assert BACKEND_KINDS == ("openai", "mock", "majority", "random", "tfidf", "replay", "hf",
                             "oracle")
    backend = make_backend(" Mock:ones ")
    assert isinstance(backend, MockBackend) and backend.mode == "ones"


def test_the_registry_loads_no_optional_dependency() -> None:
    code = ("import sys, buildds.evaluate.backends, buildds.evaluate.runner; "
            "print(sorted(m for m in ('httpx', 'sklearn', 'transformers', 'openai') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
