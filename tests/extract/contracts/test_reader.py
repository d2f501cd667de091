"""One reader for every contract file (buildds.extract.contracts: reader, document …).

Generated fixtures cover each route (docx, text PDF, image-only PDF, PNG, .odt) and each
failure (mislabelled files, blank pages, unknown types, encrypted PDFs); the integration test
reads every document in ../shared/realdata/contracts and checks it is read, or fails with the
error expected for it.
"""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest

from buildds.errors import ExtractError, PdfError
from buildds.extract.contracts import (
    IMAGE_SUFFIXES,
    LOW_CONFIDENCE,
    document,
    read_document,
    read_documents,
)
from buildds.extract.contracts import odt as contracts_odt
from tests.conftest import shared_path, simple_pdf_bytes

FONT = Path("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf")
DPI = 300
FONT_PX = round(12 * DPI / 72)
JA_LINES = [
    "業務委託契約書",
    "第１条（目的）本契約は、業務の委託について定める。",
    "第２条（報酬）甲は、乙に対し報酬を支払う。",
]
# what the image fixtures show. Not the title: tesseract (jpn, psm 3/6/7) does not see a lone
# short line such as 業務委託契約書 on these generated pages at all (psm 11 does).
OCR_LINES = JA_LINES[1:] + ["第３条（秘密保持）乙は、業務上知り得た秘密を保持する。"]

needs_font = pytest.mark.skipif(not FONT.exists(), reason=f"{FONT} not installed (fonts-ipafont)")


def _tesseract_ok() -> bool:
    try:
        import pytesseract
    except ImportError:
        return False
    return shutil.which(pytesseract.pytesseract.tesseract_cmd) is not None


needs_tesseract = pytest.mark.skipif(not _tesseract_ok(), reason="tesseract not installed")
needs_soffice = pytest.mark.skipif(contracts_odt._soffice() is None, reason="LibreOffice not installed")


# --------------------------------------------------------------------------- fixtures
def make_docx(path: Path, paragraphs: list[str]) -> Path:
    import docx

    d = docx.Document()
    for p in paragraphs:
        d.add_paragraph(p)
    d.save(str(path))
    return path


def make_text_pdf(path: Path, lines: list[str]) -> Path:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    pdfmetrics.registerFont(TTFont("IPAMincho", str(FONT)))
    c = Canvas(str(path), pagesize=A4, invariant=1)
    c.setFont("IPAMincho", 11)
    for i, line in enumerate(lines):
        c.drawString(72, 760 - 20 * i, line)
    c.showPage()
    c.save()
    return path


def render_png(path: Path, lines: list[str]) -> Path:
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(FONT), FONT_PX)
    pitch, margin = round(FONT_PX * 1.8), 120
    img = Image.new("L", (1900, 2 * margin + pitch * len(lines)), 255)
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((margin, margin + i * pitch), line, font=font, fill=0)
    img.save(path, dpi=(DPI, DPI))
    return path


def image_pdf(path: Path, png: Path) -> Path:
    from PIL import Image

    with Image.open(png) as img:
        img.convert("RGB").save(path, "PDF", resolution=DPI)
    return path


def blank_pdf(path: Path) -> Path:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    c = Canvas(str(path), pagesize=A4, invariant=1)
    c.showPage()
    c.save()
    return path


def _nospace(text: str) -> str:
    return "".join(text.split())


# --------------------------------------------------------------------------- routes
def test_docx(tmp_path: Path) -> None:
    path = make_docx(tmp_path / "c.docx", JA_LINES)
    doc = read_document(path, source_path="in/c.docx")
    assert doc.format == "docx"
    assert [b.text for b in doc.blocks] == JA_LINES
    assert doc.source.path == "in/c.docx"


@needs_font
def test_text_pdf(tmp_path: Path) -> None:
    doc = read_document(make_text_pdf(tmp_path / "c.pdf", JA_LINES))
    assert doc.format == "pdf"
    assert doc.pages == 1 and doc.ocr_confidence is None
    assert [b.text for b in doc.blocks] == JA_LINES
    assert all(b.page == 1 and b.bbox is not None for b in doc.blocks)


