"""The judgments review source: the queue of a judgments output, verdicts into the
``--review-verdicts`` CSV, optimistic versions; and end to end on 40 JuDGE judgments (needs
../shared): record verdicts through the source, rebuild with ``--review-verdicts``, read the
validity rate in the card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.extract.review_verdicts import read_verdicts
from buildds.review.sources.base import StaleVerdict, Verdict, detect_source
from buildds.review.sources.judgments import JudgmentsSource, probe
from tests.conftest import shared_path
from tests.review.sources.helpers import SCRIPT, make_judgments_out


@pytest.fixture
def out(tmp_path: Path) -> Path:
    return make_judgments_out(tmp_path / "arbench")


def test_probe_and_queue(out: Path, tmp_path: Path) -> None:
    assert probe(tmp_path) is None
    source = detect_source(out)
    assert isinstance(source, JudgmentsSource) and source.kind == "judgment"
    items = source.items()
    assert [(i.key, i.reasons) for i in items] == [
        ("a-1-E1-0", ("review_sample",)), ("c-3-E1-0", ("validation:E1_not_confusable",)),
        ("b-2-E3-0", ("review_sample",))]
    first = items[0]
    assert first.facets == {"error_type": "E1", "charge": "盗窃", "document": "a-1",
                            "dataset": "judge"}
    ev = first.evidence
    judgment = ev["parts"][0]
    assert judgment["name"] == "judgment" and judgment["changed"]
    assert {"op": "del", "text": "盗窃"} in judgment["segments"]
    assert {"op": "ins", "text": "职务侵占"} in judgment["segments"]
    assert ev["tier"] == "数额较大" and ["statute tier", "数额较大"] in ev["why"]
    assert ev["actions"] == ["accept", "reject"]
    assert ev["gold"] == {"charge": "盗窃"} and ev["edits"] == [{"old": "盗窃", "new": "职务侵占"}]
    assert items[1].evidence["flags"] == [{"check": "E1_not_confusable",
                                           "message": "not a confusable pair"}]
    assert SCRIPT in judgment["segments"][-1]["text"]  # raw data: the template escapes it
    json.dumps([i.evidence for i in items])  # JSON-able


def test_verdicts_go_to_the_csv_the_build_reads(out: Path) -> None:
    source = JudgmentsSource(out)
    v0 = source.version("a-1-E1-0")
    assert source.verdict_for("a-1-E1-0") is None
    v1 = source.record(Verdict(key="a-1-E1-0", action="accept"), v0)
    v2 = source.record(Verdict(key="b-2-E3-0", action="reject", note='odd, "<b>"'),
                       source.version("b-2-E3-0"))
    assert v1 != v0 and source.version("a-1-E1-0") == v1 and source.version("b-2-E3-0") == v2
    found = read_verdicts(out / "review" / "verdicts.csv")
    assert [(v.id, v.valid, v.note) for v in found] == [("a-1-E1-0", True, ""),
                                                       ("b-2-E3-0", False, 'odd, "<b>"')]
    assert source.verdict_for("b-2-E3-0") == Verdict(key="b-2-E3-0", action="reject",
                                                     note='odd, "<b>"')
    # changing one's mind replaces the row in place
    source.record(Verdict(key="a-1-E1-0", action="reject", note="not an error"), v1)
    lines = (out / "review" / "verdicts.csv").read_text("utf-8").splitlines()
    assert lines == ["id,valid,note", "a-1-E1-0,no,not an error", 'b-2-E3-0,no,"odd, ""<b>"""']
    # a judged row stays in the queue after it leaves the sample
    (out / "review" / "verdicts_template.csv").unlink()
    assert {i.key: i.reasons for i in JudgmentsSource(out).items()}["a-1-E1-0"] == ("judged",)


