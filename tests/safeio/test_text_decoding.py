"""Strict line decoding: BOMs, UTF-16/32, GB18030 detection, a named encoding, per-line
rejects for undecodable bytes and over-long lines — never a replacement character."""

from __future__ import annotations

import io
import json

import pytest

from buildds.safeio import LIMITS, decode_lines
from buildds.safeio.text_decoding import SAMPLE_BYTES, check_encoding, detect_encoding

TEXT = "被告人甲某盗窃手机一部，价值人民币三千元。“本院认为”：（判决如下）"


def _records(n: int = 4) -> list[str]:
    return [json.dumps({"text_id": f"id{i}", "text": TEXT}, ensure_ascii=False)
            for i in range(n)]


def _lines(data: bytes, **kw: object) -> tuple[str, list[tuple[int, str | None, str | None]]]:
    decoded = decode_lines(io.BytesIO(data), **kw)  # type: ignore[arg-type]
    return decoded.encoding.name, [(t.number, t.text, t.reason) for t in decoded]


@pytest.mark.parametrize(("codec", "bom", "name", "found_by"), [
    ("utf-8", b"", "utf-8", "content"),
    ("utf-8", b"\xef\xbb\xbf", "utf-8", "bom"),
    ("utf-16-le", b"\xff\xfe", "utf-16-le", "bom"),
    ("utf-16-be", b"\xfe\xff", "utf-16-be", "bom"),
    ("utf-32-le", b"\xff\xfe\x00\x00", "utf-32-le", "bom"),
    ("utf-16-le", b"", "utf-16-le", "content"),
    ("utf-16-be", b"", "utf-16-be", "content"),
    ("gbk", b"", "gb18030", "content"),
    ("gb18030", b"", "gb18030", "content"),
])
def test_encodings_are_detected(codec: str, bom: bytes, name: str, found_by: str) -> None:
    records = _records()
    data = bom + ("\n".join(records) + "\n").encode(codec)
    decoded = decode_lines(io.BytesIO(data))
    assert (decoded.encoding.name, decoded.encoding.found_by) == (name, found_by)
    assert [t.text for t in decoded] == records  # the BOM is not part of line 1


def test_utf16_line_split_by_code_unit_not_by_byte() -> None:
    # 上 is U+4E0A: its UTF-16 LE code unit holds a 0x0A byte that is not a newline
    data = b"\xff\xfe" + "上上\n下\n".encode("utf-16-le")
    assert b"\x0a" in "上".encode("utf-16-le")
    assert _lines(data) == ("utf-16-le", [(1, "上上", None), (2, "下", None)])


def test_an_undecodable_line_is_rejected_alone_with_its_number() -> None:
    good = _records(3)
    data = (good[0] + "\n").encode() + (good[1] + "\n").encode("gbk") + (good[2] + "\n").encode()
    name, lines = _lines(data)
    assert name == "utf-8"
    assert [(n, r) for n, _, r in lines] == [(1, None), (2, "encoding"), (3, None)]
    assert lines[0][1] == good[0] and lines[2][1] == good[2]
    rejected = list(decode_lines(io.BytesIO(data)))[1]
    assert rejected.text is None and rejected.message.startswith("line 2: not utf-8 text at byte")
    assert "\ufffd" not in "".join(t for _, t, _ in lines if t)


def test_blank_lines_are_counted_not_yielded() -> None:
    assert _lines(b'{"a": 1}\n\n  \n{"b": 2}') == (
        "utf-8", [(1, '{"a": 1}', None), (4, '{"b": 2}', None)])


@pytest.mark.parametrize("codec", ["utf-8", "utf-16-le"])
def test_an_over_long_line_is_rejected_and_skipped(codec: str) -> None:
    data = ("{}\n" + "上" * 400 + "\n{}\n" + "x" * 300).encode(codec)
    _name, lines = _lines(data, max_line_bytes=100)
    assert [(n, t, r) for n, t, r in lines] == [
        (1, "{}", None), (2, None, "line_too_long"), (3, "{}", None), (4, None, "line_too_long")]
    message = list(decode_lines(io.BytesIO(data), max_line_bytes=100))[1].message
    size = len(("上" * 400).encode(codec))
    assert message == (f"line 2: {size:,} bytes exceed the limit of 100 bytes per line "
                       f"(raise it with {LIMITS['line_bytes'].option})")


def test_over_long_line_is_not_held_in_memory_across_chunks() -> None:
    # longer than a read chunk and than the detection sample: skipped in pieces
    data = b"{}\n" + b"y" * (SAMPLE_BYTES + 200_000) + b"\n{}\n"
    _, lines = _lines(data, max_line_bytes=1000)
    assert [(n, r) for n, _, r in lines] == [(1, None), (2, "line_too_long"), (3, None)]
    data16 = ("{}\n" + "y" * 150_000 + "\n{}\n").encode("utf-16-le")
    _, lines = _lines(data16, max_line_bytes=1000)
    assert [(n, r) for n, _, r in lines] == [(1, None), (2, "line_too_long"), (3, None)]


def test_named_encoding_wins_and_skips_its_bom() -> None:
    records = _records(2)
    data = ("\n".join(records)).encode("gbk")
    decoded = decode_lines(io.BytesIO(data), encoding="gbk")
    assert (decoded.encoding.name, decoded.encoding.found_by) == ("gbk", "option")
    assert [t.text for t in decoded] == records
    bom16 = b"\xfe\xff" + "\n".join(records).encode("utf-16-be")
    decoded = decode_lines(io.BytesIO(bom16), encoding="utf-16")
    assert decoded.encoding.name == "utf-16-be" and [t.text for t in decoded] == records
    bom8 = b"\xef\xbb\xbf" + records[0].encode()
    assert [t.text for t in decode_lines(io.BytesIO(bom8), encoding="utf-8")] == records[:1]


def test_unknown_or_unusable_encoding_names() -> None:
    assert check_encoding("GBK") == "gbk" and check_encoding("utf-16") == "utf-16-le"
    for bad, why in [("nope", "not a text encoding"), ("rot13", "not a text encoding"),
                     ("cp037", "do not end in a 0x0A byte")]:
        with pytest.raises(ValueError, match=why):
            check_encoding(bad)


def test_not_gb18030_when_not_mostly_cjk() -> None:
    # Latin-1 text is neither UTF-8 nor GB18030 text: stays UTF-8, lines rejected
    latin = ('{"a": "café crème brûlée"}\n' * 3).encode("latin-1")
    name, lines = _lines(latin)
    assert name == "utf-8" and [r for _, _, r in lines] == ["encoding"] * 3
    # bytes that happen to decode as GB18030 but give no CJK text
    junk = bytes([0x81, 0x30, 0x81, 0x30]) * 50 + b"\n"
    assert detect_encoding(junk * 3, whole=True).name == "utf-8"


def test_mostly_utf8_file_with_a_gbk_line_stays_utf8() -> None:
    good = _records(6)
    lines = [r.encode() for r in good]
    lines[3] = good[3].encode("gbk")
    assert detect_encoding(b"\n".join(lines), whole=True).name == "utf-8"
