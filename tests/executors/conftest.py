"""The Ray instance the Ray tests share: started once for this package (2 CPUs, no
dashboard), shut down when its tests end — so the tests after them that check a build
leaves no child process behind do not see Ray's; the tests that use it skip when Ray is not installed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="package")
def ray_instance() -> Iterator[Any]:
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'buildds[ray]')")
    started = not ray.is_initialized()
    if started:
        # "local": a new instance even when this machine runs a `ray start` cluster
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()
