"""Hostile documents generated in a test's tmp_path (never committed): zip bombs, runaway list
numbering, huge and blank PDF pages, FIFOs and links to /dev/zero; and a way to run a piece of
code with a memory bound, so that a regression fails instead of eating the machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from typing import Any

from tests.conftest import REPO

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
CONTENT_TYPES = (b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.'
                 b'openxmlformats.org/package/2006/content-types"/>')
ODT_MIME = b"application/vnd.oasis.opendocument.text"


def write_zeros_member(zf: zipfile.ZipFile, name: str, size: int,
                       compression: int = zipfile.ZIP_DEFLATED) -> None:
    """A member of ``size`` zero bytes, streamed (a 300 MB member costs no 300 MB here)."""
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.compress_type = compression
    chunk = b"\0" * (1 << 20)
    with zf.open(info, "w", force_zip64=size > 2**31) as fh:
        left = size
        while left:
            fh.write(chunk[:min(left, len(chunk))])
            left -= min(left, len(chunk))


def bomb_zip(path: Path, *, mimetype_zeros: int = 0, members: dict[str, bytes] | None = None,
             zeros: dict[str, int] | None = None, odt: bool = False) -> Path:
    """A zip whose ``mimetype`` (and/or other members) inflate to many zero bytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        if odt:
            zf.writestr(zipfile.ZipInfo("mimetype"), ODT_MIME, compress_type=zipfile.ZIP_STORED)
        if mimetype_zeros:
            write_zeros_member(zf, "mimetype", mimetype_zeros)
        for name, data in (members or {}).items():
            zf.writestr(name, data)
        for name, size in (zeros or {}).items():
            write_zeros_member(zf, name, size)
    return path


def numbered_docx(path: Path, *, start: str = "1", fmt: str = "decimal", text: str = "%1.",
                  ilvl: int = 0, paragraphs: int = 3) -> Path:
    """A .docx whose paragraphs are all numbered from ``start`` (a string: any digits)."""
    numbering = (
        f'<?xml version="1.0" encoding="UTF-8"?><w:numbering xmlns:w="{W_NS}">'
        f'<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/>'
        f'<w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/></w:lvl></w:abstractNum>'
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>')
    body = "".join(
        f'<w:p><w:pPr><w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="1"/></w:numPr></w:pPr>'
        f'<w:r><w:t>Clause {i} text.</w:t></w:r></w:p>' for i in range(paragraphs))
    document = (f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{W_NS}">'
                f"<w:body>{body}</w:body></w:document>")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", CONTENT_TYPES)
        zf.writestr("word/document.xml", document)
        zf.writestr("word/numbering.xml", numbering)
    return path


def good_docx(path: Path) -> Path:
    """A small, ordinary contract: two numbered articles."""
    return numbered_docx(path, start="1", fmt="decimalFullWidth", text="第%1条", paragraphs=2)


def make_pdf(pages: list[tuple[float, float, bytes | None]]) -> bytes:
    """A PDF written by hand: one page per ``(width, height, content stream or None)``; a page
    without content has no page object at all."""
    objects: list[bytes] = [b"", b""]
    kids: list[int] = []
    font = b"<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"
    for width, height, content in pages:
        number = len(objects) + 1
        kids.append(number)
        box = f"/MediaBox [0 0 {width:g} {height:g}]".encode()
        if content is None:
            objects.append(b"<< /Type /Page /Parent 2 0 R " + box + b" >>")
        else:
            objects.append(b"<< /Type /Page /Parent 2 0 R " + box + b" /Resources " + font
                           + b" /Contents %d 0 R >>" % (number + 1))
            objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content
                           + b"\nendstream")
    objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objects[1] = (b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % k for k in kids)
                  + b"] /Count %d >>" % len(kids))
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, xref)
    return bytes(out)


#: a short black line: something to render, no text layer
LINE = b"0 G 2 w 10 10 m 200 200 l S"
#: a white square: a page object that renders as blank paper
WHITE = b"1 g 0 0 50 50 re f"


def huge_page_pdf(path: Path, side: float = 14_400) -> Path:
    """One page of ``side`` × ``side`` points (14,400 pt = 200 in, the PDF maximum) with a
    line on it and no text: 3.6 gigapixels at 300 dpi."""
    path.write_bytes(make_pdf([(side, side, LINE)]))
    return path


def blank_pages_pdf(path: Path, count: int = 2_000, white: int = 100) -> Path:
    """``count`` blank pages without text: the first ``white`` hold a white square (rendered,
    then found blank), the others nothing at all (not even rendered)."""
    pages: list[tuple[float, float, bytes | None]] = [
        (200, 200, WHITE) if i < white else (595, 842, None) for i in range(count)]
    path.write_bytes(make_pdf(pages))
    return path


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def dev_zero_link(path: Path) -> Path:
    path.symlink_to("/dev/zero")
    return path


def run_bounded(code: str, *, memory_mb: int = 2_000, timeout: float = 120,
                pythonpath: str | None = None) -> dict[str, Any]:
    """Run ``code`` in a fresh interpreter whose address space is capped at ``memory_mb``
    (RLIMIT_AS) and which is killed after ``timeout`` seconds. The code may set ``result``
    (JSON-able); returns ``{"result": …, "error": "Type: message" or None, "peak_mb": …,
    "delta_mb": …}`` where ``delta_mb`` is the peak RSS reached by ``code`` over the peak
    after imports (``import buildds.extract.contracts.reader`` etc. are done first)."""
    wrapper = textwrap.dedent("""
        import json, resource, sys, traceback
        limit = {memory} * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        import buildds.extract.contracts.reader, buildds.extract.ocr, buildds.extract.docx.reader  # noqa
        import buildds.jobs.contracts  # noqa
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        result = None
        error = None
        try:
        {code}
        except BaseException as exc:  # reported, not raised
            error = f"{{type(exc).__name__}}: {{exc}}"
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(json.dumps({{"result": result, "error": error, "peak_mb": peak / 1024,
                          "delta_mb": (peak - before) / 1024}}))
    """).format(memory=memory_mb, code=textwrap.indent(textwrap.dedent(code), "    "))
    env = dict(os.environ, PYTHONPATH=pythonpath or str(REPO))
    proc = subprocess.run([sys.executable, "-c", wrapper], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=str(REPO), check=False)
    lines = proc.stdout.strip().splitlines()
    assert proc.returncode == 0 and lines, proc.stderr[-2000:]
    return json.loads(lines[-1])  # type: ignore[no-any-return]
