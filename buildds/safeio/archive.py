"""Open an Office Open XML package (.docx) safely.

Everything is checked *before* any member is decompressed:

* the file is a zip (otherwise: "not a Word file (it starts like …)"), and not an OLE2
  compound file (a password-protected .docx is an OLE2 "EncryptedPackage");
* at most ``max_members`` members, the sum of their declared uncompressed sizes is at most
  ``max_total`` bytes, none declares more than ``max_member`` bytes and none of 1 MiB or more
  expands more than ``max_ratio`` times (zip bombs; :func:`check_zip`, also run on an .odt
  before LibreOffice sees it); a limit that is hit raises :class:`LimitExceeded`;
* no member name is absolute or contains ``..`` (path traversal);
* ``[Content_Types].xml`` and ``word/document.xml`` exist.

The file itself is opened with :func:`buildds.safeio.open_regular` (a FIFO or a link to
``/dev/zero`` is refused, never read). Reading a member streams it with a hard cap (its
declared size, the per-member limit and the total budget), so a lying central directory cannot
make us inflate more than we checked; a member compressed with bzip2 or LZMA (which Word never
writes, and which inflate a whole 4 KiB chunk at once) is refused. XML parts are parsed
with :func:`buildds.safeio.xml.safe_parser` (no DTD, no entity expansion, no network).
Every failure is an :class:`~buildds.errors.ExtractError` naming the file.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
import zlib
from pathlib import Path
from typing import Literal, Self

from lxml import etree

from buildds.errors import ExtractError, LimitExceeded
from buildds.safeio.hashing import sha256_bytes
from buildds.safeio.limits import LIMITS
from buildds.safeio.sniff import describe, read_regular
from buildds.safeio.xml import safe_parser

__all__ = ["MAX_MEMBER", "MAX_MEMBERS", "MAX_RATIO", "MAX_TOTAL", "OoxmlPackage", "check_zip",
           "open_ooxml"]

MAX_TOTAL = LIMITS["archive_total_bytes"].default
MAX_MEMBER = LIMITS["archive_member_bytes"].default
MAX_RATIO = LIMITS["archive_ratio"].default
MAX_MEMBERS = LIMITS["archive_members"].default
#: compression methods a member may use (Word and LibreOffice write only these)
_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
#: members smaller than this are not ratio-checked (tiny repetitive XML compresses a lot)
_RATIO_MIN_SIZE = 1024 * 1024

OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
REQUIRED_PARTS = ("[Content_Types].xml", "word/document.xml")
_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
_CHUNK = 64 * 1024


class OoxmlPackage:
    """A checked .docx package held in memory. Members are read lazily, with a cap."""

    def __init__(self, data: bytes, zf: zipfile.ZipFile, *, name: str, max_total: int,
                 max_member: int = MAX_MEMBER):
        self.name = name
        self.sha256 = sha256_bytes(data)
        self._zf = zf
        self._infos = {i.filename: i for i in zf.infolist() if not i.is_dir()}
        self._lower = {n.lower(): n for n in self._infos}
        self._budget = max_total
        self._max_member = max_member

    # ------------------------------------------------------------------ members
    @property
    def names(self) -> list[str]:
        return list(self._infos)

    def _resolve(self, name: str) -> str | None:
        name = name.lstrip("/")
        if name in self._infos:
            return name
        return self._lower.get(name.lower())

    def has(self, name: str) -> bool:
        return self._resolve(name) is not None

    def read(self, name: str) -> bytes:
        """The member's bytes, streamed with a hard cap (declared size and total budget)."""
        real = self._resolve(name)
        if real is None:
            raise ExtractError(f"missing part {name}", source=self.name)
        info = self._infos[real]
        if info.compress_type not in _METHODS:
            raise ExtractError(f"part {real} uses compression method {info.compress_type}, "
                               "which Word never writes: refusing", source=self.name)
        cap = min(info.file_size, self._budget, self._max_member)
        buf = bytearray()
        try:
            with self._zf.open(info) as fh:
                while True:
                    chunk = fh.read(min(_CHUNK, cap + 1 - len(buf)))
                    if not chunk:
                        break
                    buf += chunk
                    if len(buf) > cap:
                        raise ExtractError(
                            f"part {real} inflates beyond its declared size or the size "
                            f"budget ({cap} bytes): refusing (zip bomb?)", source=self.name)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
            raise ExtractError(f"part {real} is corrupt ({exc})", source=self.name) from exc
        self._budget -= len(buf)
        return bytes(buf)

    def xml(self, name: str) -> etree._Element:
        """Parse an XML part safely (no DTD, no entity resolution, no network)."""
        data = self.read(name)
        try:
            return etree.fromstring(data, parser=safe_parser())
        except etree.XMLSyntaxError as exc:
            raise ExtractError(f"part {name} is not well-formed XML: {exc.msg} "
                               f"(line {exc.lineno})", source=self.name) from exc

    def rels(self, part: str) -> dict[str, tuple[str, str]]:
        """Relationships of a part: id → (type, target part name or external URL)."""
        folder, base = posixpath.split(part.lstrip("/"))
        rels_name = posixpath.join(folder, "_rels", base + ".rels")
        if not self.has(rels_name):
            return {}
        out: dict[str, tuple[str, str]] = {}
        for rel in self.xml(rels_name).iter(f"{{{_REL_NS}}}Relationship"):
            rid, typ, target = rel.get("Id"), rel.get("Type", ""), rel.get("Target", "")
            if rid is None:
                continue
            if rel.get("TargetMode") != "External":
                if target.startswith("/"):
                    target = target.lstrip("/")
                else:
                    target = posixpath.normpath(posixpath.join(folder, target))
            out[rid] = (typ, target)
        return out

    def close(self) -> None:
        self._zf.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_DRIVE = re.compile(r"^[A-Za-z]:")


