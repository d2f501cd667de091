import os


def test_golden_regeneration_is_off_in_ci():
    if os.environ.get("CI"):
        assert os.environ.get("BUILDDS_REGEN_GOLDEN") != "1", "never regenerate golden files in CI"
    else:
        # Locally the flag may be set on purpose; the check above is what protects CI.
        assert os.environ.get("BUILDDS_REGEN_GOLDEN") in (None, "", "0", "1")
