"""The API key never reaches a stored text: a server that echoes the Authorization header
(in a normal answer, in an error body) leaves no trace of the key under --out — samples,
metrics, leaderboard, manifest, the SQLite cache's bytes — nor in the console or the logs."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from click.testing import CliRunner

from buildds.commands.eval import eval_cmd
from buildds.evaluate.cache import ResponseCache, cache_key
from buildds.evaluate.redact import Redactor
from buildds.evaluate.tasks.jbe import load_jbe_data
from buildds.schema.evaluation import ChatMessage, ChatRequest, ChatResult
from tests.evaluate.openai_server import OpenAITestServer

KEY = "sk-echo-0123456789abcdefSECRET"


def _all_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_an_echoed_key_is_in_no_stored_file(sample_export, tmp_path, monkeypatch, caplog):
    import pandas as pd

    markers = ["[echo-auth]", "[echo-auth:400]", "", "[echo-auth]"]
    rows = [{**it, "question": f"{it['question']} {m}".strip()}
            for it, m in zip(load_jbe_data(sample_export).scored(), markers, strict=False)]
    export = tmp_path / "export" / "test.parquet"
    export.parent.mkdir()
    pd.DataFrame(rows).to_parquet(export, index=False)
    monkeypatch.setenv("BUILDDS_ECHO_KEY", KEY)
    caplog.set_level(logging.DEBUG)
    out = tmp_path / "out"
    with OpenAITestServer() as server:
        res = CliRunner().invoke(eval_cmd, [
            str(export), "--task", "jbe", "--model", "openai:m", "--base-url", server.base_url,
            "--api-key-env", "BUILDDS_ECHO_KEY", "--out", str(out), "-q", "--max-attempts", "2",
            "--allow-failures"])
        assert res.exit_code == 0, res.output
        assert server.authorization[0] == f"Bearer {KEY}"  # it was sent, and echoed
    samples = [json.loads(line) for line in
               (out / "openai_m" / "0shot" / "samples.jsonl").read_text("utf-8").splitlines()]
    assert samples[0]["raw_output"] == "your header was Bearer ***"
    assert samples[1]["error"].startswith("http 400: ") and "Bearer ***" in samples[1]["error"]
    assert samples[2]["parsed"] == 1

    files = _all_bytes(out)
    assert {"manifest.json", "leaderboard.md", "leaderboard.json",
            "openai_m/0shot/samples.jsonl", "openai_m/0shot/metrics.json",
            "cache/responses.sqlite"} <= set(files)
    for name, data in files.items():
        for needle in (KEY, KEY[:16], KEY[-12:]):
            assert needle.encode() not in data, name
    assert KEY not in res.output and KEY not in caplog.text

    # the re-run answers from the cache, still without the key
    with OpenAITestServer() as server:
        res = CliRunner().invoke(eval_cmd, [
            str(export), "--task", "jbe", "--model", "openai:m", "--base-url", server.base_url,
            "--api-key-env", "BUILDDS_ECHO_KEY", "--out", str(out), "-q", "--max-attempts", "2",
            "--allow-failures"])
        assert res.exit_code == 0, res.output
    for name, data in _all_bytes(out).items():
        assert KEY.encode() not in data, name


def test_cache_redacts_what_it_stores_and_what_an_older_cache_returns(tmp_path):
    request = ChatRequest(messages=(ChatMessage(role="user", content=f"say {KEY}"),))
    echoed = ChatResult(text=f"you said {KEY}", error=None)
    key = cache_key("openai:m", "m", request)
    old = tmp_path / "old.sqlite"
    with ResponseCache(old) as cache:  # written as before keys were redacted
        cache.put(key, backend="openai:m", model="m", request=request, result=echoed)
    with ResponseCache(old, redactor=Redactor([KEY])) as cache:
        hit = cache.get(key)
    assert hit is not None and hit.text == "you said ***"

    new = tmp_path / "new.sqlite"
    with ResponseCache(new, redactor=Redactor([KEY])) as cache:
        cache.put(key, backend="openai:m", model="m", request=request, result=echoed)
    stored = [data for name, data in _all_bytes(tmp_path).items() if name.startswith("new")]
    assert stored and not any(KEY.encode() in data for data in stored)


def test_redactor_forms_and_short_values():
    r = Redactor([KEY, 'sk-with"quote\\0123', "EMPTY", None, ""])
    assert r.text(f"a {KEY} b") == "a *** b"
    # inside JSON a quote and a backslash are escaped: that form is replaced too
    dumped = json.dumps({"x": 'sk-with"quote\\0123'})
    assert r.text(dumped) == '{"x": "***"}'
    # a placeholder key guards nothing, and replacing it would rewrite answers
    assert r.text("EMPTY 1") == "EMPTY 1"
    assert not Redactor(["short", None]) and Redactor([KEY])
    assert r.value({"k": [f"{KEY}", 1, None]}) == {"k": ["***", 1, None]}
    merged = Redactor(["first-secret-value"]) | Redactor(["second-secret-value"])
    assert merged.text("first-secret-value second-secret-value") == "*** ***"
