"""<out>/report.html as the runner writes it: the samples of samples.jsonl with their
prompts, statuses and subjects, the leaderboard of leaderboard.md, the plots, and every run
in <out> (earlier invocations too)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from buildds.evaluate.report_html import markdown_html
from buildds.evaluate.report_samples import prompt_parts, prompt_text
from buildds.evaluate.tasks.jbe import build_requests, load_jbe_data
from tests.evaluate.report_helpers import (
    HOSTILE_MODEL,
    expected_status,
    hostile_run,
    page_json,
    read_jsonl,
)


def test_report_holds_every_sample_as_samples_jsonl_has_it(sample_export: Path, tmp_path: Path):
    out = tmp_path / "eval"
    report = hostile_run(sample_export, out)
    assert report.report_html == out / "report.html"
    html = report.report_html.read_text(encoding="utf-8")
    data = page_json(html)
    labels = [r["label"] for r in data["runs"]]
    assert len(set(labels)) == 4
    jbe = load_jbe_data(sample_export)
    subjects = {str(it["id"]): it["subject"] for it in jbe.test}
    rows = data["samples"]
    total = 0
    for run in report.runs:
        records = read_jsonl(run.samples)
        total += len(records)
        r = next(i for i, x in enumerate(data["runs"])
                 if x["model"] == run.model and x["shots"] == run.shots)
        mine = [s for s in rows if s["r"] == r]
        assert [s["i"] for s in mine] == [rec["id"] for rec in records]
        assert [s["c"] for s in mine] == [expected_status(rec) for rec in records]
        assert [s["e"] for s in mine] == [rec["error"] for rec in records]
        assert [s["o"] for s in mine] == [rec["raw_output"] for rec in records]
        assert [s["g"] for s in mine] == [subjects[rec["id"]] for rec in records]
        _, requests = build_requests(jbe, run.shots)
        sent = {rq.sample_id: prompt_text(prompt_parts(rq)) for rq in requests}
        assert [_prompt(data, s["p"]) for s in mine] == [sent[s["i"]] for s in mine]
        summary = data["summary"][r]
        metrics = json.loads((run.dir / "metrics.json").read_text(encoding="utf-8"))
        # totals are the run's items (metrics' n is the answered samples since issue 16)
        assert summary["items"] == len(records) == metrics["samples"]["items"]
        assert summary["failed"] == sum(rec["raw_output"] is None for rec in records) \
            == metrics["samples"]["failed"] > 0
        assert metrics["n"] == metrics["samples"]["answered"] < summary["items"]
        # a failed sample: no parsed answer, no score, its error on the page
        for s in mine:
            if s["c"] == "failed":
                assert s["a"] is None and s["s"] is None and s["e"].startswith("http 500")
    assert len(rows) == total == int(html.split('<span id="count-total">')[1].split("<")[0])
    # two models, two settings: each prompt stored once, the four-shot exemplars once
    assert len(data["prompts"]) == total // 2
    assert len(data["parts"]) < total // 2 + 10
    assert {s["c"] for s in rows} == {"correct", "wrong", "failed"}
    assert data["group"] == "Subject"


def _prompt(data: dict, p: int) -> str:
    return prompt_text(tuple(tuple(data["parts"][i]) for i in data["prompts"][p]))


def test_report_shows_the_leaderboard_and_plots_of_the_run(sample_export: Path,
                                                           tmp_path: Path):
    out = tmp_path / "eval"
    report = hostile_run(sample_export, out, shots=(0,))
    html = report.report_html.read_text(encoding="utf-8")
    assert markdown_html((out / "leaderboard.md").read_text(encoding="utf-8")) in html
    assert HOSTILE_MODEL not in html and "fake:&lt;img src=x onerror" in html
    for png in (out / "subject_f1.png", *out.glob("*/0shot/confusion.png")):
        assert base64.b64encode(png.read_bytes()).decode() in html, png


def test_report_covers_earlier_runs_in_the_same_folder(sample_export: Path, tmp_path: Path):
    out = tmp_path / "eval"
    hostile_run(sample_export, out, shots=(0,))
    first = (out / "report.html").read_text(encoding="utf-8")
    hostile_run(sample_export, out, shots=(4,))
    data = page_json((out / "report.html").read_text(encoding="utf-8"))
    assert sorted((r["model"], r["shots"]) for r in data["runs"]) == \
        sorted((m, s) for m in (HOSTILE_MODEL, "fake:plain") for s in (0, 4))
    # the zero-shot prompts were rebuilt from the export by the four-shot run
    zero = {r for r, x in enumerate(data["runs"]) if x["shots"] == 0}
    assert all(s["p"] >= 0 for s in data["samples"] if s["r"] in zero)
    assert len(page_json(first)["samples"]) * 2 == len(data["samples"])


def test_an_unreadable_samples_line_is_named_on_the_page(sample_export: Path, tmp_path: Path):
    out = tmp_path / "eval"
    report = hostile_run(sample_export, out, shots=(0,))
    samples = report.runs[0].samples
    n = len(read_jsonl(samples))
    with samples.open("a", encoding="utf-8") as f:
        f.write("{not json\n")
    hostile_run(sample_export, out, shots=(4,))
    html = (out / "report.html").read_text(encoding="utf-8")
    rel = samples.relative_to(out).as_posix()
    assert f"{rel}: 1 unreadable line(s) left out" in html
    data = page_json(html)
    r = next(i for i, x in enumerate(data["runs"])
             if x["model"] == report.runs[0].model and x["shots"] == 0)
    assert sum(s["r"] == r for s in data["samples"]) == n
