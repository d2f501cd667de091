"""``buildds judgments`` over several corpora at once (JuDGE-, LeCaRD- and Caseformer-like
files written here, and a user's corpus by a mapping file): each input's format is found,
a case two inputs share is kept once, and report.md counts parsed and rejected records
per input and reason, injected rows per error type beside AR-Bench, and judgments older
than the law text applied."""

from __future__ import annotations

import json
from pathlib import Path

from buildds.commands.judgments import judgments  # noqa: F401 (the command under test)
from tests.extract.judgments.corpus_records import (
    BASIS,
    FACTS,
    REASON,
    caseformer,
    judge,
    lecard,
    write,
)
from tests.jobs.test_judgments_bad_inputs import rejects, run, statutes  # noqa: F401


def test_three_corpora_in_one_build(statutes: tuple[Path, Path], tmp_path: Path) -> None:  # noqa: F811
    j = write(tmp_path / "test.json", [judge("a1", 1), judge("a2", 2)])
    c = write(tmp_path / "candidates.jsonl", [
        lecard("w1", "a1", 1), lecard("w3", "a3", 3), lecard("w3", "a3", 3),
        lecard("w4", "a4", 4, title="甲某盗窃罪二审刑事判决书"), lecard("w5", "a5", 5)])
    f = write(tmp_path / "legal_documents.jsonl", [caseformer()])
    out = tmp_path / "out"
    result = run(statutes, out, j, c, f)
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert [(i["path"], i["format"]) for i in report["inputs"]] == [
        ("test.json", "judge"), ("candidates.jsonl", "lecard"),
        ("legal_documents.jsonl", "caseformer")]
    assert report["parsed"] == {"test.json": 2, "candidates.jsonl": 2, "legal_documents.jsonl": 1}
    got = [(r["source"], r["line"], r["reason"]) for r in rejects(out)]
    assert got == [("candidates.jsonl", 1, "duplicate_case"), ("candidates.jsonl", 3, "duplicate_id"),
                   ("candidates.jsonl", 4, "not_first_instance")]
    corpus = report["corpus"]
    assert corpus["inputs"]["candidates.jsonl"]["duplicates_of"] == {
        "duplicate_case of test.json": 1, "duplicate_id of candidates.jsonl": 1}
    injected = sum(v["rows"] for k, v in corpus["error_types"].items() if k.startswith("E"))
    assert injected == sum(c["succeeded"] for c in report["injections"].values()) > 0
    assert corpus["law_dates"]["dated_before"] == 5  # all dated 2017/2018, before 2024-03-01
    md = (out / "report.md").read_text("utf-8")
    for heading in ("## Inputs: parsed and rejected by reason",
                    "## Injected rows per error type: this build vs AR-Bench (seed 003)",
                    "## Judgment dates vs the law applied"):
        assert heading in md
    assert "| candidates.jsonl | lecard | 2 | 3 | duplicate_case 1, duplicate_id 1, " in md
    assert "8,700 decisions" in md and "--law-store" in md


def test_a_user_corpus_by_a_mapping_file(statutes: tuple[Path, Path], tmp_path: Path) -> None:  # noqa: F811
    mapping = tmp_path / "mine.yaml"
    mapping.write_text("name: mycourt\ndetect: [doc]\nid: doc.no\nfacts: doc.facts\n"
                       "reasoning: doc.why\njudgment: doc.ruling\n", encoding="utf-8")
    ruling = "被告人甲某犯盗窃罪，判处有期徒刑六个月，并处罚金人民币二千元。"
    lines = [json.dumps({"doc": {"no": n, "facts": FACTS, "why": REASON + BASIS,
                                 "ruling": ruling}}, ensure_ascii=False) for n in (1, 2)]
    lines.append(json.dumps({"doc": {"no": 3, "facts": FACTS, "why": REASON}}))
    path = write(tmp_path / "mine.jsonl", lines)
    out = tmp_path / "out"
    result = run(statutes, out, path, extra=("--input-format", str(mapping)))
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["inputs"][0]["format"] == "mycourt" and report["parsed"] == {"mine.jsonl": 2}
    (bad,) = rejects(out)
    assert (bad["line"], bad["reason"], bad["dataset"]) == (3, "missing_field", "mycourt")


def test_a_bad_input_format_is_a_usage_error(statutes: tuple[Path, Path], tmp_path: Path) -> None:  # noqa: F811
    path = write(tmp_path / "test.json", [judge()])
    result = run(statutes, tmp_path / "out", path, extra=("--input-format", "lecardd"))
    assert result.exit_code == 2 and "unknown input format 'lecardd'" in result.output
    bad = tmp_path / "m.yaml"
    bad.write_text("name: x\ndetect: [a]\n", encoding="utf-8")
    result = run(statutes, tmp_path / "out", path, extra=("--input-format", str(bad)))
    assert result.exit_code == 2 and "a mapping needs full_text or judgment" in result.output


def test_keep_appeals(statutes: tuple[Path, Path], tmp_path: Path) -> None:  # noqa: F811
    c = write(tmp_path / "candidates.jsonl", [
        lecard("w1", "a1", 1), lecard("w2", "a2", 2, title="甲某盗窃罪二审刑事判决书")])
    out = tmp_path / "out"
    assert run(statutes, out, c).exit_code == 0
    assert [r["reason"] for r in rejects(out)] == ["not_first_instance"]
    result = run(statutes, out, c, extra=("--keep-appeals",))
    assert result.exit_code == 0, result.output
    assert rejects(out) == []
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["parsed"] == {"candidates.jsonl": 2}
