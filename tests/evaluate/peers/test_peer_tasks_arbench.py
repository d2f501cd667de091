"""AR-Bench exports ship ``inspect/appellate_review.py`` and ``lm_eval/appellate_review_*.yaml``
(+ ``utils.py``); run in inspect_ai and lm-eval against the scripted server on 127.0.0.1, they
give buildds' per-sample answers and scores (detection, classification and correction), its
metrics, and send buildds' very requests."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from buildds.evaluate.peers import peer_task_files
from buildds.evaluate.runner import run_eval
from tests.evaluate.openai_server import OpenAITestServer
from tests.evaluate.peers.test_peer_tasks import _by_prompt

METRICS = ("accuracy", "macro_precision", "macro_recall", "macro_f1", "if_rate")
#: what the server answers, by a hash of the prompt: clean, wrapped, reasoned and bad answers
DETECTION = ("是", "否", "**否**", "答案：是。", "<think>看一下</think>否", "我认为是")
CLASSIFICATION = ("罪名", "刑期", "「罚金」", "<think>…</think>刑期", "无错误", "罚金错误")
#: correction, by the error class the prompt names: right-looking, Chinese numerals, wrapped
#: and unparseable answers
CORRECTION = {"罪名认定": ("盗窃罪", "抢夺罪；盗窃罪", "**信用卡诈骗罪**", "盗窃", "不知道"),
              "刑期裁量": ("八个月", "一年六个月", "12个月", "答案：二年。", "大约一年左右吧"),
              "罚金数额": ("人民币五万元", "5000元", "1.5万元", "罚金：100000元", "很多钱")}


def answer_of(prompt: str) -> str:
    correction = next((v for k, v in CORRECTION.items() if f"判决在{k}上存在错误" in prompt), None)
    answers = correction or (DETECTION if "是否存在错误" in prompt else CLASSIFICATION)
    return answers[int(hashlib.sha256(prompt.encode()).hexdigest(), 16) % len(answers)]


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from buildds.export.arbench import export_arbench
    from tests.evaluate.tasks.appellate_review.test_task import _synthetic_rows

    out = tmp_path_factory.mktemp("arbench_peers") / "export"
    export_arbench(_synthetic_rows(), out=out, fingerprint="a" * 32, provenance={}, seed=0,
                   extra_files=peer_task_files("appellate-review"))
    return out


def test_the_export_ships_the_task_files(export: Path):
    files = peer_task_files("appellate-review")
    assert sorted(files) == ["inspect/appellate_review.py",
                             "lm_eval/appellate_review_classification.yaml",
                             "lm_eval/appellate_review_correction.yaml",
                             "lm_eval/appellate_review_detection.yaml", "lm_eval/utils.py"]
    for rel, text in files.items():
        assert (export / rel).read_text(encoding="utf-8") == text
        assert "import buildds" not in text


def _buildds(export: Path, server: OpenAITestServer, out: Path, subtask: str) -> Any:
    server.reset()
    run_eval(export, task=f"appellate-review:{subtask}", models=["openai:m"], out=out,
             backend_options={"base_url": server.base_url}, use_cache=False)
    run = out / "openai_m" / "0shot"
    samples = [json.loads(x) for x in (run / "samples.jsonl").read_text().splitlines()]
    return samples, json.loads((run / "metrics.json").read_text()), _by_prompt(server.bodies)


def _inspect(export: Path, server: OpenAITestServer, logs: Path, subtask: str, *,
             scorer: str = "ar_answer") -> Any:
    from inspect_ai import eval as inspect_eval

    server.reset()
    log = inspect_eval(f"inspect/appellate_review.py@appellate_review_{subtask}",
                       model="openai-api/local/m", model_base_url=server.base_url,
                       log_dir=str(logs), display="none")[0]
    assert log.status == "success", log.error
    samples = [{"id": s.id, "answer": s.scores[scorer].answer,
                "score": 1.0 if s.scores[scorer].value == "C" else 0.0,
                "raw": s.output.completion} for s in log.samples]
    metrics = {k: v.value for k, v in log.results.scores[0].metrics.items()}
    return samples, metrics, _by_prompt(server.bodies)


def _lm_eval(export: Path, server: OpenAITestServer, subtask: str) -> Any:
    import lm_eval
    from lm_eval.tasks import TaskManager

    server.reset()
    name = f"buildds_appellate_review_{subtask}"
    result = lm_eval.simple_evaluate(
        model="local-chat-completions",
        model_args=f"model=m,base_url={server.base_url}/chat/completions,num_concurrent=1,"
                   "max_retries=1",
        tasks=[name], task_manager=TaskManager(include_path=str(export / "lm_eval")),
        apply_chat_template=True, log_samples=True)
    samples = [{"id": s["doc"]["id"], "answer": s["answer"], "score": s["acc"],
                "raw": s["resps"][0][0]} for s in result["samples"][name]]
    scores = result["results"][name]
    metrics = {k: scores[f"{'acc' if k == 'accuracy' else k},none"]
               for k in (CORRECTION_METRICS if subtask == "correction" else METRICS)}
    return samples, metrics, _by_prompt(server.bodies)


def _visible(raw: str) -> str:
    """The answer without a leading <think> block (inspect_ai keeps it apart, as reasoning;
    the parsers drop it either way)."""
    return re.sub(r"^\s*<think>.*?</think>", "", raw, flags=re.DOTALL)


@pytest.mark.parametrize("subtask", ["detection", "classification"])
def test_peers_reproduce_buildds(export, tmp_path, monkeypatch, subtask):
    pytest.importorskip("inspect_ai")
    pytest.importorskip("lm_eval")
    monkeypatch.chdir(export)
    monkeypatch.setenv("LOCAL_API_KEY", "unused")
    with OpenAITestServer(answer_of=answer_of) as server:
        samples, metrics, requests = _buildds(export, server, tmp_path / "eval", subtask)
        theirs = {"inspect_ai": _inspect(export, server, tmp_path / "logs", subtask),
                  "lm-eval": _lm_eval(export, server, subtask)}
    assert None in {s["parsed"] for s in samples} and len({s["parsed"] for s in samples}) >= 3
    want = [(s["id"], None if s["parsed"] is None else str(s["parsed"]), s["score"],
             _visible(s["raw_output"])) for s in samples]
    for peer, (peer_samples, peer_metrics, peer_requests) in theirs.items():
        assert [(s["id"], s["answer"], s["score"], _visible(s["raw"]))
                for s in peer_samples] == want, peer
        for key in METRICS:
            assert peer_metrics[key] == pytest.approx(metrics[key], abs=1e-6), (peer, key)
        assert peer_requests == requests, peer


CORRECTION_METRICS = (*METRICS, "impscore", "acc_at_0_1", "exact")


def _numeric_figures(metrics: dict[str, Any]) -> dict[str, float]:
    """buildds' ImpScore, Acc@0.1 and exact match over the term and fine items (its
    metrics.json gives them per target: weighted by the targets' item counts)."""
    per = [metrics["per_target"][t] for t in ("prison_term", "fine")
           if t in metrics["per_target"]]
    n = sum(p["n"] for p in per)
    return {k: sum(p[k] * p["n"] for p in per) / n for k in ("impscore", "acc_at_0_1", "exact")}


