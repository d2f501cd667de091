"""``buildds eval --scoring logprob`` end to end: the real ``openai:`` backend asks the
scripted server on 127.0.0.1 for logprobs, each answer's probability decides the prediction,
and the run is its own leaderboard row beside generative scoring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from buildds.commands.eval import eval_cmd
from buildds.evaluate.tasks.jbe import load_jbe_data
from tests.evaluate.openai_server import OpenAITestServer

#: marker per item position; the rest answer "1" (logprobs: 1 at 0.75, 0 at 0.25)
SCRIPT = {0: "[answer:0]", 1: "[logprobs:1=-2.0,0=-0.1]", 2: "[bad]", 3: "[fail:400:99]",
          4: "[answer:maybe]"}


@pytest.fixture
def scripted_export(sample_export: Path, tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    import pandas as pd

    items = load_jbe_data(sample_export).scored()[:8]
    rows = [{**it, "question": f"{it['question']} {SCRIPT.get(i, '')}".strip()}
            for i, it in enumerate(items)]
    path = tmp_path / "export" / "test.parquet"
    path.parent.mkdir()
    pd.DataFrame(rows).to_parquet(path, index=False)
    return path, rows


def _samples(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_logprob_scoring_beside_generative(scripted_export, tmp_path):
    export, rows = scripted_export
    out = tmp_path / "eval"
    with OpenAITestServer() as server:
        result = CliRunner().invoke(eval_cmd, [
            str(export), "--model", "openai:m", "--base-url", server.base_url,
            "--scoring", "generate", "--scoring", "logprob", "--max-attempts", "1",
            "--allow-failures", "--out", str(out), "-q"], env={"OPENAI_API_KEY": ""})
        bodies = list(server.bodies)
    assert result.exit_code == 0, result.output
    gen = _samples(out / "openai_m" / "0shot" / "samples.jsonl")
    lp = _samples(out / "openai_m.logprob" / "0shot" / "samples.jsonl")
    assert [s["id"] for s in lp] == [s["id"] for s in gen] == [str(r["id"]) for r in rows]
    assert all("choice_probs" not in s for s in gen)
    # generative: 0, 1, unfaithful, failed, unfaithful, then 1s
    assert [s["parsed"] for s in gen] == [0, 1, None, None, None, 1, 1, 1]
    # logprob: the most probable allowed answer
    assert [s["parsed"] for s in lp] == [0, 0, 1, None, None, 1, 1, 1]
    assert lp[0]["choice_probs"] == {"1": 0.25, "0": 0.75}
    assert lp[1]["choice_probs"]["0"] == pytest.approx(0.869892, abs=1e-6)
    assert lp[2]["choice_probs"] == {"1": 1.0, "0": 0.0}     # "1. Explanation…" starts with 1
    assert lp[3]["error"] and "400" in lp[3]["error"] and "choice_probs" not in lp[3]
    assert "log-probabilities" in lp[4]["error"]               # "maybe": neither answer
    # a failed request is a failure, never an answer: no score
    assert gen[3]["score"] is None and lp[3]["score"] is None and lp[4]["score"] is None
    for s, row in zip(lp, rows, strict=True):
        if s["parsed"] is not None:
            assert s["score"] == float(s["parsed"] == int(bool(row["answer"])))
    # what was sent: logprobs asked for, a few tokens; generative requests unchanged
    asked = [b for b in bodies if b.get("logprobs")]
    assert len(asked) == len(rows) and all(b["top_logprobs"] == 20 and b["max_tokens"] == 8
                                           for b in asked)
    assert all(b["max_tokens"] == 1000 for b in bodies if not b.get("logprobs"))
    # two rows on the leaderboard, the logprob one named as such
    board = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    text = json.dumps(board, ensure_ascii=False)
    assert "openai:m (logprob)" in text and '"openai:m"' in text
    metrics = json.loads((out / "openai_m.logprob" / "0shot" / "metrics.json").read_text())
    assert metrics["scoring"] == "logprob" and metrics["model"] == "openai:m (logprob)"
    assert "openai:m (logprob)" in (out / "leaderboard.md").read_text(encoding="utf-8")


def test_logprob_scoring_refused_where_answers_are_open(tmp_path, sample_export):
    result = CliRunner().invoke(eval_cmd, [
        str(sample_export), "--task", "clause-classification", "--model", "mock",
        "--scoring", "logprob", "--out", str(tmp_path / "o"), "-q"])
    assert result.exit_code == 2 and "--scoring" in result.output
    assert "no closed set of answers" in result.output


def test_logprob_scoring_skips_baselines_with_a_warning(tmp_path, sample_export):
    out = tmp_path / "o"
    result = CliRunner().invoke(eval_cmd, [
        str(sample_export), "--model", "majority", "--scoring", "generate",
        "--scoring", "logprob", "--limit", "5", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert "majority: logprob scoring needs an openai: or hf: model" in result.output
    assert (out / "majority" / "0shot" / "metrics.json").is_file()
    assert not (out / "majority.logprob").exists()
