"""``buildds eval`` against the scripted server (tests/evaluate/openai_server.py, a real HTTP
server on 127.0.0.1), one scenario at a time — answers, bad answers, 429, 500, 401, 404,
stall — each checking every sample's status (answered / unfaithful / failed: parsed and
score) and the exit code (issue 16: failures are failures). Then a re-run that resends only
the failed requests, and the models file (each model its own endpoint and key variable)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from buildds.commands.eval import eval_cmd
from buildds.evaluate.tasks.jbe import load_jbe_data
from tests.evaluate.openai_server import OpenAITestServer

KEY = "sk-scenario-secret-0123456789abcdef"


def _export(sample_export: Path, folder: Path, markers: list[str]
            ) -> tuple[Path, list[dict[str, Any]]]:
    """A parquet of the first ``len(markers)`` scored items, each question ending in its
    marker (the server's script), and the rows."""
    import pandas as pd

    rows = [{**it, "question": f"{it['question']} {marker}".strip()}
            for it, marker in zip(load_jbe_data(sample_export).scored(), markers, strict=False)]
    folder.mkdir(parents=True)
    path = folder / "test.parquet"
    pd.DataFrame(rows).to_parquet(path, index=False)
    return path, rows


def _eval(export: Path, out: Path, server: OpenAITestServer, *extra: str) -> Result:
    return CliRunner().invoke(eval_cmd, [
        str(export), "--model", "openai:m", "--base-url", server.base_url, "--out", str(out),
        "--max-attempts", "2", "--timeout", "0.5", "-q", *extra])


def _samples(out: Path, slug: str = "openai_m") -> list[dict[str, Any]]:
    path = out / slug / "0shot" / "samples.jsonl"
    return [json.loads(x) for x in path.read_text("utf-8").splitlines()]


def _metrics(out: Path, slug: str = "openai_m") -> dict[str, Any]:
    return json.loads((out / slug / "0shot" / "metrics.json").read_text("utf-8"))


def _status(sample: dict[str, Any]) -> str:
    """failed (no answer: no parsed value, no score), unfaithful or answered."""
    if sample["error"] is not None:
        assert sample["parsed"] is None and sample["score"] is None, sample
        return "failed"
    assert sample["score"] in (0.0, 1.0), sample
    return "unfaithful" if sample["parsed"] is None else "answered"


SCENARIOS = [
    # (id, markers, extra options, per-sample status, exit code)
    pytest.param(["", "[answer:0]", ""], [], ["answered"] * 3, 0, id="answers"),
    pytest.param(["[bad]", "", "[bad]"], [], ["unfaithful", "answered", "unfaithful"], 0,
                 id="bad-answers-are-answers"),
    pytest.param(["[fail:429:1]", ""], [], ["answered", "answered"], 0,
                 id="429-then-answered"),
    pytest.param(["[fail:429:99]", ""], [], ["failed", "answered"], 1,
                 id="429-for-good-fails-the-sample"),
    pytest.param(["", "[fail:500:99]", "[fail:500:1]"], [], ["answered", "failed", "answered"],
                 1, id="500"),
    pytest.param(["", "[fail:500:99]"], ["--allow-failures"], ["answered", "failed"], 0,
                 id="500-allowed"),
    pytest.param(["[stall]", ""], [], ["failed", "answered"], 1, id="stall"),
]


@pytest.mark.parametrize(("markers", "extra", "statuses", "code"), SCENARIOS)
def test_scenario_statuses_and_exit_code(sample_export, tmp_path, markers, extra, statuses,
                                         code):
    export, rows = _export(sample_export, tmp_path / "export", markers)
    out = tmp_path / "out"
    with OpenAITestServer(stall_s=30.0, retry_after="0.1") as server:
        res = _eval(export, out, server, *extra)
    assert res.exit_code == code, res.output
    samples = _samples(out)
    assert [_status(s) for s in samples] == statuses
    for s, row in zip(samples, rows, strict=True):
        if _status(s) == "unfaithful":  # the seed's convention: an unparseable answer is 0
            assert s["score"] == (0.0 if row["answer"] else 1.0)
    m = _metrics(out)
    assert m["samples"] == {"items": len(markers), "answered": statuses.count("answered")
                            + statuses.count("unfaithful"), "failed": statuses.count("failed"),
                            "refused": 0, "unfaithful": statuses.count("unfaithful")}
    assert m["n"] == m["samples"]["answered"]
    if statuses.count("failed"):
        assert "some samples failed" in res.stderr or "--allow-failures" in extra
    board = json.loads((out / "leaderboard.json").read_text("utf-8"))
    assert board["samples"] == [{"model": "openai:m", "shots": 0, **m["samples"]}]


def test_a_failed_request_is_never_counted_correct(sample_export, tmp_path):
    """The issue's case: failures used to be parsed as the answer "0", correct whenever the
    gold answer is False. Here every request whose gold is False fails: accuracy is over the
    answered (gold True) samples alone."""
    data = load_jbe_data(sample_export).scored()[:8]
    markers = ["" if it["answer"] else "[fail:500:99]" for it in data]
    assert "" in markers and "[fail:500:99]" in markers
    export, _ = _export(sample_export, tmp_path / "export", markers)
    out = tmp_path / "out"
    with OpenAITestServer() as server:
        res = _eval(export, out, server, "--allow-failures")
    assert res.exit_code == 0, res.output
    m = _metrics(out)
    # the server answers "1": every answered sample (gold True) is right; nothing else counts
    assert m["accuracy"] == 1.0 and m["confusion"]["tn"] == 0 and m["confusion"]["fp"] == 0
    assert m["samples"]["failed"] == markers.count("[fail:500:99]")


@pytest.mark.parametrize(("status", "hint"), [
    (401, "check the API key in $BUILDDS_SCENARIO_KEY"),
    (403, "check the API key in $BUILDDS_SCENARIO_KEY"),
    (404, "check the model name ('m') and the base URL"),
])
def test_auth_and_not_found_stop_the_run_at_once(sample_export, tmp_path, monkeypatch,
                                                 status, hint):
    """Every request refused: one request is sent, the run stops with exit 1 and a message
    naming the model, its endpoint and the key's variable — never the key."""
    monkeypatch.setenv("BUILDDS_SCENARIO_KEY", KEY)
    export, _ = _export(sample_export, tmp_path / "export", [f"[echo-auth:{status}]"] * 20)
    out = tmp_path / "out"
    with OpenAITestServer() as server:
        res = _eval(export, out, server, "--api-key-env", "BUILDDS_SCENARIO_KEY",
                    "--concurrency", "8")
        sent = server.total
    assert res.exit_code == 1, res.output
    assert sent == 1  # not 20, not the 8 the concurrency allows
    assert f"Error: openai:m at {server.base_url}: http {status}" in res.stderr
    assert hint in res.stderr and "The run is stopped" in res.stderr
    assert KEY not in res.output and "Bearer ***" in res.stderr  # the echo, redacted
    assert "Traceback" not in res.output
    assert not (out / "openai_m" / "0shot" / "metrics.json").exists()  # no figures at all


def test_a_refusing_endpoint_after_answers_stops_too(sample_export, tmp_path):
    """A key revoked half-way: the run stops at the first 401 (exit 1), and what was
    answered is in the cache for the re-run."""
    export, _ = _export(sample_export, tmp_path / "export", ["", "", "[fail:401:99]", ""])
    out = tmp_path / "out"
    with OpenAITestServer() as server:
        res = _eval(export, out, server, "--concurrency", "1")
        assert res.exit_code == 1 and "http 401" in res.stderr, res.output
        assert server.total == 3  # the fourth was not sent
        server.reset()
        res = _eval(export, out, server, "--concurrency", "1")
        assert res.exit_code == 1 and server.total == 1  # the two answers came from the cache


def test_rerun_resends_only_failed_and_missing(sample_export, tmp_path):
    """A 500 (once), a stall and answers: the re-run sends only the two failed requests;
    once the server has recovered, the run is complete and exits 0."""
    markers = ["", "[fail:500:1]", "", "[stall]", "", "[bad]"]
    export, _ = _export(sample_export, tmp_path / "export", markers)
    out = tmp_path / "out"
    with OpenAITestServer(stall_s=30.0) as server:
        first = _eval(export, out, server, "--max-attempts", "1")
        assert first.exit_code == 1, first.output
        assert server.total == 6
        assert [_status(s) for s in _samples(out)] == [
            "answered", "failed", "answered", "failed", "answered", "unfaithful"]
        before = server.total
        second = _eval(export, out, server, "--max-attempts", "1")
        assert server.total - before == 2  # only the failed ones were sent again
        assert second.exit_code == 1, second.output  # the stall still stalls
        assert [_status(s) for s in _samples(out)] == [
            "answered", "answered", "answered", "failed", "answered", "unfaithful"]
        server.stall_s = 0.0  # the stall is over (the same endpoint: the same cache)
        before = server.total
        third = _eval(export, out, server, "--max-attempts", "1")
        assert server.total - before == 1  # only the one still without an answer
    assert third.exit_code == 0, third.output
    samples = _samples(out)
    assert [_status(s) for s in samples] == ["answered"] * 5 + ["unfaithful"]
    assert [s["cached"] for s in samples] == [True, True, True, False, True, True]


# --------------------------------------------------------------------------- models file
def _models_file(path: Path, entries: list[dict[str, Any]]) -> Path:
    import yaml

    path.write_text(yaml.safe_dump({"models": entries}), encoding="utf-8")
    return path


def test_models_file_gives_each_model_its_endpoint_and_key(sample_export, tmp_path,
                                                           monkeypatch):
    monkeypatch.setenv("KEY_A", KEY + "A")
    monkeypatch.setenv("KEY_B", KEY + "B")
    export, _ = _export(sample_export, tmp_path / "export", ["", "[answer:0]", ""])
    out = tmp_path / "out"
    with OpenAITestServer() as a, OpenAITestServer() as b:
        models = _models_file(tmp_path / "models.yaml", [
            {"name": "openai:a", "base_url": a.base_url, "api_key_env": "KEY_A", "rpm": 600},
            {"name": "openai:b", "base_url": b.base_url, "api_key_env": "KEY_B",
             "concurrency": 2, "timeout": 7},
            {"name": "openai:unused", "base_url": "http://127.0.0.1:9/v1"}])
        res = CliRunner().invoke(eval_cmd, [str(export), "--model", "openai:a", "--model",
                                            "openai:b", "--models", str(models), "--out",
                                            str(out), "-q"])
        assert res.exit_code == 0, res.output
        assert set(a.authorization) == {f"Bearer {KEY}A"} and a.total == 3
        assert set(b.authorization) == {f"Bearer {KEY}B"} and b.total == 3
        assert {x["model"] for x in a.bodies} == {"a"} and {x["model"] for x in b.bodies} == {"b"}
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    settings = {m["model"]: m["settings"] for m in manifest["models"]}
    assert (settings["openai:a"]["base_url"], settings["openai:a"]["api_key_env"],
            settings["openai:a"]["rpm"]) == (a.base_url, "KEY_A", 600)
    assert (settings["openai:b"]["base_url"], settings["openai:b"]["api_key_env"],
            settings["openai:b"]["concurrency"], settings["openai:b"]["timeout_s"]) == (
        b.base_url, "KEY_B", 2, 7)
    for f in out.rglob("*"):
        if f.is_file():
            assert KEY.encode() not in f.read_bytes(), f
    assert KEY not in res.output


def test_models_file_falls_back_to_the_command_line(sample_export, tmp_path):
    """A spec without an entry takes --base-url; an entry's fields override it."""
    export, _ = _export(sample_export, tmp_path / "export", [""])
    out = tmp_path / "out"
    with OpenAITestServer() as default, OpenAITestServer() as own:
        models = _models_file(tmp_path / "models.yaml",
                              [{"name": "openai:own", "base_url": own.base_url}])
        res = CliRunner().invoke(eval_cmd, [str(export), "--model", "openai:plain", "--model",
                                            "openai:own", "--models", str(models),
                                            "--base-url", default.base_url, "--out", str(out),
                                            "-q"])
        assert res.exit_code == 0, res.output
        assert [x["model"] for x in default.bodies] == ["plain"]
        assert [x["model"] for x in own.bodies] == ["own"]


@pytest.mark.parametrize(("content", "message"), [
    ("models:\n  - name: openai:a\n    api_key_env: sk-live-abcdef123456\n",
     "models[0] (openai:a).api_key_env: must be the name of an environment variable"),
    ("models:\n  - name: openai:a\n    colour: red\n", ("models[0] (openai:a).colour: Extra "
     "inputs are not permitted")),
    ("models:\n  - name: openai:a\n  - name: openai:a\n", "openai:a listed more than once"),
    ("models:\n  - name: openai:a\n    rpm: -1\n", "models[0] (openai:a).rpm"),
    ("- name: openai:a\n", "a models file is a mapping with a 'models:' list"),
    ("models:\n  - name: gpt-4o\n", "models[0] (gpt-4o): name must be a backend spec"),
    ("models: [&x {name: a}, *x]\n", "aliases"),
    ("models:\n  - name: openai:a\n    base_url: file:///etc/passwd\n",
     "openai:a: base_url 'file:///etc/passwd' is not an http(s):// URL"),
])
def test_a_bad_models_file_is_a_usage_error(sample_export, tmp_path, content, message):
    models = tmp_path / "models.yaml"
    models.write_text(content, encoding="utf-8")
    res = CliRunner().invoke(eval_cmd, [str(sample_export), "--model", "openai:a",
                                        "--models", str(models), "--out",
                                        str(tmp_path / "out"), "-q"])
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert "sk-live-abcdef123456" not in res.output  # a key pasted by mistake is not shown
    assert not (tmp_path / "out").exists()
