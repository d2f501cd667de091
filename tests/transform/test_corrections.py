"""Corrections as data: applied every build, stale ones reported, malformed files named."""

from __future__ import annotations

import pytest

from buildds.errors import TransformError
from buildds.schema import JbeItem
from buildds.transform.corrections import apply_corrections, load_corrections


def item(qid: str, n: int, *, label: str = "Y", text: str = "保証契約は、書面でしなければ効力を生じな い。"):
    return JbeItem(id=f"{qid}-{n}", year="令和６年", subject="Civil Code", subject_jp="民法",
                   instruction="正しいか", question=text, label=label, answer=label == "Y",
                   question_type="combination", points=2, source="2024/minpo-mondai.pdf",
                   sha256="0" * 64, page=3)


ITEMS = [item("令和６年-民法-1", 1), item("令和６年-民法-1", 2, label="N"),
         item("令和６年-民法-2", 1)]


def write(tmp_path, text: str, name: str = "2024.yaml"):
    folder = tmp_path / "corrections"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return load_corrections(folder)


def test_text_label_instruction_and_exclude_apply_and_are_recorded(tmp_path):
    cs = write(tmp_path, """
- id: 令和６年-民法-1-1
  action: text
  find: "生じな い"
  replace: "生じない"
  reason: word split by a line break
- id: 令和６年-民法-1-2
  action: label
  expect: N
  label: Y
  reason: key misread
- id: 令和６年-民法-1
  action: instruction
  instruction: 判例の趣旨に照らし記述が正しいか
  reason: stem refers to precedent
- id: 令和６年-民法-2
  action: exclude
  reason: ambiguous after the 2020 revision
""")
    items, excluded, stale = apply_corrections(ITEMS, [], cs)
    assert stale == []
    assert [i.id for i in items] == ["令和６年-民法-1-1", "令和６年-民法-1-2"]
    assert items[0].question == "保証契約は、書面でしなければ効力を生じない。"
    assert (items[1].label, items[1].answer) == ("Y", True)
    assert {i.instruction for i in items} == {"判例の趣旨に照らし記述が正しいか"}
    assert items[0].corrections == ("2024.yaml#1", "2024.yaml#3")
    assert items[1].corrections == ("2024.yaml#2", "2024.yaml#3")
    assert [(e.id, e.reason, e.message) for e in excluded] == [
        ("令和６年-民法-2", "correction", "ambiguous after the 2020 revision")]


def test_stale_corrections_are_reported_never_applied(tmp_path):
    cs = write(tmp_path, """
- {id: 令和６年-民法-1-1, action: text, find: "no such text", replace: x, reason: r}
- {id: 令和６年-民法-1-1, action: label, expect: N, label: Y, reason: r}
- {id: 令和６年-民法-9, action: exclude, reason: r}
- {id: 令和６年-民法-1-1, action: label, label: Y, reason: already}
""")
    items, excluded, stale = apply_corrections(ITEMS, [], cs)
    assert items == ITEMS and excluded == []
    assert [s.origin for s in stale] == ["2024.yaml#1", "2024.yaml#2", "2024.yaml#3", "2024.yaml#4"]
    assert "no longer contains 'no such text'" in stale[0].message
    assert "expects N" in stale[1].message
    assert "no item has id" in stale[2].message
    assert "already Y" in stale[3].message


@pytest.mark.parametrize("text, message", [
    ("- {id: x, action: text, reason: r}", "needs find, replace"),
    ("- {id: x, action: paint, reason: r}", "action"),
    ("- {id: x, action: exclude}", "reason"),
    ("id: x", "YAML list"),
    ("- [unclosed", "cannot read"),
])
def test_malformed_files_name_the_file(tmp_path, text, message):
    with pytest.raises(TransformError) as err:
        write(tmp_path, text, name="bad.yaml")
    assert "bad.yaml" in str(err.value) and message in str(err.value)


def test_missing_folder_means_no_corrections(tmp_path):
    assert load_corrections(tmp_path / "nope") == []
    assert load_corrections(None) == []
