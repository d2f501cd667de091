"""Downloading one PDF politely and safely: retries with backoff and ``Retry-After``, a body
streamed to a temporary file and renamed over the target only once it is a PDF with the
expected sha256; and the mirror (``BUILDDS_JBE_MIRROR``) applied to official URLs."""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx

from buildds import __version__
from buildds.errors import FetchError
from buildds.httputil import parse_retry_after

__all__ = ["MIRROR_ENV", "USER_AGENT", "Downloader", "Refused", "Unreachable", "apply_mirror",
           "is_pdf", "redact"]

log = logging.getLogger("buildds.fetch")

#: Environment variable: base URL replacing the scheme and host of every official URL.
MIRROR_ENV = "BUILDDS_JBE_MIRROR"
USER_AGENT = f"buildds/{__version__} (legal benchmark dataset builder; httpx/{httpx.__version__})"

_PDF_MAGIC = b"%PDF-"
_RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
#: Refuse bodies larger than this (the official PDFs are a few MB).
_MAX_BYTES = 200 * 1024 * 1024


# --------------------------------------------------------------------------------------------
# URLs


def apply_mirror(url: str, mirror: str | None) -> str:
    if not mirror:
        return url
    m, u = urlsplit(mirror), urlsplit(url)
    if m.scheme not in ("http", "https") or not m.netloc:
        raise FetchError(f"{MIRROR_ENV} must be an http(s) base URL such as "
                         f"http://mirror.example/path (got {redact(mirror)!r})")
    return urlunsplit((m.scheme, m.netloc, m.path.rstrip("/") + u.path, u.query, ""))


def redact(url: str) -> str:
    """The URL without user:password@, for messages."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


# --------------------------------------------------------------------------------------------
# downloading


class _Retryable(Exception):
    def __init__(self, reason: str, retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


class Refused(Exception):
    """Not worth retrying: 4xx, not a PDF, checksum mismatch, too large."""


class Unreachable(Exception):
    def __init__(self, exc: httpx.TransportError):
        super().__init__(str(exc))
        self.exc = exc


def _not_pdf_reason(head: bytes, content_type: str, target: Path) -> str:
    start = head.lstrip().lower()
    if "html" in content_type.lower() or start.startswith((b"<!doctype html", b"<html", b"<?xml")):
        return (f"the server returned an HTML page, not a PDF (Content-Type: "
                f"{content_type or 'none'}); the URL may have moved — open it in a browser and "
                f"save the PDF by hand as {target}")
    if not head:
        return "the server returned an empty body, not a PDF"
    return (f"not a PDF: the body starts with {head[:16]!r} instead of %PDF- "
            f"(Content-Type: {content_type or 'none'})")


class Downloader:
    def __init__(self, client: httpx.Client, *, timeout: float, retries: int, backoff: float,
                 max_wait: float):
        self.client = client
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        #: True once any request of this run got an HTTP response (the network works).
        self.reached = False

    def fetch(self, url: str, target: Path, expected: str | None,
              expected_from: str | None = None) -> str:
        """Download ``url`` to ``target`` (atomically); return its sha256. ``expected_from``
        names where ``expected`` came from (default: the manifest) in a mismatch message."""
        attempt = 0
        while True:
            wait = self.backoff * 2 ** attempt
            try:
                return self._once(url, target, expected, expected_from)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                if not self.reached or attempt >= self.retries:
                    raise Unreachable(exc) from exc
                reason = type(exc).__name__
            except httpx.TransportError as exc:  # read errors, timeouts, broken connections
                if attempt >= self.retries:
                    raise Refused(f"{type(exc).__name__} after {attempt + 1} attempts: {exc}"
                                   ) from exc
                reason = type(exc).__name__
            except _Retryable as exc:
                if attempt >= self.retries:
                    raise Refused(f"{exc.reason} after {attempt + 1} attempts") from None
                if exc.retry_after is not None:
                    if exc.retry_after > self.max_wait:
                        raise Refused(f"{exc.reason}; the server asked to retry after "
                                       f"{exc.retry_after:.0f}s — try again later") from None
                    wait = exc.retry_after
                reason = exc.reason
            log.info("%s: %s; retrying in %.1fs", redact(url), reason, wait)
            attempt += 1
            time.sleep(wait)

    def _once(self, url: str, target: Path, expected: str | None,
              expected_from: str | None = None) -> str:
        with self.client.stream("GET", url, headers={"User-Agent": USER_AGENT},
                                follow_redirects=True, timeout=self.timeout) as resp:
            self.reached = True
            status = resp.status_code
            # 501 Not Implemented and 505 Version Not Supported will not change on a retry
            if status in _RETRY_STATUS or (status >= 500 and status not in (501, 505)):
                raise _Retryable(f"HTTP {status} {resp.reason_phrase}".rstrip(),
                                 parse_retry_after(resp.headers.get("retry-after")))
            if not 200 <= status < 300:
                hint = "; the URL may have moved" if status in (404, 410) else ""
                raise Refused(f"HTTP {status} {resp.reason_phrase}".rstrip() + hint)
            ctype = resp.headers.get("content-type", "")
            declared = resp.headers.get("content-length")
            if declared and declared.isdigit() and int(declared) > _MAX_BYTES:
                raise Refused(f"the body is {int(declared)} bytes, larger than expected")
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                                       dir=target.parent)
            try:
                digest = hashlib.sha256()
                head = b""
                size = 0
                with os.fdopen(fd, "wb") as fh:
                    for chunk in resp.iter_bytes():
                        if len(head) < len(_PDF_MAGIC):
                            head += chunk[: 64 - len(head)]
                            if len(head) >= len(_PDF_MAGIC) and not head.startswith(_PDF_MAGIC):
                                raise Refused(_not_pdf_reason(head, ctype, target))
                        size += len(chunk)
                        if size > _MAX_BYTES:
                            raise Refused(f"the body is larger than {_MAX_BYTES} bytes")
                        digest.update(chunk)
                        fh.write(chunk)
                    fh.flush()
                    os.fsync(fh.fileno())
                if not head.startswith(_PDF_MAGIC):
                    raise Refused(_not_pdf_reason(head, ctype, target))
                if (declared and declared.isdigit() and "content-encoding" not in resp.headers
                        and int(declared) != size):
                    raise _Retryable(f"truncated body ({size} of {declared} bytes)")
                sha = digest.hexdigest()
                if expected and sha != expected and expected_from:
                    raise Refused(
                        f"changed since {expected_from}: sha256 was {expected}, the server now "
                        f"sends {sha}; nothing was written. If the Ministry replaced the file "
                        f"on purpose, run again with --update-lock")
                if expected and sha != expected:
                    raise Refused(
                        f"checksum mismatch: the downloaded file has sha256 {sha[:12]}…, the "
                        f"manifest says {expected[:12]}…; nothing was written. If the Ministry "
                        f"replaced the file, clear that entry's sha256 and fetch again")
                os.replace(tmp, target)
                return sha
            finally:
                try:
                    os.unlink(tmp)
                except FileNotFoundError:
                    pass


def is_pdf(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(len(_PDF_MAGIC)) == _PDF_MAGIC
    except OSError:
        return False
