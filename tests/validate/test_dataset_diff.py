"""buildds.validate.dataset_diff: two exports compared item by item.

Two JBE exports are built from the bundled sample PDFs: one without corrections, one with a
correction file that relabels one item, rewrites one text and excludes a question; a third
is a pandas-edited copy (a status column, an item moved to a needs_review split, a page
changed). AR-Bench and contracts exports are built small (the judgments from ../shared,
skipped when absent; the contracts from the bundled sample .docx)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.errors import ExtractError
from buildds.schema import (
    ADDED,
    LABEL_CHANGED,
    MOVED_SPLIT,
    OTHER_CHANGED,
    REMOVED,
    STATUS_CHANGED,
    TEXT_CHANGED,
    DatasetDiff,
    ItemDiff,
)
from buildds.validate.dataset_diff import diff_exports, json_value
from buildds.validate.dataset_diff_report import diff_json, diff_markdown, excerpt
from buildds.validate.export_splits import load_splits
from tests.conftest import shared_path

REPO = Path(__file__).resolve().parents[2]
SAMPLE_PDF = REPO / "buildds" / "sample" / "pdf"
SAMPLE_DOCX = sorted((REPO / "buildds" / "sample" / "highbar").rglob("*.docx"))

RELABELLED = "令和７年-刑法-1-1"
REWORDED = "令和７年-刑法-1-2"
EXCLUDED = "令和７年-刑法-2"
CORRECTIONS = f"""\
- id: {RELABELLED}
  action: label
  expect: Y
  label: N
  reason: the key was misread
- id: {REWORDED}
  action: text
  find: "侵害を予期した上"
  replace: "侵害を十分に予期した上"
  reason: a word was lost
- id: {EXCLUDED}
  action: exclude
  reason: every examinee was scored correct
