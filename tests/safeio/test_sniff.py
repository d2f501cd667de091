"""safeio/sniff.py: what a file's bytes really are."""

from __future__ import annotations

from buildds.safeio.sniff import sniff


def test_sniff() -> None:
    assert sniff(b"") == "empty"
    assert sniff(b"%PDF-1.7\n") == "pdf"
    assert sniff(b"<!DOCTYPE html><html>") == "html"
    assert sniff("第1条".encode()) == "text"
    assert sniff(b"\x89PNG\r\n\x1a\n....") == "png"
    assert sniff(b"\xff\xd8\xff\xe0") == "jpeg"
    assert sniff(b"\x00\x01\x02\xff\xfe") == "binary"
