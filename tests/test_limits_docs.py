"""The limits are documented where users look, from the one table in safeio/limits.py, and
BUILDDS_LIMITS sets any of them for a run (workers included: it is read on import)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from buildds.cli import main
from buildds.commands.limits import limits_table
from buildds.safeio.limits import DEFAULTS, LIMITS, parse_overrides

REPO = Path(__file__).resolve().parents[1]


def test_readme_carries_the_limits_table() -> None:
    readme = (REPO / "README.md").read_text("utf-8")
    assert limits_table() in readme, "README's limits table is stale: paste `buildds limits --markdown`"


def test_every_limit_says_how_to_raise_it() -> None:
    assert len(DEFAULTS) >= 12
    for lim in DEFAULTS.values():
        assert lim.default >= 1 and lim.what
        assert lim.how_to_raise.startswith("--") or lim.how_to_raise == \
            f"BUILDDS_LIMITS={lim.name}=N"


def test_parse_overrides() -> None:
    values, errors = parse_overrides("pages=5, page_pixels=80M ,json_depth=1_000", DEFAULTS)
    assert values == {"pages": 5, "page_pixels": 80 * 1024 ** 2, "json_depth": 1000}
    assert errors == []
    values, errors = parse_overrides("nope=3,pages=0,pages,json_depth=ten", DEFAULTS)
    assert values == {}
    assert [e.split(":")[0] for e in errors] == ["'nope=3'", "'pages=0'", "'pages'",
                                                 "'json_depth=ten'"]


def _run(env_value: str, *code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BUILDDS_LIMITS": env_value, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-c", "\n".join(code)], env=env, check=False,
                          capture_output=True, text=True, timeout=60)


def test_environment_sets_limits_for_the_process() -> None:
    run = _run("json_depth=3", "from buildds.safeio import loads_strict",
               "loads_strict('[[[1]]]')",
               "try:\n    loads_strict('[[[[1]]]]')\nexcept ValueError as e:\n    print(e)")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == ("nesting of 4 levels exceeds the limit of 3 (raise it with "
                                  "BUILDDS_LIMITS=json_depth=N)")
    assert LIMITS["json_depth"].default == 64  # this process is untouched


def test_a_bad_environment_value_is_a_usage_error() -> None:
    run = _run("pages=lots", "from buildds.cli import main", "main(['limits'])")
    assert run.returncode == 2
    assert "BUILDDS_LIMITS: 'pages=lots': the value must be a whole number" in run.stderr
    assert "Traceback" not in run.stderr


def test_limits_command_lists_every_limit() -> None:
    result = CliRunner().invoke(main, ["limits"])
    assert result.exit_code == 0
    for name, lim in DEFAULTS.items():
        assert name in result.output and lim.how_to_raise in result.output