def test_peers_reproduce_buildds_correction(export, tmp_path, monkeypatch):
    """Correction: per sample the parsed charges / months / yuan and the score; the pooled
    accuracy, macro P/R/F1 over the labels and IF rate, and ImpScore, Acc@0.1 and exact match
    over the term and fine items."""
    pytest.importorskip("inspect_ai")
    pytest.importorskip("lm_eval")
    monkeypatch.chdir(export)
    monkeypatch.setenv("LOCAL_API_KEY", "unused")
    with OpenAITestServer(answer_of=answer_of) as server:
        samples, metrics, requests = _buildds(export, server, tmp_path / "eval", "correction")
        inspect_run = _inspect(export, server, tmp_path / "logs", "correction", scorer="ar_correction")
        lm_eval_run = _lm_eval(export, server, "correction")
    targets = {s["id"]: s for s in samples}
    assert len(samples) >= 6 and None in {json.dumps(s["parsed"]) if s["parsed"] is not None
                                          else None for s in samples}
    assert {1.0, 0.0} <= {s["score"] for s in samples}
    want = [(s["id"], None if s["parsed"] is None else json.dumps(s["parsed"], ensure_ascii=False),
             s["score"], s["raw_output"]) for s in samples]
    figures = {**metrics, **_numeric_figures(metrics)}
    for peer, (peer_samples, peer_metrics, peer_requests) in (("inspect_ai", inspect_run),
                                                              ("lm-eval", lm_eval_run)):
        assert [(s["id"], s["answer"], s["score"], s["raw"]) for s in peer_samples] == want, peer
        for key in CORRECTION_METRICS:
            assert peer_metrics[key] == pytest.approx(figures[key], abs=1e-6), (peer, key)
        assert peer_requests == requests, peer
    assert set(targets)


