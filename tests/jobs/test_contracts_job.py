"""``buildds contracts``: generated .docx/.pdf contracts (and the real ones in ../shared) →
documents, clause table, exports, rejects and report — through the library and the command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.commands.contracts import contracts
from buildds.jobs.contracts import build_contracts
from tests.conftest import shared_path, simple_pdf_bytes

ARTICLES = [("目的", "本契約は、業務の委託について定める。"),
            ("再委託・譲渡の禁止", "受託者は、委託者の書面による事前の承諾なく再委託してはならない。"),
            ("秘密保持", "甲及び乙は、相手方の秘密情報を第三者に開示してはならない。"),
            ("完全合意", "本契約は、当事者間の完全なる合意を構成する。")]


def make_docx(path: Path) -> Path:
    import docx

    d = docx.Document()
    d.add_paragraph("業務委託契約書")
    d.add_paragraph("甲と乙は、次のとおり契約を締結する。")
    for n, (heading, body) in enumerate(ARTICLES, start=1):
        d.add_paragraph(f"第{n}条（{heading}）")
        d.add_paragraph(body)
    d.add_paragraph("以上")
    d.save(str(path))
    return path


def make_pdf(path: Path) -> Path:
    path.write_bytes(simple_pdf_bytes(
        "SERVICES AGREEMENT", "ARTICLE 1 - PURPOSE", "The Supplier provides the Services.",
        "ARTICLE 2 - CONFIDENTIALITY", "Each party keeps the other's information secret.",
        "ARTICLE 3 - TERM", "This Agreement lasts one year."))
    return path


@pytest.fixture
def inputs(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "in"
    folder.mkdir()
    broken = folder / "broken.pdf"
    broken.write_text("<html>not found</html>", encoding="utf-8")
    return [make_docx(folder / "委託.docx"), make_pdf(folder / "services.pdf"), broken]


def test_without_annotations_the_clause_table_is_exported(tmp_path: Path,
                                                          inputs: list[Path]) -> None:
    import pandas as pd

    out = tmp_path / "out"
    report = build_contracts(inputs, out=out, progress=False)
    by_file = {f["file"]: f for f in report.as_json()["files"]}
    assert by_file["委託.docx"]["format"] == "docx" and by_file["委託.docx"]["articles"] == 4
    assert by_file["services.pdf"]["pages"] == 1 and by_file["services.pdf"]["articles"] == 3
    assert by_file["broken.pdf"]["status"] == "failed"
    assert report.failed == 1 and report.clauses == 4 + 3 + 3  # + preambles and 以上
    assert report.summary_line() == (
        f"processed 3 files, 10 clauses, 1 rejected (1 files failed); 10 clauses — see "
        f"{out / 'report.md'}")
    assert sorted(p.name for p in (out / "documents").iterdir()) == [
        "services.pdf.json", "委託.docx.json"]
    doc = json.loads((out / "documents" / "委託.docx.json").read_text("utf-8"))
    assert doc["format"] == "docx" and doc["source"]["path"] == "委託.docx"
    df = pd.read_parquet(out / "data" / "clauses.parquet")
    art = df[df.document_id.str.startswith("委託-") & (df.kind == "article")]
    assert list(art.number) == [1, 2, 3, 4] and art.iloc[1]["heading"] == "再委託・譲渡の禁止"
    rejects = [json.loads(x) for x in (out / "rejects.jsonl").read_text("utf-8").splitlines()]
    assert [(r["source"], r["stage"]) for r in rejects] == [("broken.pdf", "extract")]
    assert "broken.pdf" in (out / "report.md").read_text("utf-8")


def test_classification_with_annotations(tmp_path: Path, inputs: list[Path]) -> None:
    import datasets

    ann = tmp_path / "labels.csv"
    ann.write_text("document_id,number,labels\n委託,1,目的\n委託,2,再委託;地位の譲渡禁止\n"
                   "委託,4,完全合意|謎\nservices,1,目的\nservices,9,目的\n", encoding="utf-8")
    inventory = tmp_path / "inventory.txt"
    inventory.write_text("目的\n再委託\n地位の譲渡禁止\n完全合意\n秘密保持\n", encoding="utf-8")
    out = tmp_path / "out"
    report = build_contracts(inputs[:2], out=out, annotations=ann, labels=inventory, seed=0,
                             eval_share=0.25, progress=False)
    assert report.items == {"evaluation": 1, "development": 3}
    data = json.loads((out / "report.json").read_text("utf-8"))
    assert data["label_frequencies"] == {"目的": 2, "完全合意": 1, "再委託": 1, "地位の譲渡禁止": 1}
    assert data["rejects_by_reason"] == {"unknown-label": 1, "unlabelled-clause": 3,
                                         "unmatched-annotation": 1}
    rejects = [json.loads(x) for x in (out / "rejects.jsonl").read_text("utf-8").splitlines()]
    assert {re.sub("-[0-9a-f]{8}-", "-", r["id"]) for r in rejects
            if r["reason"] == "unlabelled-clause"} == {"委託-3", "services-2", "services-3"}
    dd = datasets.load_from_disk(str(out / "dataset"))
    assert dd["development"].features["labels"].feature.names[:2] == ["目的", "再委託"]
    assert "## Label frequencies" in (out / "report.md").read_text("utf-8")
    first = {p: (out / p).read_bytes() for p in ("data/evaluation.parquet", "README.md")}
    build_contracts(inputs[:2], out=out, annotations=ann, labels=inventory, seed=0,
                    eval_share=0.25, progress=False)
    assert first == {p: (out / p).read_bytes() for p in first}


def test_revision_task(tmp_path: Path, inputs: list[Path]) -> None:
    import pandas as pd

    ann = tmp_path / "rev.jsonl"
    ann.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in [
        {"document_id": "委託", "number": 2, "ai_alert": "書面で承諾?", "guidelines": "「書面」を追加",
         "reference_revision": "受託者は、委託者の書面による事前の承諾なく…"},
        {"text": "委託者は、速やかに通知する。", "ai_alert": "書面で?", "guidelines": "書面などにより",
         "reference_revision": "委託者は、書面交付等の方法により速やかに通知する。"},
    ]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    report = build_contracts(inputs[:1], out=out, annotations=ann, task="revision",
                             eval_share=0.5, progress=False)
    assert report.items == {"evaluation": 1, "development": 1} and report.rejected == 0
    rows = pd.concat([pd.read_parquet(out / "data" / f"{s}.parquet")
                      for s in ("evaluation", "development")])
    [clause_id] = [i for i in rows.id if i.startswith("委託-")]
    assert sorted(rows.id) == ["row-00002", clause_id] and clause_id.endswith("-2")
    assert rows.set_index("id").loc[clause_id, "text"].startswith("第2条（再委託・譲渡の禁止）\n")


def test_command_help_strict_and_errors(tmp_path: Path, inputs: list[Path]) -> None:
    runner = CliRunner()
    help_text = runner.invoke(contracts, ["--help"]).output
    assert "Example:" in help_text and "--annotations" in help_text
    out = tmp_path / "out"
    res = runner.invoke(contracts, [*map(str, inputs), "--out", str(out)])  # with progress bar
    assert res.exit_code == 0 and "processed 3 files, 10 clauses" in res.output
    res = runner.invoke(contracts, [*map(str, inputs), "--out", str(out), "-q",
                                    "--view", "original"])
    assert res.exit_code == 0 and res.output.startswith("processed 3 files, 10 clauses")
    assert json.loads((out / "report.json").read_text("utf-8"))["view"] == "original"
    res = runner.invoke(contracts, [*map(str, inputs), "--out", str(out), "-q", "--strict"])
    assert res.exit_code == 1
    bad = tmp_path / "labels.xlsx"
    bad.write_text("x", encoding="utf-8")
    res = runner.invoke(contracts, [str(inputs[0]), "--out", str(out), "--annotations",
                                    str(bad)])
    assert res.exit_code == 1
    assert res.output == f"Error: {bad}: annotations must be .csv, .tsv or .jsonl\n"


def test_real_contract_docx_and_pdf_give_15_articles(tmp_path: Path) -> None:
    folder = shared_path("realdata", "contracts", "jp_spc-jyoho-mamoru")
    files = [folder / "業務委託契約書.docx", folder / "業務委託契約書.pdf"]
    out = tmp_path / "out"
    res = CliRunner().invoke(contracts, [*map(str, files), "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    data = json.loads((out / "report.json").read_text("utf-8"))
    assert [(f["file"], f["format"], f["articles"]) for f in data["files"]] == [
        ("業務委託契約書.docx", "docx", 15), ("業務委託契約書.pdf", "pdf", 15)]
    rows = [json.loads(x) for x in (out / "clauses.jsonl").read_text("utf-8").splitlines()]
    for path in ("業務委託契約書.docx", "業務委託契約書.pdf"):
        numbers = [r["number"] for r in rows if r["path"] == path and r["kind"] == "article"]
        assert numbers == list(range(1, 16))
    # the .docx and the .pdf share a stem: two ids
    assert len({r["document_id"] for r in rows}) == 2
