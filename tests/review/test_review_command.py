"""``buildds review`` as a user runs it: the printed URL with its token (127.0.0.1, a free
port with --port 0), 403 without the token, Ctrl-C → exit 130; a folder that is no build
output, a taken port and a missing --raw are clear errors."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.cli import main
from tests.review.conftest import REPO, JbeSample

pytest.importorskip("uvicorn", reason="the review extra is not installed")


def _start(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "buildds", "review", *args], cwd=REPO,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_serves_with_a_token_and_stops_on_ctrl_c(jbe_sample: JbeSample, tmp_path: Path) -> None:
    import httpx

    proc = _start(str(jbe_sample.out), "--port", "0", "--raw", str(jbe_sample.raw),
                  "--corrections", str(tmp_path), "--spot-check", "3")
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert "jbe build" in first and "3 items to review, 0 done" in first
        url = proc.stdout.readline().split()[-1]
        assert url.startswith("http://127.0.0.1:") and "?token=" in url
        base = url.split("/?")[0]
        with httpx.Client() as client:
            assert client.get(base + "/").status_code == 403
            r = client.get(url, follow_redirects=True)
            assert r.status_code == 200 and "3</strong> left" in r.text
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted" in err


def test_a_folder_that_is_no_build_output(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["review", str(tmp_path), "--port", "0"])
    assert result.exit_code == 1
    assert "not a build output buildds can review" in result.output


def test_a_taken_port(jbe_sample: JbeSample, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["review", str(jbe_sample.out), "--port", str(port),
                                           "--raw", str(jbe_sample.raw), "--corrections",
                                           str(tmp_path)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output and "--port 0" in result.output


def test_a_missing_raw_folder_is_a_usage_error(jbe_sample: JbeSample, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["review", str(jbe_sample.out), "--raw",
                                       str(tmp_path / "nope")])
    assert result.exit_code == 2 and "--raw" in result.output
