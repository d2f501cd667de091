"""Bad inputs to buildds.extract.pdf (open_pdf, extract_pdf): each raises PdfError naming the
file, with a reason a person can act on. All files are written here, in tmp_path."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from reportlab.lib.pdfencrypt import StandardEncryption

from buildds.errors import BuildError, ExtractError, PdfError
from buildds.extract.pdf.document import open_pdf
from buildds.extract.pdf.lines import extract_pdf
from tests.conftest import simple_pdf_bytes

TEXT = "Hello from a generated PDF"


def good_pdf_bytes(**canvas_kw) -> bytes:  # type: ignore[no-untyped-def]
    return simple_pdf_bytes(TEXT, "A second line so the page has a text layer", **canvas_kw)


def png_bytes() -> bytes:
    return (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06"
            b"\x00\x00\x00\x1f\x15\xc4\x89" + b"\x00" * 64)


def html_bytes() -> bytes:
    return (b"<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>"
            b"<body><h1>Not Found</h1><p>The requested URL was not found.</p></body></html>\n")


def docx_bytes() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", "<w:document/>")
    return buf.getvalue()


def corrupt_bytes() -> bytes:
    garbage = bytes((i * 37 + 11) % 256 for i in range(4096))
    return b"%PDF-1.4\n" + garbage + b"\n%%EOF\n"


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _raises(path: Path, *, source_path: str | None = None, **kw) -> PdfError:  # type: ignore[no-untyped-def]
    with pytest.raises(PdfError) as info:
        extract_pdf(path, source_path=source_path, **kw)
    err = info.value
    name = source_path or str(path)
    assert err.source == name
    assert str(err).startswith(name + ": "), str(err)
    assert isinstance(err, ExtractError) and isinstance(err, BuildError)
    return err


@pytest.mark.parametrize(
    ("name", "data", "words"),
    [
        ("empty.pdf", b"", ("empty",)),
        ("image.pdf", png_bytes(), ("not a PDF", "image")),
        ("error-page.pdf", html_bytes(), ("not a PDF", "HTML")),
        ("contract.pdf", docx_bytes(), ("not a PDF", "ZIP")),
        ("text.pdf", b"just some text, not a pdf at all\n", ("not a PDF",)),
        ("corrupt.pdf", corrupt_bytes(), ("corrupt",)),
    ],
)
def test_bad_file_raises_pdf_error_naming_it(tmp_path: Path, name: str, data: bytes,
                                              words: tuple[str, ...]) -> None:
    path = _write(tmp_path, name, data)
    err = _raises(path)
    for w in words:
        assert w in str(err), str(err)
    # the name recorded in provenance is the one used in the message
    err = _raises(path, source_path=f"2024/{name}")
    assert f"2024/{name}" in str(err)


def test_truncated_pdf(tmp_path: Path) -> None:
    data = good_pdf_bytes()
    path = _write(tmp_path, "half.pdf", data[: len(data) // 2])
    err = _raises(path, source_path="2024/minpo-mondai.pdf")
    assert "truncated" in str(err)
    assert err.page is None


def test_truncated_pdf_with_eof_marker_is_still_an_error(tmp_path: Path) -> None:
    """Cut in half, then a %%EOF appended: the cheap checks pass, pdfium must still refuse
    it — never an empty document returned silently."""
    data = good_pdf_bytes()
    path = _write(tmp_path, "half-eof.pdf", data[: len(data) // 2] + b"\n%%EOF\n")
    err = _raises(path, ocr="never")
    assert "corrupt" in str(err)


def test_missing_file(tmp_path: Path) -> None:
    err = _raises(tmp_path / "nowhere.pdf")
    assert "cannot read" in str(err)


def test_directory_instead_of_file(tmp_path: Path) -> None:
    (tmp_path / "dir.pdf").mkdir()
    _raises(tmp_path / "dir.pdf")


def test_good_pdf_reads(tmp_path: Path) -> None:
    path = _write(tmp_path, "good.pdf", good_pdf_bytes())
    doc = extract_pdf(path)
    assert doc.lines[0].text == TEXT


# ------------------------------------------------------------------ encryption
@pytest.fixture
def encrypted(tmp_path: Path) -> Path:
    enc = StandardEncryption("user-secret", ownerPassword="owner-secret", canPrint=1)
    return _write(tmp_path, "locked.pdf", good_pdf_bytes(encrypt=enc))


def test_encrypted_without_password(encrypted: Path) -> None:
    err = _raises(encrypted, source_path="2024/kenpo-seito.pdf")
    msg = str(err)
    assert "encrypted" in msg and "password is needed" in msg
    assert "--password" in msg


def test_encrypted_with_the_right_password(encrypted: Path) -> None:
    doc = extract_pdf(encrypted, password="user-secret")
    assert doc.lines[0].text == TEXT
    # the owner password opens it too
    assert extract_pdf(encrypted, password="owner-secret").lines[0].text == TEXT


def test_encrypted_with_a_wrong_password(encrypted: Path) -> None:
    err = _raises(encrypted, password="not-it")
    assert "password given does not open" in str(err)
    assert "password is needed" not in str(err)


def test_open_pdf_returns_document_and_bytes(encrypted: Path) -> None:
    """open_pdf returns the document and the bytes it read (for the sha256)."""
    doc, data = open_pdf(encrypted, password="user-secret")
    try:
        assert len(doc) == 1
        assert data == encrypted.read_bytes()
    finally:
        doc.close()
