"""Clause-classification exports (``buildds contracts --annotations``) ship
``inspect/clause_classification.py`` and ``lm_eval/clause_classification.yaml`` (+
``utils.py``); run in inspect_ai and lm-eval against the scripted server on 127.0.0.1, they
give buildds' per-sample label lists and scores, its metrics, and send buildds' requests."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from buildds.evaluate.peers import peer_task_files
from buildds.evaluate.runner import run_eval
from tests.evaluate.openai_server import OpenAITestServer
from tests.evaluate.peers.test_peer_tasks import _by_prompt

METRICS = ("f1", "precision", "recall", "hallucinations", "exact_match")
#: what the server answers, by a hash of the prompt: lists, none, a hallucination, prose
ANSWERS = ("**Legal Clauses:**\n- 完全合意\n- 秘密保持", "No valid legal clauses found.",
           "**Legal Clauses:**\n1. 再委託\n2) 存在しない条項", "- 目的",
           "The clause is about confidentiality.", "Legal Clauses:\n- **損害賠償**\n- 目的")


def answer_of(prompt: str) -> str:
    return ANSWERS[int(hashlib.sha256(prompt.encode()).hexdigest(), 16) % len(ANSWERS)]


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from tests.evaluate.tasks.rikai.test_classification import build_classification_export

    return build_classification_export(tmp_path_factory.mktemp("rikai_peers"))


def test_the_export_ships_the_task_files(export: Path):
    files = peer_task_files("clause-classification")
    assert sorted(files) == ["inspect/clause_classification.py",
                             "lm_eval/clause_classification.yaml", "lm_eval/utils.py"]
    for rel, text in files.items():
        assert (export / rel).read_text(encoding="utf-8") == text
        assert "import buildds" not in text


def _labels(parsed: list[str] | None) -> str | None:
    return None if parsed is None else json.dumps(parsed, ensure_ascii=False)


def _buildds(export: Path, server: OpenAITestServer, out: Path) -> Any:
    server.reset()
    run_eval(export, task="clause-classification", models=["openai:m"], out=out,
             backend_options={"base_url": server.base_url}, use_cache=False)
    run = out / "openai_m" / "0shot"
    samples = [json.loads(x) for x in (run / "samples.jsonl").read_text().splitlines()]
    return samples, json.loads((run / "metrics.json").read_text()), _by_prompt(server.bodies)


def _inspect(export: Path, server: OpenAITestServer, logs: Path) -> Any:
    from inspect_ai import eval as inspect_eval

    server.reset()
    log = inspect_eval("inspect/clause_classification.py", model="openai-api/local/m",
                       model_base_url=server.base_url, log_dir=str(logs), display="none")[0]
    assert log.status == "success", log.error
    samples = [{"id": s.id, "answer": s.scores["clause_labels"].answer,
                "score": 1.0 if s.scores["clause_labels"].value == "C" else 0.0,
                "raw": s.output.completion} for s in log.samples]
    metrics = {k: v.value for k, v in log.results.scores[0].metrics.items()}
    return samples, metrics, _by_prompt(server.bodies)


def _lm_eval(export: Path, server: OpenAITestServer) -> Any:
    import lm_eval
    from lm_eval.tasks import TaskManager

    server.reset()
    name = "buildds_clause_classification"
    result = lm_eval.simple_evaluate(
        model="local-chat-completions",
        model_args=f"model=m,base_url={server.base_url}/chat/completions,num_concurrent=1,"
                   "max_retries=1",
        tasks=[name], task_manager=TaskManager(include_path=str(export / "lm_eval")),
        apply_chat_template=True, log_samples=True)
    samples = [{"id": s["doc"]["id"], "answer": s["answer"], "score": s["acc"],
                "raw": s["resps"][0][0]} for s in result["samples"][name]]
    scores = result["results"][name]
    return samples, {k: scores[f"{k},none"] for k in METRICS}, _by_prompt(server.bodies)


def test_peers_reproduce_buildds(export, tmp_path, monkeypatch):
    pytest.importorskip("inspect_ai")
    pytest.importorskip("lm_eval")
    monkeypatch.chdir(export)
    monkeypatch.setenv("LOCAL_API_KEY", "unused")
    with OpenAITestServer(answer_of=answer_of) as server:
        samples, metrics, requests = _buildds(export, server, tmp_path / "eval")
        theirs = {"inspect_ai": _inspect(export, server, tmp_path / "logs"),
                  "lm-eval": _lm_eval(export, server)}
    assert len({_labels(s["parsed"]) for s in samples}) >= 4 and metrics["hallucinations"] > 0
    want = [(s["id"], _labels(s["parsed"]), s["score"], s["raw_output"]) for s in samples]
    for peer, (peer_samples, peer_metrics, peer_requests) in theirs.items():
        assert [(s["id"], s["answer"], s["score"], s["raw"]) for s in peer_samples] == want, peer
        for key in METRICS:
            assert peer_metrics[key] == pytest.approx(metrics[key], abs=1e-6), (peer, key)
        assert peer_requests == requests, peer
