"""Evaluation limits: --timeout, --max-attempts, --max-retry-after, --deadline and
--max-response-bytes, through both HTTP clients, against the scripted server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from buildds.commands.eval import Seconds, eval_cmd
from buildds.evaluate.backends.http_transport import (
    ProtocolError,
    ResponseReader,
    ResponseTooLarge,
    decode_body,
)
from buildds.evaluate.backends.openai import OpenAIBackend
from buildds.evaluate.tasks.jbe import load_jbe_data
from buildds.schema.evaluation import ChatMessage, ChatRequest
from tests.evaluate.openai_server import OpenAITestServer


def _export(sample_export: Path, folder: Path, markers: list[str]) -> tuple[Path, list[str]]:
    """A parquet of the first ``len(markers)`` scored sample items, each question ending in
    its marker (the server's script); and the questions."""
    import pandas as pd

    rows = []
    for it, marker in zip(load_jbe_data(sample_export).scored(), markers, strict=False):
        rows.append({**it, "question": f"{it['question']} {marker}".strip()})
    path = folder / "test.parquet"
    folder.mkdir(parents=True)
    pd.DataFrame(rows).to_parquet(path, index=False)
    return path, [str(r["question"]) for r in rows]


def _samples(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _received(server: OpenAITestServer, question: str) -> int:
    return sum(n for prompt, n in server.counts.items() if question in prompt)


# --------------------------------------------------------------------------- the deadline
def test_stalled_server_run_ends_at_the_deadline_and_resumes(sample_export, tmp_path):
    export, questions = _export(sample_export, tmp_path / "export",
                                ["[stall]", "[stall]", "[stall]", "", ""])
    out = tmp_path / "out"
    args = [str(export), "--task", "jbe", "--model", "openai:m", "--out", str(out), "-q",
            "--timeout", "0.5", "--deadline", "3", "--allow-failures"]
    with OpenAITestServer(stall_s=30.0) as server:
        args += ["--base-url", server.base_url]
        res = CliRunner().invoke(eval_cmd, args)
        assert res.exit_code == 0, res.output  # failed samples allowed (--allow-failures)
        # 3 stalled samples: without the deadline 6 tries of 0.5 s each plus backoff; the
        # deadline cut them short (counted, not timed: issue 16)
        assert all(1 <= _received(server, q) < 6 for q in questions[:3])
        assert "the run reached its deadline of 3 s: 3 request(s) abandoned" in res.stderr
        samples = _samples(out / "openai_m" / "0shot" / "samples.jsonl")
        for s in samples[:3]:
            assert s["raw_output"] is None
            assert s["error"].startswith("abandoned: the run reached its deadline of 3 s "
                                         "(--deadline)")
        assert [s["parsed"] for s in samples[3:]] == [1, 1]
        metrics = json.loads((out / "openai_m" / "0shot" / "metrics.json").read_text("utf-8"))
        assert metrics["errors"] == 3
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["deadline_s"] == 3.0
        settings = manifest["models"][0]["settings"]
        assert (settings["timeout_s"], settings["max_attempts"], settings["max_retry_after_s"],
                settings["max_response_bytes"]) == (0.5, 6, 60.0, 16 * 1024 * 1024)

        # the same command again: the answered samples come from the cache, unsent
        server.reset()
        res = CliRunner().invoke(eval_cmd, args)
        assert res.exit_code == 0, res.output
        assert [_received(server, q) for q in questions[3:]] == [0, 0]
        assert all(_received(server, q) >= 1 for q in questions[:3])
        again = _samples(out / "openai_m" / "0shot" / "samples.jsonl")
        assert [s["cached"] for s in again] == [False, False, False, True, True]


def test_deadline_already_spent_sends_nothing(sample_export, tmp_path, monkeypatch):
    from buildds.evaluate import runner
    from buildds.evaluate.runner import plan

    export, _ = _export(sample_export, tmp_path / "export", ["", ""])
    with OpenAITestServer() as server:
        real_load = plan.get_task

        def slow_task(*a: Any, **kw: Any) -> Any:
            time.sleep(0.3)  # loading outlasts the deadline
            return real_load(*a, **kw)

        monkeypatch.setattr(plan, "get_task", slow_task)
        report = runner.run_eval(export, task="jbe", models=["openai:m"], out=tmp_path / "o",
                                 backend_options={"base_url": server.base_url},
                                 deadline_s=0.2)
        assert server.total == 0
    assert report.abandoned == 2 and report.runs[0].metrics["samples"]["failed"] == 2
    assert report.runs[0].metrics["n"] == 0


def test_bad_option_values_are_refused(tmp_path):
    runner = CliRunner()
    res = runner.invoke(eval_cmd, [str(tmp_path), "--model", "mock", "--out", str(tmp_path / "o"),
                                   "--deadline", "0"])
    assert res.exit_code == 2 and "more than 0 seconds" in res.output
    res = runner.invoke(eval_cmd, [str(tmp_path), "--model", "mock", "--out", str(tmp_path / "o"),
                                   "--timeout", "soon"])
    assert res.exit_code == 2 and "is not a duration" in res.output
    res = runner.invoke(eval_cmd, [str(tmp_path), "--model", "mock", "--out", str(tmp_path / "o"),
                                   "--max-document-bytes", "10"])
    assert res.exit_code == 2 and "--max-document-bytes applies to --task highbar" in res.output


@pytest.mark.parametrize("text,seconds", [("90", 90.0), ("0.5", 0.5), ("90s", 90.0),
                                          ("30m", 1800.0), ("2h", 7200.0), (" 2 min ", 120.0)])
def test_seconds_param_type(text, seconds):
    assert Seconds().convert(text, None, None) == seconds


def test_help_documents_the_limits():
    res = CliRunner().invoke(eval_cmd, ["--help"])
    for option in ("--timeout", "--max-attempts", "--max-retry-after", "--deadline",
                   "--max-response-bytes", "--max-document-bytes"):
        assert option in res.output
    assert "[default: 120.0]" in res.output and "[default: 16777216" in res.output


# --------------------------------------------------------------------------- both clients
@pytest.fixture(params=["asyncio", "httpx"])
def http_client(request) -> str:
    return str(request.param)


def _backend(server: OpenAITestServer, http_client: Any, **kw: Any) -> OpenAIBackend:
    kw.setdefault("timeout_s", 5.0)
    kw.setdefault("backoff_base_s", 0.01)
    return OpenAIBackend("m", base_url=server.base_url, http_client=http_client, **kw)


def _ask(backend: OpenAIBackend, *prompts: str) -> list[Any]:
    async def run() -> list[Any]:
        async with backend:
            return list(await asyncio.gather(*(backend.complete(ChatRequest(
                messages=(ChatMessage(role="user", content=p),))) for p in prompts)))
    return asyncio.run(run())


def test_retry_after_longer_than_the_cap_fails_at_once(http_client):
    with OpenAITestServer(retry_after="99999") as server:
        [result] = _ask(_backend(server, http_client), "[fail:429:99]")
        assert server.total == 1  # one try, no wait: the test would not end otherwise
    assert result.text is None and result.attempts == 1
    assert result.error == ("rate limited: the server asked to retry after 99999 s, longer "
                            "than the limit of 60 s (raise it with --max-retry-after); "
                            "not retried")


def test_retry_after_within_the_cap_is_waited_for(http_client, retry_waits):
    with OpenAITestServer(retry_after="0.3") as server:
        [result] = _ask(_backend(server, http_client, max_retry_after_s=1.0), "[fail:503:1]")
        assert server.total == 2
    assert (result.text, result.error, result.attempts) == ("1", None, 2)
    assert len(retry_waits) == 1 and 0.3 <= retry_waits[0] <= 0.4  # Retry-After + jitter


def test_timeout_and_max_attempts_bound_a_stalled_request(http_client):
    with OpenAITestServer(stall_s=30.0) as server:
        [result] = _ask(_backend(server, http_client, timeout_s=0.3, max_attempts=3), "[stall]")
        assert server.total == 3
    assert result.error == "timeout (gave up after 3 tries)"


def test_timeout_bounds_a_try_as_a_whole_against_a_trickling_server(http_client):
    """One byte every 0.1 s never trips a per-read timeout of 0.5 s; the whole try does."""
    with OpenAITestServer() as server:
        [result] = _ask(_backend(server, http_client, timeout_s=0.5, max_attempts=2),
                        "[trickle:0.1]")
        assert server.total == 2  # each try ended by the whole-try timeout (error below)
    assert result.error == "timeout (gave up after 2 tries)"


LIMIT_ERROR = "response larger than the limit of 5,000 bytes (raise it with --max-response-bytes)"


def test_response_size_is_bounded(http_client):
    with OpenAITestServer() as server:
        small, big, small_gz, bomb, lying = _ask(
            _backend(server, http_client, max_response_bytes=5000, timeout_s=10.0),
            "[big:100]", "[big:10000]", "[gzip:100]", "[gzip:2000000]", "[huge-length]")
        # a claimed Content-Length past the limit is refused at once, not waited for (a
        # wait would end in "timeout", not the limit's error, below)
        assert server.total == 5
    assert small.text == "x" * 100 and small_gz.text == "x" * 100
    for result in (big, bomb, lying):
        assert (result.text, result.error, result.attempts) == (None, LIMIT_ERROR, 1)


def test_response_reader_limits_every_body_kind():
    def feed(reader: ResponseReader, data: bytes) -> Any:
        return reader.feed(data)

    head = b"HTTP/1.1 200 OK\r\n"
    with pytest.raises(ResponseTooLarge):  # Content-Length: refused before the body
        feed(ResponseReader(100), head + b"Content-Length: 101\r\n\r\n")
    chunked = ResponseReader(100)
    feed(chunked, head + b"Transfer-Encoding: chunked\r\n\r\n40\r\n" + b"a" * 64 + b"\r\n")
    with pytest.raises(ResponseTooLarge):  # the second chunk's size passes the limit
        feed(chunked, b"40\r\n")
    until_close = ResponseReader(100)
    feed(until_close, head + b"\r\n" + b"a" * 100)
    with pytest.raises(ResponseTooLarge):
        feed(until_close, b"a")
    reply = ResponseReader(100).feed(head + b"Content-Length: 100\r\n\r\n" + b"a" * 100)
    assert reply is not None and reply.body == b"a" * 100
    # a chunk-size line or trailers that never end do not grow the buffer without bound
    endless = ResponseReader(100)
    feed(endless, head + b"Transfer-Encoding: chunked\r\n\r\n")
    with pytest.raises(ProtocolError, match="chunk size line too long"):
        feed(endless, b"0" * 5000)
    trailers = ResponseReader(100)
    feed(trailers, head + b"Transfer-Encoding: chunked\r\n\r\n0\r\nX-T: 1\r\n")
    with pytest.raises(ProtocolError, match="trailers too long"):
        feed(trailers, b"X-T: 1\r\n" * 10000)


def test_gzip_bomb_is_cut_at_the_limit():
    bomb = gzip.compress(b"\0" * 20_000_000, 1)  # 20 MB from ~90 KB
    with pytest.raises(ResponseTooLarge, match="1,000,000 bytes"):
        decode_body(bomb, "gzip", 1_000_000)
    assert decode_body(gzip.compress(b"ok"), "gzip", 2) == b"ok"
    import zlib

    raw_deflate = zlib.compressobj(wbits=-15)
    data = raw_deflate.compress(b"deflated") + raw_deflate.flush()
    assert decode_body(data, "deflate", 100) == b"deflated"
