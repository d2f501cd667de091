"""LegalRikai clause revision (seed 000): the prompt with 0 and 8 demonstrations, the judge
prompt and its parser, and the task end to end — the Oracle row, one and two scripted judges
— through ``run_eval`` and ``buildds eval`` on an export built here."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from buildds.errors import BuildError
from buildds.evaluate.backends.base import BackendBase
from buildds.evaluate.runner import run_eval
from buildds.evaluate.tasks.rikai.data import load_rikai_data
from buildds.evaluate.tasks.rikai.revision import build_requests, demonstrations_for
from buildds.evaluate.tasks.rikai.revision_judging import (
    ASPECTS,
    parse_judgment,
    render_judge_prompt,
)
from buildds.schema.evaluation import ChatRequest, ChatResult

N_ROWS = 14
ORACLE_SCORES = {"alert_handling": 99, "meaning_preservation": 98, "grammar": 100,
                 "naturalness": 99, "logical_flow": 98}


def revision_rows() -> list[dict[str, Any]]:
    """Annotation rows with their own clause text (the seed's example, varied)."""
    rows = []
    for i in range(N_ROWS):
        days = i + 1
        rows.append({
            "id": f"rev-{i:02d}",
            "text": f"委託者は、採用を決定した場合には、受託者に対し、{days}日以内に通知する。",
            "ai_alert": "候補者を採用したときに、「書面で」通知する旨が、定められていますか？",
            "guidelines": "必要に応じて、「書面などにより」通知しなければならない旨の追加を検討",
            "reference_revision": (f"委託者は、採用を決定した場合には、受託者に対し、{days}日以内に"
                                   "書面交付等の方法により通知する。")})
    return rows


def build_revision_export(root: Path) -> Path:
    """``buildds contracts --task revision`` on a generated contract + a JSONL → the export."""
    import docx

    from buildds.jobs.contracts import build_contracts

    root.mkdir(parents=True, exist_ok=True)
    d = docx.Document()
    d.add_paragraph("人材紹介契約書")
    d.add_paragraph("第1条（通知）")
    d.add_paragraph("委託者は、採用を決定した場合には、受託者に対し、速やかに通知する。")
    contract = root / "紹介.docx"
    d.save(str(contract))
    ann = root / "revisions.jsonl"
    ann.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in revision_rows()),
                   encoding="utf-8")
    out = root / "export"
    build_contracts([contract], out=out, annotations=ann, task="revision", eval_share=0.25,
                    seed=0, progress=False)
    return out


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_revision_export(tmp_path_factory.mktemp("clause_rev"))


class ScriptedJudge(BackendBase):
    """Reads the reference and the candidate out of the judge prompt: the reference gets
    :data:`ORACLE_SCORES`, anything else 40–60 (+ ``offset``); ``bad`` ids get prose."""

    cacheable = True
    concurrency = 4

    def __init__(self, name: str = "script-judge", *, offset: int = 0,
                 bad: tuple[str, ...] = ()):
        self.name = name
        self.offset = offset
        self.bad = set(bad)

    async def complete(self, request: ChatRequest) -> ChatResult:
        m = re.search(r"## Reference Revision \(by a lawyer\):\n(.*?)\n\n"
                      r"## Candidate Revision \(to evaluate\):\n(.*)$",
                      request.messages[-1].content, re.DOTALL)
        assert m is not None
        reference, candidate = m.group(1).strip(), m.group(2).strip()
        if request.sample_id in self.bad:
            return ChatResult(text="The revision looks quite good overall.")
        if candidate == reference:
            scores = dict(ORACLE_SCORES)
        else:
            scores = {a: 40 + 5 * i + self.offset for i, a in enumerate(ASPECTS)}
        body = json.dumps({"analysis": "比較しました。", **scores}, ensure_ascii=False)
        return ChatResult(text=f"Assessment:\n```json\n{body}\n```\n")


def factory_with(*judges: ScriptedJudge):
    from buildds.evaluate.backends import make_backend

    by_name = {j.name: j for j in judges}

    def factory(spec: str, **options: Any) -> Any:
        return by_name[spec] if spec in by_name else make_backend(spec, **options)

    return factory


# --------------------------------------------------------------------------- prompts
def test_zero_and_eight_demonstrations(export: Path) -> None:
    data = load_rikai_data(export, "revision")
    assert len(data.evaluation) == 4 and len(data.development) == N_ROWS - 4
    items, zero = build_requests(data, 0)
    assert data.fewshot_ids == set()
    prompt = zero[0].messages[0].content
    assert prompt.startswith("# Clause Revision Task\n") and "## Examples" not in prompt
    assert prompt.rstrip().endswith(f"## Original Clause:\n{items[0]['text']}")
    _, eight = build_requests(data, 8)
    first8 = [d["id"] for d in data.development[:8]]
    assert data.fewshot_ids == set(first8)
    for request in eight:
        text = request.messages[0].content
        assert "### Example 8:" in text and "### Example 9:" not in text
        for demo in data.development[:8]:
            assert demo["reference_revision"] in text
        for item in data.evaluation:  # no scored item is shown as an example
            assert item["reference_revision"] not in text
    # the same demonstrations for every item
    bodies = {r.messages[0].content.split("## AI Alert:")[0] for r in eight}
    assert len(bodies) == 1
    with pytest.raises(BuildError, match="0 or 8"):
        build_requests(data, 4)


