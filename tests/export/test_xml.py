"""Stage-1 XML: round trip, schema validation, and a parser that never resolves entities."""

from __future__ import annotations

import pytest

from buildds.errors import ExportError
from buildds.export.xml import booklet_to_xml, parse_exam_xml, parse_xml, validate_exam_xml
from buildds.extract.jbe.answers import parse_answer_key
from buildds.extract.jbe.booklet import parse_booklet
from buildds.extract.pdf.lines import extract_pdf
from buildds.sample import SAMPLE_DIR
from buildds.schema import SUBJECTS


@pytest.mark.parametrize("subject", ["kenpo", "minpo", "keiho"])
def test_xml_round_trips_to_the_same_records(subject):
    folder = SAMPLE_DIR / "2025"
    booklet = parse_booklet(extract_pdf(folder / f"{subject}-mondai.pdf", source_path="b.pdf"),
                            year=2025, era="令和７年", subject=SUBJECTS[subject])
    key = parse_answer_key(extract_pdf(folder / f"{subject}-seito.pdf", words=True,
                                       source_path="k.pdf"), year=2025, subject=subject)
    xml = booklet_to_xml(booklet, key, era="令和７年")
    validate_exam_xml(xml, source="x.xml")
    back, back_key = parse_exam_xml(xml, source="x.xml")
    assert back == booklet.model_copy(update={"problems": (), "era": "令和７年"})
    assert back_key.slots == key.slots and back_key.full_marks == key.full_marks
    assert booklet_to_xml(back, back_key, era="令和７年") == xml  # deterministic bytes


def test_schema_violation_names_the_file_and_line():
    bad = b'<?xml version="1.0"?>\n<exam year="2024">\n<question/>\n</exam>'
    with pytest.raises(ExportError) as err:
        validate_exam_xml(bad, source="xml/2024/minpo.xml")
    assert "xml/2024/minpo.xml" in str(err.value) and "line" in str(err.value)


def test_external_entities_are_never_resolved(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    doc = (f'<?xml version="1.0"?>\n<!DOCTYPE exam [<!ENTITY x SYSTEM "file://{secret}">]>\n'
           f"<exam>&x;</exam>").encode()
    root = parse_xml(doc, source="evil.xml")
    assert "TOP SECRET" not in (root.text or "")


def test_not_well_formed_is_a_clear_error():
    with pytest.raises(ExportError, match="evil.xml.*not well-formed"):
        parse_xml(b"<exam><question>", source="evil.xml")
