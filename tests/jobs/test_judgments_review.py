"""``buildds judgments --review-sample / --review-verdicts`` end to end on 40 JuDGE
judgments (needs ../shared)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.commands.judgments import judgments
from tests.conftest import shared_path


@pytest.fixture(scope="module")
def shared() -> Path:
    return shared_path("realdata", "judgments")


def _args(shared: Path, out: Path, *extra: str) -> list[str]:
    return [str(shared / "judge-benchmark" / "test.json"), "--out", str(out),
            "--law", str(shared / "cn-criminal-law"),
            "--confusable", str(shared / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv"),
            "--limit", "40", "-q", *extra]


def test_review_sample_and_verdicts(shared: Path, tmp_path: Path) -> None:
    out = tmp_path / "arbench"
    runner = CliRunner()
    res = runner.invoke(judgments, _args(shared, out, "--review-sample", "2"))
    assert res.exit_code == 0, res.output
    review = out / "review"
    template = list(csv.reader((review / "verdicts_template.csv").open(encoding="utf-8")))
    report = json.loads((out / "report.json").read_text("utf-8"))
    made = {e: c["succeeded"] for e, c in report["injections"].items() if c["succeeded"]}
    ids = [r[0] for r in template[1:]]
    per_type: dict[str, int] = {}
    for rid in ids:
        etype = rid.rsplit("-", 2)[1]
        per_type[etype] = per_type.get(etype, 0) + 1
    assert per_type == {e: min(2, n) for e, n in made.items()}
    html = (review / "review_sample.html").read_text("utf-8")
    assert all(f'id="{rid}"' in html for rid in ids) and "<del>" in html and "<ins>" in html
    first = {p.name: p.read_bytes() for p in review.iterdir()}
    assert "Reviewer's validity rate" not in (out / "README.md").read_text("utf-8")

    # the same build again: byte-identical sample (unchanged build)
    again = runner.invoke(judgments, _args(shared, out, "--review-sample", "2"))
    assert again.exit_code == 0 and "unchanged" in again.output
    assert {p.name: p.read_bytes() for p in review.iterdir()} == first

    # verdicts: the first valid, the second not, the rest not judged
    lines = ["\ufeffid,valid,note", f"{ids[0]},yes,ok", f"{ids[1]},no,\"reads oddly, <b>\""]
    lines += [f"{rid},," for rid in ids[2:]]
    verdicts = tmp_path / "verdicts.csv"
    verdicts.write_text("\n".join(lines) + "\n", encoding="utf-8")
    judged = runner.invoke(judgments, _args(shared, out, "--review-sample", "2",
                                            "--review-verdicts", str(verdicts)))
    assert judged.exit_code == 0, judged.output
    assert "unchanged" not in judged.output  # the verdicts are in the fingerprint
    report = json.loads((out / "report.json").read_text("utf-8"))
    overall = report["review"][-1]
    assert (overall["error_type"], overall["valid"], overall["judged"]) == ("all", 1, 2)
    assert "## Reviewer's verdicts" in (out / "report.md").read_text("utf-8")
    card = (out / "README.md").read_text("utf-8")
    assert "## Reviewer's validity rate" in card and "| all | 1/2 = 50.0% (95% CI" in card

    # an id that is not a row of the build: exit 1, naming the file and line
    verdicts.write_text("id,valid,note\nno-such-row-E3-0,yes,\n", encoding="utf-8")
    bad = runner.invoke(judgments, _args(shared, out, "--review-verdicts", str(verdicts)))
    assert bad.exit_code == 1 and "line 2" in bad.output and "verdicts.csv" in bad.output
    assert "## Reviewer's validity rate" in (out / "README.md").read_text("utf-8")  # kept

    # without --review-sample the old sample goes
    plain = runner.invoke(judgments, _args(shared, out))
    assert plain.exit_code == 0, plain.output
    assert not any(review.iterdir()) if review.exists() else True