def test_encrypted_pdf(tmp_path: Path) -> None:
    path = tmp_path / "locked.pdf"
    path.write_bytes(simple_pdf_bytes("Article 1 Purpose of this Agreement", encrypt="pw"))
    with pytest.raises(PdfError, match="password") as info:
        read_document(path)
    assert str(path) in str(info.value)
    with pytest.raises(PdfError, match="password given does not open"):
        read_document(path, password="wrong")
    doc = read_document(path, password="pw")
    assert doc.blocks[0].text == "Article 1 Purpose of this Agreement"


@needs_tesseract
@needs_font
def test_png_ocr(tmp_path: Path) -> None:
    doc = read_document(render_png(tmp_path / "c.png", OCR_LINES), processes=1)
    assert doc.format == "image" and doc.pages == 1
    assert doc.ocr_confidence is not None and doc.ocr_confidence > 70
    assert list(doc.ocr_page_confidence) == [1]  # per-page confidence kept
    assert abs(doc.ocr_page_confidence[1] - doc.ocr_confidence) < 0.1
    assert all(b.page == 1 and b.bbox is not None for b in doc.blocks)
    assert len(doc.blocks) == 3
    text = _nospace("".join(b.text for b in doc.blocks))
    assert "本契約は、業務の委託について定める。" in text and "秘密を保持する。" in text
    assert not [p for p in doc.problems if p.code == "ocr_low_confidence"]


@needs_tesseract
@needs_font
def test_image_only_pdf_is_a_scan(tmp_path: Path) -> None:
    png = render_png(tmp_path / "c.png", OCR_LINES)
    doc = read_document(image_pdf(tmp_path / "scan.pdf", png), processes=1)
    assert doc.format == "scan" and doc.pages == 1
    assert doc.ocr_confidence is not None and doc.ocr_confidence > 70
    assert "本契約は、業務の委託について定める。" in _nospace("".join(b.text for b in doc.blocks))
    assert all(b.page == 1 and b.bbox is not None for b in doc.blocks)
    with pytest.raises(ExtractError, match="no text found.*OCR is off"):
        read_document(tmp_path / "scan.pdf", ocr=False)


@needs_tesseract
@needs_font
def test_mixed_pdf_ocrs_only_the_textless_page(tmp_path: Path) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    png = render_png(tmp_path / "s.png", OCR_LINES[2:])
    mixed = tmp_path / "mixed.pdf"
    pdfmetrics.registerFont(TTFont("IPAMincho", str(FONT)))
    c = Canvas(str(mixed), pagesize=A4, invariant=1)
    c.setFont("IPAMincho", 11)
    for i, line in enumerate(JA_LINES):
        c.drawString(72, 760 - 20 * i, line)
    c.showPage()
    c.drawImage(str(png), 0, 600, width=1900 * 72 / DPI, height=None, preserveAspectRatio=True,
                anchor="sw")
    c.showPage()
    c.save()
    doc = read_document(mixed, processes=1)
    assert doc.format == "pdf" and doc.pages == 2
    assert doc.ocr_confidence is not None
    assert [b.text for b in doc.blocks if b.page == 1] == JA_LINES
    assert "秘密を保持する。" in _nospace("".join(b.text for b in doc.blocks if b.page == 2))


@needs_soffice
def test_odt_through_libreoffice(tmp_path: Path) -> None:
    import subprocess

    src = make_docx(tmp_path / "c.docx", JA_LINES)
    out = tmp_path / "odt"
    subprocess.run([contracts_odt._soffice(), "--headless", f"-env:UserInstallation=file://{tmp_path}/p",
                    "--convert-to", "odt", "--outdir", str(out), str(src)],
                   check=True, capture_output=True, timeout=120)
    doc = read_document(out / "c.odt")
    assert doc.format == "odt"
    assert [b.text for b in doc.blocks] == JA_LINES


def test_odt_without_libreoffice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.odt"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        zf.writestr("content.xml", "<office:document-content/>")
    monkeypatch.setattr(contracts_odt, "_soffice", lambda: None)
    with pytest.raises(ExtractError, match="cannot read .odt without LibreOffice: apt-get install "
                                           "libreoffice-writer-nogui") as info:
        read_document(path)
    assert str(path) in str(info.value)


# --------------------------------------------------------------------------- failures
def test_unknown_extension(tmp_path: Path) -> None:
    path = tmp_path / "contract.xyz"
    path.write_text("第1条 目的", encoding="utf-8")
    with pytest.raises(ExtractError, match=r"unsupported file type '\.xyz' \(supported: \.docx, "
                                           r"\.pdf") as info:
        read_document(path)
    assert str(path) in str(info.value)


