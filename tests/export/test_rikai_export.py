"""The LegalRikai exports: explicit features (labels as a sequence of class labels), both
splits in load_from_disk and parquet, the card, byte-identical rebuilds, atomic failure."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from buildds.errors import ExportError
from buildds.export.rikai import (
    classification_features,
    clause_features,
    export_classification,
    export_clauses,
    export_revision,
    revision_features,
)
from buildds.schema.contracts import ClassificationItem, ClauseRow, RevisionItem
from buildds.transform.rikai import split_items

INVENTORY = ["目的", "再委託", "地位の譲渡禁止", "秘密保持", "完全合意"]
PROVENANCE = {"inputs": [{"path": "a.docx", "sha256": "0" * 64}], "code_version": "test",
              "options": {"task": "classification"}}


def items() -> list[ClassificationItem]:
    rows = []
    for i in range(1, 21):
        labels = (INVENTORY[i % 4],) + (("完全合意",) if i % 5 == 0 else ())
        rows.append(ClassificationItem(
            id=f"a-{i:02d}", document_id="a", source="a.docx", number=i, heading=f"見出し{i}",
            page=None, text=f"第{i}条（見出し{i}）\n本文{i}。", labels=labels))
    return rows


def rev_items() -> list[RevisionItem]:
    return [RevisionItem(id=f"r-{i}", document_id=None, source="rev.jsonl", number=None,
                         heading=None, page=None, text=f"条文{i}", ai_alert="書面で?",
                         guidelines="書面を追加", reference_revision=f"条文{i}（書面）")
            for i in range(6)]


def clause_row() -> ClauseRow:
    return ClauseRow(id="a-1", source="a.docx", document_id="a", kind="article", number=1,
                     number_text="第1条", heading="目的", text="本文", input_text="第1条（目的）\n本文",
                     changed=False, original_text=None, accepted_text=None, page=None,
                     block_start=1, block_end=2, sha256="0" * 64)


# --------------------------------------------------------------------------- records
def test_classification_item_dict_follows_the_features() -> None:
    item = items()[4]
    assert list(item.as_dict()) == list(classification_features(INVENTORY))
    assert item.as_dict()["labels"] == ["再委託", "完全合意"]  # a list, as the export writes


def test_revision_item_dict_follows_the_features() -> None:
    assert list(rev_items()[0].as_dict()) == list(revision_features())


def test_clause_row_dict_follows_the_features() -> None:
    row = clause_row()
    assert list(row.as_dict()) == list(clause_features())
    with pytest.raises(dataclasses.FrozenInstanceError):
        row.id = "b-1"  # type: ignore[misc]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    out = tmp_path_factory.mktemp("rikai") / "out"
    res = export_classification(split_items(items(), seed=1), out=out, label_inventory=INVENTORY,
                                fingerprint="fp", provenance=PROVENANCE, seed=1)
    return out, res


def test_load_from_disk_with_class_label_sequences(exported) -> None:  # type: ignore[no-untyped-def]
    import datasets

    out, res = exported
    dd = datasets.load_from_disk(str(out / "dataset"))
    assert list(dd) == ["evaluation", "development"]
    assert (dd["evaluation"].num_rows, dd["development"].num_rows) == (4, 16) == (
        res.splits["evaluation"], res.splits["development"])
    feat = dd["development"].features["labels"]
    assert feat.feature.names == INVENTORY
    row = next(r for split in dd.values() for r in split if r["id"] == "a-05")
    assert [feat.feature.int2str(i) for i in row["labels"]] == ["再委託", "完全合意"]
    assert dd["development"]["id"] == sorted(dd["development"]["id"])


def test_parquet_files_hold_the_same_rows(exported) -> None:  # type: ignore[no-untyped-def]
    import pandas as pd

    out, _ = exported
    dev = pd.read_parquet(out / "data" / "development.parquet")
    ev = pd.read_parquet(out / "data" / "evaluation.parquet")
    assert len(dev) + len(ev) == 20 and not set(dev["id"]) & set(ev["id"])
    assert list(dev.columns) == ["id", "document_id", "source", "number", "heading", "page",
                                 "char_start", "char_end", "text", "labels"]


def test_card_lists_splits_labels_and_features(exported) -> None:  # type: ignore[no-untyped-def]
    import yaml

    out, _ = exported
    card = (out / "README.md").read_text("utf-8")
    front = yaml.safe_load(card.split("---\n")[1])
    assert [s["split"] for s in front["configs"][0]["data_files"]] == ["evaluation", "development"]
    labels = next(f for f in front["dataset_info"]["features"] if f["name"] == "labels")
    assert labels["list"]["class_label"]["names"]["0"] == "目的"
    assert "| 完全合意 | 4 |" in card and "| `evaluation` | 4 |" in card
    assert "fp" in card and f"| a.docx |  | not recorded | not recorded |  | `{'0' * 64}` |" in card


def test_two_exports_are_byte_identical(tmp_path: Path, exported) -> None:  # type: ignore[no-untyped-def]
    out, res = exported
    again = export_classification(split_items(list(reversed(items())), seed=1), out=tmp_path / "b",
                                  label_inventory=INVENTORY, fingerprint="fp",
                                  provenance=PROVENANCE, seed=1)
    assert again.files == res.files
    for rel in res.files:
        assert (tmp_path / "b" / rel).read_bytes() == (out / rel).read_bytes()
    # rewriting in place leaves no temp folders behind
    export_classification(split_items(items(), seed=1), out=tmp_path / "b",
                          label_inventory=INVENTORY, fingerprint="fp", provenance=PROVENANCE,
                          seed=1)
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["README.md", "data", "dataset"]


def test_unknown_label_or_missing_split_is_refused(tmp_path: Path) -> None:
    bad = items()
    bad[0] = dataclasses.replace(bad[0], labels=("謎",))
    with pytest.raises(ExportError, match="not in the inventory: 謎"):
        export_classification(split_items(bad), out=tmp_path, label_inventory=INVENTORY,
                              fingerprint="x", provenance={}, seed=0)
    with pytest.raises(ExportError, match="missing split"):
        export_classification({"evaluation": []}, out=tmp_path, label_inventory=INVENTORY,
                              fingerprint="x", provenance={}, seed=0)
    assert not (tmp_path / "data").exists()


def test_failure_keeps_the_previous_export(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from buildds.export import common  # every exporter writes through write_export

    export_revision(split_items(rev_items()), out=tmp_path, fingerprint="1", provenance={})
    before = (tmp_path / "README.md").read_bytes()

    def boom(*a, **k):  # type: ignore[no-untyped-def]
        raise OSError("disk full")

    monkeypatch.setattr(common, "write_parquet", boom)
    with pytest.raises(ExportError, match="disk full"):
        export_revision(split_items(rev_items()), out=tmp_path, fingerprint="2", provenance={})
    assert (tmp_path / "README.md").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "data", "dataset"]


def test_revision_and_clause_exports(tmp_path: Path) -> None:
    import datasets
    import pandas as pd

    export_revision(split_items(rev_items(), eval_share=0.5), out=tmp_path / "rev",
                    fingerprint="r", provenance={})
    dd = datasets.load_from_disk(str(tmp_path / "rev" / "dataset"))
    assert dd["evaluation"].num_rows == 3
    assert set(dd["evaluation"].features) >= {"text", "ai_alert", "guidelines",
                                              "reference_revision"}
    res = export_clauses([clause_row()], out=tmp_path / "cl", fingerprint="c", provenance={})
    assert res.splits == {"clauses": 1}
    df = pd.read_parquet(tmp_path / "cl" / "data" / "clauses.parquet")
    assert df.loc[0, "heading"] == "目的" and not df.loc[0, "changed"]
