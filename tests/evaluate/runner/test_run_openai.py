"""``buildds eval`` end to end with the real ``openai:`` backend against the scripted test
server on 127.0.0.1: answers, bad answers, 429 with Retry-After, 500s, stalls — and a resume
that sends no answered request twice. The server's script travels in the items themselves
(markers appended to the statements of a small export the test writes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from buildds.evaluate.backends import make_backend
from buildds.evaluate.runner import run_eval
from buildds.evaluate.tasks.jbe import load_jbe_data
from tests.evaluate.openai_server import OpenAITestServer

SECRET = "sk-runner-test-0123456789abcdef"
#: marker per item position; the rest answer "1"
SCRIPT = {0: "[answer:0]", 1: "[bad]", 2: "[fail:429:1]", 3: "[fail:500:99]", 4: "[stall]",
          5: "[answer:0]"}


@pytest.fixture
def scripted_export(sample_export: Path, tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    """12 scored sample items with the server's script in their statements, as one parquet."""
    import pandas as pd

    items = load_jbe_data(sample_export).scored()[:12]
    rows = []
    for i, it in enumerate(items):
        row = dict(it)
        row["question"] = f"{it['question']} {SCRIPT.get(i, '')}".strip()
        rows.append(row)
    path = tmp_path / "export" / "test.parquet"
    path.parent.mkdir()
    pd.DataFrame(rows).to_parquet(path, index=False)
    return path, rows


@pytest.fixture
def server():
    with OpenAITestServer(stall_s=3.0, retry_after="0.2") as srv:
        yield srv


def _factory(spec: str, **options: Any) -> Any:
    # short timeouts and backoff so the failure cases finish quickly; the backend is real
    return make_backend(spec, **options, timeout_s=0.5, backoff_base_s=0.01, max_attempts=3)


def _samples(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_eval_against_the_test_server(scripted_export, server, tmp_path, monkeypatch):
    monkeypatch.setenv("BUILDDS_RUNNER_KEY", SECRET)
    export, rows = scripted_export
    out = tmp_path / "eval"
    options = {"base_url": server.base_url, "api_key_env": "BUILDDS_RUNNER_KEY",
               "concurrency": 4}
    report = run_eval(export, task="jbe", models=["openai:test-model"], out=out,
                      backend_options=options, backend_factory=_factory)

    samples = _samples(out / "openai_test-model" / "0shot" / "samples.jsonl")
    assert [s["id"] for s in samples] == [str(r["id"]) for r in rows]
    by_pos = dict(enumerate(samples))
    assert by_pos[0]["parsed"] == 0 and by_pos[5]["parsed"] == 0
    assert by_pos[1]["parsed"] is None and by_pos[1]["raw_output"].startswith("1. Explanation")
    assert by_pos[2]["parsed"] == 1 and by_pos[2]["error"] is None      # 429 once, then answered
    assert by_pos[3]["error"] and "500" in by_pos[3]["error"]           # gave up after 3 tries
    assert by_pos[4]["error"] and "timeout" in by_pos[4]["error"].lower()
    assert all(by_pos[i]["parsed"] == 1 for i in range(6, 12))

    # the server saw: the 429 prompt twice, the 500 prompt max_attempts times
    def received(marker: str) -> int:
        return sum(n for prompt, n in server.counts.items() if marker in prompt)

    assert received(SCRIPT[2]) == 2 and received(SCRIPT[3]) == 3

    m = report.runs[0].metrics
    # the two failed requests (500, timeout) have no parsed answer and no score, and the
    # metrics are over the 10 answered samples (issue 16: a failure is never the answer 0)
    assert [i for i, s in by_pos.items() if s["score"] is None] == [3, 4]
    assert by_pos[3]["parsed"] is None and by_pos[4]["parsed"] is None
    answered = [i for i in range(len(rows)) if i not in (3, 4)]
    gold = [bool(rows[i]["answer"]) for i in answered]
    pred = [samples[i]["parsed"] == 1 for i in answered]
    tp = sum(g and p for g, p in zip(gold, pred, strict=True))
    fp = sum(p and not g for g, p in zip(gold, pred, strict=True))
    fn = sum(g and not p for g, p in zip(gold, pred, strict=True))
    assert m["confusion"] == {"tp": tp, "fp": fp, "fn": fn,
                              "tn": len(answered) - tp - fp - fn}
    assert m["n"] == 10 and m["faithfulness"] == pytest.approx(9 / 10, abs=1e-6)  # bad one
    assert m["errors"] == 2
    assert m["samples"] == {"items": 12, "answered": 10, "failed": 2, "refused": 0,
                            "unfaithful": 1}
    # the key reached the server and nowhere on disk
    assert server.authorization[0] == f"Bearer {SECRET}"
    for f in out.rglob("*"):
        if f.is_file() and f.suffix in (".json", ".jsonl", ".md"):
            assert SECRET not in f.read_text(encoding="utf-8")

    # resume: only the two failed requests are sent again; answers come from the cache
    server.reset()
    again = run_eval(export, task="jbe", models=["openai:test-model"], out=out,
                     backend_options=options, backend_factory=_factory)
    assert received(SCRIPT[3]) == 3 and received(SCRIPT[4]) == 3
    assert sum(server.counts.values()) == 6       # nothing else was sent
    resumed = _samples(out / "openai_test-model" / "0shot" / "samples.jsonl")
    assert sum(s["cached"] for s in resumed) == 10
    assert again.runs[0].metrics["f1"] == m["f1"]


def test_eval_command_with_openai_backend(scripted_export, server, tmp_path, monkeypatch):
    """The CLI with --base-url and --api-key-env (defaults for timeouts: only answering
    items, so nothing waits)."""
    monkeypatch.setenv("BUILDDS_RUNNER_KEY", SECRET)
    _, rows = scripted_export
    import pandas as pd

    calm = tmp_path / "calm" / "test.parquet"
    calm.parent.mkdir()
    pd.DataFrame([r for i, r in enumerate(rows) if i not in (2, 3, 4)]).to_parquet(calm)
    from buildds.commands.eval import eval_cmd

    out = tmp_path / "cli"
    res = CliRunner().invoke(eval_cmd, [str(calm), "--task", "jbe", "--model",
                                        "openai:test-model", "--base-url", server.base_url,
                                        "--api-key-env", "BUILDDS_RUNNER_KEY", "--out", str(out),
                                        "-q"])
    assert res.exit_code == 0, res.output
    assert "best F1" in res.output and SECRET not in res.output
    lb = (out / "leaderboard.md").read_text(encoding="utf-8")
    assert "| openai:test-model |" in lb
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["models"][0]["settings"]["base_url"] == server.base_url
    assert SECRET not in json.dumps(manifest)
