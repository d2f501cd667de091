"""Every clause checked: :func:`buildds.validate.clause_checks.check_clauses` on clause
tables written here, one wrong thing at a time, and ``buildds contracts`` listing the flags in
report.md and failing with ``--strict``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from buildds.commands.contracts import contracts
from buildds.schema.contracts import Clause
from buildds.validate.clause_checks import LONG_MIN_CHARS, check_clauses, flags_markdown


def clause(kind: str, number: int | None = None, text: str = "本文。", *, heading: str | None = None,
           number_text: str | None = None, k: int = 0, page: int | None = 1) -> Clause:
    return Clause(source="a.pdf", kind=kind, number=number,  # type: ignore[arg-type]
                  number_text=number_text or (f"第{number}条" if number else None),
                  heading=heading, text=text, block_start=k, block_end=k, page=page)


def good() -> list[Clause]:
    return [clause("preamble", text="甲と乙は次のとおり契約する。"),
            *[clause("article", n, f"第{n}条の本文。", k=n) for n in range(1, 5)],
            clause("signature", text="以上\n2026年4月1日", k=9)]


def codes(clauses: list[Clause]) -> list[str]:
    return [f.code for f in check_clauses(clauses)]


def test_a_good_table_has_no_flags() -> None:
    assert check_clauses(good()) == []


def test_empty_and_toc_like_clauses() -> None:
    table = good()
    table[2] = clause("article", 2, "", k=2)
    table[3] = clause("article", 3, "", heading="Definitions\t3", k=3)
    table.insert(5, clause("appendix", None, "定義 ........ 2\n目的 ........ 3", k=7))
    flags = check_clauses(table)
    assert [(f.code, f.clause) for f in flags] == [
        ("empty_clause", 2), ("empty_clause", 3), ("toc_like", 3), ("toc_like", 5)]
    assert (flags[0].number_text, flags[0].page, flags[0].paragraph) == ("第2条", 1, 3)


def test_far_longer_than_the_median() -> None:
    table = good()
    table[4] = clause("article", 4, "あ" * (LONG_MIN_CHARS + 1), k=4)
    assert codes(table) == ["too_long"]
    # ten times the median but short: not flagged
    table[4] = clause("article", 4, "あ" * 500, k=4)
    assert codes(table) == []


def test_numbering_gaps_and_duplicates() -> None:
    table = good()
    table[2] = clause("article", 3, k=2)  # 1, 3, 3, 4
    flags = check_clauses(table)
    assert [f.code for f in flags] == ["numbering_gap", "numbering_duplicate"]
    assert "2 missing" in flags[0].message
    table = good()[2:]  # starts at 第2条: article 1 fell into the preamble
    assert codes(table) == ["numbering_gap"]
    table = good()
    table.insert(2, clause("article", 1, number_text="第1条の2", k=1))  # a branch article
    assert codes(table) == []


def test_text_outside_any_clause() -> None:
    table = good()
    table[0] = clause("preamble", text="前文\n第1条 目的\n本契約は…")
    table.append(clause("other", text="どこにも属さない文"))
    assert codes(table) == ["outside_clause", "outside_clause"]
    lone = [clause("other", text="x" * 1200)]
    assert codes(lone) == ["no_clauses"]


def test_markdown_lists_flags_per_document_with_page_and_paragraph() -> None:
    table = good()
    table[2] = clause("article", 2, "", k=2, page=3)
    lines = flags_markdown(check_clauses(table))
    assert lines[0] == "## Clause checks (1 flags in 1 documents)"
    assert lines[-1] == "| a.pdf | empty_clause | 3 | 第2条 | 3 | 3 | the clause has no text |"


def test_command_reports_flags_and_strict_fails(tmp_path: Path) -> None:
    import docx

    d = docx.Document()
    d.add_paragraph("業務委託契約書")
    for n in (1, 3, 3):  # a gap and a duplicate
        d.add_paragraph(f"第{n}条（見出し{n}）")
        d.add_paragraph("本文。")
    d.save(str(tmp_path / "c.docx"))
    out = tmp_path / "out"
    res = CliRunner().invoke(contracts, [str(tmp_path / "c.docx"), "--out", str(out), "-q"])
    assert res.exit_code == 0 and "2 clause flags" in res.output
    report = (out / "report.md").read_text("utf-8")
    assert "## Clause checks (2 flags in 1 documents)" in report
    assert "| c.docx | numbering_gap | 3 | 第3条 | – | 4 | article 3 follows 1 (2 missing) |" in report
    flags = json.loads((out / "report.json").read_text("utf-8"))["clause_flags"]
    assert [f["code"] for f in flags] == ["numbering_gap", "numbering_duplicate"]
    res = CliRunner().invoke(contracts, [str(tmp_path / "c.docx"), "--out", str(out), "-q",
                                         "--strict"])
    assert res.exit_code == 1 and "--strict: 2 clause flag(s)" in res.output