def test_text_renamed_pdf(tmp_path: Path) -> None:
    path = tmp_path / "notes.pdf"
    path.write_text("第1条（目的）本契約は…\n", encoding="utf-8")
    with pytest.raises(ExtractError, match="named .pdf but not a PDF: the file looks like plain "
                                           "text") as info:
        read_document(path)
    assert str(path) in str(info.value)


def test_docx_renamed_pdf_and_pdf_renamed_docx(tmp_path: Path) -> None:
    fake_pdf = tmp_path / "contract.pdf"
    fake_pdf.write_bytes(make_docx(tmp_path / "real.docx", JA_LINES).read_bytes())
    with pytest.raises(ExtractError, match=r"looks like a Word \.docx \(rename it \.docx\)"):
        read_document(fake_pdf)
    fake_docx = tmp_path / "contract.docx"
    fake_docx.write_bytes(simple_pdf_bytes("Agreement"))
    with pytest.raises(ExtractError, match=r"named \.docx but not a Word \.docx: the file looks "
                                           r"like a PDF") as info:
        read_document(fake_docx)
    assert str(fake_docx) in str(info.value)


def test_zip_renamed_docx(tmp_path: Path) -> None:
    path = tmp_path / "c.docx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("readme.txt", "hello")
    with pytest.raises(ExtractError, match=r"named \.docx but not a Word \.docx: the file looks like "
                                           r"a ZIP archive .*\(no word/document\.xml\)") as info:
        read_document(path)
    assert str(path) in str(info.value)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "c.pdf"
    path.write_bytes(b"")
    with pytest.raises(ExtractError, match="empty"):
        read_document(path)


