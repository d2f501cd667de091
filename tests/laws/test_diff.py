"""buildds.laws.diff on small articles written here: every change kind, the order of the
records, paragraph-level changes, and the written files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from buildds.errors import BuildError
from buildds.laws.diff import article_sort_key, diff_versions
from buildds.laws.diff_report import write_diff
from buildds.laws.terminology import TerminologyMap, builtin_terminology, load_terminology
from buildds.schema.laws import ArticleChange, LawArticle, LawParagraph


def art(key: str, *paras: str, law_id: str = "L1") -> LawArticle:
    ps = tuple(LawParagraph(num=i, sentence=s) for i, s in enumerate(paras, 1))
    flat = "".join(paras)
    return LawArticle(law_id=law_id, article=key, article_title=f"第{key}条",
                      deleted=paras == ("削除",), paragraphs=ps, text="\n".join(paras),
                      flat=flat, text_hash=hashlib.sha256(flat.encode()).hexdigest())


def kinds(changes: list[ArticleChange]) -> list[tuple[str, str | None, str | None]]:
    return [(c.kind, c.old_article, c.new_article) for c in changes]


LONG = ("債務者がその債務の本旨に従った履行をしないとき又は債務の履行が不能であるときは、"
        "債権者は、これによって生じた損害の賠償を請求することができる。")
OTHER = "選択債権の目的である給付の中に不能のものがある場合において、その不能が選択権を有する者の過失によるものであるときは、債権は、その残存するものについて存在する。"
THIRD = "第三者が選択をすべき場合には、その選択は、債権者又は債務者に対する意思表示によってする。"


def test_unchanged_added_removed_and_order() -> None:
    old = [art("1", LONG), art("2", "この条は消える条文であり、ほかに同じ文はない。")]
    new = [art("1", LONG), art("1_2", "新しく加えた条文である。")]
    assert kinds(diff_versions(old, new)) == [("unchanged", "1", "1"), ("added", None, "1_2"),
                                              ("removed", "2", None)]


def test_renumbered_article_is_moved_and_reused_key_is_decided_by_text() -> None:
    old = [art("433", OTHER), art("437", THIRD)]
    new = [art("433", "まったく別の新しい規定が、この番号に置かれた。"), art("437", OTHER),
           art("438", THIRD)]
    changes = diff_versions(old, new)
    assert kinds(changes) == [("added", None, "433"), ("moved", "433", "437"),
                              ("moved", "437", "438")]
    assert changes[1].similarity == 1.0 and changes[1].paragraphs == ()


def test_moved_with_small_edit_has_similarity_and_paragraphs() -> None:
    old = [art("10", OTHER, THIRD)]
    new = [art("10", "削除"), art("12", OTHER, THIRD.replace("意思表示", "通知"))]
    changes = diff_versions(old, new)
    assert kinds(changes) == [("deleted", None, "10"), ("moved", "10", "12")]
    assert 0.8 <= changes[1].similarity < 1.0 and changes[1].paragraphs == (2,)


def test_deleted_article() -> None:
    changes = diff_versions([art("733", OTHER), art("734", "削除")],
                            [art("733", "削除"), art("734", "削除")])
    assert kinds(changes) == [("deleted", "733", "733"), ("unchanged", "734", "734")]


def test_terminology_only_change_needs_the_map() -> None:
    old = [art("199", "人を殺した者は、死刑又は無期若しくは五年以上の懲役に処する。"),
           art("211", "業務上必要な注意を怠り、よって人を死傷させた者は、五年以下の懲役若しくは禁錮又は百万円以下の罰金に処する。")]
    new = [art("199", "人を殺した者は、死刑又は無期若しくは五年以上の拘禁刑に処する。"),
           art("211", "業務上必要な注意を怠り、よって人を死傷させた者は、五年以下の拘禁刑又は百万円以下の罰金に処する。")]
    with_map = diff_versions(old, new, terminology=builtin_terminology())
    assert kinds(with_map) == [("terminology", "199", "199"), ("terminology", "211", "211")]
    assert with_map[0].similarity < 1.0 and with_map[0].paragraphs == (1,)
    assert {c.kind for c in diff_versions(old, new)} == {"substantive"}


def test_paragraph_inserted() -> None:
    old = [art("5", LONG, THIRD)]
    new = [art("5", LONG, "前項の規定は、債務者の責めに帰することができない事由によるものであるときは、適用しない。", THIRD)]
    (change,) = diff_versions(old, new)
    assert (change.kind, change.paragraphs) == ("substantive", (2,))


def test_paragraph_removed_is_named_by_its_old_number() -> None:
    (change,) = diff_versions([art("5", LONG, OTHER, THIRD)], [art("5", LONG, THIRD)])
    assert (change.kind, change.paragraphs) == ("substantive", (2,))


def test_article_sort_key() -> None:
    keys = ["10", "3_10", "3", "3_2", "4"]
    assert sorted(keys, key=article_sort_key) == ["3", "3_2", "3_10", "4", "10"]


def test_one_article_sorter() -> None:
    """The diff, the retrieval index and grounding order article keys with one function
    (there were two: diff.article_sort_key and retrieval.article_order)."""
    from buildds.laws import articles, grounding, retrieval

    assert article_sort_key is articles.article_sort_key
    assert retrieval.article_sort_key is grounding.article_sort_key is article_sort_key
    assert not hasattr(retrieval, "article_order")


def test_kokinkei_map_combined_forms() -> None:
    m = builtin_terminology("kokinkei")
    assert m.enforced is not None and m.enforced.isoformat() == "2025-06-01"
    assert "令和4年法律第67号" in m.source
    assert m.apply("三年以下の懲役若しくは禁錮") == "三年以下の拘禁刑"
    assert m.apply("無期の懲役又は禁錮") == "無期拘禁刑"
    assert m.apply("禁錮以上の刑、懲役") == "拘禁刑以上の刑、拘禁刑"


def test_terminology_file_errors_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "t.yaml"
    bad.write_text("replacements: [[only-one]]\n", encoding="utf-8")
    with pytest.raises(BuildError, match="t.yaml: replacement 1"):
        load_terminology(bad)
    good = tmp_path / "g.yaml"
    good.write_text("name: g\nreplacements:\n  - [甲, 乙]\n", encoding="utf-8")
    assert load_terminology(good) == TerminologyMap(name="g", replacements=(("甲", "乙"),))
    with pytest.raises(BuildError, match="no built-in terminology map 'nope'"):
        builtin_terminology("nope")


def test_write_diff_is_deterministic(tmp_path: Path) -> None:
    changes = diff_versions([art("1", OTHER), art("2", THIRD)], [art("1", OTHER), art("3", THIRD)])
    a = write_diff(changes, tmp_path / "a", law_id="L1", from_label="2023", to_label="2026")
    b = write_diff(changes, tmp_path / "b", law_id="L1", from_label="2023", to_label="2026")
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]
    rows = [json.loads(line) for line in a[0].read_text(encoding="utf-8").splitlines()]
    assert [r["kind"] for r in rows] == ["unchanged", "moved"]
    summary = a[1].read_text(encoding="utf-8")
    assert "| moved | 1 |" in summary and "| moved | 2 | 3 | 1.0000 | — |" in summary
