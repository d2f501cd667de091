"""Stable identities: a document's id from its content and relative path, and which document
an annotation names.

A ``document_id`` is ``<stem>-<8 hex>``: the file's stem (readable) and the first 8 hex
digits of ``sha256(relative path + "\\n" + sha256 of the file)``. It depends on the file
alone — not on which other files are in the batch — so clause ids (``<document_id>-<number>``)
stay the same when files are added to or removed from a batch (as long as the file's path
relative to the inputs' common folder stays the same: add files in the same folders or
below them); a changed file (new content) or a moved one gets a new id.

:class:`DocumentAliases` resolves what an annotation's ``document_id`` column holds: the
``document_id`` itself, the relative path (``contracts/業務委託契約書.docx``), the file name
or the stem. A name or stem shared by two files (the .docx and the .pdf of one contract, or
two folders with one file name) is ambiguous: the annotation is rejected naming both files,
never attached to one of them by chance.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePosixPath

from buildds.safeio.hashing import sha256_bytes
from buildds.transform.rikai.annotations import norm_key

__all__ = ["DocumentAliases", "document_id"]


def document_id(path: str, sha256: str) -> str:
    """``<stem>-<8 hex of sha256(path + "\\n" + sha256)>`` (see the module docstring)."""
    digest = sha256_bytes(f"{path}\n{sha256}".encode())[:8]
    return f"{PurePosixPath(path).stem}-{digest}"


class DocumentAliases:
    """What an annotation may call a document → the document (see the module docstring)."""

    def __init__(self, documents: Iterable[tuple[str, str]]):
        """``documents``: ``(document_id, relative path)`` pairs."""
        self._names: dict[str, dict[str, str]] = {}  # alias -> {document_id: path}
        for doc_id, path in documents:
            p = PurePosixPath(path)
            for alias in dict.fromkeys((doc_id, path, p.name, p.stem)):
                self._names.setdefault(norm_key(alias), {})[doc_id] = path

    def resolve(self, name: str) -> tuple[str | None, str | None]:
        """``(document_id, None)``, or ``(None, why)`` when ``name`` names no document or
        several (the message names every file)."""
        found = self._names.get(norm_key(name))
        if not found:
            return None, None
        if len(found) > 1:
            files = " and ".join(sorted(found.values()))
            return None, (f"document {name!r} is ambiguous: it matches {files} (name the "
                          "document by its relative path or document_id)")
        return next(iter(found)), None
