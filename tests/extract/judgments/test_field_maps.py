"""Field mappings: the built-in ones detect their corpus by content, a user's is read from
YAML strictly, and a bad mapping is an error naming the file and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from buildds.errors import BuildError
from buildds.extract.judgments import (
    BUILTIN_MAPS,
    detect_format,
    field_value,
    load_field_map,
    record_format,
    resolve_field_map,
)
from buildds.schema.judgment_fields import JudgmentFieldMap
from tests.extract.judgments.corpus_records import caseformer, judge, lecard, write


@pytest.mark.parametrize(("line", "name"), [
    (judge(), "judge"), (json.dumps({"fact": "x", "meta": {}}), "cail"), (lecard(), "lecard"),
    (caseformer(), "caseformer"), (json.dumps({"fd": "x"}), "judge"),
    (json.dumps({"id": 1, "fact": "x"}), None),
])
def test_each_corpus_is_detected_by_its_keys(line: str, name: str | None) -> None:
    assert record_format(json.loads(line)) == name


def test_detection_skips_unreadable_lines_and_a_named_mapping_wins(tmp_path: Path) -> None:
    path = write(tmp_path / "c.jsonl", ["{", "[1]", lecard()])
    found = detect_format(path)
    assert (found.format, found.field_map) == ("lecard", BUILTIN_MAPS["lecard"])
    forced = detect_format(path, field_map=BUILTIN_MAPS["caseformer"])
    assert forced.format == "caseformer"


def test_field_value_follows_dotted_paths() -> None:
    record = {"meta": {"accusation": ["盗窃"]}, "x": 1}
    assert field_value(record, "meta.accusation") == ["盗窃"]
    assert field_value(record, "x.y") is None and field_value(record, "nope") is None


def test_a_user_mapping_from_yaml(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("name: mycourt\ndetect: [doc_id, body]\nid: doc_id\nfull_text: body\n"
                    "judgment: parts.operative\n", encoding="utf-8")
    fmap = load_field_map(path)
    assert (fmap.name, fmap.reader, fmap.judgment) == ("mycourt", "mapped", "parts.operative")
    assert resolve_field_map(str(path)) == fmap
    assert resolve_field_map("lecard") is BUILTIN_MAPS["lecard"]
    assert resolve_field_map(None) is None
    assert fmap.matches({"doc_id": 1, "body": "x"}) and not fmap.matches({"doc_id": 1})


@pytest.mark.parametrize(("text", "words"), [
    ("name: x\ndetect: [a]\n", "a mapping needs full_text or judgment"),
    ("name: X Y\ndetect: [a]\nfull_text: a\n", "name:"),
    ("name: x\ndetect: []\nfull_text: a\n", "detect:"),
    ("name: x\ndetect: [a]\nfull_text: a\ncolour: red\n", "colour: Extra inputs"),
    ("name: x\ndetect: [a]\nfull_text: 'a..b'\n", "full_text:"),
    ("- 1\n- 2\n", "must be a YAML object"),
    ("name: &n x\ndetect: [*n]\nfull_text: a\n", "aliases"),
    ("name: x\ndetect: [a\n", "not valid YAML"),
    ("name: x\nreader: judge\ndetect: [a]\n", "--input-format judge"),
])
def test_a_bad_mapping_names_the_file_and_field(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BuildError) as caught:
        load_field_map(path)
    assert caught.value.source == str(path) and words in caught.value.message


def test_an_unknown_format_name_is_refused() -> None:
    with pytest.raises(BuildError, match="unknown input format 'lecardd'"):
        resolve_field_map("lecardd")


def test_the_builtin_mappings_are_valid_records() -> None:
    for fmap in BUILTIN_MAPS.values():
        assert JudgmentFieldMap.model_validate(fmap.model_dump()) == fmap
