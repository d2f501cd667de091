"""The image-only booklets in ../shared/jbe/scanned go through OCR inside ``buildds jbe`` and
come out as the same questions and the same items as their text-layer originals: every item
id and label identical, the statements' character accuracy at least 99 % after the
structure repair (buildds.extract.jbe.ocr_repair), every item carrying ``ocr_confidence``.

Slow (OCR of 28 pages, a few minutes on two busy cores), so it runs once for both.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from buildds.export.xml import parse_exam_xml
from buildds.extract.jbe.booklet import parse_booklet
from buildds.extract.ocr import char_accuracy
from buildds.extract.pdf.lines import extract_pdf
from buildds.jobs.jbe import build_jbe
from buildds.schema import SUBJECTS
from buildds.transform.jbe_ocr_accuracy import compare_items
from tests.conftest import shared_path
from tests.extract.ocr.drawn import needs_tesseract

SCANS = {(2024, "minpo"): "2024-minpo-mondai-scan.pdf", (2019, "kenpo"): "2019-kenpo-mondai-scan.pdf"}


def shape(questions):
    return [(q.number, q.slots, q.slot_mode, tuple(s.label for s in q.statements))
            for q in questions]


@pytest.mark.ocr
@pytest.mark.shared
@needs_tesseract
def test_scanned_booklets_parse_to_the_same_questions(tmp_path: Path) -> None:
    pdf_dir = shared_path("jbe", "pdf")
    scan_dir = shared_path("jbe", "scanned")
    raw = tmp_path / "raw"
    for (year, subject), scan in SCANS.items():
        (raw / str(year)).mkdir(parents=True)
        # copies: a link out of --raw is refused
        shutil.copyfile(scan_dir / scan, raw / str(year) / f"{subject}-mondai.pdf")
        shutil.copyfile(pdf_dir / str(year) / f"{subject}-seito.pdf",
                        raw / str(year) / f"{subject}-seito.pdf")
    out = tmp_path / "out"
    report = build_jbe(years=[2019, 2024], raw=raw, out=out, subjects=["kenpo", "minpo"],
                       progress=False, replace=True)
    text = build_jbe(years=[2019, 2024], raw=pdf_dir, out=tmp_path / "text",
                     subjects=["kenpo", "minpo"], progress=False)
    built = {(p.year, p.subject): p for p in report.pairs}
    assert set(built) == set(SCANS), report.summary_line()
    for (year, subject), pair in built.items():
        assert pair.status == "ok", pair.problems
        counts = pair.counts
        assert counts is not None
        assert counts.ocr_pages == counts.pages  # every page went through OCR
        assert (counts.ocr_confidence_pct or 0) >= 80
        booklet, _ = parse_exam_xml((out / "xml" / str(year) / f"{subject}.xml").read_bytes(),
                                    source=f"{year}/{subject}")
        text_doc = extract_pdf(pdf_dir / str(year) / f"{subject}-mondai.pdf", ocr="never")
        reference = parse_booklet(text_doc, year=year, era="", subject=SUBJECTS[subject])
        got, want = shape(booklet.questions), shape(reference.questions)
        # question numbers, answer slots and slot modes: all identical
        assert [g[:3] for g in got] == [w[:3] for w in want]
        same = sum(g == w for g, w in zip(got, want))
        # and every question's statement labels too (after the OCR repair)
        assert same == len(want), [(g, w) for g, w in zip(got, want) if g != w]
        # character accuracy of the statements against the text layer
        ocr_text = "".join(s.text for q in booklet.questions for s in q.statements)
        ref_text = "".join(s.text for q in reference.questions for s in q.statements)
        accuracy = char_accuracy(ocr_text, ref_text)
        print(f"{year} {subject}: {same}/{len(want)} questions identical in structure, "
              f"statement character accuracy {accuracy:.4f}, OCR confidence "
              f"{counts.ocr_confidence_pct}%")
        assert accuracy >= 0.95
    data = json.loads((out / "report.json").read_text("utf-8"))
    assert data["totals"]["failed"] == 0
    # items: the same ids, the same labels, the text within 1 % of the text layer's
    assert report.dataset is not None and text.dataset is not None
    scanned = {f"{year}/{subject}-mondai.pdf" for year, subject in SCANS}
    acc = compare_items(report.dataset.items,
                        [it for it in text.dataset.items if it.source in scanned])
    summary = acc.summary()
    print(summary)
    assert summary["missing"] == summary["extra"] == 0, summary
    assert summary["labels_identical"] == summary["reference_items"] == 246
    assert summary["identical_questions"] == summary["reference_questions"]
    assert acc.overall >= 0.99, summary
    assert all(it.ocr_confidence is not None for it in report.dataset.items)
    assert all(it.ocr_confidence is None for it in text.dataset.items)
    flagged = data["dataset"]["ocr_low_confidence"]
    assert flagged and {f["id"] for f in flagged} <= {it.id for it in report.dataset.items}
    assert "## OCR confidence" in (out / "report.md").read_text("utf-8")
