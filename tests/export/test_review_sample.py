"""The reviewer's sample (:mod:`buildds.export.review_sample`), its diff
(:mod:`buildds.export.review_diff`) and the verdicts CSV (:mod:`buildds.extract.review_verdicts`)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from buildds.errors import ExtractError
from buildds.export.review_diff import diff_hunks, hunk_markdown
from buildds.export.review_sample import (
    review_files,
    review_sample,
    validity_rates,
    why_wrong,
    wilson_interval,
)
from buildds.extract.review_verdicts import check_verdict_ids, read_verdicts
from buildds.schema.arbench import ArbenchRow
from buildds.schema.judgments import SpanEdit

ORIGINAL = "判决如下：被告人张某犯盗窃罪，判处有期徒刑三年，并处罚金人民币五千元。"


def _row(rid: str, etype: str, *, judgment: str = ORIGINAL, original: str = ORIGINAL,
         rationale: dict[str, object] | None = None) -> ArbenchRow:
    label = 0 if etype == "none" else 1
    return ArbenchRow(
        id=rid, source_id=rid.split("-")[0], dataset="judge", error_type=etype,  # type: ignore[arg-type]
        error_class="none" if etype == "none" else "prison_term", label=label,  # type: ignore[arg-type]
        factor="none", charges=("盗窃",), facts="事实", judgment=judgment,
        original_judgment=original, reasoning="本院认为", anomalous_reasoning="本院认为",
        cited_articles=(), anomalous_cited_articles=(), articles_text="", anomalous_articles_text="",
        gold_correction={"months": 36} if label else {}, rationale=rationale or {},
        edits=(SpanEdit(start=0, end=1, old="a", new="b"),) if label else (), seed=0,
        input_s1="", input_s2="", input_s3="", input_s4="", input_s5="")


def _rows() -> list[ArbenchRow]:
    rows = [_row(f"j{i:02d}-E3-0", "E3", judgment=ORIGINAL.replace("三年", f"{i + 11}年"))
            for i in range(7)]
    rows += [_row(f"k{i:02d}-E5-0", "E5") for i in range(2)]
    rows += [_row(f"n{i:02d}-none", "none") for i in range(5)]
    return rows


def test_sample_is_seeded_and_takes_n_per_type_or_all() -> None:
    rows = _rows()
    first = review_sample(rows, 3, seed=0)
    assert set(first) == {"E3", "E5"}  # normal rows are never sampled
    assert len(first["E3"]) == 3 and len(first["E5"]) == 2  # fewer exist: all of them
    assert review_sample(list(reversed(rows)), 3, seed=0) == first  # order does not matter
    ids = [r.id for r in first["E3"]]
    assert ids == sorted(ids)
    others = {tuple(r.id for r in review_sample(rows, 3, seed=s)["E3"]) for s in range(8)}
    assert len(others) > 1  # the seed chooses


def test_files_are_deterministic_and_list_every_sampled_row() -> None:
    sample = review_sample(_rows(), 2, seed=1)
    files = review_files(sample, seed=1, n=2, available={"E3": 7, "E5": 2})
    assert files == review_files(sample, seed=1, n=2, available={"E3": 7, "E5": 2})
    table = list(csv.reader(io.StringIO(files["verdicts_template.csv"])))
    assert table[0] == ["id", "valid", "note"]
    assert sorted(r[0] for r in table[1:]) == sorted(r.id for rows in sample.values() for r in rows)
    md = files["review_sample.md"]
    assert "| E3 | 7 | 2 |" in md and "```diff" in md
    assert "[-三-]" in md and "{+1" in md  # the changed term, marked on both sides


def test_diff_shows_only_changed_regions_with_context() -> None:
    a = "甲" * 200 + "三年" + "乙" * 200
    b = "甲" * 200 + "十一年" + "乙" * 200
    (hunk,) = diff_hunks(a, b, context=10)
    assert hunk.cut_before and hunk.cut_after
    assert "".join(s.text for s in hunk.left) == "甲" * 10 + "三年" + "乙" * 9
    assert [s.text for s in hunk.left if s.changed] == ["三"]
    assert [s.text for s in hunk.right if s.changed] == ["十一"]
    assert diff_hunks(a, a) == []
    assert len(diff_hunks("x" * 100 + "a" + "x" * 100 + "b" + "x" * 100, "x" * 100 + "c" + "x" * 100
                          + "d" + "x" * 100, context=10)) == 2


def test_hostile_text_is_escaped() -> None:
    evil = '<script>alert(1)</script>"&\'```'
    row = _row("z-E3-0", "E3", judgment=ORIGINAL + evil + "X", original=ORIGINAL + evil + "Y",
               rationale={"charge": "<b>盗窃</b>", "law": "```\n# heading"})
    files = review_files({"E3": [row]}, seed=0, n=1, available={"E3": 1})
    html = files["review_sample.html"]
    assert "<script>" not in html and "&lt;script&gt;" in html and "<b>盗窃" not in html
    assert "<del>Y</del>" in html and "<ins>X</ins>" in html
    md = files["review_sample.md"]
    # the text's own ``` cannot close the block: the fence is longer
    assert "````diff" in md and "\n# heading" not in md
    assert hunk_markdown(diff_hunks("a```b", "a```c")).startswith("````diff")


def test_why_wrong_puts_the_statute_first_and_hides_nothing() -> None:
    why = why_wrong({"zeta": 1, "range_months": [6, 36], "charge": "盗窃", "tier": "数额较大"})
    assert [k for k, _ in why] == ["charge", "statute tier", "range (months)", "zeta"]


def _write(tmp_path: Path, text: str, name: str = "v.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def test_verdicts_read_with_bom_blank_rows_and_notes(tmp_path: Path) -> None:
    path = _write(tmp_path, "\ufeffid,valid,note\r\na,YES,\"fine, really\"\r\nb,no,\r\nc,,\r\n\r\n")
    got = read_verdicts(path)
    assert [(v.id, v.valid, v.note, v.line) for v in got] == [
        ("a", True, "fine, really", 2), ("b", False, "", 3)]
    assert read_verdicts(_write(tmp_path, "valid,id\nyes,a\n", "w.csv"))[0].id == "a"


@pytest.mark.parametrize(("text", "message"), [
    ("", "empty"),
    ("id,verdict\n", "line 1"),
    ("id,valid,note\na,maybe,\n", "line 2: valid is 'maybe'"),
    ("id,valid,note\na,yes,\nb,no,\na,no,\n", "line 4: id 'a' already judged on line 2"),
    ("id,valid,note\na,yes\n", "line 2: 2 fields"),
    ("id,valid,note\n,yes,\n", "line 2: empty id"),
])
def test_bad_verdicts_name_the_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ExtractError) as err:
        read_verdicts(path)
    assert message in err.value.message and str(path) in str(err.value)


def test_unknown_ids_and_rates(tmp_path: Path) -> None:
    path = _write(tmp_path, "id,valid,note\na,yes,\nb,no,\nc,yes,\nzz,yes,\n")
    verdicts = read_verdicts(path)
    types = {"a": "E3", "b": "E3", "c": "E5"}
    with pytest.raises(ExtractError, match="line 5: id 'zz'"):
        check_verdict_ids(verdicts, types, source=path)
    rates = validity_rates(verdicts[:3], types)
    assert [(r.error_type, r.valid, r.judged) for r in rates] == [
        ("E3", 1, 2), ("E5", 1, 1), ("all", 2, 3)]
    assert rates[-1].as_text().startswith("2/3 = 66.7% (95% CI ")


def test_wilson_interval() -> None:
    low, high = wilson_interval(7, 8)
    assert round(low, 3) == 0.529 and round(high, 3) == 0.978
    assert wilson_interval(0, 0) == (0.0, 0.0)
    assert wilson_interval(0, 5)[0] == 0.0 and wilson_interval(5, 5)[1] == 1.0