def test_an_item_is_never_its_own_demonstration() -> None:
    pool = [{"id": f"d{i}", "text": f"t{i}", "ai_alert": "a"} for i in range(10)]
    assert [d["id"] for d in demonstrations_for(pool[3], pool, 8)] == [
        "d0", "d1", "d2", "d4", "d5", "d6", "d7", "d8"]
    twin = {"id": "other", "text": "t0", "ai_alert": "a"}  # same clause and alert as d0
    assert demonstrations_for(twin, pool, 8)[0]["id"] == "d1"
    with pytest.raises(BuildError, match="needs 8 demonstrations"):
        demonstrations_for(pool[0], pool[:8], 8)


def test_judge_prompt_holds_everything_the_judge_compares() -> None:
    item = revision_rows()[0]
    prompt = render_judge_prompt(item, "候補の条文")
    for part in (item["ai_alert"], item["guidelines"], item["text"], item["reference_revision"],
                 "候補の条文", *ASPECTS, "アラートへの対応", "論理の流れ"):
        assert part in prompt
    assert prompt.rstrip().endswith("## Candidate Revision (to evaluate):\n候補の条文")


# --------------------------------------------------------------------------- judge parser
GOOD = {"alert_handling": 80, "meaning_preservation": 70, "grammar": 95, "naturalness": 90,
        "logical_flow": 75}
GOOD_F = {k: float(v) for k, v in GOOD.items()}
JUDGE_CASES = [
    (json.dumps(GOOD), GOOD_F, None),
    (json.dumps({"analysis": "ok", **GOOD}), GOOD_F, None),
    ("```json\n" + json.dumps(GOOD) + "\n```", GOOD_F, None),
    ("The candidate misses 書面.\n" + json.dumps(GOOD) + "\nThat is all.", GOOD_F, None),
    ("Scores: {" + ", ".join(f'"{k}": "{v}"' for k, v in GOOD.items()) + "}", GOOD_F, None),
    (json.dumps({"アラートへの対応": 80, "意味の保持": 70, "文法": 95, "自然さ": 90,
                 "論理の流れ": 75}, ensure_ascii=False), GOOD_F, None),
    (json.dumps({"Alert Handling": 80, "Meaning Preservation": 70, "Grammar": 95,
                 "Naturalness": 90, "Logical Flow": 75}), GOOD_F, None),
    (json.dumps({**GOOD, "grammar": 87.5}), {**GOOD_F, "grammar": 87.5}, None),
    (json.dumps(GOOD) + "\n" + json.dumps(GOOD), GOOD_F, None),  # the same object twice
    (json.dumps({k: v for k, v in GOOD.items() if k != "grammar"}), None, "missing aspect"),
    (json.dumps({**GOOD, "grammar": 120}), None, "outside 0–100"),
    (json.dumps({**GOOD, "grammar": -1}), None, "outside 0–100"),
    (json.dumps({**GOOD, "grammar": True}), None, "not a number"),
    (json.dumps({**GOOD, "grammar": "excellent"}), None, "not a number"),
    (json.dumps(GOOD) + json.dumps({**GOOD, "grammar": 10}), None, "different score objects"),
    ("alert handling: 80, grammar: 95", None, "no JSON object"),
    ("{not json}", None, "no JSON object"),
    ("", None, "empty output"),
    (None, None, "empty output"),
]


@pytest.mark.parametrize(("text", "scores", "error"), JUDGE_CASES)
def test_judge_parser(text: str | None, scores: dict[str, float] | None,
                      error: str | None) -> None:
    j = parse_judgment(text)
    assert j.scores == scores
    if error is None:
        assert j.error is None
    else:
        assert j.error is not None and error in j.error and j.error.startswith("judge: ")


# --------------------------------------------------------------------------- end to end
def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text("utf-8").splitlines()]


