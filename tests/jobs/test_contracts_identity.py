"""``buildds contracts`` across batches: clause ids stable when files are added, annotations
naming an ambiguous document rejected, spans exported, ``--split-like legalrikai`` in the
splits and the card, ``--ocr-lang`` checked."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from buildds.commands.contracts import contracts
from buildds.jobs.contracts import build_contracts
from tests.jobs.test_contracts_job import make_docx, make_pdf


def _clauses(out: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(x) for x in (out / "clauses.jsonl").read_text("utf-8").splitlines()]


def test_clause_ids_stay_when_a_file_is_added_to_the_batch(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    first = [make_docx(folder / "委託.docx")]
    build_contracts(first, out=tmp_path / "one", progress=False)
    before = [(r["path"], r["id"]) for r in _clauses(tmp_path / "one")]
    # a second file with the same stem, one in a subfolder: the old ids must not move
    more = [*first, make_pdf(folder / "委託.pdf"), make_docx(folder / "sub" / "委託.docx")]
    build_contracts(more, out=tmp_path / "three", progress=False)
    after = _clauses(tmp_path / "three")
    assert [(r["path"], r["id"]) for r in after if r["path"] == "委託.docx"] == before
    assert len({r["id"] for r in after}) == len(after)
    assert {r["path"] for r in after} == {"委託.docx", "委託.pdf", "sub/委託.docx"}


def test_ambiguous_annotation_is_rejected_naming_both_files(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    inputs = [make_docx(folder / "委託.docx"), make_docx(folder / "other.docx")]
    (folder / "x").mkdir()
    inputs.append(make_docx(folder / "x" / "委託.docx"))
    ann = tmp_path / "ann.csv"
    ann.write_text("document_id,number,labels\n委託,1,目的\nx/委託.docx,2,再委託\n"
                   "other,1,目的\n", encoding="utf-8")
    out = tmp_path / "out"
    build_contracts(inputs, out=out, annotations=ann, progress=False, eval_share=0.0)
    rejects = [json.loads(x) for x in (out / "rejects.jsonl").read_text("utf-8").splitlines()]
    [amb] = [r for r in rejects if r["reason"] == "ambiguous-document"]
    assert amb["line"] == 2
    assert "matches x/委託.docx and 委託.docx" in amb["message"]
    import pandas as pd

    dev = pd.read_parquet(out / "data" / "development.parquet")
    assert sorted(dev.source) == ["other.docx", "委託.docx"]  # x/委託.docx and other.docx
    assert set(dev.labels.map(len)) == {1}
    # the items carry their clause's character span in the document's text
    assert dev.char_start.notna().all() and (dev.char_end > dev.char_start).all()


def test_clause_export_has_spans(tmp_path: Path) -> None:
    import pandas as pd

    src = make_docx(tmp_path / "委託.docx")
    out = tmp_path / "out"
    build_contracts([src], out=out, progress=False)
    df = pd.read_parquet(out / "data" / "clauses.parquet")
    assert {"path", "char_start", "char_end", "items", "item_starts", "item_ends"} <= set(df)
    doc = json.loads((out / "documents" / "委託.docx.json").read_text("utf-8"))
    text = "\n".join(b["text"] for b in doc["blocks"])
    art = df[df.number == 2].iloc[0]
    assert text[art.char_start:art.char_end].startswith("第2条（再委託・譲渡の禁止）")
    card = (out / "README.md").read_text("utf-8")
    assert "`char_start`" in card and "`item_starts`" in card


def test_split_like_legalrikai_from_the_command(tmp_path: Path) -> None:
    src = make_docx(tmp_path / "委託.docx")
    ann = tmp_path / "rev.jsonl"
    rows = [{"text": f"条文{i}", "ai_alert": "A", "guidelines": "G", "reference_revision": "R"}
            for i in range(20)]
    ann.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n",
                   encoding="utf-8")
    out = tmp_path / "out"
    res = CliRunner().invoke(contracts, [str(src), "--out", str(out), "-q", "--annotations",
                                         str(ann), "--task", "revision", "--split-like",
                                         "legalrikai"])
    assert res.exit_code == 0, res.output
    report = json.loads((out / "report.json").read_text("utf-8"))
    assert report["totals"]["items"] == {"evaluation": 12, "development": 8}
    card = (out / "README.md").read_text("utf-8")
    assert "Split like **legalrikai**" in card and "378 test / 8 development" in card
    both = CliRunner().invoke(contracts, [str(src), "--out", str(out), "--split-like",
                                          "legalrikai", "--eval-share", "0.5"])
    assert both.exit_code == 2 and "exclude each other" in both.output
    bad = CliRunner().invoke(contracts, [str(src), "--out", str(out), "--ocr-lang", "jpn;rm"])
    assert bad.exit_code == 2 and "not a tesseract language" in bad.output


def test_share_split_is_described_in_the_card(tmp_path: Path) -> None:
    src = make_docx(tmp_path / "委託.docx")
    ann = tmp_path / "ann.csv"
    ann.write_text("document_id,number,labels\n委託,1,目的\n委託,2,再委託\n", encoding="utf-8")
    out = tmp_path / "out"
    build_contracts([src], out=out, annotations=ann, eval_share=0.5, progress=False)
    card = (out / "README.md").read_text("utf-8")
    assert "Split by share (`--eval-share 0.5`)" in card and "--split-like legalrikai" in card
