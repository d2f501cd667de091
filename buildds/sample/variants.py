"""The sample booklets in other typesettings: page size, columns, font, size, margins and
line length — to show that what the parser reads does not depend on the layout.

A :class:`LayoutVariant` says how to set the page; :func:`typeset_variant` lays the sample
questions out with its line length (the same wrapping rules as
:mod:`buildds.sample.typeset_booklet`: mid-word breaks, burasage, oidashi) and draws them in
one or more columns, filling the left column before the right one, with a cover and a
centred footer ``- n -`` as the real booklets have. The answer keys are not re-typeset: a
variant booklet goes with the bundled key.

:func:`two_up` sets any booklet (the real ones in ../shared too) two pages to a landscape
sheet, each page a column: the real text, in two columns.

Needs the ``sample`` extra (reportlab) and the IPA fonts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from buildds.sample import typeset_booklet as tb
from buildds.sample.content import QUESTIONS
from buildds.schema import SUBJECTS

__all__ = ["A4", "B5", "VARIANTS", "LayoutVariant", "two_up", "typeset_variant"]

A4 = (595.2755905511812, 841.8897637795277)
B5 = (515.9055118110236, 728.503937007874)  # JIS B5, 182 × 257 mm

#: font name → the files tried in turn (Debian's fonts-ipafont paths)
_FONT_FILES = {
    "IPAMincho": ("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf",
                  "/usr/share/fonts/truetype/fonts-japanese-mincho.ttf"),
    "IPAGothic": ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
                  "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf"),
    "IPAPMincho": ("/usr/share/fonts/opentype/ipafont-mincho/ipamp.ttf",),
}


@dataclass(frozen=True)
class LayoutVariant:
    """How to set a booklet. ``line_chars`` is the width of one column in full-width
    characters; the text block is centred unless ``left`` (points) is given."""

    name: str
    page: tuple[float, float] = A4
    font: str = "IPAMincho"
    font_size: float = 10.5
    line_chars: int = 43
    columns: int = 1
    #: space between two columns, in full-width characters
    gutter_chars: float = 3.0
    line_pitch: float = 16.4
    top: float = 62.0
    bottom: float = 70.0
    left: float | None = None
    #: draw row by row across the columns (the PDF's text then joins the columns' rows
    #: into one line) instead of column after column
    row_major: bool = False

    @property
    def lines_per_column(self) -> int:
        return int((self.page[1] - self.top - self.bottom) // self.line_pitch)

    @property
    def column_width(self) -> float:
        return self.line_chars * self.font_size

    def column_x(self, k: int) -> float:
        block = self.columns * self.column_width + (self.columns - 1) * (
            self.gutter_chars * self.font_size)
        left = (self.page[0] - block) / 2 if self.left is None else self.left
        return left + k * (self.column_width + self.gutter_chars * self.font_size)


#: the variants the tests build: the real booklets' setting and others it must read alike
VARIANTS = (
    LayoutVariant("a4-one-column"),
    LayoutVariant("a4-two-columns", columns=2, line_chars=21, gutter_chars=3, font_size=10.0,
                  line_pitch=15.0),
    LayoutVariant("b5-one-column", page=B5, font_size=9.5, line_chars=40, line_pitch=15.0,
                  top=50.0, bottom=56.0),
    LayoutVariant("b5-two-columns-gothic", page=B5, columns=2, font="IPAGothic", font_size=9.0,
                  line_chars=22, gutter_chars=2.5, line_pitch=14.0, top=48.0, bottom=52.0),
    LayoutVariant("a4-wide-margin-proportional", font="IPAPMincho", font_size=11.0,
                  line_chars=34, line_pitch=18.0, left=110.0),
    LayoutVariant("a4-two-columns-row-by-row", columns=2, line_chars=20, gutter_chars=2.5,
                  font_size=10.0, line_pitch=15.5, row_major=True),
)


@contextlib.contextmanager
def _line_chars(n: int) -> Iterator[None]:
    """The sample layout wraps at ``typeset_booklet.LINE_CHARS``: set it for one layout."""
    saved = tb.LINE_CHARS
    tb.LINE_CHARS = n
    try:
        yield
    finally:
        tb.LINE_CHARS = saved


def _register(font: str) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from buildds.errors import MissingDependency

    if font in pdfmetrics.getRegisteredFontNames():
        return
    for candidate in _FONT_FILES.get(font, ()):
        if Path(candidate).is_file():
            pdfmetrics.registerFont(TTFont(font, candidate))
            return
    raise MissingDependency(f"the {font} font", hint="apt-get install fonts-ipafont")


def typeset_variant(path: str | Path, subject: str, variant: LayoutVariant) -> int:
    """Write the sample booklet of ``subject`` (kenpo, minpo, keiho) set as ``variant`` to
    ``path``; returns its page count. Deterministic (reportlab ``invariant=1``)."""
    from reportlab.pdfgen import canvas

    _register(variant.font)
    subject_jp = SUBJECTS[subject].jp
    with _line_chars(variant.line_chars):
        lines = [tb.Line(((0, f"［{subject_jp}］"),), None, ("subject",))]
        for q in QUESTIONS[subject]:
            lines += tb.layout_question(q)
    per_page = variant.lines_per_column * variant.columns
    pages = [lines[k:k + per_page] for k in range(0, len(lines), per_page)]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    c = canvas.Canvas(str(path), pagesize=variant.page, invariant=1, pageCompression=1)
    c.setTitle(f"短答式試験問題集［{subject_jp}］（サンプル {variant.name}）")
    width, height = variant.page
    c.setFont(variant.font, variant.font_size * 2)
    c.drawCentredString(width / 2, height * 0.62, f"短答式試験問題集［{subject_jp}］")
    _footer(c, variant, 1)
    c.showPage()
    for number, page in enumerate(pages, start=2):
        c.setFont(variant.font, variant.font_size)
        slots = [divmod(i, variant.lines_per_column) for i in range(len(page))]
        if variant.row_major:
            slots.sort(key=lambda s: (s[1], s[0]))
        for column, row in slots:
            line = page[column * variant.lines_per_column + row]
            y = height - variant.top - row * variant.line_pitch
            for x, text in line.segments:
                c.drawString(variant.column_x(column) + x * variant.font_size, y, text)
        _footer(c, variant, number)
        c.showPage()
    c.save()
    return len(pages) + 1


def _footer(c, variant: LayoutVariant, number: int) -> None:  # type: ignore[no-untyped-def]
    c.setFont(variant.font, variant.font_size)
    # near the foot of the page, as the booklets set it, however deep the bottom margin
    c.drawCentredString(variant.page[0] / 2, min(variant.bottom / 2, 36.0), f"- {number} -")


def two_up(src: str | Path, dest: str | Path, *, font: str = "IPAMincho",
           scale: float = 0.68) -> int:
    """Set the booklet ``src`` two pages to a landscape A4 sheet: the cover alone, then each
    pair of pages side by side as two columns, every line where its page had it (scaled by
    ``scale``), footers included. Returns the sheet count."""
    from reportlab.pdfgen import canvas

    from buildds.extract.pdf.lines import extract_pdf

    _register(font)
    doc = extract_pdf(src, ocr="never")
    width, height = A4[1], A4[0]
    c = canvas.Canvas(str(dest), pagesize=(width, height), invariant=1, pageCompression=1)
    sheets = [doc.pages[:1]] + [doc.pages[k:k + 2] for k in range(1, len(doc.pages), 2)]
    column = (width - 60) / 2
    for sheet in sheets:
        for k, page in enumerate(sheet):
            x_off = 30 + k * column + (column - page.width * scale) / 2
            y_off = (height - page.height * scale) / 2
            for ln in (*page.lines, *page.furniture):
                c.setFont(font, ln.font_size * scale)
                baseline = page.height - ln.bbox[3] + 0.12 * ln.font_size
                c.drawString(x_off + ln.bbox[0] * scale, y_off + baseline * scale, ln.text)
        c.showPage()
    c.save()
    return len(sheets)