"""


def _build_jbe(out: Path, corrections: Path) -> Path:
    result = CliRunner().invoke(main, ["jbe", "--years", "2025", "--raw", str(SAMPLE_PDF),
                                       "--out", str(out), "--corrections", str(corrections),
                                       "-q", "-j", "1"])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def jbe_pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("jbe")
    none, some = root / "corr-none", root / "corr-some"
    none.mkdir()
    some.mkdir()
    (some / "2025-keiho.yaml").write_text(CORRECTIONS, encoding="utf-8")
    return _build_jbe(root / "old", none), _build_jbe(root / "new", some)


def _by_id(diff: DatasetDiff) -> dict[str, ItemDiff]:
    return {d.id: d for d in diff.items}


def test_identical_exports_have_no_changes(jbe_pair: tuple[Path, Path]) -> None:
    old, _ = jbe_pair
    diff = diff_exports(old, old)
    assert not diff.changed and diff.items == () and diff.unchanged == diff.new_items == 74
    assert "no changes" in diff.summary_line()


def test_corrections_show_as_label_text_and_removed_with_reasons(
        jbe_pair: tuple[Path, Path]) -> None:
    old, new = jbe_pair
    diff = diff_exports(old, new)
    items = _by_id(diff)
    relabelled = items[RELABELLED]
    assert LABEL_CHANGED in relabelled.classes and TEXT_CHANGED not in relabelled.classes
    assert relabelled.fields_of(LABEL_CHANGED) == ("answer", "label")
    label = next(c for c in relabelled.changes if c.field == "label")
    assert (label.old, label.new) == ("Y", "N")
    assert relabelled.reasons == ("correction applied: 2025-keiho.yaml#1",)
    assert relabelled.group == "刑法 令和７年"

    reworded = items[REWORDED]
    assert reworded.classes == (TEXT_CHANGED,)
    assert reworded.fields_of(TEXT_CHANGED) == ("question",)
    assert "十分に" in reworded.changes[0].new and "十分に" not in reworded.changes[0].old
    assert reworded.reasons == ("correction applied: 2025-keiho.yaml#2",)

    removed = [d for d in diff.items if d.id.startswith(EXCLUDED + "-")]
    assert removed and all(d.classes == (REMOVED,) for d in removed)
    assert all(d.reasons == ("rejected: correction — every examinee was scored correct",)
               for d in removed)
    assert diff.counts[REMOVED] == len(removed)
    assert diff.counts_by_group["刑法 令和７年"][REMOVED] == len(removed)
    assert diff.changed


def test_the_reverse_diff_finds_them_added_with_the_old_reject(
        jbe_pair: tuple[Path, Path]) -> None:
    old, new = jbe_pair
    added = [d for d in diff_exports(new, old).items if d.id.startswith(EXCLUDED + "-")]
    assert added and all(d.classes == (ADDED,) for d in added)
    why = "rejected in OLD: correction — every examinee was scored correct"
    assert added[0].reasons == (why,)


def _edited_copy(src: Path, dest: Path) -> Path:
    """A copy of an export as an as-of build writes it (a status column, ``current`` for the
    items no revision touched), one item moved to a needs_review split and one page changed."""
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(".cache", "dataset"))
    test = pd.read_parquet(dest / "data" / "test.parquet")
    test["status"] = "current"  # the same as no status: these items are not in the diff
    test["status_reason"] = None
    flagged = test["id"] == "令和７年-民法-1-1"
    test.loc[flagged, "status"] = "needs_review"
    test.loc[flagged, "status_reason"] = "民法 2026-04-01 revision"
    test.loc[test["id"] == "令和７年-憲法-1-1", "page"] = 99
    moved = test["id"] == "令和７年-刑法-1-3"
    test[moved].to_parquet(dest / "data" / "needs_review.parquet")
    test[~moved].to_parquet(dest / "data" / "test.parquet")
    return dest


def test_status_split_and_other_columns(jbe_pair: tuple[Path, Path], tmp_path: Path) -> None:
    old, _ = jbe_pair
    edited = _edited_copy(old, tmp_path / "edited")
    items = _by_id(diff_exports(old, edited))
    assert set(items) == {"令和７年-民法-1-1", "令和７年-憲法-1-1", "令和７年-刑法-1-3"}
    review = items["令和７年-民法-1-1"]
    assert review.classes == (STATUS_CHANGED,)
    assert review.fields_of(STATUS_CHANGED) == ("status", "status_reason")
    assert review.reasons == ("status_reason: 民法 2026-04-01 revision",)
    page = items["令和７年-憲法-1-1"]
    assert page.classes == (OTHER_CHANGED,)
    assert [(c.field, c.old, c.new) for c in page.changes] == [("page", 2, 99)]
    moved = items["令和７年-刑法-1-3"]
    assert moved.classes == (MOVED_SPLIT,)
    assert (moved.splits_old, moved.splits_new) == (("test",), ("needs_review",))


def test_outputs_are_deterministic_and_markdown_shows_before_after(
        jbe_pair: tuple[Path, Path]) -> None:
    old, new = jbe_pair
    first, second = diff_exports(old, new), diff_exports(old, new)
    assert diff_json(first) == diff_json(second)
    assert diff_markdown(first) == diff_markdown(second)
    md = diff_markdown(first, limit=3)
    assert "## Per subject and year" in md and "| 刑法 令和７年 |" in md
    assert "## Changed items (3 of" in md and "The others are in diff.json." in md
    full = diff_markdown(first)
    assert "| label | label_changed | Y | N |" in full
    assert "侵害を十分に予期した上" in full


def test_excerpt_keeps_the_changed_part_with_context() -> None:
    old, new = "a" * 100 + "XYZ" + "b" * 100, "a" * 100 + "Q" + "b" * 100
    assert excerpt(old, new, context=3) == ("…aaaXYZbbb…", "…aaaQbbb…")
    assert excerpt("abc", "abd") == ("abc", "abd")
    assert excerpt("", "new") == ("", "new")


def test_json_value_makes_cells_plain() -> None:
    import numpy as np

    assert json_value(np.array(["a", "b"], dtype=object)) == ["a", "b"]
    assert json_value(float("nan")) is None and json_value(pd.NA) is None
    assert json_value(np.int32(3)) == 3 and type(json_value(np.int32(3))) is int


def test_a_single_parquet_file_and_a_saved_dataset(jbe_pair: tuple[Path, Path]) -> None:
    old, _ = jbe_pair
    saved = load_splits(old / "dataset")
    assert set(saved.splits) == {"test", "fewshot"} and saved.kind.name == "jbe"
    assert saved.rejects is not None  # beside the save_to_disk folder
    assert not diff_exports(old / "dataset", old).changed
    one = load_splits(old / "data" / "test.parquet")
    assert list(one.splits) == ["test"] and one.rejects_path == old / "rejects.jsonl"


def test_folders_of_one_split_each_keep_their_split_names(tmp_path: Path) -> None:
    """An as-of export whose every item is under review has only needs_review.parquet: its
    items moved from the old export's single test split (they were taken as one split)."""
    frame = pd.DataFrame({"id": ["令和７年-民法-1-1"], "year": ["令和７年"],
                          "subject_jp": ["民法"], "question": ["記述"], "label": ["Y"],
                          "answer": [True], "corrections": [[]]})
    for name, split in (("old", "test"), ("new", "needs_review")):
        (tmp_path / name / "data").mkdir(parents=True)
        frame.to_parquet(tmp_path / name / "data" / f"{split}.parquet")
    moved = _by_id(diff_exports(tmp_path / "old", tmp_path / "new"))["令和７年-民法-1-1"]
    assert moved.classes == (MOVED_SPLIT,)
    assert (moved.splits_old, moved.splits_new) == (("test",), ("needs_review",))
    # two single files still hold one split whatever they are called
    assert not diff_exports(tmp_path / "old" / "data" / "test.parquet",
                            tmp_path / "new" / "data" / "needs_review.parquet").changed


