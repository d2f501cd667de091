"""``buildds eval`` against hostile inputs (issue 10, re-run): failed requests are named on the
console, a run that evaluated nothing exits 1, bad options exit 2, a corrupt cache is a clear
error, a secret in --base-url is stored nowhere, non-UTF-8 names are handled. Every input is
generated here, in tmp_path; every case asserts the exit code and the message."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from buildds.commands.eval import eval_cmd
from buildds.evaluate.backends.base import BackendBase
from buildds.evaluate.redact import redact_url, url_secrets
from buildds.evaluate.tasks.jbe import load_jbe_data
from buildds.schema.evaluation import ChatRequest, ChatResult
from tests.evaluate.openai_server import OpenAITestServer
from tests.evaluate.tasks.highbar.helpers import write_task


def _export(sample_export: Path, folder: Path, markers: list[str]) -> Path:
    """A parquet of the first ``len(markers)`` scored sample items, each question ending in
    its marker (the test server's script)."""
    import pandas as pd

    rows = [{**it, "question": f"{it['question']} {marker}".strip()}
            for it, marker in zip(load_jbe_data(sample_export).scored(), markers, strict=False)]
    folder.mkdir(parents=True)
    path = folder / "test.parquet"
    pd.DataFrame(rows).to_parquet(path, index=False)
    return path


def _eval(*args: str) -> Result:
    return CliRunner().invoke(eval_cmd, [*args, "-q"])


def _no_traceback(res: Result) -> None:
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output


def _samples(out: Path, slug: str = "openai_m") -> Path:
    return out / slug / "0shot" / "samples.jsonl"


# --------------------------------------------------------------------------- F2: failures
def test_partial_failures_are_named_and_exit_1(sample_export, tmp_path):
    """429 with Retry-After past --max-retry-after, and a response over
    --max-response-bytes: named with their reason; the others answered; exit 1 (issue 16:
    a run with failed samples is not a success unless --allow-failures)."""
    export = _export(sample_export, tmp_path / "export",
                     ["[fail:429:9]", "[fail:429:9]", "[big:5000]", "", ""])
    out = tmp_path / "out"
    with OpenAITestServer(retry_after="99999") as server:
        res = _eval(str(export), "--model", "openai:m", "--base-url", server.base_url,
                    "--max-retry-after", "10", "--max-response-bytes", "2000",
                    "--out", str(out))
    _no_traceback(res)
    assert res.exit_code == 1, res.output
    lines = res.stderr.splitlines()
    assert lines[0] == f"warning: openai:m 0-shot: 3 of 5 requests failed (see {_samples(out)})"
    assert lines[1].startswith("failed: ")
    assert ("and 1 other: rate limited: the server asked to retry after 99999 s, longer than "
            "the limit of 10 s (raise it with --max-retry-after); not retried") in lines[1]
    assert lines[2].startswith("failed: ") and "--max-response-bytes" in lines[2]
    assert lines[3].startswith("Error: some samples failed — openai:m 0-shot: 3 of 5 "
                               "requests to openai:m failed.") and "--allow-failures" in lines[3]
    assert len(lines) == 4
    assert "evaluated 1 model(s)" in res.stdout
    samples = [json.loads(x) for x in _samples(out).read_text("utf-8").splitlines()]
    assert [s["error"] is None for s in samples] == [False, False, False, True, True]
    first = lines[1].removeprefix("failed: ").split(" and 1 other")[0]
    assert first == samples[0]["id"]


def test_connection_refused_everywhere_exits_1_after_writing(sample_export, tmp_path):
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    export = _export(sample_export, tmp_path / "export", ["", "", ""])
    out = tmp_path / "out"
    res = _eval(str(export), "--model", "openai:m", "--base-url", f"http://127.0.0.1:{port}/v1",
                "--max-attempts", "1", "--out", str(out))
    _no_traceback(res)
    assert res.exit_code == 1, res.output
    assert f"warning: openai:m 0-shot: 3 of 3 requests failed (see {_samples(out)})" \
        in res.stderr
    assert " and 2 others: connection error: ConnectionRefusedError" in res.stderr
    assert ("Error: nothing was evaluated in openai:m 0-shot: all 3 requests failed"
            in res.stderr)
    # what there is was written
    assert _samples(out).is_file() and (out / "manifest.json").is_file()
    assert (out / "leaderboard.md").is_file()


def test_stalled_server_every_request_times_out(sample_export, tmp_path):
    export = _export(sample_export, tmp_path / "export", ["[stall]", "[stall]"])
    out = tmp_path / "out"
    with OpenAITestServer(stall_s=30.0) as server:
        res = _eval(str(export), "--model", "openai:m", "--base-url", server.base_url,
                    "--timeout", "0.5", "--max-attempts", "1", "--out", str(out))
    _no_traceback(res)
    assert res.exit_code == 1, res.output
    assert "warning: openai:m 0-shot: 2 of 2 requests failed" in res.stderr
    assert " and 1 other: timeout" in res.stderr
    assert "nothing was evaluated in openai:m 0-shot: all 2 requests failed" in res.stderr


class _Failing(BackendBase):
    """Fails every request but the first with its own reason."""

    name = "mock"
    cacheable = False
    concurrency = 4

    async def complete(self, request: ChatRequest) -> ChatResult:
        n = int((request.sample_id or "0").rsplit("-", 1)[-1] or 0)
        if request.sample_id and request.sample_id.endswith("-1-1"):
            return ChatResult(text="1")
        return ChatResult(text=None, error=f"reason {request.sample_id} {n}")


def test_only_the_first_five_reasons_are_printed(sample_export, tmp_path, monkeypatch):
    from buildds.evaluate.runner import run

    monkeypatch.setattr(run, "default_factory", lambda spec, **kw: _Failing())
    export = _export(sample_export, tmp_path / "export", [""] * 9)
    out = tmp_path / "out"
    res = _eval(str(export), "--model", "mock", "--out", str(out), "--allow-failures")
    assert res.exit_code == 0, res.output
    lines = res.stderr.splitlines()
    assert lines[0] == f"warning: mock 0-shot: 8 of 9 requests failed (see {_samples(out, 'mock')})"
    assert len(lines) == 7
    assert all(line.startswith("failed: ") and ": reason " in line for line in lines[1:6])
    assert lines[6] == f"… and 3 more (see {_samples(out, 'mock')})"


def test_deadline_line_is_kept_and_failures_named(sample_export, tmp_path):
    export = _export(sample_export, tmp_path / "export", ["[stall]", ""])
    out = tmp_path / "out"
    with OpenAITestServer(stall_s=30.0) as server:
        res = _eval(str(export), "--model", "openai:m", "--base-url", server.base_url,
                    "--deadline", "1.5", "--allow-failures", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert "the run reached its deadline of 1.5 s: 1 request(s) abandoned" in res.stderr
    assert "warning: openai:m 0-shot: 1 of 2 requests failed" in res.stderr
    assert "abandoned: the run reached its deadline of 1.5 s (--deadline)" in res.stderr


def test_judges_failing_every_request_exit_1(tmp_path):
    root = tmp_path / "tasks"
    write_task(root, "t1")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    other = tmp_path / "other.jsonl"
    other.write_text("", encoding="utf-8")
    out = tmp_path / "out"
    res = _eval(str(root), "--task", "highbar", "--model", "mock:echo",
                "--judge", f"replay:{empty}", "--judge", f"replay:{other}",
                "--form-judge", f"replay:{empty}", "--form-judge", f"replay:{other}",
                "--out", str(out))
    _no_traceback(res)
    assert res.exit_code == 1, res.output
    samples = _samples(out, "mock_echo")
    assert (f"warning: judge replay:{empty} on mock:echo 0-shot: 12 of 12 requests failed "
            f"(see {samples})") in res.stderr
    assert "failed: t1#run1::c1 and 11 others: no saved output" in res.stderr
    assert ("nothing was evaluated in mock:echo 0-shot: every judge failed every request, "
            "nothing was graded") in res.stderr


# --------------------------------------------------------------------------- F7: all refused
def test_highbar_with_every_task_refused_exits_1_naming_them(tmp_path):
    root = tmp_path / "tasks"
    fifo = write_task(root, "fifo", document=None)
    os.mkfifo(fifo / "documents" / "pipe.md")
    zero = write_task(root, "zero", document=None)
    (zero / "documents" / "zero.md").symlink_to("/dev/zero")
    out_link = write_task(root, "outside", document=None)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET\n", encoding="utf-8")
    (out_link / "documents" / "leak.txt").symlink_to(secret)
    out = tmp_path / "out"
    res = _eval(str(root), "--task", "highbar", "--model", "mock:echo", "--judge", "mock:ones",
                "--judge", "mock:zeros", "--form-judge", "mock:ones", "--form-judge",
                "mock:zeros", "--out", str(out))
    _no_traceback(res)
    assert res.exit_code == 1, res.output
    for task, why in (("fifo", "is a named pipe (FIFO)"), ("zero", "is a link to /dev/zero"),
                      ("outside", "is a link to")):
        assert any(line.startswith(f"warning: not evaluated: task {task}: document refused")
                   and why in line for line in res.stderr.splitlines()), task
    assert ("Error: nothing was evaluated in mock:echo 0-shot: every one of its 6 items was "
            "refused") in res.stderr
    assert "TOPSECRET" not in _samples(out, "mock_echo").read_text("utf-8")


def test_a_document_listed_by_a_path_out_fails_only_its_task(tmp_path):
    root = tmp_path / "tasks"
    write_task(root, "good")
    write_task(root, "bad", task={"title": "Bad",
                                  "documents": ["contract.md", "../../../../etc/passwd"]})
    out = tmp_path / "out"
    res = _eval(str(root), "--task", "highbar", "--model", "mock:echo", "--judge", "mock:ones",
                "--judge", "mock:zeros", "--form-judge", "mock:ones", "--form-judge",
                "mock:zeros", "--out", str(out))
    _no_traceback(res)
    assert res.exit_code == 1, res.output  # the refused task's attempts are failed samples
    assert ("some samples failed — mock:echo 0-shot: 2 item(s) refused" in res.stderr)
    assert ("warning: not evaluated: task bad: document refused, the task is not asked: "
            in res.stderr)
    assert ("document '../../../../etc/passwd' is not a file name inside documents/; refused, "
            "nothing read") in res.stderr
    samples = [json.loads(x) for x in _samples(out, "mock_echo").read_text("utf-8").splitlines()]
    by_id = {s["id"]: s for s in samples}
    assert by_id["good#run1"]["error"] is None and by_id["good#run1"]["raw_output"]
    assert "../../../../etc/passwd" in by_id["bad#run1"]["error"]
    assert "root:" not in _samples(out, "mock_echo").read_text("utf-8")


# --------------------------------------------------------------------------- F3: non-UTF-8
def test_a_document_named_in_latin_1_is_evaluated(tmp_path):
    root = tmp_path / "tasks"
    task = write_task(root, "t1", document=None)
    name = os.fsdecode(b"contract_\xfc.md")
    (task / "documents" / name).write_text("1. Notice: 30 days.\n2. English law governs.\n",
                                           encoding="utf-8")
    out = tmp_path / "out"
    res = _eval(str(root), "--task", "highbar", "--model", "mock:echo", "--judge", "mock:ones",
                "--judge", "mock:zeros", "--form-judge", "mock:ones", "--form-judge",
                "mock:zeros", "--out", str(out))
    _no_traceback(res)
    assert res.exit_code == 0, res.output
    text = _samples(out, "mock_echo").read_text("utf-8")
    assert "contract_\\\\xfc.md" in text  # the printable name, JSON-escaped
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["dataset"]["tasks"] == 1


@pytest.mark.parametrize("where", ["--out", "DATASET"])
def test_a_non_utf8_out_or_dataset_is_a_usage_error(sample_export, tmp_path, where):
    bad = tmp_path / os.fsdecode(b"o_\xfc")
    if where == "DATASET":
        bad.mkdir()
        args = [str(bad), "--model", "mock", "--out", str(tmp_path / "out")]
    else:
        args = [str(sample_export), "--model", "mock", "--out", str(bad)]
    res = _eval(*args)
    _no_traceback(res)
    assert res.exit_code == 2, res.output
    # the name shown with its byte escaped (repr() may double the backslash)
    assert "o_\\xfc'" in res.output.replace("\\\\", "\\")
    assert "is not a UTF-8 path" in res.output and "Arrow" in res.output
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- F6: the cache
@pytest.mark.parametrize(("kind", "message"), [
    ("garbage", ("is not a buildds response cache (file is not a database); delete it or "
                 "use --no-cache")),
    ("folder", "is a folder, not a buildds response cache; delete it or use --no-cache"),
    ("other-db", ("is not a buildds response cache (its responses table has the columns "
                  "a, b); delete it or use --no-cache")),
])
def test_a_corrupt_cache_is_a_clear_error(sample_export, tmp_path, kind, message):
    out = tmp_path / "out"
    cache = out / "cache" / "responses.sqlite"
    cache.parent.mkdir(parents=True)
    if kind == "garbage":
        cache.write_bytes(b"SQLite format 3\0" + bytes(range(256)) * 8)
    elif kind == "folder":
        cache.mkdir()
    else:
        db = sqlite3.connect(cache)
        db.execute("CREATE TABLE responses (a, b)")
        db.commit()
        db.close()
    res = _eval(str(sample_export), "--model", "mock", "--limit", "2", "--out", str(out))
    _no_traceback(res)
    assert res.exit_code == 1, res.output
    assert res.stderr == f"Error: {cache}: {message}\n"
    res = _eval(str(sample_export), "--model", "mock", "--limit", "2", "--out", str(out),
                "--no-cache")
    assert res.exit_code == 0, res.output


def test_a_cache_failing_half_way_is_a_clear_error(tmp_path):
    from buildds.errors import BuildError
    from buildds.evaluate.answering import answer
    from buildds.evaluate.backends.mock import MockBackend
    from buildds.evaluate.cache import CachedBackend, ResponseCache
    from buildds.schema.evaluation import ChatMessage

    cache = ResponseCache(tmp_path / "c.sqlite")
    backend = CachedBackend(MockBackend("ones", concurrency=2), cache)
    cache._db.execute("DROP TABLE responses")  # another process wrecks it under us
    requests = [ChatRequest(messages=(ChatMessage(role="user", content=f"q{i}"),),
                            sample_id=str(i)) for i in range(3)]
    with pytest.raises(BuildError, match=r"c\.sqlite: cannot use the response cache "
                                         r"\(no such table: responses\); delete it or use "
                                         r"--no-cache"):
        answer(backend, requests, None, "x")
    cache.close()


# --------------------------------------------------------------------------- F8: usage
@pytest.mark.parametrize(("extra", "option", "message"), [
    (["--model", "nosuch:x"], "--model", "unknown backend 'nosuch:x'"),
    (["--model", "mock:nosuch"], "--model", "unknown mock mode 'nosuch'"),
    (["--model", "openai:"], "--model", "give a model, e.g. openai:gpt-4o"),
    (["--model", "mock", "--task", "nosuch"], "--task", "unknown task 'nosuch'"),
    (["--model", "mock", "--task", "highbar", "--judge", "mock:ones"], "--judge",
     "give at least 2 with --judge"),
    (["--model", "mock", "--task", "highbar", "--judge", "mock:ones", "--judge", "mock:zeros",
      "--form-judge", "mock:ones"], "--form-judge", "give at least 2 with --form-judge"),
    (["--model", "mock", "--form-judge", "mock:ones"], "--form-judge", "has no form judges"),
    (["--model", "mock", "--judge", "mock:ones"], "--judge", "scored without judges"),
    (["--model", "mock", "--shots", "3"], "--shots", "evaluated with 0 or 4 demonstrations"),
    (["--model", "openai:m", "--base-url", "file:///etc/passwd"], "--base-url",
     "'file:///etc/passwd' is not an http(s):// URL with a host"),
    (["--model", "openai:m", "--base-url", "localhost:8000/v1"], "--base-url",
     "is not an http(s):// URL with a host"),
    (["--model", "openai:m", "--base-url", "http://h:x/v1?token=topsecretQ999"], "--base-url",
     "'http://h:x/v1?token=***' is not an http(s):// URL"),
])
def test_bad_options_are_usage_errors(tmp_path, extra, option, message):
    res = _eval(str(tmp_path), *extra, "--out", str(tmp_path / "out"))
    _no_traceback(res)
    assert res.exit_code == 2, res.output
    assert f"Invalid value for '{option}'" in res.output and message in res.output
    assert "topsecretQ999" not in res.output
    assert not (tmp_path / "out").exists()  # refused before anything was loaded or written


# --------------------------------------------------------------------------- F9: URL secrets
def _every_byte(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def test_a_secret_in_the_base_url_is_stored_nowhere(sample_export, tmp_path):
    export = _export(sample_export, tmp_path / "export", ["", ""])
    out = tmp_path / "out"
    with OpenAITestServer() as server:
        url = f"{server.base_url}?api-key=topsecretQ999&api-version=2024-06-01"
        res = _eval(str(export), "--model", "openai:m", "--base-url", url, "--out", str(out))
        assert res.exit_code == 0, res.output
        # the requests went to the real URL, the query after the path
        sent = "/v1/chat/completions?api-key=topsecretQ999&api-version=2024-06-01"
        assert server.paths == [sent, sent]
    assert "topsecretQ999" not in res.output
    for db in (out / "cache").glob("responses.sqlite*"):
        sqlite3.connect(db).execute("PRAGMA wal_checkpoint(FULL)").close()
    assert b"topsecretQ999" not in _every_byte(out)
    shown = f"{server.base_url}?api-key=***&api-version=2024-06-01"
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["models"][0]["settings"]["base_url"] == shown
    metrics = json.loads((out / "openai_m" / "0shot" / "metrics.json").read_text("utf-8"))
    assert metrics["backend"]["base_url"] == shown
    rows = sqlite3.connect(out / "cache" / "responses.sqlite").execute(
        "SELECT backend FROM responses").fetchall()
    assert rows == [(f"openai:m@{shown}",)] * 2


def test_urls_without_secrets_keep_their_form_and_cache_keys():
    from buildds.evaluate.backends.openai import OpenAIBackend, endpoint_url

    for url in ("http://127.0.0.1:8000/v1", "https://api.example.com/v1?api-version=2024",
                "http://h/v1?", "http://h/v1?key="):
        assert redact_url(url) == url and url_secrets(url) == []
    backend = OpenAIBackend("m", base_url="http://127.0.0.1:8000/v1/")
    assert backend.cache_namespace == "openai:m@http://127.0.0.1:8000/v1"  # as before
    assert endpoint_url("http://127.0.0.1:8000/v1") == "http://127.0.0.1:8000/v1/chat/completions"


@pytest.mark.parametrize(("url", "shown", "secrets"), [
    ("http://h/v1?api-key=s3cr3tvalue", "http://h/v1?api-key=***", ["s3cr3tvalue"]),
    ("https://user:pa55word@h/v1", "https://***@h/v1", ["pa55word", "user:pa55word"]),
    ("http://h/v1?a=1&access_token=x%2By&X-Amz-Signature=abc&sig=q&design=2",
     "http://h/v1?a=1&access_token=***&X-Amz-Signature=***&sig=***&design=2",
     ["abc", "q", "x%2By", "x+y"]),
    ("http://h/v1?client_secret=z&password=p&auth=a#frag",
     "http://h/v1?client_secret=***&password=***&auth=***#frag", ["a", "p", "z"]),
])
def test_redact_url(url, shown, secrets):
    assert redact_url(url) == shown
    assert url_secrets(url) == secrets


def test_an_echoed_url_secret_is_redacted_in_answers(tmp_path):
    from buildds.evaluate.backends.openai import OpenAIBackend

    backend = OpenAIBackend("m", base_url="http://h/v1?api-key=topsecretQ999")
    assert backend.redactor.text("you sent topsecretQ999") == "you sent ***"
    assert "topsecretQ999" not in repr(backend) + json.dumps(backend.settings())