def test_refusals(out: Path) -> None:
    source = JudgmentsSource(out)
    v = source.version("a-1-E1-0")
    with pytest.raises(KeyError):
        source.record(Verdict(key="nope", action="accept"), v)
    with pytest.raises(KeyError):
        source.version("d-4-none")  # a normal row is not in the queue
    with pytest.raises(ValueError, match="note"):
        source.record(Verdict(key="a-1-E1-0", action="reject"), v)
    with pytest.raises(ValueError, match="accept, reject"):
        source.record(Verdict(key="a-1-E1-0", action="edit", note="x", changes={"a": "b"}), v)
    assert not (out / "review" / "verdicts.csv").exists()


def test_two_tabs_the_stale_one_is_refused_and_nothing_is_lost(out: Path) -> None:
    tab1, tab2 = JudgmentsSource(out), JudgmentsSource(out)
    seen1, seen2 = tab1.version("a-1-E1-0"), tab2.version("a-1-E1-0")
    tab1.record(Verdict(key="a-1-E1-0", action="accept"), seen1)
    with pytest.raises(StaleVerdict):
        tab2.record(Verdict(key="a-1-E1-0", action="reject", note="no"), seen2)
    assert tab2.verdict_for("a-1-E1-0") == Verdict(key="a-1-E1-0", action="accept")
    # another item is not stale: versions are per item
    tab2.record(Verdict(key="b-2-E3-0", action="accept"), tab2.version("b-2-E3-0"))
    assert [v.id for v in read_verdicts(out / "review" / "verdicts.csv")] == ["a-1-E1-0",
                                                                            "b-2-E3-0"]


def test_a_broken_verdicts_file_is_refused_not_overwritten(out: Path) -> None:
    bad = out / "review" / "verdicts.csv"
    bad.write_text("id,valid\na-1-E1-0,maybe\n", encoding="utf-8")
    source = JudgmentsSource(out)
    with pytest.raises(Exception, match="line 2"):
        source.record(Verdict(key="b-2-E3-0", action="accept"), "x")
    assert bad.read_text("utf-8") == "id,valid\na-1-E1-0,maybe\n"


def test_record_verdicts_rebuild_and_read_the_rate_in_the_card(tmp_path: Path) -> None:
    from buildds.commands.judgments import judgments

    shared = shared_path("realdata", "judgments")
    out = tmp_path / "arbench"
    args = [str(shared / "judge-benchmark" / "test.json"), "--out", str(out),
            "--law", str(shared / "cn-criminal-law"), "--confusable",
            str(shared / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv"),
            "--limit", "40", "-q", "--review-sample", "2"]
    runner = CliRunner()
    res = runner.invoke(judgments, args)
    assert res.exit_code == 0, res.output
    source = detect_source(out)
    assert isinstance(source, JudgmentsSource)
    items = source.items()
    assert items and all(i.reasons == ("review_sample",) for i in items)
    assert len(items) == len((out / "review" / "verdicts_template.csv").read_text(
        "utf-8").splitlines()) - 1
    # three verdicts: two valid, one not
    for item, action in zip(items, ("accept", "accept", "reject"), strict=False):
        source.record(Verdict(key=item.key, action=action, note="not a real error"
                              if action == "reject" else ""), source.version(item.key))
    again = runner.invoke(judgments, [*args, "--review-verdicts",
                                      str(out / "review" / "verdicts.csv")])
    assert again.exit_code == 0, again.output
    report = json.loads((out / "report.json").read_text("utf-8"))
    overall = report["review"][-1]
    assert (overall["error_type"], overall["valid"], overall["judged"]) == ("all", 2, 3)
    card = (out / "README.md").read_text("utf-8")
    assert "## Reviewer's validity rate" in card and "| all | 2/3 = 66.7% (95% CI" in card
    # the rebuilt output is still a review queue, with the verdicts done
    rebuilt = detect_source(out)
    assert rebuilt.verdict_for(items[0].key) == Verdict(key=items[0].key, action="accept")
