"""Layout independence: the bundled sample typeset in other layouts (one and two columns,
A4 and B5, IPAMincho, IPAGothic and the proportional IPAPMincho, other sizes, margins and line
lengths — buildds.sample.variants) gives the very same items through the whole `buildds jbe`
build; and the real booklets in ../shared set two pages to a sheet (two columns of real
text) give the same items as the booklets themselves."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.errors import MissingDependency
from buildds.sample import SAMPLE_DIR, SUBJECT_CODES
from buildds.schema import JbeItem
from tests.conftest import shared_path

reportlab = pytest.importorskip("reportlab")
variants = pytest.importorskip("buildds.sample.variants")

YEAR = 2025
#: what may differ between two layouts of one booklet: its bytes and the pages
LAYOUT_FIELDS = {"sha256", "page"}


def comparable(items: list[JbeItem]) -> list[dict[str, Any]]:
    return [i.model_dump(exclude=LAYOUT_FIELDS) for i in items]


def build(raw: Path, out: Path) -> Any:
    from buildds.jobs.jbe import build_jbe

    return build_jbe(years=[YEAR], raw=raw, out=out, processes=1, progress=False,
                     corrections=None, use_cache=False)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    report = build(SAMPLE_DIR, tmp_path_factory.mktemp("reference"))
    assert report.dataset is not None and report.dataset.exported
    return comparable(report.dataset.items)


def variant_raw(tmp: Path, variant: Any) -> Path:
    """raw/2025: the three booklets set as ``variant``, with the bundled answer keys."""
    folder = tmp / "raw" / str(YEAR)
    folder.mkdir(parents=True)
    for code in SUBJECT_CODES:
        try:
            variants.typeset_variant(folder / f"{code}-mondai.pdf", code, variant)
        except MissingDependency as exc:
            pytest.skip(str(exc))
        shutil.copyfile(SAMPLE_DIR / str(YEAR) / f"{code}-seito.pdf",
                        folder / f"{code}-seito.pdf")
    return folder.parent


@pytest.mark.parametrize("variant", variants.VARIANTS, ids=lambda v: v.name)
def test_every_layout_gives_the_same_items(variant: Any, reference: list[dict[str, Any]],
                                           tmp_path: Path) -> None:
    report = build(variant_raw(tmp_path, variant), tmp_path / "out")
    assert [p.status for p in report.pairs] == ["ok", "ok", "ok"], [
        (p.booklet, [x.message for x in p.problems]) for p in report.pairs]
    assert report.dataset is not None
    assert comparable(report.dataset.items) == reference
    assert [e.id for e in report.dataset.exclusions] == ["令和７年-刑法-3"]  # the fill-in


def test_the_layouts_really_differ(tmp_path: Path) -> None:
    from buildds.extract.pdf.columns import find_gutters
    from buildds.extract.pdf.lines import extract_pdf

    seen = {}
    for variant in variants.VARIANTS:
        path = tmp_path / f"{variant.name}.pdf"
        try:
            pages = variants.typeset_variant(path, "minpo", variant)
        except MissingDependency as exc:
            pytest.skip(str(exc))
        doc = extract_pdf(path)
        seen[variant.name] = (pages, round(doc.pages[0].width), max(
            len(find_gutters(p.lines)) for p in doc.pages))
    assert seen["a4-one-column"][1:] == (595, 0)
    assert seen["a4-two-columns"][1:] == (595, 1)
    assert seen["b5-one-column"][1:] == (516, 0)
    assert seen["b5-two-columns-gothic"][1:] == (516, 1)
    assert seen["a4-two-columns"][0] < seen["a4-one-column"][0]


def test_two_columns_exit_0_and_without_column_detection_they_would_not_parse(
        tmp_path: Path) -> None:
    from buildds.extract.jbe.booklet import parse_booklet
    from buildds.extract.pdf.lines import extract_pdf
    from buildds.schema import SUBJECTS

    two = next(v for v in variants.VARIANTS if v.columns == 2)
    raw = variant_raw(tmp_path, two)
    result = CliRunner().invoke(main, ["jbe", "--years", str(YEAR), "--raw", str(raw), "--out",
                                       str(tmp_path / "out"), "-q", "-j", "1", "--strict",
                                       "--corrections", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "0 failed, 0 problems" in result.output
    rows = extract_pdf(raw / str(YEAR) / "minpo-mondai.pdf")  # row by row across columns
    booklet = parse_booklet(rows, year=YEAR, era="令和7年", subject=SUBJECTS["minpo"])
    assert any(p.code == "no-slot-marker" for p in booklet.problems)


@pytest.mark.shared
@pytest.mark.parametrize("subject", SUBJECT_CODES)
def test_real_booklets_two_up_give_the_same_items(subject: str, tmp_path: Path) -> None:
    from buildds.export.xml import booklet_to_xml, parse_exam_xml
    from buildds.extract.jbe.answers import parse_answer_key
    from buildds.extract.jbe.booklet import parse_booklet
    from buildds.extract.pdf.lines import extract_pdf
    from buildds.schema import SUBJECTS
    from buildds.text import era_fullwidth, era_of
    from buildds.transform.jbe_items import decompose

    year = 2024
    src = shared_path("jbe", "pdf", str(year), f"{subject}-mondai.pdf")
    key = parse_answer_key(extract_pdf(src.with_name(f"{subject}-seito.pdf"), words=True),
                           year=year, subject=subject)

    def items(pdf: Path) -> list[dict[str, Any]]:
        booklet = parse_booklet(extract_pdf(pdf, columns=True, source_path=f"{year}/{subject}"),
                                year=year, era=era_of(year),
                                subject=SUBJECTS[subject])
        xml = booklet_to_xml(booklet, key, era=era_fullwidth(year))
        return comparable(decompose(*parse_exam_xml(xml, source="x.xml"))[0])

    sheets = tmp_path / "two-up.pdf"
    try:
        variants.two_up(src, sheets)
    except MissingDependency as exc:
        pytest.skip(str(exc))
    got, want = items(sheets), items(src)
    assert want and got == want


def test_a_last_page_whose_right_column_is_a_few_lines(reference: list[dict[str, Any]],
                                                       tmp_path: Path) -> None:
    """Too few lines on the right to show the columns alone: the page takes the gutter of
    the booklet's other pages."""
    import dataclasses

    from buildds.extract.pdf.columns import find_gutters
    from buildds.extract.pdf.lines import extract_pdf
    from buildds.sample import typeset_booklet as tb
    from buildds.sample.content import QUESTIONS

    base = next(v for v in variants.VARIANTS if v.name == "a4-two-columns")
    with variants._line_chars(base.line_chars):
        count = 1 + sum(len(tb.layout_question(q)) for q in QUESTIONS["minpo"])
    per_column = next(n for n in range(46, 20, -1) if n < count % (2 * n) <= n + 3)
    bottom = base.page[1] - base.top - per_column * base.line_pitch - 0.5
    variant = dataclasses.replace(base, name="short-right-column", bottom=bottom)
    assert variant.lines_per_column == per_column
    raw = variant_raw(tmp_path, variant)
    last = extract_pdf(raw / str(YEAR) / "minpo-mondai.pdf").pages[-1]
    assert find_gutters(last.lines) == []  # the page alone does not show its columns
    report = build(raw, tmp_path / "out")
    assert [(p.subject, p.status) for p in report.pairs] == [
        ("kenpo", "ok"), ("minpo", "ok"), ("keiho", "ok")], [
        (p.booklet, [x.message for x in p.problems]) for p in report.pairs]
    assert report.dataset is not None
    assert comparable(report.dataset.items) == reference
