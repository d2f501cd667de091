"""Small build outputs the review-source tests read: a contracts .docx with a tracked change
and an empty article, and a hand-made judgments output (report, sample, parquet rows)."""

from __future__ import annotations

import json
from pathlib import Path

SCRIPT = "<script>alert(1)</script>"


def make_contract_docx(path: Path, *, body2: str = "受託者は、業務を誠実に遂行する。") -> Path:
    """第1条 with a tracked change (報酬は{+月額<script>…+}[-年額-]とする。), 第2条, an
    empty 第3条 (flagged ``empty_clause``) and 第4条."""
    from xml.sax.saxutils import escape

    import docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    d = docx.Document()
    d.add_paragraph("業務委託契約書")
    d.add_paragraph("第1条（報酬）")
    p = d.add_paragraph("報酬は")
    author = 'w:author="Reviewer" w:date="2026-01-01T00:00:00Z"'
    p._p.append(parse_xml(f'<w:ins {nsdecls("w")} w:id="1" {author}><w:r><w:t>月額'
                          f"{escape(SCRIPT)}</w:t></w:r></w:ins>"))
    p._p.append(parse_xml(f'<w:del {nsdecls("w")} w:id="2" {author}><w:r><w:delText>年額'
                          "</w:delText></w:r></w:del>"))
    p._p.append(parse_xml(f'<w:r {nsdecls("w")}><w:t>とする。</w:t></w:r>'))
    d.add_paragraph("第2条（遂行）")
    d.add_paragraph(body2)
    d.add_paragraph("第3条（空）")
    d.add_paragraph("第4条（雑則）")
    d.add_paragraph(f"本契約に定めのない事項は協議する。{SCRIPT}")
    d.save(str(path))
    return path


def judgment_row(rid: str, etype: str, *, label: int = 1, charge: str = "盗窃") -> dict:
    """One AR-Bench row as the parquet holds it (JSON columns as text)."""
    return {
        "id": rid, "source_id": rid.rsplit("-", 2)[0], "dataset": "judge", "error_type": etype,
        "error_class": "charge" if etype == "E1" else "prison_term", "label": label,
        "factor": "none", "charges": [charge], "facts": f"事实 {SCRIPT}",
        "judgment": f"被告人犯职务侵占罪。{SCRIPT}", "original_judgment": f"被告人犯盗窃罪。{SCRIPT}",
        "reasoning": "依照第二百七十一条", "anomalous_reasoning": "依照第二百七十一条",
        "cited_articles": ["第二百六十四条"], "anomalous_cited_articles": ["第二百七十一条"],
        "articles_text": "第二百六十四条　盗窃公私财物……",
        "gold_correction": json.dumps({"charge": charge}, ensure_ascii=False),
        "rationale": json.dumps({"tier": "数额较大", "range_months": [0, 36]}),
        "edits": json.dumps([{"start": 5, "end": 7, "old": "盗窃", "new": "职务侵占"}],
                            ensure_ascii=False),
        "seed": 0,
    }


def make_judgments_out(out: Path) -> Path:
    """A judgments output with three injected rows (two sampled, one flagged by the
    validator) and a normal one."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [judgment_row("a-1-E1-0", "E1"), judgment_row("b-2-E3-0", "E3"),
            judgment_row("c-3-E1-0", "E1"), judgment_row("d-4-none", "none", label=0)]
    (out / "data").mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows), out / "data" / "detection.parquet")
    (out / "review").mkdir()
    (out / "review" / "verdicts_template.csv").write_text(
        "id,valid,note\na-1-E1-0,,\nb-2-E3-0,,\n", encoding="utf-8")
    report = {"stage": "judgments", "validation": {"ok": False, "errors": [
        {"check": "E1_not_confusable", "message": "not a confusable pair", "ids": ["c-3-E1-0"]}]}}
    (out / "report.json").write_text(json.dumps(report), encoding="utf-8")
    return out


def make_scan_out(tmp_path: Path) -> tuple[Path, Path]:
    """A contracts output (``tmp_path/out``) for one scan (``tmp_path/in/scan.pdf``) read at
    91 % on page 1 and 42 % on page 2, one clause per page; the output and the scan."""
    from tests.conftest import simple_pdf_bytes

    out = tmp_path / "out"
    (out / "documents").mkdir(parents=True)
    (tmp_path / "in").mkdir()
    scan = tmp_path / "in" / "scan.pdf"
    scan.write_bytes(simple_pdf_bytes("page"))
    report = {"stage": "contracts", "clause_flags": [], "input_root": str(tmp_path),
              "files": [{"file": "in/scan.pdf", "format": "scan",
                         "ocr_page_confidence": {"1": 91.0, "2": 42.0}}]}
    (out / "report.json").write_text(json.dumps(report), encoding="utf-8")
    rows = [{"id": f"scan-1234abcd-{n}", "source": "scan.pdf", "path": "in/scan.pdf",
             "kind": "article", "number": n, "number_text": f"第{n}条", "heading": None,
             "text": f"本文{n}", "changed": False, "page": n, "block_start": n, "block_end": n}
            for n in (1, 2)]
    (out / "clauses.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    blocks = [{"index": n, "text": f"第{n}条 本文{n}", "page": n, "bbox": [10, 20, 300, 40]}
              for n in (1, 2)]
    (out / "documents" / "in__scan.pdf.json").write_text(json.dumps({"blocks": blocks}),
                                                         encoding="utf-8")
    return out, scan
