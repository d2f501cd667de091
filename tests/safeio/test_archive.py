"""safeio/archive.py: every bad .docx is refused with an ExtractError naming the file."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from buildds.errors import ExtractError, LimitExceeded
from buildds.extract.docx.reader import extract_docx
from buildds.safeio.archive import OLE2_MAGIC, open_ooxml

MINIMAL_DOC = (b'<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/'
               b'wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p>'
               b"</w:body></w:document>")
CT = b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def _good(path: Path) -> Path:
    return _zip(path, {"[Content_Types].xml": CT, "word/document.xml": MINIMAL_DOC})


def _refused(path: Path, *fragments: str) -> ExtractError:
    for opener in (open_ooxml, extract_docx):
        with pytest.raises(ExtractError) as info:
            opener(path)
        message = str(info.value)
        assert str(path) in message
        for fragment in fragments:
            assert fragment in message, message
    return info.value


def test_minimal_package_reads(tmp_path: Path) -> None:
    with open_ooxml(_good(tmp_path / "ok.docx")) as pkg:
        assert pkg.has("word/document.xml") and pkg.read("word/document.xml") == MINIMAL_DOC
        assert pkg.xml("word/document.xml").tag.endswith("document")
        assert len(pkg.sha256) == 64
    assert extract_docx(tmp_path / "ok.docx").view_text("accepted") == ["Hello"]


def test_truncated_zip(tmp_path: Path) -> None:
    data = _good(tmp_path / "ok.docx").read_bytes()
    bad = tmp_path / "truncated.docx"
    bad.write_bytes(data[: len(data) // 2])
    _refused(bad, "zip")


@pytest.mark.parametrize("content,kind", [
    (b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n", "a PDF"),
    (b"<!DOCTYPE html><html><body>404</body></html>", "HTML"),
    (b"just some plain text, not a document", "'just some plain"),
])
def test_not_a_word_file(tmp_path: Path, content: bytes, kind: str) -> None:
    path = tmp_path / "fake.docx"
    path.write_bytes(content)
    _refused(path, "not a Word file", kind)


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.docx"
    path.write_bytes(b"")
    _refused(path, "empty")


def test_missing_document_part(tmp_path: Path) -> None:
    path = _zip(tmp_path / "nodoc.docx", {"[Content_Types].xml": CT, "word/other.xml": b"<a/>"})
    _refused(path, "missing part word/document.xml")


def test_missing_content_types(tmp_path: Path) -> None:
    path = _zip(tmp_path / "noct.docx", {"word/document.xml": MINIMAL_DOC})
    _refused(path, "missing part [Content_Types].xml")


def test_zip_bomb_ratio(tmp_path: Path) -> None:
    path = _zip(tmp_path / "bomb.docx", {"[Content_Types].xml": CT, "word/document.xml": MINIMAL_DOC,
                                         "word/media/zeros.bin": b"\0" * 50_000_000})
    err = _refused(path, "zeros.bin", "50,000,000", "limit of 100", "zip bomb")
    assert "ratio" in str(err)


def test_total_size_limit(tmp_path: Path) -> None:
    path = _good(tmp_path / "ok.docx")
    with pytest.raises(ExtractError, match=r"in total to .* exceeds the limit of 100 bytes"):
        open_ooxml(path, max_total=100)


def test_too_many_members(tmp_path: Path) -> None:
    path = _good(tmp_path / "ok.docx")
    with pytest.raises(LimitExceeded, match="number of zip members 2 exceeds the limit of 1"):
        open_ooxml(path, max_members=1)


@pytest.mark.parametrize("name", ["../evil", "word/../../evil.xml", "/etc/evil", "C:/evil"])
def test_path_traversal(tmp_path: Path, name: str) -> None:
    path = _zip(tmp_path / "trav.docx", {"[Content_Types].xml": CT,
                                         "word/document.xml": MINIMAL_DOC, name: b"x"})
    _refused(path, "unsafe member name")


def test_declared_size_is_not_trusted(tmp_path: Path) -> None:
    """A central directory that under-declares a member's size cannot make us inflate more."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", CT)
        zf.writestr("word/document.xml", MINIMAL_DOC)
    data = bytearray(buf.getvalue())
    # patch the central directory's uncompressed size of word/document.xml to 10 bytes
    cd = data.rfind(b"PK\x01\x02word/document.xml"[:4], 0, data.rfind(b"word/document.xml"))
    data[cd + 24: cd + 28] = (10).to_bytes(4, "little")
    path = tmp_path / "liar.docx"
    path.write_bytes(bytes(data))
    with pytest.raises(ExtractError) as info:
        open_ooxml(path).read("word/document.xml")
    assert str(path) in str(info.value)


def test_encrypted_office_file(tmp_path: Path) -> None:
    path = tmp_path / "locked.docx"
    path.write_bytes(OLE2_MAGIC + b"\0" * 504 + "EncryptedPackage".encode("utf-16-le") + b"\0" * 512)
    _refused(path, "password-protected")
    bare = tmp_path / "ole.docx"
    bare.write_bytes(OLE2_MAGIC + b"\0" * 1024)
    _refused(bare, "password-protected")


def test_source_path_is_named(tmp_path: Path) -> None:
    path = tmp_path / "x.docx"
    path.write_bytes(b"hello")
    with pytest.raises(ExtractError, match="^raw/x.docx: not a Word file"):
        extract_docx(path, source_path="raw/x.docx")


def test_malformed_xml_part(tmp_path: Path) -> None:
    path = _zip(tmp_path / "bad.docx", {"[Content_Types].xml": CT,
                                        "word/document.xml": b"<w:document><unclosed>"})
    with pytest.raises(ExtractError, match="word/document.xml is not well-formed"):
        extract_docx(path)


def test_entity_in_part_is_not_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET-MARKER")
    doc = (f'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file://{secret}">]>'
           '<d>&xxe;</d>').encode()
    path = _zip(tmp_path / "xxe.docx", {"[Content_Types].xml": CT, "word/document.xml": doc})
    from lxml import etree

    with open_ooxml(path) as pkg:
        root = pkg.xml("word/document.xml")
    assert b"TOPSECRET" not in etree.tostring(root)
    assert "TOPSECRET" not in "".join(root.itertext())
