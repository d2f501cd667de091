"""Per-statement OCR confidence: each statement found again among the OCR lines it came from."""

from __future__ import annotations

from buildds.extract.jbe.booklet import parse_booklet
from buildds.extract.jbe.ocr_confidence import statement_confidences
from buildds.extract.jbe.ocr_repair import repair_ocr_document
from buildds.schema import SUBJECTS, PdfDocument, PdfLine, PdfPage, Source

# (text, mean, least) per line, as tesseract would give them
LINES = [
    ("〔第１問〕（配点：２）", 95.0, 90.0),
    ("代理に関する次のアからウまでの各記述のうち、誤っているものを組み合わせたものは、", 94.0, 90.0),
    ("後記１から５までのうちどれか。（解答欄は、［No.１］）", 93.0, 85.0),
    ("ア．代理権は、代理人が後見開始の審判を受けたときは、消滅する。", 96.0, 92.0),
    ("イ．本人は、追認をすることができる。ただし、相手方が", 70.0, 20.0),
    ("取消しをした後はこの限りでない。", 90.0, 60.0),
    ("ウ．無権代理人は、責任を負う。", 92.0, 88.0),
    ("工．復代理人は、本人を代表する。", 85.0, 50.0),  # 工 for エ
    ("１．アイ２．アエ３．イエ", 80.0, 30.0),
]


def ocr_doc(lines=LINES, ocr: bool = True) -> PdfDocument:
    pls = tuple(PdfLine(text=t, bbox=(50.0, 60.0 + 16 * i, 500.0, 70.0 + 16 * i), font_size=10.5,
                        page=1, confidence=m if ocr else None, min_confidence=lo if ocr else None)
                for i, (t, m, lo) in enumerate(lines))
    page = PdfPage(number=1, width=595.3, height=841.9, lines=pls, ocr=ocr,
                   ocr_confidence=88.0 if ocr else None)
    return PdfDocument(source=Source(path="t/minpo-mondai.pdf", sha256="0" * 64), pages=(page,))


def test_each_statement_gets_its_lines_confidence() -> None:
    doc, _ = repair_ocr_document(ocr_doc())
    booklet = parse_booklet(doc, year=2024, era="令和6年", subject=SUBJECTS["minpo"])
    assert [s.label for s in booklet.questions[0].statements] == ["ア", "イ", "ウ", "エ"]
    conf = statement_confidences(doc, booklet)
    assert conf["1-1"] == (96.0, 92.0)
    mean, least = conf["1-2"]  # two lines, weighted by their characters
    assert 70.0 < mean < 90.0 and least == 20.0
    assert conf["1-3"] == (92.0, 88.0)
    assert conf["1-4"] == (85.0, 50.0)


def test_text_layer_booklets_have_none() -> None:
    doc = ocr_doc(ocr=False)
    booklet = parse_booklet(doc, year=2024, era="令和6年", subject=SUBJECTS["minpo"])
    assert statement_confidences(doc, booklet) == {}
