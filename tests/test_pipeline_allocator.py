"""pyarrow's pool switched to the system allocator, which release_freed_memory trims (issue 18)."""

from __future__ import annotations

import pytest


def test_use_system_allocator_switches_pyarrows_pool_for_the_process() -> None:
    pa = pytest.importorskip("pyarrow")
    from buildds.pipeline import release_freed_memory, use_system_allocator

    before = pa.default_memory_pool()
    try:
        use_system_allocator()
        assert pa.default_memory_pool().backend_name == "system"
        use_system_allocator()  # again: still the system pool
        arr = pa.array(["x" * 1000] * 100)
        assert pa.total_allocated_bytes() >= 100_000 and arr.nbytes >= 100_000
        del arr
        release_freed_memory()
    finally:
        pa.set_memory_pool(before)
