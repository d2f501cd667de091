"""Clause corrections of a contracts build (corrections/contracts/*.yaml): loading, applying
in order, stale entries, malformed files."""

from __future__ import annotations

from pathlib import Path

import pytest

from buildds.errors import TransformError
from buildds.schema.contracts import ClauseRow
from buildds.transform.contract_corrections import (
    apply_contract_corrections,
    load_contract_corrections,
    text_digest,
)


def _row(rid: str, text: str) -> ClauseRow:
    return ClauseRow(id=rid, source="a.docx", document_id="a-1", kind="article", number=1,
                     number_text="第1条", heading="目的", text=text, input_text=f"第1条（目的）\n{text}",
                     changed=False, original_text=None, accepted_text=None, page=None,
                     block_start=0, block_end=1, sha256="0" * 64)


def _write(folder: Path, name: str, text: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def test_apply_in_order_with_expect(tmp_path: Path) -> None:
    rows = [_row("a-1", "本契約は委託を定める。"), _row("a-2", "秘密を守る。"), _row("a-3", "以上")]
    d1, d2 = text_digest("本契約は委託を定める。"), text_digest("本契約は業務の委託を定める。")
    _write(tmp_path, "a.yaml", f"""
- {{id: a-1, action: text, expect: {d1}, text: 本契約は業務の委託を定める。, reason: 脱字}}
- {{id: a-1, action: accept, expect: {d2}, reason: checked}}
- {{id: a-2, action: exclude, expect: {text_digest("秘密を守る。")}, reason: 重複}}
- {{id: a-3, action: accept, expect: {d1}, reason: wrong digest}}
""")
    _write(tmp_path, "b.yaml", f"- {{id: gone, action: accept, expect: {d1}, reason: x}}\n")
    fixes = load_contract_corrections(tmp_path)
    assert [c.origin for c in fixes] == ["a.yaml#1", "a.yaml#2", "a.yaml#3", "a.yaml#4",
                                         "b.yaml#1"]
    result = apply_contract_corrections(rows, fixes)
    assert [(r.id, r.text) for r in result.rows] == [("a-1", "本契約は業務の委託を定める。"),
                                                     ("a-3", "以上")]
    assert result.rows[0].input_text == "第1条（目的）\n本契約は業務の委託を定める。"
    assert [(r.id, c.origin) for r, c in result.excluded] == [("a-2", "a.yaml#3")]
    assert [c.origin for c in result.applied] == ["a.yaml#1", "a.yaml#2", "a.yaml#3"]
    assert [(s.origin, s.id) for s in result.stale] == [("a.yaml#4", "a-3"), ("b.yaml#1", "gone")]
    assert "changed since" in result.stale[0].message and "no clause" in result.stale[1].message


def test_missing_folder_means_none_and_bad_files_name_themselves(tmp_path: Path) -> None:
    assert load_contract_corrections(tmp_path / "nope") == []
    assert load_contract_corrections(None) == []
    _write(tmp_path, "bad.yaml", "id: a\n")
    with pytest.raises(TransformError, match="YAML list") as exc:
        load_contract_corrections(tmp_path)
    assert exc.value.source and exc.value.source.endswith("bad.yaml")
    _write(tmp_path, "bad.yaml", "- {id: a, action: text, expect: 0123456789abcdef, reason: r}\n")
    with pytest.raises(TransformError, match="needs text"):
        load_contract_corrections(tmp_path)
    _write(tmp_path, "bad.yaml", "- {id: a, action: accept, expect: short, reason: r}\n")
    with pytest.raises(TransformError, match="entry 1: expect"):
        load_contract_corrections(tmp_path)
    _write(tmp_path, "bad.yaml", "- {id: a, action: accept, expect: 0123456789abcdef}\n")
    with pytest.raises(TransformError, match="reason"):
        load_contract_corrections(tmp_path)