def test_unreadable_or_unknown_exports_are_errors(tmp_path: Path,
                                                  jbe_pair: tuple[Path, Path]) -> None:
    with pytest.raises(ExtractError, match="not an export"):
        diff_exports(tmp_path, jbe_pair[0])
    other = tmp_path / "other.parquet"
    pd.DataFrame({"id": ["a"], "x": [1]}).to_parquet(other)
    with pytest.raises(ExtractError, match="not an export buildds makes"):
        diff_exports(other, other)
    twice = tmp_path / "twice.parquet"
    pd.DataFrame({"id": ["a", "a"], "question": ["q", "q"], "label": ["Y", "Y"],
                  "answer": [True, True]}).to_parquet(twice)
    with pytest.raises(ExtractError, match="id a appears twice"):
        diff_exports(twice, twice)


def _build_contracts(out: Path, docs: list[Path]) -> Path:
    result = CliRunner().invoke(main, ["contracts", *map(str, docs), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    return out


def test_contracts_clause_tables(tmp_path: Path) -> None:
    doc = SAMPLE_DOCX[0]
    old = _build_contracts(tmp_path / "old", [doc])
    (tmp_path / "two").mkdir()
    shutil.copyfile(doc, tmp_path / "two" / "a.docx")
    shutil.copyfile(doc, tmp_path / "two" / "b.docx")
    new = _build_contracts(tmp_path / "new", [tmp_path / "two" / "a.docx",
                                              tmp_path / "two" / "b.docx"])
    diff = diff_exports(old, new)
    assert diff.kind == "contracts-clauses"
    clauses = diff.old_items
    assert clauses > 0 and diff.counts[ADDED] == 2 * clauses and diff.counts[REMOVED] == clauses
    assert not diff_exports(new, new).changed


def _build_judgments(out: Path, limit: int) -> Path:
    shared = shared_path("realdata", "judgments")
    result = CliRunner().invoke(main, [
        "judgments", str(shared / "judge-benchmark" / "test.json"), "--out", str(out),
        "--law", str(shared / "cn-criminal-law"), "--confusable",
        str(shared / "cn-confusable-charges" / "legalattack_sheet1_similar_charges.csv"),
        "--limit", str(limit), "-q"])
    assert result.exit_code == 0, result.output
    return out


def test_arbench_exports_added_removed_and_a_different_kind(
        tmp_path: Path, jbe_pair: tuple[Path, Path]) -> None:
    small, large = _build_judgments(tmp_path / "a", 10), _build_judgments(tmp_path / "b", 20)
    grown = diff_exports(small, large)
    assert grown.kind == "arbench" and grown.counts[ADDED] > 0
    assert grown.counts[ADDED] - grown.counts[REMOVED] == grown.new_items - grown.old_items
    assert set(grown.counts_by_split) == {"classification", "correction", "detection"}
    shrunk = diff_exports(large, small)
    assert shrunk.counts[REMOVED] == grown.counts[ADDED]
    # an E1 rationale says why no donor was used, which names what the corpus holds, and new
    # values are drawn matched to the corpus (inject_errors.corpus_prior); E1's target charges
    # are planned over the whole corpus (inject_errors.charge_balance), so a larger corpus can
    # also change which judgments carry E1; the normal rows are matched to the injected rows
    # over the whole corpus (inject_errors.normal_matching: a larger corpus offers other
    # candidates per bin), so they may differ both ways, and so may the injected rows left
    # out for want of a matched untouched row; nothing else changes
    corpus_notes = [d for d in shrunk.items if re.search(r"-E[1-6]-0$", d.id)
                    and d.classes == ("text_changed",)]
    e1_plan = {d.id.removesuffix("-E1-0") for d in shrunk.items if d.id.endswith("-E1-0")}
    unmatched = {f"{r['id']}-{r['error_type']}-0" for out in (small, large)
                 for r in map(json.loads, (out / "rejects.jsonl").read_text("utf-8").splitlines())
                 if r.get("reason") == "no_matched_untouched_row"}
    assert all(d.splits_old and not d.splits_new for d in shrunk.items
               if d not in corpus_notes and not d.id.endswith("-none")
               and d.id not in unmatched and d.id.removesuffix("-E1-0") not in e1_plan)
    with pytest.raises(ExtractError) as caught:
        diff_exports(small, jbe_pair[0])
    message = str(caught.value)
    assert f"{small} is arbench" in message and f"{jbe_pair[0]} is jbe" in message


def _classification(path: Path, inventory: list[str], labels: list[list[str]]) -> Path:
    import datasets

    features = datasets.Features({
        "id": datasets.Value("string"), "text": datasets.Value("string"),
        "labels": datasets.Sequence(datasets.ClassLabel(names=inventory))})
    rows = {"id": [f"nda-{i + 1}" for i in range(len(labels))],
            "text": [f"第{i + 1}条" for i in range(len(labels))], "labels": labels}
    datasets.Dataset.from_dict(rows, features=features).to_parquet(str(path))
    return path


def test_class_labels_are_compared_by_name(tmp_path: Path) -> None:
    old = _classification(tmp_path / "old.parquet", ["秘密保持", "損害賠償"],
                          [["秘密保持"], ["損害賠償"]])
    grown = _classification(tmp_path / "grown.parquet", ["競業避止", "秘密保持", "損害賠償"],
                            [["秘密保持"], ["損害賠償"]])
    assert load_splits(grown).splits["grown"]["labels"].tolist() == [["秘密保持"], ["損害賠償"]]
    assert not diff_exports(old, grown).changed
    relabelled = _classification(tmp_path / "new.parquet", ["秘密保持", "損害賠償"],
                                 [["秘密保持"], ["秘密保持", "損害賠償"]])
    diff = diff_exports(old, relabelled)
    assert diff.kind == "contracts-classification"
    [item] = diff.items
    assert item.classes == (LABEL_CHANGED,)
    assert (item.changes[0].old, item.changes[0].new) == (["損害賠償"], ["秘密保持", "損害賠償"])