def test_image_named_docx(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "c.docx"
    buf = io.BytesIO()
    Image.new("L", (10, 10), 255).save(buf, "PNG")
    path.write_bytes(buf.getvalue())
    with pytest.raises(ExtractError, match="looks like a PNG image"):
        read_document(path)


@needs_tesseract
def test_blank_pdf_has_no_text(tmp_path: Path) -> None:
    path = blank_pdf(tmp_path / "blank.pdf")
    with pytest.raises(ExtractError, match=r"no text found \(the PDF has no text layer and OCR") \
            as info:
        read_document(path, processes=1)
    assert str(path) in str(info.value)


@needs_tesseract
def test_blank_png_has_no_text(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "blank.png"
    Image.new("L", (800, 600), 255).save(path)
    with pytest.raises(ExtractError, match=r"no text found \(OCR with auto") as info:
        read_document(path, processes=1)
    assert str(path) in str(info.value)


def test_empty_docx_has_no_text(tmp_path: Path) -> None:
    with pytest.raises(ExtractError, match="no text found"):
        read_document(make_docx(tmp_path / "empty.docx", []))


def test_batch_goes_on_past_bad_files(tmp_path: Path) -> None:
    good = make_docx(tmp_path / "good.docx", JA_LINES)
    bad = tmp_path / "bad.pdf"
    bad.write_text("not a pdf", encoding="utf-8")
    odd = tmp_path / "x.xyz"
    odd.write_text("x", encoding="utf-8")
    locked = tmp_path / "locked.pdf"
    locked.write_bytes(simple_pdf_bytes("Agreement", encrypt="pw"))
    good2 = make_docx(tmp_path / "good2.docx", ["第1条 目的"])
    results = list(read_documents([good, bad, odd, locked, good2], root=tmp_path))
    assert [p.name for p, _, _ in results] == ["good.docx", "bad.pdf", "x.xyz", "locked.pdf",
                                                "good2.docx"]
    docs = [d for _, d, _ in results]
    assert docs[0] is not None and docs[4] is not None and docs[1:4] == [None] * 3
    codes = [probs[0].code for _, _, probs in results[1:4]]
    assert codes == ["wrong_file_type", "unsupported_type", "encrypted"]
    for (_, _, probs), name in zip(results[1:4], ["bad.pdf", "x.xyz", "locked.pdf"], strict=True):
        assert len(probs) == 1 and probs[0].severity == "error" and probs[0].source == name
    assert docs[0].source.path == "good.docx"


def test_batch_reports_a_bug_and_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = make_docx(tmp_path / "good.docx", JA_LINES)
    calls = []
    real = document.read_document

    def flaky(path: Path, **kw: object):  # type: ignore[no-untyped-def]
        calls.append(path)
        if len(calls) == 1:
            raise KeyError("boom")
        return real(path, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(document, "read_document", flaky)
    results = list(read_documents([good, good]))
    assert results[0][1] is None and results[0][2][0].code == "internal_error"
    assert "KeyError" in results[0][2][0].message
    assert results[1][1] is not None


def test_pages_out_of_range(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(simple_pdf_bytes("Article 1 Purpose of this Agreement"))
    with pytest.raises(ExtractError, match="no such page") as info:
        read_document(path, pages=[3])
    assert info.value.page == 3


# --------------------------------------------------------------------------- real files
SKIP_SUFFIXES = {".txt", ".csv", ".native", ".md"}
# image-only documents: (relative path, read_document keywords)
OCR_FILES = {
    "jp_hanbai-keiyakusho/sales-contract-template.jpg": {},
    "jp_hanbai-keiyakusho/sales-contract-template.pdf": {},
    "jp_yomitoku-images/demo.jpg": {},
    "jp_yomitoku-images/gallery3.jpg": {},
    # Traditional Chinese; only page 1 to keep the test short
    "scan_zh-tw_hualien/契約書.pdf": {"pages": [1]},
}


def _zh_lang() -> str:
    try:
        from buildds.extract.ocr import check_tesseract

        check_tesseract("chi_tra")
        return "chi_tra+eng"
    except Exception:  # noqa: BLE001 - chi_tra not installed: fall back
        return "jpn+eng"


def _real_files(root: Path) -> list[Path]:
    return [p for p in sorted(root.rglob("*")) if p.is_file()
            and p.suffix.lower() not in SKIP_SUFFIXES
            and p.name != "LICENSE" and not p.name.upper().startswith("README")]


@pytest.mark.shared
def test_real_contracts_text_files() -> None:
    root = shared_path("realdata", "contracts")
    files = [p for p in _real_files(root) if p.relative_to(root).as_posix() not in OCR_FILES]
    assert len(files) >= 50
    for path, doc, problems in read_documents(files, root=root, ocr=False):
        rel = path.relative_to(root).as_posix()
        if rel == "jp_decrypt-pdf/契約書-locked.pdf":
            assert doc is None and problems[0].code == "encrypted"
            assert "password" in problems[0].message and problems[0].source == rel
            continue
        if path.suffix == ".odt" and contracts_odt._soffice() is None:
            assert doc is None and "LibreOffice" in problems[0].message
            continue
        assert doc is not None, f"{rel}: {problems}"
        assert doc.blocks and doc.ocr_confidence is None
        assert doc.format == {".docx": "docx", ".odt": "odt"}.get(path.suffix.lower(), "pdf")
        assert not [p for p in problems if p.severity == "error"], rel
    locked = read_document(root / "jp_decrypt-pdf/契約書-locked.pdf", password="test")
    plain = read_document(root / "jp_decrypt-pdf/契約書.pdf")
    assert [b.text for b in locked.blocks] == [b.text for b in plain.blocks]
    assert "金銭消費貸借契約書" in locked.blocks[0].text


@pytest.mark.shared
@pytest.mark.ocr
@needs_tesseract
def test_real_contracts_ocr_files() -> None:
    root = shared_path("realdata", "contracts")
    on_disk = {p.relative_to(root).as_posix() for p in _real_files(root)}
    # every image-only file in the directory is in OCR_FILES
    images = {r for r in on_disk if Path(r).suffix.lower() in IMAGE_SUFFIXES}
    assert images <= set(OCR_FILES)
    for rel, kw in OCR_FILES.items():
        if rel not in on_disk:
            continue
        lang = _zh_lang() if rel.startswith("scan_zh-tw") else "jpn+eng"
        doc = read_document(root / rel, source_path=rel, ocr_lang=lang, **kw)
        assert doc.format == ("image" if rel.endswith(".jpg") else "scan"), rel
        assert doc.blocks, rel
        assert doc.ocr_confidence is not None and 0 < doc.ocr_confidence <= 100, rel
        low = [p for p in doc.problems if p.code == "ocr_low_confidence"]
        # one page read: a warning exactly when its confidence is low
        assert bool(low) == (doc.ocr_confidence < LOW_CONFIDENCE), rel
        assert all(p.severity == "warning" and p.source == rel for p in doc.problems)
        if rel == "jp_yomitoku-images/demo.jpg":
            assert doc.ocr_confidence > 75
            assert "課題" in "".join(b.text for b in doc.blocks)


def test_batch_in_parallel_keeps_order(tmp_path: Path) -> None:
    files = [make_docx(tmp_path / f"c{i}.docx", [f"第{i}条（目的）"]) for i in range(1, 4)]
    bad = tmp_path / "bad.docx"
    bad.write_bytes(simple_pdf_bytes("x"))
    serial = list(read_documents([*files, bad], root=tmp_path))
    parallel = list(read_documents([*files, bad], root=tmp_path, jobs=2))
    assert [(p, d, pr) for p, d, pr in serial] == [(p, d, pr) for p, d, pr in parallel]
    assert parallel[3][1] is None and parallel[3][2][0].code == "wrong_file_type"
    assert parallel[3][2][0].source == "bad.docx"


@needs_font
@needs_tesseract
def test_batch_ocr_pages_in_one_pool_same_as_serial(tmp_path: Path) -> None:
    """jobs=2 OCRs the pages of all files in one pool (largest first); the documents, their
    problems and the order are exactly those of the serial read, and a bad file in the
    middle of the batch is still its own problem."""
    from PIL import Image

    small = render_png(tmp_path / "small.png", OCR_LINES[:1])
    large = render_png(tmp_path / "large.png", OCR_LINES)
    p1 = render_png(tmp_path / "p1.png", OCR_LINES[:2])
    p2 = render_png(tmp_path / "p2.png", OCR_LINES[2:])
    scan = tmp_path / "scan.pdf"
    with Image.open(p1) as a, Image.open(p2) as b:
        a.convert("RGB").save(scan, "PDF", resolution=DPI, save_all=True,
                              append_images=[b.convert("RGB")])
    bad = tmp_path / "bad.png"
    bad.write_text("<html>not found</html>", encoding="utf-8")
    files = [small, bad, scan, large]
    serial = list(read_documents(files, root=tmp_path))
    parallel = list(read_documents(files, root=tmp_path, jobs=2))
    assert [p.name for p, _, _ in parallel] == ["small.png", "bad.png", "scan.pdf", "large.png"]
    for (sp, sd, sprobs), (pp, pd, pprobs) in zip(serial, parallel, strict=True):
        assert sp == pp and sprobs == pprobs
        assert (sd is None) == (pd is None)
        if sd is not None and pd is not None:
            assert sd.model_dump_json() == pd.model_dump_json()
    assert parallel[1][1] is None and parallel[1][2][0].code == "wrong_file_type"
    doc = parallel[2][1]
    assert doc is not None and doc.format == "scan" and doc.pages == 2
    assert set(doc.ocr_page_confidence) == {1, 2}
    assert "秘密" in _nospace("".join(b.text for b in doc.blocks))


@needs_font
@needs_tesseract
def test_batch_ocr_failure_stays_with_its_file(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """An OCR page task that fails makes only its own file a problem (first failing page)."""
    from buildds.extract.pdf import page_task as task_mod

    good = render_png(tmp_path / "good.png", OCR_LINES[:1])
    broken = render_png(tmp_path / "broken.png", OCR_LINES[:1])
    real = task_mod.ocr_one_image

    def failing(args):  # type: ignore[no-untyped-def]
        job, page, _ = args
        if job.source == "broken.png":
            raise ExtractError("tesseract failed: boom", source=job.source, page=page)
        return real(args)

    # the forked workers inherit the patched module (ocr_page_task calls ocr_one_image)
    monkeypatch.setattr(task_mod, "ocr_one_image", failing)
    results = list(read_documents([broken, good], root=tmp_path, jobs=2))
    assert results[0][1] is None
    assert results[0][2][0].source == "broken.png" and results[0][2][0].page == 1
    assert "boom" in results[0][2][0].message
    assert results[1][1] is not None


@needs_font
@needs_tesseract
def test_batch_language_per_file(tmp_path: Path) -> None:
    """``ocr_lang`` may be a function of the recorded name (serial and parallel alike)."""
    png = render_png(tmp_path / "a.png", OCR_LINES[:1])
    asked: list[str] = []

    def lang(name: str) -> str:
        asked.append(name)
        return "jpn"

    for jobs in (1, 2):
        [(_, doc, _)] = list(read_documents([png], root=tmp_path, jobs=jobs, ocr_lang=lang))
        assert doc is not None and "lang jpn" not in str(doc.problems)
    assert asked == ["a.png", "a.png"]