def test_oracle_row_with_a_scripted_judge(export: Path, tmp_path: Path) -> None:
    data = load_rikai_data(export, "revision")
    bad_id = data.evaluation[1]["id"]
    judge = ScriptedJudge(bad=(bad_id,))
    out = tmp_path / "eval"
    report = run_eval(export, task="clause-revision", models=["mock:echo", "oracle"],
                      judges=["script-judge"], shots=[0, 8], out=out,
                      backend_factory=factory_with(judge))
    assert len(report.runs) == 4
    n = len(data.evaluation)
    for run in report.runs:
        m = run.metrics
        assert m["n"] == n and m["judged"] == n - 1 and m["judge_errors"] == 1
        expected = ORACLE_SCORES if run.model == "oracle" else {
            a: 40 + 5 * i for i, a in enumerate(ASPECTS)}
        for a in ASPECTS:
            assert m[a] == pytest.approx(expected[a])
            assert m["per_judge"]["script-judge"][a] == pytest.approx(expected[a])
        assert m["overall"] == pytest.approx(sum(expected.values()) / 5)
        samples = {s["id"]: s for s in _jsonl(run.dir / "samples.jsonl")}
        bad = samples[bad_id]
        assert bad["score"] is None and bad["error"].startswith("no valid judgment")
        assert bad["parsed"]["judges"]["script-judge"]["error"].startswith("judge: no JSON")
        good = next(s for i, s in samples.items() if i != bad_id)
        assert good["parsed"]["judges"]["script-judge"] == {
            a: float(v) for a, v in expected.items()}
        if run.model == "oracle":
            assert good["parsed"]["revision"] == good["gold"]
        judgments = _jsonl(run.dir / "judgments.jsonl")
        assert len(judgments) == n and {j["judge"] for j in judgments} == {"script-judge"}
        assert [j["id"] for j in judgments if j["error"]] == [bad_id]
        assert (run.dir / "aspects.png").read_bytes()[:4] == b"\x89PNG"
    board = (out / "leaderboard.md").read_text("utf-8")
    assert "| Model | アラートへの対応 | 意味の保持 | 文法 | 自然さ | 論理の流れ |" in board
    assert "## Zero-shot (judge `script-judge`)" in board
    assert "## Eight-shot (judge `script-judge`)" in board
    zero = board.split("## Zero-shot")[1].split("## Eight-shot")[0]
    assert zero.index("| mock:echo |") < zero.index("| Oracle (reference as prediction) |")
    assert "| Oracle (reference as prediction) | 99.00 | 98.00 | 100.00 | 99.00 | 98.00 |" in zero
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert set(manifest["templates"]) == {"clause_revision.md.j2", "clause_revision_judge.md.j2"}
    assert manifest["judges"][0]["judge"] == "script-judge"
    assert manifest["dataset"]["fewshot_ids"] == sorted(d["id"] for d in data.development[:8])
    assert (out / "clause_revision.png").is_file()


def test_two_judges_are_reported_separately_and_averaged(export: Path, tmp_path: Path) -> None:
    a, b = ScriptedJudge("judge-a"), ScriptedJudge("judge-b", offset=10)
    report = run_eval(export, task="clause-revision", models=["mock:echo"],
                      judges=["judge-a", "judge-b"], out=tmp_path / "eval",
                      backend_factory=factory_with(a, b))
    m = report.runs[0].metrics
    for i, aspect in enumerate(ASPECTS):
        assert m["per_judge"]["judge-a"][aspect] == pytest.approx(40 + 5 * i)
        assert m["per_judge"]["judge-b"][aspect] == pytest.approx(50 + 5 * i)
        assert m[aspect] == pytest.approx(45 + 5 * i)
    board = (tmp_path / "eval" / "leaderboard.md").read_text("utf-8")
    assert "## Zero-shot (mean of the judges)" in board
    assert "### Zero-shot, judge `judge-a`" in board and "### Zero-shot, judge `judge-b`" in board
    assert "| mock:echo | 45.00 | 50.00 | 55.00 | 60.00 | 65.00 |" in board


def test_judges_are_required(export: Path, tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="graded by judges"):
        run_eval(export, task="clause-revision", models=["oracle"], out=tmp_path / "x")


def test_cli_with_a_replayed_judge(export: Path, tmp_path: Path) -> None:
    from buildds.commands.eval import eval_cmd

    data = load_rikai_data(export, "revision")
    lines = [{"id": it["id"], "raw_output": json.dumps({"analysis": "…", **GOOD})}
             for it in data.evaluation[1:]]
    lines.append({"id": data.evaluation[0]["id"], "raw_output": "grammar: 90"})
    judge_file = tmp_path / "judge.jsonl"
    judge_file.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    out = tmp_path / "cli"
    res = CliRunner().invoke(eval_cmd, [
        str(export), "--task", "clause-revision", "--model", "mock:echo", "--model", "oracle",
        "--judge", f"replay:{judge_file}", "--shots", "0", "--shots", "8", "--out", str(out),
        "-q"])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("evaluated 2 model(s) × 2 setting(s) on 4 items")
    board = (out / "leaderboard.md").read_text("utf-8")
    assert board.count("| Oracle (reference as prediction) | 80.00 | 70.00 | 95.00 |") == 2
    for slug in ("mock_echo", "oracle"):
        for shots in ("0shot", "8shot"):
            m = json.loads((out / slug / shots / "metrics.json").read_text("utf-8"))
            assert m["judged"] == 3 and m["judge_errors"] == 1
    res = CliRunner().invoke(eval_cmd, [str(export), "--task", "clause-revision", "--model",
                                        "oracle", "--out", str(out), "-q"])
    assert res.exit_code == 2 and "Invalid value for '--judge'" in res.output
