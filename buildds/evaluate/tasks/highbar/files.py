"""Reading the files of a High Bar task set: YAML files validated against their schema
(:mod:`.formats`), text files, and the source documents of a task (text, or a native file
read by the extract stage) — each a regular file inside its folder, at most
``--max-document-bytes`` long (:mod:`buildds.safeio`)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from buildds.errors import BuildError, ExtractError
from buildds.evaluate.tasks.highbar.formats import TaskMeta
from buildds.safeio import LIMITS, check_regular_file, load_yaml_strict, read_bytes_limited
from buildds.safeio.names import printable_name

__all__ = ["DEFAULT_MAX_DOCUMENT_BYTES", "NATIVE_SUFFIXES", "TEXT_SUFFIXES", "Document",
           "DocumentRefused", "check_document_name", "document_names", "load_document",
           "parse_yaml_file", "path_exists", "read_file_bytes", "read_text_file"]

TEXT_SUFFIXES = {".md": "text/markdown", ".txt": "text/plain"}
NATIVE_SUFFIXES = {
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".pdf": "application/pdf",
    ".odt": "application/vnd.oasis.opendocument.text",
    ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
    ".tif": "image/tiff", ".tiff": "image/tiff",
}
RESERVED_FILES = ("taskset.yaml", "form_rubrics.yaml", "reviews.yaml")
#: bytes of one file of a task set, at most (``--max-document-bytes``)
DEFAULT_MAX_DOCUMENT_BYTES = LIMITS["document_bytes"].default
_LIMIT_OPTION = LIMITS["document_bytes"].option


@dataclass(frozen=True)
class Document:
    """A source document: the original file and its text as the extract stage reads it."""

    name: str
    path: Path
    sha256: str
    media_type: str
    format: str
    text: str


def read_file_bytes(path: Path, root: Path, max_bytes: int) -> bytes:
    """The bytes of a regular file inside ``root`` (:class:`ExtractError` otherwise)."""
    try:
        return read_bytes_limited(path, max_bytes=max_bytes, root=root, option=_LIMIT_OPTION)
    except OSError as exc:
        raise ExtractError(f"cannot read ({exc.strerror or exc})", source=str(path)) from exc


def _read_utf8(path: Path, root: Path, max_bytes: int) -> str:
    try:
        return read_file_bytes(path, root, max_bytes).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BuildError("not UTF-8 text", source=str(path)) from exc


def path_exists(path: Path) -> bool:
    """Whether there is anything at ``path`` (a dangling link or a FIFO too: those are
    refused by name rather than taken for missing)."""
    return os.path.lexists(path)


def _read_yaml(path: Path, root: Path, max_bytes: int) -> Any:
    text = _read_utf8(path, root, max_bytes)
    try:
        return load_yaml_strict(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise BuildError(f"invalid YAML{where}: {problem}", source=str(path)) from exc


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(top level)"
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)


def parse_yaml_file(model: type[BaseModel], path: Path, default: Any = None, *,
                    max_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES) -> Any:
    """``model`` validated from the YAML file at ``path`` (``default`` when absent), a
    regular file inside ``path``'s folder."""
    if not path_exists(path):
        if default is not None:
            return default
        raise BuildError("missing file", source=str(path))
    data = _read_yaml(path, path.parent, max_bytes)
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise BuildError(f"expected a YAML mapping at the top level, got "
                         f"{type(data).__name__}", source=str(path))
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        raise BuildError(_describe(exc), source=str(path)) from exc


def _document_text(path: Path, real: Path, data: bytes) -> tuple[str, str]:
    """(format, normalised text) of a source document: ``data`` are its bytes, ``real`` its
    resolved path (checked to be a regular file inside its task folder)."""
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        try:
            return suffix.lstrip("."), data.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            raise BuildError("not UTF-8 text", source=str(path)) from exc
    from buildds.extract.contracts import read_document

    doc = read_document(real, source_path=str(path))
    lines = [(b.redline or b.text).strip() for b in doc.blocks if b.part == "body"]
    lines = [ln for ln in lines if ln]
    for c in doc.comments:
        who = f" by {c.author}" if c.author else ""
        lines.append(f"[Comment{who} on “{c.anchor}”: {c.text}]")
    return doc.format, "\n".join(lines)


class DocumentRefused(Exception):
    """A document that is not a regular file inside its task folder, or is too large."""


def load_document(path: Path, name: str, root: Path, max_bytes: int) -> Document:
    """One document of the task folder ``root``; :class:`DocumentRefused` when safeio
    refuses it (then nothing of it has been read)."""
    suffix = path.suffix.lower()
    media = TEXT_SUFFIXES.get(suffix) or NATIVE_SUFFIXES.get(suffix)
    if media is None:
        known = ", ".join(sorted({*TEXT_SUFFIXES, *NATIVE_SUFFIXES}))
        raise BuildError(f"unsupported document type {suffix or '(none)'!r} (supported: "
                         f"{known})", source=str(path))
    if not path_exists(path):
        raise BuildError("missing document (listed in task.yaml)", source=str(path))
    try:
        real = check_regular_file(path, root=root)
        data = read_file_bytes(real, root, max_bytes)
    except ExtractError as exc:
        raise DocumentRefused(printable_name(str(exc))) from exc
    fmt, text = _document_text(path, real, data)
    if not text:
        raise BuildError("the document has no text", source=str(path))
    sha = hashlib.sha256(data).hexdigest()
    return Document(name=printable_name(name), path=real, sha256=sha, media_type=media,
                    format=fmt, text=text)


def document_names(folder: Path, meta: TaskMeta, task_yaml: Path) -> list[str]:
    docs = folder / "documents"
    if meta.documents is not None:
        names = list(meta.documents)
    elif docs.is_dir():
        # everything but folders: a FIFO or a dangling link is listed, and refused by name
        names = sorted(p.name for p in docs.iterdir()
                       if not p.is_dir() and not p.name.startswith(".") and p.suffix != ".py")
    else:
        names = []
    if not names:
        raise BuildError("the task has no documents (put them in documents/ or list them "
                         "under 'documents')", source=str(task_yaml))
    return names


def check_document_name(name: str, task_yaml: Path) -> None:
    """A listed document must be a file name inside documents/ (no folders, no ``..``):
    :class:`DocumentRefused` otherwise, nothing read."""
    if not name or Path(name).name != name or name in (".", ".."):
        raise DocumentRefused(f"{printable_name(str(task_yaml))}: document {name!r} is not a "
                              "file name inside documents/; refused, nothing read")


def read_text_file(path: Path, *, required: bool,
                   max_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES) -> str | None:
    if not path_exists(path):
        if required:
            raise BuildError("missing file", source=str(path))
        return None
    text = _read_utf8(path, path.parent, max_bytes).strip()
    if required and not text:
        raise BuildError("empty file", source=str(path))
    return text or None
