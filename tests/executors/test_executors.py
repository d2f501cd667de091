"""The executors' contract, on the local pool and on Ray: results in input order, a bounded
number of items in flight (an endless input still gives results), the function's own
exception at its item, a task whose worker died run again, and a clear error without Ray."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from buildds.errors import MissingDependency
from buildds.executors import Executor, ExecutorSpec, make_executor
from tests.conftest import REPO
from tests.executors.tasks import die_once, fail_on_three, square


@pytest.fixture(params=["local-1", "local-2", "ray"])
def executor(request: pytest.FixtureRequest) -> Iterator[Executor]:
    if request.param == "ray":
        request.getfixturevalue("ray_instance")
        ex = make_executor("ray", jobs=2)
    else:
        ex = make_executor("local", jobs=int(request.param.split("-")[1]))
    try:
        yield ex
    finally:
        ex.close()


def test_results_in_input_order(executor: Executor) -> None:
    assert list(executor.map(square, range(20))) == [x * x for x in range(20)]
    assert list(executor.map(square, [])) == []
    assert list(executor.map(square, [7])) == [49]


def test_the_input_is_read_lazily(executor: Executor) -> None:
    pulled: list[int] = []

    def endless() -> Iterator[int]:
        for x in itertools.count():
            pulled.append(x)
            yield x

    results = executor.map(square, endless())
    assert [next(results) for _ in range(3)] == [0, 1, 4]
    window = getattr(executor, "window", 1)
    assert len(pulled) <= 3 + window
    results.close()  # type: ignore[attr-defined]


def test_an_exception_of_the_function_comes_at_its_item(executor: Executor) -> None:
    results = executor.map(fail_on_three, range(6))
    assert [next(results) for _ in range(3)] == [0, 1, 2]
    with pytest.raises(ValueError, match="item 3 is bad"):
        next(results)


def test_a_task_whose_worker_died_is_run_again(executor: Executor, tmp_path: Path) -> None:
    if executor.name == "local" and getattr(executor, "jobs", 1) == 1:
        pytest.skip("one job runs in this process: a dead worker is a dead build")
    got = list(executor.map(die_once, [(str(tmp_path), x) for x in range(8)]))
    assert got == [x * 10 for x in range(8)]
    assert (tmp_path / "died-3").exists()  # it did die once


def test_without_ray_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray → ImportError
    with pytest.raises(MissingDependency, match=r"pip install 'buildds\[ray\]'"):
        make_executor("ray")
    with pytest.raises(MissingDependency, match="--executor ray"):
        ExecutorSpec(name="ray", address="auto").make()


def test_without_ray_the_command_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    from click.testing import CliRunner

    from buildds.cli import main

    monkeypatch.setitem(sys.modules, "ray", None)
    doc = tmp_path / "a.pdf"
    doc.write_bytes(b"%PDF-1.4\n")
    result = CliRunner().invoke(main, ["contracts", str(doc), "--out", str(tmp_path / "o"),
                                       "-q", "--executor", "ray"])
    assert result.exit_code == 1, result.output
    assert "pip install 'buildds[ray]'" in result.output
    assert not (tmp_path / "o").exists()  # nothing was read or written


def test_bad_choices_are_usage_errors(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from buildds.cli import main

    doc = tmp_path / "a.pdf"
    doc.write_bytes(b"%PDF-1.4\n")
    base = ["contracts", str(doc), "--out", str(tmp_path / "o"), "-q"]
    for extra, said in ((["--ray-address", "auto"], "--ray-address needs --executor ray"),
                        (["--executor", "dask"], "'dask' is not one of"),
                        (["--executor", "ray", "--ray-address", "http://x"],
                         "is not a Ray address")):
        result = CliRunner().invoke(main, base + extra)
        assert result.exit_code == 2, (extra, result.output)
        assert said in result.output, result.output
    with pytest.raises(ValueError, match="unknown executor"):
        make_executor("dask")


def test_the_command_line_does_not_import_ray() -> None:
    code = "import sys, buildds.cli; print('ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=REPO).stdout
    assert out.strip() == "False"


def test_the_spec_makes_the_executor_it_names() -> None:
    ex: Any = ExecutorSpec(jobs=3).make()
    assert ex.name == "local" and ex.jobs == 3
    ex.close()


def test_judgments_passes_the_executor_into_its_settings(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    """``buildds judgments --executor ray --ray-address auto`` hands an ExecutorSpec to the
    build (which keeps it in JudgmentsRun); no Ray is started by the command itself."""
    from click.testing import CliRunner

    import buildds.jobs.judgments as job
    from buildds.cli import main
    from buildds.jobs.judgments_inputs import JudgmentsRun

    seen: list[Any] = []

    def fake_build(inputs: Any, **kwargs: Any) -> Any:
        seen.append(kwargs["executor"])
        raise job.BuildError("stopped by the test")

    monkeypatch.setattr(job, "build_judgments", fake_build)
    data = tmp_path / "test.json"
    data.write_text("{}\n", encoding="utf-8")
    law = tmp_path / "law"
    law.mkdir()
    (law / "criminal_law_PRC_2023_amendment12.md").write_text("x\n", encoding="utf-8")
    (law / "similar.csv").write_text("x\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["judgments", str(data), "--out", str(tmp_path / "o"),
                                       "--law", str(law), "--confusable",
                                       str(law / "similar.csv"), "-q", "--executor", "ray",
                                       "--ray-address", "auto"])
    assert "stopped by the test" in result.output, result.output
    assert seen == [ExecutorSpec(name="ray", address="auto")]
    assert "executor" in JudgmentsRun.__dataclass_fields__
