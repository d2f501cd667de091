"""``buildds judgments`` with its shards on a Ray instance (the session's ``ray_instance``):
the same files as the local run, byte for byte, and a run killed on the local pool resumes
on Ray from the shards it finished (needs ../shared)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from buildds.executors import ExecutorSpec
from buildds.jobs.judgments_shard_task import MARKER
from buildds.jobs.judgments_sharded import SHARDS_DIR
from tests.jobs.test_judgments_sharded import _build, _hashes, _killed_after, _Killed
from tests.jobs.test_judgments_sharded import corpus as corpus  # noqa: F401 (fixture)
from tests.jobs.test_judgments_sharded import whole as whole  # noqa: F401 (fixture)


def test_judgments_shards_on_ray_give_the_local_files(ray_instance: Any, corpus: dict[str, Path],
                                                      whole: dict[str, str],
                                                      tmp_path: Path) -> None:
    out = tmp_path / "ray"
    report = _build(corpus, out, shard_bytes=20_000,
                    executor=ExecutorSpec(name="ray"))  # the session's instance
    assert report.exported and report.shards["shards"] > 1
    assert _hashes(out) == whole


def test_a_run_killed_locally_resumes_on_ray(ray_instance: Any, corpus: dict[str, Path],
                                            whole: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "out"
    with pytest.raises(_Killed):
        _build(corpus, out, shard_bytes=20_000, map_fn=_killed_after(3))
    assert len(list((out / SHARDS_DIR).glob(f"*/{MARKER}"))) == 3
    report = _build(corpus, out, shard_bytes=20_000, executor=ExecutorSpec(name="ray"))
    assert report.shards["resumed"] == 3 and report.shards["shards"] > 3
    assert _hashes(out) == whole