def _unsafe_name(name: str) -> bool:
    if name.startswith(("/", "\\")) or _DRIVE.match(name):
        return True
    return ".." in re.split(r"[/\\]", name)


def check_zip(zf: zipfile.ZipFile, name: str, *, max_total: int = MAX_TOTAL,
              max_member: int = MAX_MEMBER, max_ratio: float = MAX_RATIO,
              max_members: int = MAX_MEMBERS) -> None:
    """Refuse a zip before any member is inflated: too many members, an unsafe or encrypted
    member, one that declares more than ``max_member`` bytes or expands more than
    ``max_ratio`` times, or members declaring more than ``max_total`` bytes in all."""
    infos = zf.infolist()
    if len(infos) > max_members:
        raise LimitExceeded("number of zip members", f"{len(infos):,}", f"{max_members:,}",
                            option=LIMITS["archive_members"].how_to_raise, source=name)
    total = 0
    for info in infos:
        if _unsafe_name(info.filename):
            raise ExtractError(f"unsafe member name {info.filename!r} (absolute path or "
                               "'..'): refusing", source=name)
        if info.flag_bits & 0x1:
            raise ExtractError(f"member {info.filename} is encrypted (password-protected "
                               "zip)", source=name)
        total += info.file_size
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size >= _RATIO_MIN_SIZE and ratio > max_ratio:
            raise LimitExceeded(
                f"zip member {info.filename} expands {info.compress_size:,} → "
                f"{info.file_size:,} bytes (a zip bomb?): ratio", f"{ratio:,.0f}",
                f"{max_ratio:,}", option=LIMITS["archive_ratio"].how_to_raise, source=name)
        if info.file_size > max_member:
            raise LimitExceeded(f"zip member {info.filename} (a zip bomb?) declares",
                                f"{info.file_size:,} bytes", f"{max_member:,} bytes",
                                option=LIMITS["archive_member_bytes"].how_to_raise,
                                source=name)
    if total > max_total:
        raise LimitExceeded("zip members (a zip bomb?) expand in total to",
                            f"{total:,} bytes", f"{max_total:,} bytes",
                            option=LIMITS["archive_total_bytes"].how_to_raise, source=name)


def open_ooxml(path: str | Path, *, source_path: str | None = None, max_total: int = MAX_TOTAL,
               max_ratio: float = MAX_RATIO, max_members: int = MAX_MEMBERS,
               max_member: int = MAX_MEMBER) -> OoxmlPackage:
    """Open and check a .docx; raise :class:`ExtractError` naming the file when it is not a
    readable, safe Word package (:class:`LimitExceeded` when it breaks a size limit)."""
    name = source_path or str(path)
    data = read_regular(path, name)
    if not data:
        raise ExtractError("file is empty (0 bytes)", source=name)
    if data.startswith(OLE2_MAGIC):
        if "EncryptedPackage".encode("utf-16-le") in data:
            raise ExtractError("password-protected (encrypted) Office file: save an "
                               "unprotected copy first", source=name)
        raise ExtractError("not a .docx: an OLE2 compound file (a legacy .doc, or a "
                           "password-protected Office file); save it as an unprotected .docx",
                           source=name)
    if not data.startswith(b"PK"):
        raise ExtractError(f"not a Word file (it starts like {describe(data)})", source=name)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as exc:
        raise ExtractError(f"not a Word file: broken or truncated zip archive ({exc})",
                           source=name) from exc
    try:
        check_zip(zf, name, max_total=max_total, max_member=max_member, max_ratio=max_ratio,
                  max_members=max_members)
        pkg = OoxmlPackage(data, zf, name=name, max_total=max_total, max_member=max_member)
        for part in REQUIRED_PARTS:
            if not pkg.has(part):
                raise ExtractError(f"not a Word file: missing part {part}", source=name)
        return pkg
    except BaseException:
        zf.close()
        raise


# --------------------------------------------------------------------------- WordprocessingML names
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
View = Literal["accepted", "original"]
VIEWS: tuple[View, View] = ("accepted", "original")


def w_tag(tag: str) -> str:
    return f"{{{W}}}{tag}"


def w_val(el: etree._Element | None, attr: str = "val") -> str | None:
    return None if el is None else el.get(w_tag(attr))


def local_name(el: etree._Element) -> tuple[str, str]:
    tag = el.tag
    if not isinstance(tag, str):
        return "", ""
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return ns, name
    return "", tag
