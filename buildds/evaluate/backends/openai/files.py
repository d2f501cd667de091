"""The files a request sends (``send_files``): which attachments go (PDF as a ``file`` part,
PNG/JPEG/GIF/WebP as an ``image_url`` part), read when the request is sent, checked against
their sha256 and the per-request byte limit (see :mod:`buildds.evaluate.backends.openai`)."""

from __future__ import annotations

import base64
import hashlib
import os
from typing import Any

from buildds.errors import ExtractError
from buildds.safeio import open_regular
from buildds.schema.evaluation import Attachment

__all__ = ["DEFAULT_MAX_FILE_BYTES", "FILE_MEDIA_TYPES", "IMAGE_MEDIA_TYPES", "FileError",
           "file_parts", "sendable"]

#: attachments sent as ``{"type": "file"}`` parts (Chat Completions: PDF only)
FILE_MEDIA_TYPES = frozenset({"application/pdf"})
#: attachments sent as ``{"type": "image_url"}`` parts
IMAGE_MEDIA_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
#: raw bytes of the files of one request, at most
DEFAULT_MAX_FILE_BYTES = 32 * 1024 * 1024


class FileError(Exception):
    """An attachment that cannot be sent; its message is the per-sample error."""


def sendable(attachment: Attachment) -> bool:
    """Whether the attachment goes with the request (its media type is one the API takes)."""
    return attachment.media_type in FILE_MEDIA_TYPES or attachment.media_type in IMAGE_MEDIA_TYPES


def _read_attachment(attachment: Attachment, budget: int) -> bytes:
    """The attachment's bytes, checked against its sha256 and the remaining ``budget``."""
    where = f"attachment {attachment.name!r}"
    if not attachment.path:
        raise FileError(f"{where}: no path to read it from")
    try:
        with open_regular(attachment.path) as fh:  # no FIFO, device or vanished file
            size = os.fstat(fh.fileno()).st_size
            if size > budget:
                raise FileError(f"{where}: {size} bytes, over what is left of the "
                                f"per-request file limit ({budget} bytes; max_file_bytes)")
            data = fh.read(budget + 1)
    except ExtractError as exc:
        raise FileError(f"{where}: cannot read the file ({exc.message})") from exc
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise FileError(f"{where}: cannot read the file ({reason})") from exc
    if len(data) > budget:  # grew since fstat
        raise FileError(f"{where}: over the per-request file limit ({budget} bytes left)")
    if hashlib.sha256(data).hexdigest() != attachment.sha256.lower():
        raise FileError(f"{where}: the file does not match its sha256 (changed since the "
                        "task set was loaded?); not sent")
    return data


def file_parts(attachments: tuple[Attachment, ...],
               max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> list[dict[str, Any]]:
    """The content parts of the sendable ``attachments`` (see
    :mod:`buildds.evaluate.backends.openai`), in order;
    raises :class:`FileError` for a missing or changed file or when they are too big."""
    parts: list[dict[str, Any]] = []
    budget = max_bytes
    for attachment in attachments:
        if not sendable(attachment):
            continue
        data = _read_attachment(attachment, budget)
        budget -= len(data)
        url = f"data:{attachment.media_type};base64,{base64.b64encode(data).decode('ascii')}"
        if attachment.media_type in FILE_MEDIA_TYPES:
            parts.append({"type": "file", "file": {"filename": attachment.name,
                                                   "file_data": url}})
        else:
            parts.append({"type": "image_url", "image_url": {"url": url}})
    return parts
