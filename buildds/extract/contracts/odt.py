"""Contract .odt files: converted to .docx by LibreOffice (``soffice --headless``), then read
as a .docx.

The .odt is checked as a .docx is before LibreOffice sees it (member count, sizes and
expansion ratio, :func:`~buildds.safeio.archive.check_zip`: LibreOffice would inflate a zip
bomb whole). The conversion runs in a temporary directory with its own LibreOffice profile (no
clash with a running soffice) and may take :data:`ODT_TIMEOUT` seconds; without LibreOffice
the file raises an :class:`ExtractError` saying how to install it.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from buildds.extract.contracts.errors import contract_error
from buildds.safeio.archive import check_zip
from buildds.safeio.hashing import sha256_bytes
from buildds.schema import Source
from buildds.schema.contracts import ContractDocument

#: seconds LibreOffice may take to convert one .odt
ODT_TIMEOUT = 120

_ODT_HINT = ("cannot read .odt without LibreOffice: apt-get install libreoffice-writer-nogui "
             "(or convert the file to .docx)")


def _soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def _check_odt(data: bytes, name: str) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            check_zip(zf, name)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as exc:
        raise contract_error(f"not an .odt: broken or truncated zip archive ({exc})", name,
                             "unreadable") from exc


def read_odt(path: Path, name: str, data: bytes) -> ContractDocument:
    from buildds.extract.docx.reader import extract_docx

    _check_odt(data, name)
    exe = _soffice()
    if exe is None:
        raise contract_error(_ODT_HINT, name, "missing_dependency")
    with tempfile.TemporaryDirectory(prefix="buildds-odt-") as tmp:
        src = Path(tmp) / "in.odt"  # an ASCII name: soffice mishandles some paths
        src.write_bytes(data)
        out = Path(tmp) / "out"
        env = dict(os.environ, HOME=tmp)  # its own profile: no clash with a running soffice
        cmd = [exe, "--headless", "--norestore", f"-env:UserInstallation=file://{tmp}/profile",
               "--convert-to", "docx", "--outdir", str(out), str(src)]
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=ODT_TIMEOUT, env=env,
                                  check=False)
        except subprocess.TimeoutExpired as exc:
            raise contract_error(f"LibreOffice took more than {ODT_TIMEOUT} s to convert the .odt",
                                 name, "odt_conversion") from exc
        converted = out / "in.docx"
        if proc.returncode != 0 or not converted.exists():
            detail = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip()[-300:]
            raise contract_error(f"LibreOffice could not convert the .odt to .docx "
                                 f"(exit {proc.returncode}: {detail or 'no output'})", name,
                                 "odt_conversion")
        doc = extract_docx(converted, source_path=name)
    return doc.model_copy(update={
        "format": "odt", "source": Source(path=name, sha256=sha256_bytes(data))})
