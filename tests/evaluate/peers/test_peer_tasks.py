"""The task files every JBE-QA export ships (``inspect/jbe.py``, ``lm_eval/jbe*.yaml`` +
``utils.py``) run in the real peers — inspect_ai and lm-eval, from PyPI — against the scripted
OpenAI-compatible server on 127.0.0.1, zero- and four-shot, and give buildds' per-sample
answers and scores, its metrics, and send buildds' very requests."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from buildds.evaluate.peers import peer_task_files
from buildds.evaluate.runner import run_eval
from tests.evaluate.openai_server import OpenAITestServer

N = 12
METRICS = ("f1", "precision", "recall", "accuracy", "faithfulness")


def answer_of(prompt: str) -> str:
    """A fixed answer per prompt: 1, 0, or an unfaithful one."""
    return ("1", "0", "1. 説明：判例による。")[int(hashlib.sha256(prompt.encode()).hexdigest(),
                                                  16) % 3]


def test_every_jbe_export_ships_the_task_files(sample_export: Path):
    files = peer_task_files("jbe")
    assert sorted(files) == ["inspect/jbe.py", "lm_eval/jbe.yaml", "lm_eval/jbe_4shot.yaml",
                             "lm_eval/utils.py"]
    for rel, text in files.items():
        assert (sample_export / rel).read_text(encoding="utf-8") == text
    assert "import buildds" not in files["inspect/jbe.py"] + files["lm_eval/utils.py"]
    for name in ("inspect/jbe.py", "lm_eval/utils.py"):
        compile(files[name], name, "exec")


@pytest.fixture
def export(sample_export: Path, tmp_path: Path) -> Path:
    """The export's data and task files, where a user would have them."""
    out = tmp_path / "export"
    for part in ("data", "inspect", "lm_eval"):
        shutil.copytree(sample_export / part, out / part)
    return out


def _by_prompt(bodies: list[dict[str, Any]]) -> list[str]:
    """The messages of each request (roles and contents), sorted."""
    return sorted(json.dumps([[m["role"], m["content"]] for m in body["messages"]],
                             ensure_ascii=False) for body in bodies)


def _buildds(export: Path, server: OpenAITestServer, out: Path) -> dict[int, Any]:
    server.reset()
    run_eval(export / "data" / "test.parquet", task="jbe", models=["openai:m"], shots=[0, 4],
             limit=N, out=out, backend_options={"base_url": server.base_url}, use_cache=False)
    runs = {}
    for shots in (0, 4):
        run = out / "openai_m" / f"{shots}shot"
        samples = [json.loads(x) for x in (run / "samples.jsonl").read_text().splitlines()]
        metrics = json.loads((run / "metrics.json").read_text())
        runs[shots] = (samples, metrics)
    return {"runs": runs, "requests": _by_prompt(server.bodies)}


def _inspect(export: Path, server: OpenAITestServer, logs: Path, monkeypatch) -> dict[int, Any]:
    from inspect_ai import eval as inspect_eval

    monkeypatch.chdir(export)
    monkeypatch.setenv("LOCAL_API_KEY", "unused")
    server.reset()
    runs = {}
    for shots in (0, 4):
        log = inspect_eval("inspect/jbe.py", model="openai-api/local/m",
                           model_base_url=server.base_url, task_args={"shots": shots},
                           limit=N, log_dir=str(logs), display="none")[0]
        assert log.status == "success", log.error
        samples = [{"id": s.id, "answer": s.scores["jbe_answer"].answer,
                    "score": 1.0 if s.scores["jbe_answer"].value == "C" else 0.0,
                    "raw": s.output.completion} for s in log.samples]
        metrics = {k: v.value for k, v in log.results.scores[0].metrics.items()}
        runs[shots] = (samples, metrics)
    return {"runs": runs, "requests": _by_prompt(server.bodies)}


def _lm_eval(export: Path, server: OpenAITestServer) -> dict[int, Any]:
    import lm_eval
    from lm_eval.tasks import TaskManager

    server.reset()
    result = lm_eval.simple_evaluate(
        model="local-chat-completions",
        model_args=f"model=m,base_url={server.base_url}/chat/completions,num_concurrent=1,"
                   "max_retries=1",
        tasks=["buildds_jbe", "buildds_jbe_4shot"],
        task_manager=TaskManager(include_path=str(export / "lm_eval")),
        apply_chat_template=True, fewshot_as_multiturn=True, log_samples=True, limit=N)
    runs = {}
    for shots, name in ((0, "buildds_jbe"), (4, "buildds_jbe_4shot")):
        samples = [{"id": s["doc"]["id"], "answer": s["answer"], "score": s["acc"],
                    "raw": s["resps"][0][0]} for s in result["samples"][name]]
        scores = result["results"][name]
        metrics = {k: scores[f"{'acc' if k == 'accuracy' else k},none"] for k in METRICS}
        runs[shots] = (samples, metrics)
    return {"runs": runs, "requests": _by_prompt(server.bodies)}


def test_peers_reproduce_buildds(export, tmp_path, monkeypatch):
    pytest.importorskip("inspect_ai")
    pytest.importorskip("lm_eval")
    with OpenAITestServer(answer_of=answer_of) as server:
        ours = _buildds(export, server, tmp_path / "eval")
        theirs = {"inspect_ai": _inspect(export, server, tmp_path / "logs", monkeypatch),
                  "lm-eval": _lm_eval(export, server)}
    for shots in (0, 4):
        samples, metrics = ours["runs"][shots]
        assert len(samples) == N
        assert {s["parsed"] for s in samples} == {0, 1, None}   # every kind of answer occurs
        want = [(s["id"], None if s["parsed"] is None else str(s["parsed"]), s["score"],
                 s["raw_output"]) for s in samples]
        for peer, got in theirs.items():
            peer_samples, peer_metrics = got["runs"][shots]
            assert [(s["id"], s["answer"], s["score"], s["raw"]) for s in peer_samples] \
                == want, (peer, shots)
            for key in METRICS:
                assert peer_metrics[key] == pytest.approx(metrics[key], abs=1e-6), (peer, key)
    # the same prompts: every peer sent buildds' messages, turn for turn
    assert len(ours["requests"]) == 2 * N
    for peer, got in theirs.items():
        assert got["requests"] == ours["requests"], peer


def test_task_files_are_deterministic_and_named():
    from buildds.errors import BuildError
    from buildds.evaluate.peers import PEER_TASKS

    assert set(PEER_TASKS) == {"jbe", "appellate-review", "clause-classification"}
    for task in PEER_TASKS:
        assert peer_task_files(task) == peer_task_files(task)
    with pytest.raises(BuildError, match="no peer task files for task 'highbar'"):
        peer_task_files("highbar")
