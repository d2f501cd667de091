"""The JBE-QA Hugging Face export: features, order, few-shot draw, byte-identical rebuilds,
the dataset card, the template sandbox and atomic replacement."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

datasets = pytest.importorskip("datasets")
pd = pytest.importorskip("pandas")
import jinja2
import yaml

from buildds.errors import ExportError
from buildds.export import common, hf
from buildds.export.hf import (
    export_jbe,
    item_sort_key,
    jbe_features,
    load_jbe_export,
    select_fewshot,
)
from buildds.schema import JbeExclusion, JbeItem
from buildds.text import year_of_era

SUBJECT_EN = {"憲法": "Constitution", "民法": "Civil Code", "刑法": "Penal Code"}

# (era year in the id, year field, subject, question, statement, answer) — given out of order
SPECS = [
    ("令和６年", "令和６年", "民法", 18, 5, True),
    ("令和６年", "令和６年", "民法", 18, 1, False),
    ("令和６年", "令和６年", "民法", 3, 2, True),
    ("令和６年", "令和６年", "憲法", 10, 1, False),
    ("令和６年", "令和６年", "刑法", 2, 3, True),
    ("平成27年", "平成27年", "刑法", 3, 2, False),
    ("平成27年", "平成27年", "刑法", 3, 1, True),
    ("平成27年", "平成27年", "民法", 1, 1, False),
    ("平成27年", "平成27年", "憲法", 20, 3, True),
    ("平成27年", "平成27年", "憲法", 2, 1, False),
    ("令和元年", "令和元年", "憲法", 1, 1, True),
    ("令和元年", "令和元年", "憲法", 1, 2, False),
    ("令和元年", "令和元年", "民法", 11, 4, True),
    ("令和元年", "令和元年", "民法", 9, 4, False),
    ("令和元年", "令和元年", "刑法", 7, 1, True),
    ("令和２年", "令和２年", "民法", 30, 2, False),
    ("令和２年", "令和２年", "民法", 30, 10, True),
    ("令和２年", "令和２年", "刑法", 12, 1, False),
    ("平成30年", "平成30年", "憲法", 5, 5, True),
    ("平成30年", "平成30年", "民法", 36, 3, False),
]

EXPECTED_ORDER = [
    "平成27年-憲法-2-1", "平成27年-憲法-20-3", "平成27年-民法-1-1", "平成27年-刑法-3-1",
    "平成27年-刑法-3-2", "平成30年-憲法-5-5", "平成30年-民法-36-3", "令和元年-憲法-1-1",
    "令和元年-憲法-1-2", "令和元年-民法-9-4", "令和元年-民法-11-4", "令和元年-刑法-7-1",
    "令和２年-民法-30-2", "令和２年-民法-30-10", "令和２年-刑法-12-1", "令和６年-憲法-10-1",
    "令和６年-民法-3-2", "令和６年-民法-18-1", "令和６年-民法-18-5", "令和６年-刑法-2-3",
]


def make_item(era: str, year: str, subject: str, q: int, s: int, answer: bool) -> JbeItem:
    return JbeItem(
        id=f"{era}-{subject}-{q}-{s}", year=year, subject=SUBJECT_EN[subject],
        subject_jp=subject, instruction="次の記述について、正しいか誤っているかを答えよ。",
        question=f"{subject}第{q}問の記述{s}。", label="Y" if answer else "N", answer=answer,
        theme="法の下の平等" if subject == "憲法" else None,
        lead_in="【事例】甲は乙に…" if subject == "刑法" and s == 1 else None,
        remark="遅延損害金は考慮しない。" if q == 30 else None,
        question_type="combination", points=2 if subject != "刑法" else 3,
        source=f"{year}/{subject}-mondai.pdf", sha256="ab" * 32, page=q + 1,
        corrections=("fix-001",) if q == 18 and s == 5 else (),
    )


ITEMS = [make_item(*spec) for spec in SPECS]
EXCLUSIONS = [
    JbeExclusion(id="令和６年-刑法-5", subject="Penal Code", reason="fill_in",
                 message="語句群から選ぶ穴埋め | 2 blanks", source="2024/keiho-mondai.pdf", page=6),
    JbeExclusion(id="平成27年-刑法-14", subject="Penal Code", reason="counting",
                 message="正しいものの個数を問う", source="2015/keiho-mondai.pdf", page=15),
    JbeExclusion(id="令和元年-憲法-9", subject="Constitution", reason="all_correct",
                 message="全員正解の扱い", source="2019/kenpo-mondai.pdf", page=None),
]
PROVENANCE = {
    "inputs": [{"path": "2024/minpo-mondai.pdf", "sha256": "cd" * 32},
               {"path": "2015/keiho-mondai.pdf", "sha256": "ef" * 32}],
    "code_version": "0.1.0",
    "options": {"years": [2015, 2019, 2020, 2024], "subjects": ["kenpo", "minpo", "keiho"]},
}
FINGERPRINT = "f" * 64


def export(out: Path, *, items=ITEMS, seed: int = 0, **kw):
    return export_jbe(items, EXCLUSIONS, out=out, fingerprint=FINGERPRINT,
                      provenance=PROVENANCE, seed=seed, **kw)


def tree_bytes(root: Path) -> dict[str, bytes]:
    files = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            p = Path(dirpath, name)
            files[p.relative_to(root).as_posix()] = p.read_bytes()
    return files


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, hf.ExportResult]:
    out = tmp_path_factory.mktemp("jbe") / "hf"
    return out, export(out)


# --------------------------------------------------------------------------- content
def test_declared_features_cover_every_item_field():
    features = jbe_features()
    assert list(features) == [*JbeItem.model_fields, "is_fewshot"]
    if hasattr(features, "_to_yaml_list"):  # the card's YAML matches datasets' own
        assert common.features_yaml(features) == features._to_yaml_list()


def test_sort_key_is_numeric_in_era_years_and_numbers():
    assert [it.id for it in sorted(ITEMS, key=item_sort_key)] == EXPECTED_ORDER
    assert year_of_era("令和元年") == 2019
    assert year_of_era("令和６年") == 2024
    assert year_of_era("平成27年") == 2015
    assert year_of_era("2024") is None


def test_load_from_disk_has_both_splits_with_declared_features(exported):
    out, result = exported
    dd = datasets.load_from_disk(str(out / "dataset"))
    assert set(dd) == {"test", "fewshot"}
    for split in ("test", "fewshot"):
        assert dd[split].features == jbe_features()
        # load_from_disk re-derives the in-memory fingerprint (with_format); the saved one is ours
        state = json.loads((out / "dataset" / split / "state.json").read_text())
        assert state["_fingerprint"] == result.split_fingerprints[split]
    assert dd["test"].num_rows == len(ITEMS) == result.splits["test"]
    assert dd["fewshot"].num_rows == 4
    row = dd["test"][EXPECTED_ORDER.index("令和６年-民法-18-5")]
    assert row["corrections"] == ["fix-001"] and row["label"] == "Y" and row["answer"] is True
    assert row["points"] == 2 and row["theme"] is None


def test_parquet_holds_all_rows_in_stable_order(exported):
    out, _ = exported
    df = pd.read_parquet(out / "data" / "test.parquet")
    assert list(df["id"]) == EXPECTED_ORDER
    assert list(df.columns) == [*JbeItem.model_fields, "is_fewshot"]
    assert str(df["points"].dtype) == "int32" and str(df["answer"].dtype) == "bool"
    assert set(df["label"]) == {"Y", "N"}
    pd.testing.assert_frame_equal(load_jbe_export(out), df)
    pd.testing.assert_frame_equal(load_jbe_export(out / "data" / "test.parquet"), df)


def test_load_jbe_export_names_missing_folder(tmp_path):
    with pytest.raises(ExportError, match="data/test.parquet is missing"):
        load_jbe_export(tmp_path)


def test_fewshot_is_two_true_two_false_and_flagged_in_test(exported):
    out, result = exported
    few = pd.read_parquet(out / "data" / "fewshot.parquet")
    assert tuple(few["id"]) == result.fewshot_ids
    assert sorted(few["answer"]) == [False, False, True, True]
    assert few["is_fewshot"].all()
    test = load_jbe_export(out)
    assert set(test.loc[test["is_fewshot"], "id"]) == set(result.fewshot_ids)
    assert int(test["is_fewshot"].sum()) == 4


def test_fewshot_depends_on_seed_not_input_order():
    a = select_fewshot(ITEMS, seed=0)
    assert select_fewshot(list(reversed(ITEMS)), seed=0) == a
    assert select_fewshot(ITEMS, seed=0) == a
    others = {select_fewshot(ITEMS, seed=s) for s in range(1, 6)}
    assert any(set(o) != set(a) for o in others)


def test_fewshot_needs_two_of_each_label():
    only_true = [it for it in ITEMS if it.answer]
    with pytest.raises(ExportError, match="2 true and 2 false"):
        select_fewshot(only_true[:1] + [it for it in ITEMS if not it.answer], seed=0)
    with pytest.raises(ExportError):
        select_fewshot(only_true, seed=0)


def test_bad_items_are_refused(tmp_path):
    with pytest.raises(ExportError, match="duplicate item ids"):
        export(tmp_path / "a", items=ITEMS + [ITEMS[0]])
    wrong = ITEMS[0].model_copy(update={"label": "N"})  # answer is True
    with pytest.raises(ExportError, match="disagrees"):
        export(tmp_path / "b", items=[wrong, *ITEMS[1:]])
    assert not (tmp_path / "a").exists()  # refused before anything is written


# --------------------------------------------------------------------------- determinism
def test_two_exports_are_byte_identical(tmp_path, exported):
    out1, result1 = exported
    out2 = tmp_path / "elsewhere" / "hf"
    result2 = export(out2, items=list(reversed(ITEMS)))
    a, b = tree_bytes(out1), tree_bytes(out2)
    assert sorted(a) == sorted(b)
    assert {"README.md", "data/test.parquet", "data/fewshot.parquet",
            "dataset/dataset_dict.json", "dataset/test/state.json",
            "dataset/test/dataset_info.json", "dataset/test/data-00000-of-00001.arrow",
            "dataset/fewshot/data-00000-of-00001.arrow"} <= set(a)
    for name in a:
        assert a[name] == b[name], name
    assert result1.files == result2.files
    assert set(result1.files) == set(a)
    assert FINGERPRINT not in a["dataset/test/state.json"].decode()  # derived, 16 hex


def test_rewrite_in_place_gives_same_bytes_and_no_leftovers(tmp_path):
    out = tmp_path / "hf"
    export(out)
    first = tree_bytes(out)
    (out / "keep.txt").write_text("not ours")
    export(out)
    second = tree_bytes(out)
    assert second.pop("keep.txt") == b"not ours"
    assert first == second
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "data", "dataset", "keep.txt"]


def test_seed_and_fingerprint_change_the_output(tmp_path, exported):
    _, result1 = exported
    result = export_jbe(ITEMS, EXCLUSIONS, out=tmp_path / "fp", fingerprint="other",
                        provenance=PROVENANCE, seed=0)
    assert result.fewshot_ids == result1.fewshot_ids
    assert result.split_fingerprints["test"] != result1.split_fingerprints["test"]
    seeds = {export(tmp_path / f"s{s}", seed=s).fewshot_ids for s in (1, 2, 3)}
    assert any(set(f) != set(result1.fewshot_ids) for f in seeds)


# --------------------------------------------------------------------------- card
def test_card_front_matter_and_contents(exported):
    out, result = exported
    text = (out / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    front = yaml.safe_load(text.split("---\n")[1])
    assert front["language"] == ["ja"] and front["license"] == "other"
    assert front["task_categories"] == ["text-classification", "question-answering"]
    assert front["configs"][0]["data_files"] == [
        {"split": "test", "path": "data/test.parquet"},
        {"split": "fewshot", "path": "data/fewshot.parquet"}]
    info = front["dataset_info"]
    assert [f["name"] for f in info["features"]] == [*JbeItem.model_fields, "is_fewshot"]
    assert {"name": "corrections", "list": "string"} in info["features"]
    assert [(s["name"], s["num_examples"]) for s in info["splits"]] == [("test", 20),
                                                                         ("fewshot", 4)]
    assert all(s["num_bytes"] > 0 for s in info["splits"])
    assert info["download_size"] == sum(
        (out / "data" / f"{s}.parquet").stat().st_size for s in ("test", "fewshot"))
    # the fixture's inputs carry no publisher: the card says so instead of crediting anyone
    assert "Ministry of Justice" not in text
    assert f"| `2024/minpo-mondai.pdf` | not recorded | not recorded | `{'cd' * 32}` |" in text
    # counts per subject: 憲法 6, 民法 9, 刑法 5 (10 Y / 10 N overall)
    assert "| Constitution | 憲法 | 6 |" in text
    assert "| Civil Code | 民法 | 9 |" in text
    assert "| Penal Code | 刑法 | 5 |" in text
    assert "| 平成27年 | 2015 | 2 | 1 | 2 | 5 | 2 | 3 | 40.0% |" in text
    assert "**20 items** (10 Y / 10 N, 50.0% true)" in text
    assert "16 items are scored" in text
    # per year, in era order
    assert text.index("| 平成27年 | 2015 |") < text.index("| 令和元年 | 2019 |") \
        < text.index("| 令和６年 | 2024 |")
    # exclusions by reason, with ids; a | in a message does not break the table
    assert "3 questions were not turned into items (Constitution 1, Penal Code 2)" in text
    assert "| `fill_in` | 1 | Penal Code 1 |" in text
    for ex in EXCLUSIONS:
        assert f"`{ex.id}`" in text
    assert "語句群から選ぶ穴埋め \\| 2 blanks" in text
    for fid in result.fewshot_ids:
        assert f"`{fid}`" in text
    assert FINGERPRINT in text and "2024/minpo-mondai.pdf" in text and "cd" * 32 in text
    assert "load_from_disk" in text and "read_parquet" in text
    assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}", text)  # no dates or times


def test_card_with_validation_and_no_exclusions(tmp_path):
    result = export_jbe(ITEMS, [], out=tmp_path / "v", fingerprint="x", provenance={},
                        validation={"status": "ok", "checks": 12})
    text = result.card.read_text(encoding="utf-8")
    assert "No question was excluded." in text
    assert "## Validation" in text and '"checks": 12' in text
    yaml.safe_load(text.split("---\n")[1])


@pytest.mark.parametrize("payload", [
    "{{ ''.__class__.__mro__ }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ cycler.__init__.__globals__ }}",
    "{{ fewshot.__class__ }}",
])
def test_card_templates_run_sandboxed(payload):
    env = common.card_environment()
    with pytest.raises(jinja2.exceptions.SecurityError):
        env.from_string(payload).render(fewshot=[])


def test_card_undefined_names_are_errors():
    with pytest.raises(jinja2.exceptions.UndefinedError):
        common.card_environment().from_string("{{ nothing }}").render()


# --------------------------------------------------------------------------- atomicity
def test_failure_while_saving_keeps_previous_export(tmp_path, monkeypatch):
    out = tmp_path / "hf"
    export(out)
    before = tree_bytes(out)

    def boom(self, *args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(datasets.DatasetDict, "save_to_disk", boom)
    with pytest.raises(ExportError, match="disk full"):
        export(out, seed=7)
    assert tree_bytes(out) == before
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "data", "dataset"]


def test_failure_while_swapping_rolls_back(tmp_path, monkeypatch):
    out = tmp_path / "hf"
    export(out)
    before = tree_bytes(out)
    real_replace = os.replace
    calls = []

    def flaky(src, dst):
        calls.append((src, dst))
        if Path(src).name == "data" and Path(dst) == out / "data":  # new data/ going in
            raise OSError("killed")
        return real_replace(src, dst)

    monkeypatch.setattr(common.os, "replace", flaky)
    with pytest.raises(ExportError, match="killed"):
        export(out, seed=7)
    monkeypatch.setattr(common.os, "replace", real_replace)
    assert any(Path(d) == out / "dataset" for _, d in calls)  # dataset/ had been swapped
    assert tree_bytes(out) == before
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "data", "dataset"]


def test_failure_on_first_export_leaves_nothing(tmp_path, monkeypatch):
    out = tmp_path / "hf"
    monkeypatch.setattr(common, "write_parquet", lambda *a: (_ for _ in ()).throw(OSError("x")))
    with pytest.raises(ExportError):
        export(out)
    assert list(out.iterdir()) == []


def test_card_credits_the_publisher_each_input_records(tmp_path):
    """The licence and publisher come from the inputs' provenance: a sample-only build
    declares the project's licence; a ministry build credits the ministry."""
    sample = {**PROVENANCE, "inputs": [
        {**i, "publisher": "the buildds project", "licence": "Apache-2.0", "by_project": True,
         "basis": "manifest.json"} for i in PROVENANCE["inputs"]]}
    export_jbe(ITEMS, [], out=tmp_path / "s", fingerprint="x", provenance=sample, seed=0)
    text = (tmp_path / "s" / "README.md").read_text(encoding="utf-8")
    assert yaml.safe_load(text.split("---\n")[1])["license"] == "apache-2.0"
    assert "written\nand typeset by the buildds project" in text
    assert "Ministry of Justice" not in text.replace("not an official Ministry of Justice", "")
    official = {**PROVENANCE, "inputs": [
        {**i, "publisher": "Ministry of Justice of Japan (法務省)", "licence": "© MOJ",
         "by_project": False} for i in PROVENANCE["inputs"]]}
    export_jbe(ITEMS, [], out=tmp_path / "o", fingerprint="x", provenance=official, seed=0)
    text = (tmp_path / "o" / "README.md").read_text(encoding="utf-8")
    assert yaml.safe_load(text.split("---\n")[1])["license"] == "other"
    assert "- 2 source files: Ministry of Justice of Japan (法務省) — © MOJ" in text
