"""The review sources' shared helpers: diff and redline segments, keys, verdict checks,
the write lock."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

import pytest

from buildds.review.sources.base import StaleVerdict, Verdict
from buildds.review.sources.store import (
    check_verdict,
    diff_segments,
    digest,
    expect_version,
    locked,
    redline_segments,
    safe_key,
)


def _sides(segments: list[dict[str, str]]) -> tuple[str, str]:
    left = "".join(s["text"] for s in segments if s["op"] in ("same", "del"))
    right = "".join(s["text"] for s in segments if s["op"] in ("same", "ins"))
    return left, right


@pytest.mark.parametrize(("a", "b"), [
    ("第二百三十六条第一款", "第三百五十八条第一款"), ("abc", "abc"), ("", "x"), ("x", ""),
    ("被告人犯盗窃罪，判处罚金", "被告人犯职务侵占罪，判处罚金"), ("aXbYc", "aPbQc")])
def test_diff_segments_give_back_both_texts(a: str, b: str) -> None:
    segs = diff_segments(a, b)
    assert _sides(segs) == (a, b)
    assert all(s["text"] for s in segs)
    assert all(x["op"] != y["op"] for x, y in itertools.pairwise(segs))  # merged runs


def test_short_unchanged_runs_join_the_changes_around_them() -> None:
    segs = diff_segments("第二百三十六条", "第三百五十八条")
    assert segs == [{"op": "same", "text": "第"}, {"op": "del", "text": "二百三十六"},
                    {"op": "ins", "text": "三百五十八"}, {"op": "same", "text": "条"}]


def test_redline_segments() -> None:
    segs = redline_segments("報酬は{+月額+}[-年額-]とする。{+<b>+}")
    assert segs == [{"op": "same", "text": "報酬は"}, {"op": "ins", "text": "月額"},
                    {"op": "del", "text": "年額"}, {"op": "same", "text": "とする。"},
                    {"op": "ins", "text": "<b>"}]
    assert redline_segments("plain") == [{"op": "same", "text": "plain"}]


def test_safe_key_is_url_safe_and_distinct() -> None:
    assert safe_key("SG-892ebb32-10") == "SG-892ebb32-10"
    keys = {safe_key(t) for t in ("利用規約-ab12cd34-3", "利用規約-ab12cd34-4", "a/b", "a b")}
    assert len(keys) == 4
    assert all(k and all(c.isascii() and (c.isalnum() or c in "._-") for c in k) for k in keys)


def test_check_verdict_and_versions() -> None:
    check_verdict(Verdict(key="k", action="accept"), ("accept",), what="x")
    with pytest.raises(ValueError, match="note"):
        check_verdict(Verdict(key="k", action="reject"), ("reject",), what="x")
    with pytest.raises(ValueError, match="takes accept"):
        check_verdict(Verdict(key="k", action="edit", note="n"), ("accept",), what="x")
    with pytest.raises(ValueError, match="unknown action"):
        check_verdict(Verdict(key="k", action="delete", note="n"), ("accept",), what="x")
    assert digest(None) != digest([]) and digest({"a": 1, "b": 2}) == digest({"b": 2, "a": 1})
    expect_version("k", "v1", "v1")
    with pytest.raises(StaleVerdict, match="reload"):
        expect_version("k", "v2", "v1")


def test_lock_serialises_threads(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "f.csv"
    inside: list[int] = []
    overlap: list[bool] = []

    def work() -> None:
        with locked(path):
            inside.append(1)
            overlap.append(len(inside) > 1)
            inside.pop()

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlap == [False] * 8 and (tmp_path / "sub").is_dir()


def test_lock_works_across_processes_and_leaves_no_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "data" / "f.csv"
    marker = tmp_path / "child-done"
    code = ("import sys, time; from pathlib import Path; "
            "from buildds.review.sources.store import locked\n"
            "with locked(Path(sys.argv[1])):\n"
            "    print('in', flush=True); time.sleep(1); Path(sys.argv[2]).touch()\n")
    child = subprocess.Popen([sys.executable, "-c", code, str(path), str(marker)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "in"
        with locked(path):  # waits until the child lets go
            assert marker.exists()
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
        if child.stdout is not None:
            child.stdout.close()
    assert list((tmp_path / "data").iterdir()) == []  # no lock file left
