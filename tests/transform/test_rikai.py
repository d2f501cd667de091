"""LegalRikai items: the seed's prompt templates, the clause table, annotations, the joins
and their reported problems, and the seeded splits."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jinja2.sandbox import SecurityError

from buildds.errors import TransformError
from buildds.evaluate.prompts import prompt_source, render_prompt, render_prompt_file
from buildds.schema.contracts import (
    ClassificationItem,
    Clause,
    ClauseRow,
    ContractDocument,
    DocBlock,
    Revision,
)
from buildds.schema.core import Source
from buildds.transform.clauses import split_clauses
from buildds.transform.rikai import (
    classification_items,
    clause_input_text,
    clause_table,
    label_frequencies,
    load_annotations,
    revision_items,
    split_items,
    view_blocks,
)
from buildds.transform.rikai.identity import document_id
from tests.conftest import shared_path


# --------------------------------------------------------------------------- prompts
def test_templates_are_the_seed_verbatim() -> None:
    seed = shared_path("seeds", "000_517285a7972a32a9.txt").read_text("utf-8").splitlines()
    assert prompt_source("clause_classification") == "\n".join(seed[58:95]) + "\n"
    assert prompt_source("clause_revision") == "\n".join(seed[155:198]) + "\n"


def test_classification_prompt_renders_labels_and_text() -> None:
    out = render_prompt("clause_classification", candidate_labels=["再委託", "地位の譲渡禁止"],
                        text="第１２条（再委託・譲渡の禁止）\n受託者は…")
    assert out.startswith("# Clause Detection Task\n\n## Instructions\n")
    assert out.endswith(
        "These are the only clauses you should use when identifying clauses in the legal "
        "article:\n\n- 再委託\n- 地位の譲渡禁止\n\n\n## Legal Article to Analyze\n\n"
        "Here is the legal article you need to analyze:\n\n第１２条（再委託・譲渡の禁止）\n"
        "受託者は…\n")


def test_revision_prompt_with_and_without_demonstrations() -> None:
    ctx = {"ai_alert": "A?", "guidelines": "G.", "text": "T。"}
    tail = "## AI Alert:\nA?\n\n## Guidelines:\nG.\n\n## Original Clause:\nT。\n"
    zero = render_prompt("clause_revision", n_demonstrations=0, demonstrations=[], **ctx)
    assert zero.endswith("even if no changes have been made.\n\n\n\n" + tail)
    assert "Examples" not in zero
    demo = {"ai_alert": "DA", "guidelines": "DG", "text": "DT", "reference_revision": "DR"}
    one = render_prompt("clause_revision", n_demonstrations=1, demonstrations=[demo], **ctx)
    assert ("## Examples (for reference):\n\n\n### Example 1:\n\n**AI Alert:**  \nDA\n\n"
            "**Guidelines:**  \nDG\n\n**Original Clause:**\nDT\n\n**Expected Output:**\nDR\n\n\n"
            "\n\n\n" + tail) in one


def test_missing_variable_is_an_error() -> None:
    from jinja2 import UndefinedError

    with pytest.raises(UndefinedError):
        render_prompt("clause_classification", candidate_labels=["a"])


def test_user_template_runs_sandboxed(tmp_path: Path) -> None:
    evil = tmp_path / "evil.md.j2"
    evil.write_text("{{ ''.__class__.__mro__[1].__subclasses__() }}", encoding="utf-8")
    with pytest.raises(SecurityError):
        render_prompt_file(evil)
    ok = tmp_path / "ok.md.j2"
    ok.write_text("{{ text }}|{{ labels | join(',') }}\n", encoding="utf-8")
    assert render_prompt_file(ok, text="x", labels=["a", "b"]) == "x|a,b\n"


# --------------------------------------------------------------------------- clause table
def clause(number: int | None, text: str, *, kind: str = "article", heading: str | None = None,
           source: str = "a.docx", page: int | None = None) -> Clause:
    return Clause(source=source, kind=kind, number=number,  # type: ignore[arg-type]
                  number_text=f"第{number}条" if number is not None else None, heading=heading,
                  text=text, block_start=0, block_end=0, page=page)


def doc(name: str) -> ContractDocument:
    return ContractDocument(source=Source(path=name, sha256="0" * 64), format="docx",
                            blocks=(DocBlock(index=0, text="x"),))


A = document_id("in/a.docx", "0" * 64)
B = document_id("in/b.pdf", "0" * 64)


@pytest.fixture
def rows() -> list[ClauseRow]:
    a = [clause(None, "前文", kind="preamble"), clause(1, "目的の条文", heading="目的"),
         clause(2, "再委託の条文", heading="再委託"), clause(3, "秘密の条文"),
         clause(None, "以上", kind="signature")]
    b = [clause(1, "Bの第1条", source="b.pdf", page=1), clause(2, "Bの第2条", source="b.pdf", page=2)]
    return clause_table([(doc("in/a.docx"), a), (doc("in/b.pdf"), b)])


def test_clause_table_rows(rows: list[ClauseRow]) -> None:
    assert [r.id for r in rows] == [f"{A}-preamble", f"{A}-1", f"{A}-2", f"{A}-3",
                                    f"{A}-signature", f"{B}-1", f"{B}-2"]
    r = rows[1]
    assert (r.kind, r.changed, r.original_text, r.sha256) == ("article", False, None, "0" * 64)
    assert (r.source, r.document_id, r.number, r.heading) == ("a.docx", A, 1, "目的")
    assert r.path == "in/a.docx"
    assert r.input_text == "第1条（目的）\n目的の条文"
    assert rows[5].page == 1


def test_same_stem_documents_get_their_own_ids() -> None:
    rows = clause_table([(doc("x.docx"), [clause(1, "t")]), (doc("x.pdf"), [clause(1, "t")])])
    ids = [r.id for r in rows]
    assert len(set(ids)) == 2 and all(re.fullmatch(r"x-[0-9a-f]{8}-1", i) for i in ids)


def test_clause_input_text() -> None:
    assert clause_input_text("第３条", "完成後の検査", "乙は…") == "第３条（完成後の検査）\n乙は…"
    assert clause_input_text(None, None, "前文") == "前文"


def test_original_view_cuts_the_rejected_text() -> None:
    blocks = [
        DocBlock(index=0, text="第1条（目的）"),
        DocBlock(index=1, text="甲は乙に新しい業務を委託する。", original="甲は乙に業務を委託する。",
                 revisions=(Revision(kind="insertion", text="新しい"),)),
        DocBlock(index=2, text="第2条（追加）", exists_in="accepted",
                 revisions=(Revision(kind="insertion", text="第2条（追加）"),)),
        DocBlock(index=3, text="追加の条文。", exists_in="accepted"),
        DocBlock(index=4, text="第2条（削除）", exists_in="original"),
        DocBlock(index=5, text="削除された条文。", exists_in="original"),
    ]
    d = doc("c.docx").model_copy(update={"blocks": tuple(blocks)})
    acc = clause_table([(d, split_clauses(view_blocks(blocks, "accepted"), source="c.docx"))])
    orig = clause_table([(d, split_clauses(view_blocks(blocks, "original"), source="c.docx"))],
                        view="original")
    assert [(r.heading, r.text) for r in acc] == [
        ("目的", "甲は乙に新しい業務を委託する。"), ("追加", "追加の条文。")]
    assert [(r.heading, r.text) for r in orig] == [
        ("目的", "甲は乙に業務を委託する。"), ("削除", "削除された条文。")]
    assert acc[0].changed and orig[0].changed
    assert acc[0].original_text == orig[0].original_text == "第1条（目的）\n甲は乙に業務を委託する。"
    assert acc[0].accepted_text == "第1条（目的）\n甲は乙に新しい業務を委託する。"
    # blocks missing from a view belong to the clause before them: in the original view
    # the inserted article sits inside article 1's block range
    assert orig[0].accepted_text == ("第1条（目的）\n甲は乙に新しい業務を委託する。\n"
                                        "第2条（追加）\n追加の条文。")
    assert acc[1].original_text == "第2条（削除）\n削除された条文。"
    assert orig[1].accepted_text == ""


# --------------------------------------------------------------------------- annotations
CSV = """document_id,number,labels
a,1,目的
a,2,再委託;地位の譲渡禁止
a,2,再委託
b.pdf,1,目的|謎のラベル
a,9,目的
"""


def test_load_annotations_csv_and_jsonl(tmp_path: Path) -> None:
    c = tmp_path / "ann.csv"
    c.write_text(CSV, encoding="utf-8")
    ann = load_annotations(c)
    assert [(a.document_id, a.number, a.labels, a.line) for a in ann] == [
        ("a", 1, ("目的",), 2), ("a", 2, ("再委託", "地位の譲渡禁止"), 3), ("a", 2, ("再委託",), 4),
        ("b.pdf", 1, ("目的", "謎のラベル"), 5), ("a", 9, ("目的",), 6)]
    j = tmp_path / "ann.jsonl"
    j.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in [
        {"document_id": "a", "number": "１", "labels": ["目的"]},
        {"clause_id": "a-3", "labels": "秘密保持"},
        {"document_id": "a", "number": "第2条", "labels": []},
    ]) + "\n", encoding="utf-8")
    ann = load_annotations(j)
    assert ann[0].number == 1 and ann[1].clause_id == "a-3" and ann[2].number_text == "第2条"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"a": 1}\nnot json\n', encoding="utf-8")
    with pytest.raises(TransformError, match="line 2 is not JSON"):
        load_annotations(bad)
    with pytest.raises(TransformError, match=r"\.csv, \.tsv or \.jsonl"):
        load_annotations(tmp_path / "x.xlsx")


def test_classification_join_reports_everything(tmp_path: Path, rows: list[ClauseRow]) -> None:
    c = tmp_path / "ann.csv"
    c.write_text(CSV, encoding="utf-8")
    res = classification_items(rows, load_annotations(c),
                               label_inventory=["目的", "再委託", "地位の譲渡禁止", "秘密保持"])
    assert [(it.id, it.labels) for it in res.items] == [
        (f"{A}-1", ("目的",)), (f"{A}-2", ("再委託", "地位の譲渡禁止")), (f"{B}-1", ("目的",))]
    assert res.items[0].text == "第1条（目的）\n目的の条文"
    got = sorted((p.reason, p.id, p.line) for p in res.problems)
    assert got == [
        ("unknown-label", f"{B}-1", 5),
        ("unlabelled-clause", f"{A}-3", None),
        ("unlabelled-clause", f"{B}-2", None),
        ("unmatched-annotation", None, 6),
    ]
    assert label_frequencies(res.items) == {"目的": 2, "再委託": 1, "地位の譲渡禁止": 1}


def test_default_inventory_is_every_used_label(tmp_path: Path, rows: list[ClauseRow]) -> None:
    c = tmp_path / "ann.csv"
    c.write_text(CSV, encoding="utf-8")
    res = classification_items(rows, load_annotations(c))
    assert res.label_inventory == sorted(["目的", "再委託", "地位の譲渡禁止", "謎のラベル"])
    assert not [p for p in res.problems if p.reason == "unknown-label"]
    everything = classification_items(rows, load_annotations(c), report_all=True)
    assert {p.id for p in everything.problems if p.reason == "unlabelled-clause"} == {
        f"{A}-preamble", f"{A}-3", f"{A}-signature", f"{B}-2"}


def test_revision_items(tmp_path: Path, rows: list[ClauseRow]) -> None:
    j = tmp_path / "rev.jsonl"
    j.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in [
        {"document_id": "a", "number": 2, "ai_alert": "書面で?", "guidelines": "書面を追加",
         "reference_revision": "再委託の条文（書面）"},
        {"text": "委託者は…通知する。", "ai_alert": "A", "guidelines": "G",
         "reference_revision": "委託者は…書面により通知する。"},
        {"document_id": "a", "number": 7, "ai_alert": "A", "guidelines": "G",
         "reference_revision": "R"},
        {"document_id": "a", "number": 1, "ai_alert": "A"},
    ]) + "\n", encoding="utf-8")
    res = revision_items(rows, load_annotations(j))
    assert [(it.id, it.text) for it in res.items] == [
        (f"{A}-2", "第2条（再委託）\n再委託の条文"), ("row-00002", "委託者は…通知する。")]
    assert res.items[0].reference_revision == "再委託の条文（書面）"
    assert sorted((p.reason, p.line) for p in res.problems) == [
        ("incomplete-annotation", 4), ("unmatched-annotation", 3)]


# --------------------------------------------------------------------------- splits
def test_splits_are_seeded_and_independent_of_input_order() -> None:
    items = [ClassificationItem(id=f"d-{i:03d}", document_id="d", source="d.docx", number=i,
                                heading=None, page=None, text="t", labels=("x",))
             for i in range(50)]
    a = split_items(items, eval_share=0.2, seed=3)
    b = split_items(list(reversed(items)), eval_share=0.2, seed=3)
    assert a == b
    assert len(a["evaluation"]) == 10 and len(a["development"]) == 40
    assert [it.id for it in a["evaluation"]] == sorted(it.id for it in a["evaluation"])
    assert {it.id for it in a["evaluation"]} | {it.id for it in a["development"]} == {
        it.id for it in items}
    assert split_items(items, seed=4)["evaluation"] != a["evaluation"]
    with pytest.raises(TransformError, match="duplicate item ids"):
        split_items(items + items[:1])
