"""What `pip install buildds` gives a user: core dependencies cover every command's main
path, and every "missing dependency" message names an extra that exists."""

from __future__ import annotations

import ast
import importlib.metadata
import os
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "buildds"
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))

#: what each optional extra is for — the packages only these features may import
EXTRA_ONLY = {"matplotlib": "eval", "reportlab": "sample",
              "transformers": "hf", "torch": "hf", "inspect_ai": "bench", "openai": "bench",
              "starlette": "review", "uvicorn": "review", "ray": "ray"}


def _requirement_name(req: str) -> str:
    for sep in "<>=!~[; ":
        req = req.split(sep, 1)[0]
    return req.strip().lower().replace("_", "-")


CORE = {_requirement_name(r) for r in PYPROJECT["project"]["dependencies"]}
EXTRAS = PYPROJECT["project"]["optional-dependencies"]


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _missing_dependency_calls() -> list[tuple[str, int, ast.Call]]:
    calls = []
    for path in _modules():
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "MissingDependency"):
                calls.append((str(path.relative_to(REPO)), node.lineno, node))
    return calls


def test_missing_dependency_messages_name_extras_that_exist() -> None:
    calls = _missing_dependency_calls()
    assert len(calls) >= 8, "the walk found too few calls to be looking at the right code"
    for where, line, call in calls:
        extra = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "extra"), None)
        if extra is None:
            continue
        assert isinstance(extra, ast.Constant) and isinstance(extra.value, str), \
            f"{where}:{line}: the extra must be a literal so it can be checked"
        assert extra.value in EXTRAS, \
            f"{where}:{line}: names buildds[{extra.value}], which pyproject.toml does not define"


def test_extras_name_only_optional_packages() -> None:
    for extra, module in ((e, m) for m, e in EXTRA_ONLY.items()):
        names = {_requirement_name(r) for r in EXTRAS[extra]}
        dist = {"sklearn": "scikit-learn", "inspect_ai": "inspect-ai"}.get(module, module)
        assert dist in names, f"{dist} should be in the {extra} extra"
        assert dist not in CORE


def _top_level_imports(path: Path) -> set[str]:
    """Third-party modules a module imports when it is imported (module level only)."""
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - {"buildds", "__future__"}


def test_every_module_level_import_is_a_core_dependency() -> None:
    dists = importlib.metadata.packages_distributions()
    offenders = []
    for path in _modules():
        for module in _top_level_imports(path):
            names = {d.lower().replace("_", "-") for d in dists.get(module, [module])}
            if not names & CORE:
                offenders.append(f"{path.relative_to(REPO)}: import {module} ({sorted(names)})")
    assert not offenders, "module-level imports outside the core dependencies:\n" + \
        "\n".join(offenders)


# None in sys.modules makes `import X` fail and importlib.util.find_spec("X") answer None,
# exactly as when X is not installed (datasets, for one, probes torch that way).
_BLOCK_EXTRAS = f"""
import sys
for name in {sorted(EXTRA_ONLY)!r}:
    sys.modules[name] = None
from buildds.cli import main
sys.exit(main())
"""


def _buildds_without_extras(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", _BLOCK_EXTRAS, *args], check=False, cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=600)


def test_main_paths_run_without_any_extra(tmp_path: Path) -> None:
    """jbe → validate → eval (majority) → contracts, with every extra's package
    unimportable."""
    sample = PACKAGE / "sample" / "pdf"
    out = tmp_path / "jbe"
    run = _buildds_without_extras("jbe", "--years", "2025", "--raw", str(sample), "--out",
                                  str(out), "-q", "-j", "1", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "dataset exported" in run.stdout
    assert (out / "data" / "test.parquet").is_file()

    run = _buildds_without_extras("validate", str(out), cwd=tmp_path)
    assert run.returncode == 0, run.stderr

    run = _buildds_without_extras("eval", str(out), "--task", "jbe", "--model", "majority",
                                  "--out", str(tmp_path / "eval"), "-q", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "eval" / "leaderboard.md").is_file()

    # (the tfidf baseline is not run here: scikit-learn is a core dependency now, and it
    # probes torch through sys.modules, where this test's None stand-in breaks it)
    docx = next((PACKAGE / "sample" / "highbar").rglob("*.docx"))
    run = _buildds_without_extras("contracts", str(docx), "--out", str(tmp_path / "c"), "-q",
                                  cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "c" / "clauses.jsonl").is_file()
