"""Column detection and reading order from text boxes (buildds.extract.pdf.columns)."""

from __future__ import annotations

from buildds.extract.pdf.columns import find_gutters, order_columns
from buildds.extract.pdf.lines import reading_order
from buildds.schema import PdfLine

CHAR = 10.0


def line(text: str, x: float, row: int, width: float | None = None, page: int = 1) -> PdfLine:
    top = 60.0 + row * 15.0
    w = width if width is not None else CHAR * len(text)
    return PdfLine(text=text, bbox=(x, top, x + w, top + CHAR), font_size=CHAR, page=page)


def one_column(rows: int = 20) -> list[PdfLine]:
    # full lines, indented continuations and short last lines, as a booklet sets them
    out = []
    for r in range(rows):
        x = 72.0 + (CHAR if r % 3 == 1 else 0)
        width = 430.0 if r % 3 != 2 else 120.0
        out.append(line(f"一段組{r}", x, r, width))
    return out


def two_columns(rows: int = 20, *, gutter: float = 30.0) -> list[PdfLine]:
    left = [line(f"左{r}", 72.0, r, 210.0 if r % 4 else 80.0) for r in range(rows)]
    right = [line(f"右{r}", 72.0 + 210.0 + gutter, r, 210.0 if r % 5 else 60.0)
             for r in range(rows)]
    return left + right


def test_one_column_has_no_gutter_and_keeps_its_order() -> None:
    lines = one_column()
    assert find_gutters(lines) == []
    assert order_columns(lines, reading_order) == reading_order(list(lines))


def test_two_columns_are_read_left_then_right() -> None:
    lines = two_columns()
    (gutter,) = find_gutters(lines)
    assert 282.0 < gutter < 312.0
    ordered = order_columns(lines, reading_order)
    assert [ln.text for ln in ordered] == [f"左{r}" for r in range(20)] + [
        f"右{r}" for r in range(20)]
    assert {ln.column for ln in ordered[:20]} == {0} and {ln.column for ln in ordered[20:]} == {1}


def test_a_narrow_gutter_of_one_character_still_counts() -> None:
    assert len(find_gutters(two_columns(gutter=CHAR))) == 1


def test_a_spanning_heading_and_footer_close_the_band() -> None:
    top = [line("見出し（段をまたぐ）", 150.0, 0, 300.0)]
    body = [ln.model_copy(update={"bbox": (ln.bbox[0], ln.bbox[1] + 15, ln.bbox[2],
                                           ln.bbox[3] + 15)}) for ln in two_columns(10)]
    lower = [line(f"下左{r}", 72.0, 12 + r, 210.0) for r in range(6)] + [
        line(f"下右{r}", 312.0, 12 + r, 210.0) for r in range(6)]
    footer = [line("- 2 -", 280.0, 19, 50.0)]
    middle = [line("中央の段落（段をまたぐ）", 150.0, 11, 300.0)]
    ordered = [ln.text for ln in order_columns(top + body + middle + lower + footer,
                                               reading_order)]
    assert ordered == (["見出し（段をまたぐ）"] + [f"左{r}" for r in range(10)]
                       + [f"右{r}" for r in range(10)] + ["中央の段落（段をまたぐ）"]
                       + [f"下左{r}" for r in range(6)] + [f"下右{r}" for r in range(6)]
                       + ["- 2 -"])


def test_three_columns() -> None:
    lines = [line(f"{name}{r}", x, r, 140.0) for name, x in (("甲", 40.0), ("乙", 200.0),
                                                             ("丙", 360.0)) for r in range(12)]
    assert len(find_gutters(lines)) == 2
    texts = [ln.text for ln in order_columns(lines, reading_order)]
    assert texts[:12] == [f"甲{r}" for r in range(12)] and texts[-12:] == [f"丙{r}" for r in
                                                                          range(12)]


def test_too_few_lines_to_tell() -> None:
    assert find_gutters(two_columns(3)) == []


def test_columns_set_row_by_row_are_cut_apart(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Drawn row by row, the PDF's text joins the left and right columns' rows into one
    line; extract_pdf(columns=True) cuts them at the gutter and reads column by column."""
    import pytest

    from buildds.errors import MissingDependency
    from buildds.extract.pdf.lines import extract_pdf

    variants = pytest.importorskip("buildds.sample.variants")
    variant = next(v for v in variants.VARIANTS if v.row_major)
    path = tmp_path / "minpo.pdf"
    try:
        variants.typeset_variant(path, "minpo", variant)
    except MissingDependency as exc:
        pytest.skip(str(exc))
    joined = extract_pdf(path).pages[1].lines
    middle = variant.column_x(1) - variant.gutter_chars * variant.font_size / 2
    assert sum(ln.bbox[0] < middle < ln.bbox[2] for ln in joined) > len(joined) // 2
    cut = extract_pdf(path, columns=True).pages[1].lines
    assert not any(ln.bbox[0] < middle < ln.bbox[2] for ln in cut)
    assert cut[0].text == "［民法］" and cut[1].text.startswith("〔第１問〕")
    columns = [ln.column for ln in cut]
    assert columns == sorted(columns) and set(columns) == {0, 1}  # left column first


def test_a_page_too_thin_to_show_its_columns_takes_the_documents_gutter() -> None:
    from buildds.extract.pdf.columns import order_pages

    full = two_columns(20)
    # the last page: a full left column, three lines on the right
    last = [line(f"左{r}", 72.0, r, 210.0) for r in range(20)] + [
        line(f"右{r}", 312.0, r, 210.0) for r in range(3)]
    assert find_gutters(last) == []  # too few lines on the right to tell alone
    pages = order_pages([full, full, last], reading_order)
    assert [ln.text for ln in pages[2]] == [f"左{r}" for r in range(20)] + [
        f"右{r}" for r in range(3)]
    # a one-column document takes nothing from anywhere
    single = one_column()
    assert order_pages([single, single], reading_order) == [reading_order(single)] * 2
