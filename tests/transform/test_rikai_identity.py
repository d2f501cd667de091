"""Stable identities (document ids from path + content, annotations matched by relative path,
ambiguous names rejected), clause and item spans, and the split layouts by name."""

from __future__ import annotations

import pytest

from buildds.errors import TransformError
from buildds.schema.contracts import ClassificationItem, ContractDocument, DocBlock
from buildds.schema.core import Source
from buildds.transform.clauses import split_clauses
from buildds.transform.rikai import (
    classification_items,
    clause_table,
    revision_items,
    split_items,
    split_like,
)
from buildds.transform.rikai.annotations import Annotation
from buildds.transform.rikai.identity import DocumentAliases, document_id
from buildds.transform.rikai.spans import item_spans

JA = ["業務委託契約書", "甲と乙は次のとおり契約する。", "第1条（目的）", "本契約は業務の委託について定める。",
      "第2条（禁止事項）", "乙は次の行為をしてはならない。", "一 再委託すること", "二 権利を譲渡すること",
      "第3条（協議）", "定めのない事項は協議する。"]


def doc(path: str, lines: list[str], sha: str = "1" * 64) -> ContractDocument:
    return ContractDocument(source=Source(path=path, sha256=sha), format="docx",
                            blocks=tuple(DocBlock(index=i, text=t) for i, t in enumerate(lines)))


def table(*docs: ContractDocument) -> list:  # type: ignore[type-arg]
    return clause_table([(d, split_clauses(d.blocks, source=d.source.path)) for d in docs])


def test_document_id_depends_on_path_and_content_only() -> None:
    a = document_id("in/契約書.docx", "1" * 64)
    assert a.startswith("契約書-") and len(a) == len("契約書-") + 8
    assert a == document_id("in/契約書.docx", "1" * 64)
    assert a != document_id("in/契約書.docx", "2" * 64)  # new content
    assert a != document_id("other/契約書.docx", "1" * 64)  # another file


def test_clause_ids_do_not_change_when_files_are_added() -> None:
    first = table(doc("a.docx", JA))
    more = table(doc("a.docx", JA), doc("a.pdf", JA, "2" * 64), doc("sub/a.docx", JA, "3" * 64))
    old = [r.id for r in first]
    assert [r.id for r in more if r.path == "a.docx"] == old
    assert len({r.id for r in more}) == len(more)


def test_clause_and_item_spans_index_the_document_text() -> None:
    from buildds.transform.clauses import document_text

    d = doc("a.docx", JA)
    text = document_text(d.blocks)
    rows = table(d)
    art2 = next(r for r in rows if r.number == 2)
    assert text[art2.char_start:art2.char_end].startswith("第2条（禁止事項）")
    assert art2.items == ("一 再委託すること", "二 権利を譲渡すること")
    assert [text[s:e] for s, e in art2.item_spans] == list(art2.items)
    row = art2.as_dict()
    assert row["item_starts"] == [s for s, _ in art2.item_spans]
    assert row["char_start"] == art2.char_start


def test_item_spans_of_wrapped_lines_and_missing_items() -> None:
    text = "Section 1. Terms\n(a) the Supplier shall deli-\nver the goods;\n(b) pay."
    spans = item_spans(text, (0, len(text)), ["(a) the Supplier shall deliver the goods;",
                                              "(b) pay.", "(c) never there"])
    assert text[spans[0][0]:spans[0][1]] == "(a) the Supplier shall deli-\nver the goods;"
    assert text[spans[1][0]:spans[1][1]] == "(b) pay."
    assert spans[2] is None
    assert item_spans(text, None, ["x"]) == [None]


def test_annotations_match_by_relative_path_and_ambiguous_names_are_rejected() -> None:
    rows = table(doc("x/契約書.docx", JA), doc("y/契約書.docx", JA, "2" * 64),
                 doc("z/規程.pdf", JA, "3" * 64))
    by_path = Annotation(source="ann.csv", line=2, document_id="y/契約書.docx", number=1,
                         labels=("目的",))
    by_stem = Annotation(source="ann.csv", line=3, document_id="規程", number=2,
                         labels=("禁止",))
    ambiguous = Annotation(source="ann.csv", line=4, document_id="契約書", number=1,
                           labels=("目的",))
    res = classification_items(rows, [by_path, by_stem, ambiguous])
    got = {it.id: it.labels for it in res.items}
    y_id = document_id("y/契約書.docx", "2" * 64)
    assert got == {f"{y_id}-1": ("目的",), f"{document_id('z/規程.pdf', '3' * 64)}-2": ("禁止",)}
    [problem] = [p for p in res.problems if p.reason == "ambiguous-document"]
    assert problem.line == 4
    assert "x/契約書.docx" in problem.message and "y/契約書.docx" in problem.message
    # a revision row with its own text naming an ambiguous document is rejected too
    rev = Annotation(source="rev.jsonl", line=1, document_id="契約書.docx", number=1,
                     text="t", ai_alert="A", guidelines="G", reference_revision="R")
    res2 = revision_items(rows, [rev])
    assert not res2.items and [p.reason for p in res2.problems] == ["ambiguous-document"]


def test_document_aliases() -> None:
    aliases = DocumentAliases([("a-1", "in/a.docx"), ("a-2", "in/a.pdf")])
    assert aliases.resolve("in/a.pdf") == ("a-2", None)
    assert aliases.resolve("a.docx") == ("a-1", None)
    assert aliases.resolve("a-2") == ("a-2", None)
    assert aliases.resolve("nothing") == (None, None)
    doc_id, why = aliases.resolve("a")
    assert doc_id is None and why is not None and "in/a.docx and in/a.pdf" in why


def items(n: int) -> list[ClassificationItem]:
    return [ClassificationItem(id=f"d-{i:04d}", document_id="d", source="d.docx", number=i,
                               heading=None, page=None, text="t", labels=("x",))
            for i in range(n)]


def test_split_like_legalrikai_revision_is_378_8() -> None:
    got = split_like(items(386), name="legalrikai", task="revision", seed=0)
    assert (len(got["evaluation"]), len(got["development"])) == (378, 8)
    assert got == split_like(list(reversed(items(386))), name="legalrikai", task="revision")
    other = split_like(items(386), name="legalrikai", task="revision", seed=1)
    assert other["development"] != got["development"]
    # few items: half go to development
    small = split_like(items(10), name="legalrikai", task="revision")
    assert (len(small["evaluation"]), len(small["development"])) == (5, 5)


def test_split_like_legalrikai_classification_share() -> None:
    got = split_like(items(59_353 // 100), name="legalrikai", task="classification")
    assert len(got["evaluation"]) == round(593 * 12_876 / 59_353)


def test_split_like_errors() -> None:
    with pytest.raises(TransformError, match="unknown split layout 'nope'"):
        split_like(items(3), name="nope", task="revision")
    with pytest.raises(TransformError, match="no clauses task"):
        split_like(items(3), name="legalrikai", task="clauses")
    with pytest.raises(TransformError, match="eval_count"):
        split_items(items(3), eval_count=4)
