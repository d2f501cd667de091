import os

import pytest

from tests.conftest import REGEN_GOLDEN


def test_golden_regeneration_is_off_in_ci():
    """Golden files are rewritten only on purpose, locally: never in CI."""
    if not os.environ.get("CI"):
        pytest.skip("only meaningful in CI (CI=true)")
    assert not REGEN_GOLDEN, "BUILDDS_REGEN_GOLDEN=1 must never be set in CI"
