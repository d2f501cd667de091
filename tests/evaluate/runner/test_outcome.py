"""The runner's records: what the manifest lists of each model and judge, and the package's
public names."""

from __future__ import annotations

from buildds.evaluate import runner
from buildds.evaluate.runner.outcome import FailedRequests, JudgeEntry, ModelEntry


def test_manifest_entries_keep_their_keys() -> None:
    settings = {"backend": "mock", "mode": "ones"}
    assert ModelEntry("mock:ones", "mock_ones", settings).to_json() == {
        "model": "mock:ones", "slug": "mock_ones", "settings": settings}
    assert JudgeEntry("mock", settings).to_json() == {"judge": "mock", "settings": settings}


def test_failed_requests_name_each_reason_once() -> None:
    failed = FailedRequests("mock", sent=3, failures=[("a", "boom\n x"), ("b", "boom x"),
                                                      ("c", "other")])
    assert failed.reason_lines() == ["a and 1 other: boom x", "c: other"]
    assert failed.all_failed


def test_public_names() -> None:
    assert runner.__all__ == ["DEADLINE_ERROR", "EvalReport", "FailedRequests", "ModelRun",
                              "OptionError", "model_slug", "run_eval"]
    assert all(hasattr(runner, name) for name in runner.__all__)
