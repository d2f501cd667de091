"""The JBE review source on the bundled sample build: what it queues and why, the evidence
(verified PDF, statement box, stem, key rows), verdicts written as corrections entries the
build's loader reads, optimistic versions, and a rebuild that applies the verdict."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from buildds.review.sources.base import StaleVerdict, Verdict, detect_source
from buildds.review.sources.jbe import JbeSource, item_key
from buildds.review.sources.jbe_verdicts import LOG_NAME, text_change
from buildds.transform.corrections import load_corrections
from tests.review.conftest import JbeSample, build_sample, jbe_source


def test_detect_source_finds_a_jbe_build(jbe_sample: JbeSample, tmp_path: Path) -> None:
    assert isinstance(detect_source(jbe_sample.out), JbeSource)
    from buildds.review.sources.jbe import probe

    assert probe(tmp_path) is None
    other = tmp_path / "other"  # a build with a report and an export, of another kind
    (other / "data").mkdir(parents=True)
    shutil.copy(jbe_sample.out / "data" / "test.parquet", other / "data" / "test.parquet")
    (other / "report.json").write_text('{"stage": "judgments", "dataset": {}}', "utf-8")
    assert probe(other) is None
    (other / "report.json").write_text("not json", "utf-8")
    assert probe(other) is None


def test_a_clean_build_queues_a_seeded_spot_check(jbe_sample: JbeSample, tmp_path: Path) -> None:
    source = jbe_source(jbe_sample, tmp_path / "c", spot_check=7)
    items = source.items()
    assert len(items) == 7
    assert all(i.reasons == ("spot_check",) for i in items)
    again = jbe_source(jbe_sample, tmp_path / "c", spot_check=7).items()
    assert [i.key for i in again] == [i.key for i in items]
    assert len({i.key for i in items}) == 7
    assert all(i.key.startswith("2025-") for i in items)
    assert jbe_source(jbe_sample, tmp_path / "c", spot_check=0).items() == []


def test_evidence_has_the_page_box_stem_and_key_row(jbe_sample: JbeSample, tmp_path: Path) -> None:
    source = jbe_source(jbe_sample, tmp_path / "c", spot_check=100)
    items = source.items()
    assert len(items) == 74
    for item in items:
        ev = item.evidence
        assert ev["pdf"] == str((jbe_sample.raw / ev["source"]).resolve())
        assert ev["bbox"] is not None, item.title  # every statement located on its page
        x0, top, x1, bottom = ev["bbox"]
        width, height = ev["page_size"]
        assert 0 <= x0 < x1 <= width and 0 <= top < bottom <= height
        assert ev["stem"] and ev["key_rows"], item.title
        assert ev["label"] == item.fields["label"]
        assert ev["key_pdf"] and ev["key_pdf"].endswith("-seito.pdf")
    assert {str(p) for p in source.files()} == {
        str(p.resolve()) for p in (jbe_sample.raw / "2025").glob("*.pdf")}


def test_a_pdf_that_is_not_the_one_built_is_not_shown(jbe_sample: JbeSample,
                                                      tmp_path: Path) -> None:
    raw = tmp_path / "raw"
    shutil.copytree(jbe_sample.raw, raw)
    (raw / "2025" / "kenpo-mondai.pdf").write_bytes(b"%PDF-1.4 not the same")
    source = JbeSource(jbe_sample.out, raw=raw, corrections=tmp_path / "c", spot_check=100)
    kenpo = [i for i in source.items() if i.facets["document"] == "2025/kenpo-mondai.pdf"]
    assert kenpo and all(i.evidence["pdf"] is None for i in kenpo)
    assert "sha256 differs" in kenpo[0].evidence["pdf_problem"]
    assert all("kenpo-mondai" not in str(p) for p in source.files())


def test_flags_become_reasons(jbe_sample: JbeSample, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(jbe_sample.out, out, ignore=shutil.ignore_patterns(".cache"))
    report = json.loads((out / "report.json").read_text("utf-8"))
    ds = report["dataset"]
    ds["validation"]["flags"] = [{"check": "label_balance", "id": "令和７年-民法-3"}]
    ds["ocr_low_confidence"] = [{"id": "令和７年-刑法-1-2", "mean": 71.0, "min": 30.0}]
    ds["corrections"]["stale"] = [{"origin": "x.yaml#1", "id": "令和７年-憲法-2-1",
                                   "action": "label", "message": "m"}]
    (out / "report.json").write_text(json.dumps(report, ensure_ascii=False), "utf-8")
    source = JbeSource(out, raw=jbe_sample.raw, corrections=tmp_path / "c", spot_check=0)
    reasons = {i.title: i.reasons for i in source.items()}
    assert reasons["令和７年-刑法-1-2"] == ("ocr_low_confidence",)
    assert reasons["令和７年-憲法-2-1"] == ("stale_correction",)
    minpo3 = {t for t in reasons if t.startswith("令和７年-民法-3-")}
    assert minpo3 and all(reasons[t] == ("validation:label_balance",) for t in minpo3)
    assert len(reasons) == 2 + len(minpo3)


def test_text_change_is_the_smallest_unique_span() -> None:
    cases = [("ABCDEF", "ABXDEF"), ("効力を生じな い。", "効力を生じない。"),
             ("aaaa", "aaab"), ("x、y、z", "x、y，z"), ("abc", "abcd"), ("abc", "zabc")]
    for old, new in cases:
        find, replace = text_change(old, new)
        assert old.count(find) == 1, (old, find)
        assert old.replace(find, replace) == new
    assert text_change("ABCDEF", "ABXDEF") == ("C", "X")


def test_verdicts_become_corrections_entries(jbe_sample: JbeSample, tmp_path: Path) -> None:
    folder = tmp_path / "c"
    source = jbe_source(jbe_sample, folder, spot_check=3)
    first, second, third = source.items()
    v = source.version(first.key)
    with pytest.raises(ValueError, match="reason"):
        source.record(Verdict(key=first.key, action="reject"), v)
    assert not folder.exists() or not list(folder.iterdir())
    v1 = source.record(Verdict(key=first.key, action="reject", note="key says 2",
                               reviewer="kim"), v)
    assert v1 != v
    with pytest.raises(StaleVerdict):
        source.record(Verdict(key=first.key, action="accept"), v)
    text = second.fields["question"]
    edited = text[:3] + "■" + text[4:]
    source.record(Verdict(key=second.key, action="edit", note="OCR typo",
                          changes={"question": edited, "label": second.fields["label"]}),
                  source.version(second.key))
    source.record(Verdict(key=third.key, action="accept"), source.version(third.key))
    entries = {c.id: c for c in load_corrections(folder)}
    flip = entries[first.title]
    assert flip.action == "label" and flip.expect == first.fields["label"]
    assert flip.label != flip.expect and flip.reason == "key says 2"
    edit = entries[second.title]
    assert edit.action == "text" and "■" in edit.replace and len(edit.find) < len(text)
    assert text.count(edit.find) == 1 and text.replace(edit.find, edit.replace) == edited
    assert third.title not in entries  # an accept is only logged
    log = [json.loads(line) for line in (folder / LOG_NAME).read_text("utf-8").splitlines()]
    assert [line["action"] for line in log] == ["reject", "edit", "accept"]
    assert log[0]["reviewer"] == "kim" and log[0]["entries"][0].endswith("#1")
    assert source.verdict_for(third.key).action == "accept"
    yaml_files = sorted(p.name for p in folder.glob("*.yaml"))
    assert all(n.startswith("2025-") for n in yaml_files)


def test_a_revision_and_an_exclusion(jbe_sample: JbeSample, tmp_path: Path) -> None:
    folder = tmp_path / "c"
    source = jbe_source(jbe_sample, folder, spot_check=2)
    a, b = source.items()
    rev = "129AC0000000089_20240401_504AC0000000102"
    source.record(Verdict(key=a.key, action="reject", note="law changed", revision=rev),
                  source.version(a.key))
    with pytest.raises(ValueError, match="revision"):
        source.record(Verdict(key=b.key, action="exclude", note="n", revision="not a rev"),
                      source.version(b.key))
    source.record(Verdict(key=b.key, action="exclude", note="unanswerable"),
                  source.version(b.key))
    entries = {c.id: c for c in load_corrections(folder)}
    assert entries[a.title].revision == rev and entries[a.title].expect is not None
    assert entries[b.title].action == "exclude"


def test_a_hand_edit_of_the_corrections_makes_the_version_stale(jbe_sample: JbeSample,
                                                                tmp_path: Path) -> None:
    folder = tmp_path / "c"
    source = jbe_source(jbe_sample, folder, spot_check=1)
    (item,) = source.items()
    v = source.version(item.key)
    folder.mkdir(exist_ok=True)
    (folder / "hand.yaml").write_text(
        f"- id: {item.title}\n  action: exclude\n  reason: by hand\n", encoding="utf-8")
    with pytest.raises(StaleVerdict):
        source.record(Verdict(key=item.key, action="accept"), v)


def test_a_rebuild_applies_the_verdict(tmp_path: Path) -> None:
    sample = build_sample(tmp_path)
    source = jbe_source(sample, sample.corrections, spot_check=1)
    (item,) = source.items()
    before = item.fields["label"]
    source.record(Verdict(key=item.key, action="reject", note="the key row was misread"),
                  source.version(item.key))
    build_sample(tmp_path, sample.corrections)
    (after,) = jbe_source(sample, sample.corrections, spot_check=1).items()
    assert after.key == item.key == item_key({"id": item.title,
                                              "source": item.facets["document"]})
    assert after.fields["label"] != before
    assert after.evidence["corrections"] == ["2025-" + item.key.split("-")[1] + ".yaml#1"]


def test_needs_review_items_name_their_revision(jbe_sample: JbeSample, tmp_path: Path) -> None:
    """An as-of build's needs_review split: each item queued with the revision its status
    names (the item page prefills it in the verdict form)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = tmp_path / "out"
    shutil.copytree(jbe_sample.out, out, ignore=shutil.ignore_patterns(".cache"))
    table = pq.read_table(out / "data" / "test.parquet")
    rev = "129AC0000000089_20240401_504AC0000000102"
    moved = table.slice(0, 2)
    moved = moved.append_column("status", pa.array(["needs_review"] * 2)).append_column(
        "status_reason", pa.array([f"{rev} (in force 2024-04-01): 第5条 substantive", None]))
    pq.write_table(moved, out / "data" / "needs_review.parquet")
    pq.write_table(table.slice(2), out / "data" / "test.parquet")
    source = JbeSource(out, raw=jbe_sample.raw, corrections=tmp_path / "c", spot_check=0)
    reasons = {i.title: i.reasons for i in source.items()}
    first, second = moved.column("id").to_pylist()
    assert reasons == {first: (f"needs_review:{rev}",), second: ("needs_review",)}
    pytest.importorskip("starlette", reason="the review extra is not installed")
    from starlette.testclient import TestClient

    from buildds.review.app import create_app
    from buildds.review.security import COOKIE

    client = TestClient(create_app(source, "t"))
    client.cookies.set(COOKIE, "t")
    key = next(i.key for i in source.items() if i.title == first)
    page = client.get(f"/item/{key}").text
    assert f'name="revision" id="revision" value="{rev}"' in page