class _DownFor(OpenAITestServer):
    """The scripted server, but every request for a prompt ``down(prompt)`` picks gets HTTP
    ``status``, however often it is retried."""

    def __init__(self, down: Any, status: int, **kw: Any) -> None:
        super().__init__(**kw)
        self.down = down
        self.status = status

    async def _respond(self, method: str, path: str, headers: dict[str, str], body: bytes
                       ) -> Any:
        if method == "POST" and body:
            messages = json.loads(body).get("messages", [])
            prompt = next((str(m.get("content")) for m in reversed(messages)
                           if m.get("role") == "user"), "")
            if self.down(prompt):
                self.paths.append(path)
                return self.status, {}, {"error": {"message": "down"}}
        return await super()._respond(method, path, headers, body)


def _down(prompt: str) -> bool:
    return int(hashlib.sha256(prompt.encode()).hexdigest(), 16) % 4 == 0


@pytest.mark.parametrize("status", [500, 400])
def test_a_failed_request_is_never_scored_by_the_peers(export, tmp_path, monkeypatch, status):
    """Issue 16's rule in the task files: buildds gives a failed request (a server error
    retried in vain; a bad request) no answer and no score; inspect_ai makes it an error of
    its sample (not scored, not 0), and lm-eval stops the run with the error (it never scores
    it either)."""
    inspect_ai = pytest.importorskip("inspect_ai")
    lm_eval = pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager

    monkeypatch.chdir(export)
    monkeypatch.setenv("LOCAL_API_KEY", "unused")
    with _DownFor(_down, status, answer_of=answer_of) as server:
        run_eval(export, task="appellate-review:detection", models=["openai:m"],
                 out=tmp_path / "eval", use_cache=False,
                 backend_options={"base_url": server.base_url, "max_attempts": 2,
                                  "backoff_base_s": 0.01})
        run = tmp_path / "eval" / "openai_m" / "0shot"
        samples = [json.loads(x) for x in (run / "samples.jsonl").read_text().splitlines()]
        failed = {s["id"] for s in samples if s["error"]}
        assert failed and all(s["score"] is None and s["parsed"] is None
                              for s in samples if s["id"] in failed)
        metrics = json.loads((run / "metrics.json").read_text())
        assert metrics["samples"]["failed"] == len(failed)

        log = inspect_ai.eval("inspect/appellate_review.py@appellate_review_detection",
                              model="openai-api/local/m", model_base_url=server.base_url,
                              log_dir=str(tmp_path / "logs"), display="none", max_retries=1,
                              timeout=10, fail_on_error=False)[0]
        errored = {s.id for s in log.samples if s.error is not None}
        assert errored == failed
        assert all(not s.scores for s in log.samples if s.id in errored)
        scored = [s for s in log.samples if s.id not in errored]
        answered = [s for s in samples if s["id"] not in failed]
        assert [1.0 if s.scores["ar_answer"].value == "C" else 0.0 for s in scored] == \
            [s["score"] for s in answered]
        acc = {k: v.value for k, v in log.results.scores[0].metrics.items()}["accuracy"]
        assert acc == pytest.approx(metrics["accuracy"], abs=1e-6)

        with pytest.raises(Exception) as stopped:
            lm_eval.simple_evaluate(
                model="local-chat-completions",
                model_args=f"model=m,base_url={server.base_url}/chat/completions,"
                           "num_concurrent=1,max_retries=1",
                tasks=["buildds_appellate_review_detection"],
                task_manager=TaskManager(include_path=str(export / "lm_eval")),
                apply_chat_template=True, log_samples=True)
        assert str(status) in repr(stopped.value), repr(stopped.value)
