"""The runner end to end on the bundled sample export, with fake and real offline backends."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from buildds.errors import BuildError
from buildds.evaluate.metrics import accuracy, binary_prf, faithfulness
from buildds.evaluate.runner import model_slug, run_eval
from buildds.evaluate.tasks.jbe import SUBJECT_ABBR, load_jbe_data
from buildds.schema.evaluation import ChatRequest, ChatResult, SampleRecord


class FakeBackend:
    """Answers by the length of the last user message; some answers are unfaithful."""

    cacheable = True

    def __init__(self, spec: str, **options: Any):
        self.name = spec
        self.options = options
        self.calls = 0

    def settings(self) -> dict[str, Any]:
        return {"backend": "fake", "model": self.name, "api_key": "sk-secret", **self.options}

    async def complete(self, request: ChatRequest) -> ChatResult:
        self.calls += 1
        n = len(request.messages[-1].content)
        if n % 7 == 0:
            return ChatResult(text="1. 説明：判例によれば…")
        if n % 11 == 0:
            return ChatResult(text=None, error="http 500")
        return ChatResult(text=" 1\n" if n % 2 else "0")

    async def complete_many(self, requests, on_result=None):
        out = []
        for i, r in enumerate(requests):
            res = await self.complete(r)
            if on_result is not None:
                ret = on_result(i, res)
                if inspect.isawaitable(ret):
                    await ret
            out.append(res)
        return out


def fake_factory(made: list[FakeBackend] | None = None):
    def factory(spec: str, **options: Any) -> FakeBackend:
        b = FakeBackend(spec, **options)
        if made is not None:
            made.append(b)
        return b
    return factory


def read_samples(path: Path) -> list[SampleRecord]:
    return [SampleRecord.model_validate_json(line)
            for line in path.read_text(encoding="utf-8").splitlines()]


def test_run_eval_end_to_end(sample_export: Path, tmp_path: Path):
    out = tmp_path / "eval"
    made: list[FakeBackend] = []
    report = run_eval(sample_export, task="jbe", models=["fake:a"], shots=[0, 4], limit=None,
                      out=out, backend_options={"concurrency": 3}, use_cache=True, seed=0,
                      backend_factory=fake_factory(made))
    run_dir = out / "fake_a" / "0shot"
    for p in (run_dir / "samples.jsonl", run_dir / "metrics.json", run_dir / "confusion.png",
              out / "fake_a" / "4shot" / "samples.jsonl", out / "leaderboard.md",
              out / "leaderboard.json", out / "manifest.json", out / "subject_f1.png"):
        assert p.is_file(), p
    assert (run_dir / "confusion.png").read_bytes()[:4] == b"\x89PNG"

    data = load_jbe_data(sample_export)
    by_id = data.items_by_id
    few = data.fewshot_ids
    for shots in (0, 4):
        recs = read_samples(out / "fake_a" / f"{shots}shot" / "samples.jsonl")
        metrics = json.loads((out / "fake_a" / f"{shots}shot" / "metrics.json").read_text())
        # the few-shot exemplars are never scored; both settings ask the same 70 items
        assert len(recs) == 70 and not few & {r.id for r in recs}
        # a failed request has no parsed answer and no score, and is not in the metrics
        failed = [r for r in recs if r.error]
        assert failed and all(r.parsed is None and r.score is None for r in failed)
        recs = [r for r in recs if not r.error]
        assert metrics["n"] == len(recs) == metrics["samples"]["answered"] == 70 - len(failed)
        assert metrics["samples"] == {"items": 70, "answered": len(recs),
                                      "failed": len(failed), "refused": 0,
                                      "unfaithful": sum(r.parsed is None for r in recs)}
        # recompute the metrics from samples.jsonl
        gold = [r.gold for r in recs]
        assert gold == [bool(by_id[r.id]["answer"]) for r in recs]
        pred = [r.parsed == 1 for r in recs]
        assert metrics["f1"] == pytest.approx(binary_prf(gold, pred).f1, abs=1e-6)
        assert metrics["accuracy"] == pytest.approx(accuracy(gold, pred), abs=1e-6)
        assert metrics["faithfulness"] == pytest.approx(
            faithfulness([r.parsed is not None for r in recs]), abs=1e-6)
        assert metrics["accuracy"] == pytest.approx(sum(r.score for r in recs) / len(recs),
                                                    abs=1e-6)
        assert metrics["errors"] == len(failed)
        # the seed's convention (an unparseable answer counts as 0), named, and beside it
        # the figures over the parsed answers alone
        assert metrics["convention"].startswith("seed 001: an unparseable answer counts as 0")
        parsed = [r for r in recs if r.parsed is not None]
        assert metrics["parsed_only"]["n"] == len(parsed)
        assert metrics["parsed_only"]["f1"] == pytest.approx(
            binary_prf([r.gold for r in parsed], [r.parsed == 1 for r in parsed]).f1, abs=1e-6)
        for abbr, sub in metrics["per_subject"].items():
            idx = [i for i, r in enumerate(recs) if SUBJECT_ABBR[by_id[r.id]["subject"]] == abbr]
            assert sub["n"] == len(idx)
            assert sub["f1"] == pytest.approx(
                binary_prf([gold[i] for i in idx], [pred[i] for i in idx]).f1, abs=1e-6)
        assert metrics["ci"]["f1"][0] <= metrics["f1"] <= metrics["ci"]["f1"][1]
        assert metrics["backend"]["api_key"] == "***"
    # unfaithful outputs occur in this fake (and count as 0), failed ones too (not scored)
    assert any(r.parsed is None and r.raw_output for r in recs)
    assert any(r.error == "http 500" for r in read_samples(run_dir / "samples.jsonl"))

    # prompt hashes differ between the settings (the exemplars are in the prompt)
    r0 = read_samples(out / "fake_a" / "0shot" / "samples.jsonl")
    r4 = read_samples(out / "fake_a" / "4shot" / "samples.jsonl")
    assert all(a.prompt_sha256 != b.prompt_sha256 for a, b in zip(r0, r4, strict=True))

    md = (out / "leaderboard.md").read_text()
    assert "| Model | F1 Zero-shot | F1 Four-shot | Faithfulness Zero-shot |" in md
    counts = json.loads((run_dir / "metrics.json").read_text())["samples"]
    row = next(line for line in md.splitlines() if line.startswith("| fake:a | 0.")
               and "/" in line)
    assert f"| {counts['answered']} / {counts['failed']} / {counts['unfaithful']} |" in row
    assert "## Samples behind the figures" in md
    assert (f"| fake:a | Zero-shot | 70 | {counts['answered']} | {counts['failed']} | 0 | "
            f"{counts['unfaithful']} |") in md
    assert "Zero-shot Cvl | Zero-shot Cst | Zero-shot Pen" in md
    board = json.loads((out / "leaderboard.json").read_text())
    assert board["models"][0]["model"] == "fake:a"
    assert set(board["models"][0]["settings"]) == {"zero-shot", "four-shot"}

    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["dataset"]["scored_items"] == 70 and manifest["shots"] == [0, 4]
    assert manifest["dataset"]["card_build"] and manifest["templates"]["jbe_user.j2"]
    assert manifest["packages"]["python"] and manifest["seed"] == 0
    assert "sk-secret" not in (out / "manifest.json").read_text()
    assert made[0].options == {"concurrency": 3}
    assert "best F1" in report.summary_line()

    # a second run answers from the cache and writes the same metrics and leaderboard
    before = {p: p.read_bytes() for p in (out / "leaderboard.md", out / "leaderboard.json",
                                         run_dir / "metrics.json", out / "subject_f1.png",
                                         run_dir / "confusion.png")}
    made2: list[FakeBackend] = []
    run_eval(sample_export, task="jbe", models=["fake:a"], shots=[0, 4], limit=None, out=out,
             backend_options={"concurrency": 3}, use_cache=True,
             backend_factory=fake_factory(made2))
    n_errors = sum(1 for s in (0, 4) for r in read_samples(out / "fake_a" / f"{s}shot" /
                                                           "samples.jsonl") if r.error)
    assert made2[0].calls == n_errors > 0  # only the failed requests are sent again
    again = read_samples(run_dir / "samples.jsonl")
    assert all(r.cached for r in again if not r.error)  # errors are not cached: retried
    for p, data_ in before.items():
        assert p.read_bytes() == data_, p


def test_limit_and_accumulating_runs(sample_export: Path, tmp_path: Path):
    out = tmp_path / "eval"
    run_eval(sample_export, models=["fake:a"], shots=0, limit=10, out=out, use_cache=False,
             backend_factory=fake_factory())
    run_eval(sample_export, models=["fake:b"], shots=4, limit=10, out=out, use_cache=False,
             backend_factory=fake_factory())
    board = json.loads((out / "leaderboard.json").read_text())
    assert {m["model"] for m in board["models"]} == {"fake:a", "fake:b"}
    assert all(s["n"] == 10 for m in board["models"] for s in m["settings"].values())
    assert not (out / "cache").exists()
    # a run with another limit does not mix into this leaderboard
    run_eval(sample_export, models=["fake:c"], shots=0, limit=5, out=out, use_cache=False,
             backend_factory=fake_factory())
    board = json.loads((out / "leaderboard.json").read_text())
    assert [m["model"] for m in board["models"]] == ["fake:c"]


def test_bad_arguments(sample_export: Path, tmp_path: Path):
    with pytest.raises(BuildError):
        run_eval(sample_export, models=[], out=tmp_path)
    with pytest.raises(BuildError):
        run_eval(sample_export, models=["a", "a"], out=tmp_path)
    with pytest.raises(BuildError):
        run_eval(sample_export, models=["x"], task="nope", out=tmp_path,
                 backend_factory=fake_factory())
    with pytest.raises(BuildError):
        run_eval(tmp_path, models=["x"], out=tmp_path / "o", backend_factory=fake_factory())


def test_model_slug():
    assert model_slug("openai:gpt-4o") == "openai_gpt-4o"
    assert model_slug("replay:/tmp/a b.jsonl") == "replay_tmp_a_b.jsonl"


def test_eval_command_with_offline_baselines(sample_export: Path, tmp_path: Path):
    pytest.importorskip("sklearn")
    backends = pytest.importorskip("buildds.evaluate.backends.baselines")
    assert backends.TfidfBackend
    from buildds.commands.eval import eval_cmd

    out = tmp_path / "eval"
    res = CliRunner().invoke(eval_cmd, [str(sample_export), "--task", "jbe", "--model", "tfidf",
                                        "--model", "majority", "--model", "mock:bad",
                                        "--shots", "0", "--shots", "4", "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    assert "see" in res.output and "leaderboard.md" in res.output
    md = (out / "leaderboard.md").read_text()
    for name in ("tfidf", "majority", "mock:bad"):
        assert f"| {name} |" in md
    board = json.loads((out / "leaderboard.json").read_text())
    bad = next(m for m in board["models"] if m["model"] == "mock:bad")
    assert bad["settings"]["zero-shot"]["faithfulness"] == 0.0
    assert bad["settings"]["zero-shot"]["f1"] == 0.0
    manifest = json.loads((out / "manifest.json").read_text())
    tfidf = next(m for m in manifest["models"] if m["model"] == "tfidf")
    # baselines are cross-fitted: never trained on the items they answer
    assert tfidf["settings"]["cross_fit"]["folds"] == 5
    assert all(n < 74 for n in tfidf["settings"]["cross_fit"]["n_train"])

    res = CliRunner().invoke(eval_cmd, [str(sample_export), "--model", "nope:x", "--out",
                                        str(out), "-q"])
    assert res.exit_code != 0 and "unknown backend" in res.output


# --------------------------------------------------------------------------- task protocol
def test_oracle_answers_the_references(sample_export: Path, tmp_path: Path):
    report = run_eval(sample_export, task="jbe", models=["oracle"], out=tmp_path / "o")
    m = report.runs[0].metrics
    assert (m["f1"], m["accuracy"], m["faithfulness"]) == (1.0, 1.0, 1.0)
    assert "oracle" in report.summary_line()


def test_judges_are_refused_for_a_task_scored_without_them(sample_export: Path, tmp_path: Path):
    with pytest.raises(BuildError, match="without judges"):
        run_eval(sample_export, task="jbe", models=["mock"], judges=["mock:ones"],
                 out=tmp_path / "j")


def test_shots_the_task_does_not_take_are_refused(sample_export: Path, tmp_path: Path):
    with pytest.raises(BuildError, match="0 or 4 demonstrations"):
        run_eval(sample_export, task="jbe", models=["mock"], shots=8, out=tmp_path / "s")


def test_unknown_task_names_the_known_ones():
    from buildds.evaluate.tasks import TASKS, get_task

    with pytest.raises(BuildError, match="expected one of jbe"):
        get_task("jbe-qa")
    assert get_task("JBE").name == "jbe"
    assert "appellate-review" in TASKS


def test_baselines_get_the_task_fields_and_cross_fit_groups(sample_export: Path):
    from buildds.evaluate.backends.baselines import TfidfBackend
    from buildds.evaluate.runner.backends import build_backend, default_factory
    from buildds.evaluate.tasks import get_task

    task = get_task("jbe")
    data = task.load(sample_export)
    items, _ = task.build_requests(data, 0)
    backend = build_backend("tfidf", default_factory, {}, task, items,
                             task.training_items(data), data.items_by_id)
    assert all(isinstance(m, TfidfBackend) and m.text_field == "question"
               for m in backend.models)
    # statements of one question (year-subject-number) always share a fold
    folds: dict[str, set[int]] = {}
    for it in items:
        folds.setdefault(task.group_of(it), set()).add(backend.fold_of[str(it["id"])])
    assert all(len(f) == 1 for f in folds.values())
    assert len({next(iter(f)) for f in folds.values()}) == backend.folds == 5


def test_stratified_baseline_without_cross_fitting_answers_by_stratum():
    """A task with its own training split and strata: the stratified baseline is a backend
    in its own right (complete_many, not cached)."""
    import asyncio

    from buildds.evaluate.runner.backends import build_backend, default_factory
    from buildds.evaluate.tasks.base import TaskBase

    class Strata(TaskBase):
        name = "strata"
        cross_fit = False

        def baseline_options(self) -> dict[str, Any]:
            return {"label_field": "answer", "text_field": "text"}

        def baseline_stratum(self, item: dict[str, Any]) -> str:
            return str(item["kind"])

    train = [{"id": f"t{i}", "kind": k, "text": k, "answer": a}
             for i, (k, a) in enumerate([("a", "x"), ("a", "x"), ("b", "y"), ("b", "y")])]
    items = [{"id": "s1", "kind": "a", "text": "a"}, {"id": "s2", "kind": "b", "text": "b"}]
    by_id = {it["id"]: it for it in items}
    backend = build_backend("majority", default_factory, {}, Strata(), items, train, by_id)
    assert backend.cacheable is False
    requests = [ChatRequest(messages=(), sample_id=it["id"]) for it in items]
    results = asyncio.run(backend.complete_many(requests))
    assert [r.text for r in results] == ["x", "y"]
