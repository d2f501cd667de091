"""Download the official bar-exam PDFs into the layout ``buildds jbe`` reads.

The manifest (default: the repository's ``data_raw/jbe/manifest.json``) lists one entry per
file: ``year``, ``subject``, ``kind`` (``mondai``/``seito``), ``path``
(``<year>/<subject>-<kind>.pdf``), ``official_url`` (``null`` when no official URL is known:
such a file must be placed by hand) and ``sha256`` (``null`` until a first verified download).

:func:`fetch_jbe` downloads each wanted file once, politely and safely:

* one request at a time, with a ``User-Agent`` naming buildds and its version, following
  redirects; connection errors, timeouts, 5xx and 429 are retried with exponential backoff,
  and a ``Retry-After`` header is honoured;
* the body is streamed to a temporary file next to the target and renamed over it only once
  it is known to be a PDF (it starts with ``%PDF-``; an HTML error page is refused) and its
  sha256 matches the manifest when the manifest has one, so a failed or killed download never
  leaves a half or wrong file at the target path;
* a file already present is skipped when its sha256 matches (or, with no sha256 known, when
  it is a PDF);
* ``<dest>/manifest.json`` is written (atomically) with the sha256 of every downloaded file,
  so later builds (:func:`buildds.extract.jbe.raw.discover_exam_files`) verify them. With the
  default ``--dest data_raw/jbe`` that is the source manifest itself: the first verified
  download pins the checksums there.

When the network is unreachable (the very first request cannot connect), it stops at once
and raises :class:`~buildds.errors.FetchError` explaining how to place the files by hand.

``BUILDDS_JBE_MIRROR`` (e.g. ``http://mirror.example/moj``) replaces the scheme and host of
every ``official_url`` (a path in the mirror URL is prepended to the official path).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from buildds import __version__
from buildds.errors import BuildError, FetchError
from buildds.httputil import parse_retry_after
from buildds.pipeline import atomic_write_text, sha256_file
from buildds.safeio import loads_strict, read_side_file

__all__ = [
    "MIRROR_ENV",
    "USER_AGENT",
    "FetchFailure",
    "FetchResult",
    "FetchedFile",
    "default_manifest_path",
    "fetch_jbe",
]

log = logging.getLogger(__name__)

#: Environment variable: base URL replacing the scheme and host of every official URL.
MIRROR_ENV = "BUILDDS_JBE_MIRROR"
USER_AGENT = f"buildds/{__version__} (legal benchmark dataset builder; httpx/{httpx.__version__})"

_SUBJECT_ORDER = ("kenpo", "minpo", "keiho")
_KIND_ORDER = ("mondai", "seito")
_PDF_MAGIC = b"%PDF-"
_RETRY_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
#: Refuse bodies larger than this (the official PDFs are a few MB).
_MAX_BYTES = 200 * 1024 * 1024
#: After this many files in a row failed to connect, do not try the rest.
_MAX_UNREACHABLE_IN_A_ROW = 3
#: How many files the "place by hand" message lists.
_HINT_FILES = 5

_REPO_MANIFEST = Path(__file__).resolve().parent.parent / "data_raw" / "jbe" / "manifest.json"


# --------------------------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class FetchedFile:
    """A file that was downloaded, or found already present."""

    path: str  #: relative to dest, e.g. ``2015/kenpo-mondai.pdf``
    url: str | None
    sha256: str | None  #: None for a present file nobody has a checksum for


@dataclass(frozen=True)
class FetchFailure:
    """A file that could not be fetched, and why."""

    path: str
    url: str | None
    reason: str


@dataclass
class FetchResult:
    dest: Path
    manifest: Path  #: the source manifest that was read
    downloaded: list[FetchedFile] = field(default_factory=list)
    skipped: list[FetchedFile] = field(default_factory=list)
    failed: list[FetchFailure] = field(default_factory=list)

    def summary_line(self) -> str:
        n = len(self.downloaded)
        return (f"fetched {n} file{'' if n == 1 else 's'}, {len(self.skipped)} already present, "
                f"{len(self.failed)} failed")

    def failure_lines(self) -> list[str]:
        """One line per failed file: ``<path>: <reason> (<url>)``."""
        return [f"{f.path}: {f.reason}" + (f" ({f.url})" if f.url else "") for f in self.failed]


# --------------------------------------------------------------------------------------------
# manifest


@dataclass(frozen=True)
class _Entry:
    year: int
    subject: str
    kind: str
    url: str | None
    sha256: str | None
    raw: dict[str, Any]

    @property
    def key(self) -> tuple[int, str, str]:
        return (self.year, self.subject, self.kind)

    @property
    def rel(self) -> str:
        return f"{self.year}/{self.subject}-{self.kind}.pdf"


def default_manifest_path() -> Path:
    """The repository's ``data_raw/jbe/manifest.json`` (found relative to the package), else
    ``./data_raw/jbe/manifest.json``."""
    if _REPO_MANIFEST.exists():
        return _REPO_MANIFEST
    return Path("data_raw") / "jbe" / "manifest.json"


def _read_json_entries(path: Path) -> tuple[dict[str, Any], list[Any]]:
    """The top-level object (without ``files``) and the entry list of a manifest."""
    try:
        data = loads_strict(read_side_file(path))
    except BuildError as exc:
        raise FetchError(f"cannot read manifest ({exc.message})", source=str(path)) from exc
    except OSError as exc:
        raise FetchError(f"cannot read manifest ({exc.strerror or exc})", source=str(path)) from exc
    except ValueError as exc:  # JSONDecodeError and the JSON limits
        raise FetchError(f"manifest is not valid JSON ({exc})", source=str(path)) from exc
    if isinstance(data, list):
        return {}, data
    if isinstance(data, dict) and isinstance(data.get("files"), list):
        return {k: v for k, v in data.items() if k != "files"}, data["files"]
    raise FetchError("manifest must be a list of entries or an object with a 'files' list",
                     source=str(path))


def _load_manifest(path: Path) -> tuple[dict[str, Any], list[_Entry]]:
    """The top-level object (without ``files``) and the checked entries of a manifest."""
    top, items = _read_json_entries(path)
    out: list[_Entry] = []
    seen: set[tuple[int, str, str]] = set()
    for i, e in enumerate(items):
        where = f"entry {i + 1}"
        if not isinstance(e, dict) or not {"year", "subject", "kind"} <= e.keys():
            raise FetchError(f"{where} needs year, subject and kind", source=str(path))
        try:
            year = int(e["year"])
        except (TypeError, ValueError):
            raise FetchError(f"{where}: year {e['year']!r} is not a number",
                             source=str(path)) from None
        subject, kind = str(e["subject"]), str(e["kind"])
        if subject not in _SUBJECT_ORDER:
            raise FetchError(f"{where}: unknown subject {subject!r}", source=str(path))
        if kind not in _KIND_ORDER:
            raise FetchError(f"{where}: unknown kind {kind!r} (mondai or seito)", source=str(path))
        entry = _Entry(year, subject, kind, e.get("official_url") or None, e.get("sha256") or None,
                       dict(e))
        # The target path is always derived from year/subject/kind (the layout jbe_raw reads);
        # a manifest path that disagrees is an error, never a place to write to.
        if e.get("path") not in (None, entry.rel):
            raise FetchError(f"{where}: path {e['path']!r} should be {entry.rel!r}",
                             source=str(path))
        if entry.url and urlsplit(entry.url).scheme not in ("http", "https"):
            raise FetchError(f"{where}: official_url is not an http(s) URL", source=str(path))
        if entry.key in seen:
            raise FetchError(f"{where}: duplicate entry for {entry.rel}", source=str(path))
        seen.add(entry.key)
        out.append(entry)
    return top, out


def _sort_key(e: dict[str, Any]) -> tuple[Any, ...]:
    subj, kind = str(e.get("subject")), str(e.get("kind"))
    return (int(e.get("year", 0)),
            _SUBJECT_ORDER.index(subj) if subj in _SUBJECT_ORDER else 99, subj,
            _KIND_ORDER.index(kind) if kind in _KIND_ORDER else 99, kind)


def _write_dest_manifest(path: Path, source_top: dict[str, Any],
                         updates: dict[tuple[int, str, str], tuple[_Entry, str | None]]) -> None:
    """Merge ``updates`` (entry, sha256) into ``path``; keep every other entry and key."""
    if path.exists():
        top, items = _read_json_entries(path)
    else:
        top, items = dict(source_top), []
    by_key: dict[tuple[int, str, str], dict[str, Any]] = {}
    others: list[Any] = []
    for e in items:
        try:
            by_key[(int(e["year"]), str(e["subject"]), str(e["kind"]))] = e
        except (TypeError, KeyError, ValueError):
            others.append(e)
    for key, (entry, sha) in updates.items():
        merged = dict(by_key.get(key, {}))
        merged.update({k: v for k, v in entry.raw.items() if k != "sha256"})
        merged["path"] = entry.rel
        merged["sha256"] = sha
        by_key[key] = merged
    files = sorted(by_key.values(), key=_sort_key) + others
    text = json.dumps({**top, "files": files}, ensure_ascii=False, indent=1) + "\n"
    atomic_write_text(path, text)


# --------------------------------------------------------------------------------------------
# URLs


def _apply_mirror(url: str, mirror: str | None) -> str:
    if not mirror:
        return url
    m, u = urlsplit(mirror), urlsplit(url)
    if m.scheme not in ("http", "https") or not m.netloc:
        raise FetchError(f"{MIRROR_ENV} must be an http(s) base URL such as "
                         f"http://mirror.example/path (got {_redact(mirror)!r})")
    return urlunsplit((m.scheme, m.netloc, m.path.rstrip("/") + u.path, u.query, ""))


def _redact(url: str) -> str:
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


class _Refused(Exception):
    """Not worth retrying: 4xx, not a PDF, checksum mismatch, too large."""


class _Unreachable(Exception):
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


class _Downloader:
    def __init__(self, client: httpx.Client, *, timeout: float, retries: int, backoff: float,
                 max_wait: float):
        self.client = client
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        #: True once any request of this run got an HTTP response (the network works).
        self.reached = False

    def fetch(self, url: str, target: Path, expected: str | None) -> str:
        """Download ``url`` to ``target`` (atomically); return its sha256."""
        attempt = 0
        while True:
            wait = self.backoff * 2 ** attempt
            try:
                return self._once(url, target, expected)
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                if not self.reached or attempt >= self.retries:
                    raise _Unreachable(exc) from exc
                reason = type(exc).__name__
            except httpx.TransportError as exc:  # read errors, timeouts, broken connections
                if attempt >= self.retries:
                    raise _Refused(f"{type(exc).__name__} after {attempt + 1} attempts: {exc}"
                                   ) from exc
                reason = type(exc).__name__
            except _Retryable as exc:
                if attempt >= self.retries:
                    raise _Refused(f"{exc.reason} after {attempt + 1} attempts") from None
                if exc.retry_after is not None:
                    if exc.retry_after > self.max_wait:
                        raise _Refused(f"{exc.reason}; the server asked to retry after "
                                       f"{exc.retry_after:.0f}s — try again later") from None
                    wait = exc.retry_after
                reason = exc.reason
            log.info("%s: %s; retrying in %.1fs", _redact(url), reason, wait)
            attempt += 1
            time.sleep(wait)

    def _once(self, url: str, target: Path, expected: str | None) -> str:
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
                raise _Refused(f"HTTP {status} {resp.reason_phrase}".rstrip() + hint)
            ctype = resp.headers.get("content-type", "")
            declared = resp.headers.get("content-length")
            if declared and declared.isdigit() and int(declared) > _MAX_BYTES:
                raise _Refused(f"the body is {int(declared)} bytes, larger than expected")
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
                                raise _Refused(_not_pdf_reason(head, ctype, target))
                        size += len(chunk)
                        if size > _MAX_BYTES:
                            raise _Refused(f"the body is larger than {_MAX_BYTES} bytes")
                        digest.update(chunk)
                        fh.write(chunk)
                    fh.flush()
                    os.fsync(fh.fileno())
                if not head.startswith(_PDF_MAGIC):
                    raise _Refused(_not_pdf_reason(head, ctype, target))
                if (declared and declared.isdigit() and "content-encoding" not in resp.headers
                        and int(declared) != size):
                    raise _Retryable(f"truncated body ({size} of {declared} bytes)")
                sha = digest.hexdigest()
                if expected and sha != expected:
                    raise _Refused(
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


def _is_pdf(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(len(_PDF_MAGIC)) == _PDF_MAGIC
    except OSError:
        return False


def _hand_message(exc: httpx.TransportError, url: str, dest: Path, manifest: Path,
                  todo: list[_Entry], mirror: str | None) -> str:
    host = urlsplit(url).hostname or url
    with_url = [e for e in todo if e.url]
    lines = [
        (f"cannot reach {host} ({type(exc).__name__}: {exc or 'no details'}); this machine "
         f"seems to be offline or behind a proxy (set HTTPS_PROXY if so). Nothing was "
         f"downloaded."),
        ("Download the files by hand from the official URLs and save each one as "
         f"{dest}/<year>/<subject>-<kind>.pdf, for example:"),
    ]
    for e in with_url[:_HINT_FILES]:
        lines.append(f"  {e.url}  ->  {dest / e.rel}")
    if len(with_url) > _HINT_FILES:
        lines.append(f"  … and {len(with_url) - _HINT_FILES} more")
    no_url = len(todo) - len(with_url)
    if no_url:
        lines.append(f"  ({no_url} file(s) have no known official URL; place them by hand too)")
    lines.append(f"All URLs are in {manifest}.")
    if mirror:
        lines.append(f"({MIRROR_ENV} is set: requests went to {_redact(mirror)}.)")
    lines.append("Or build from a folder that already has the PDFs: "
                 "buildds jbe --raw <folder> --years …")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# the entry point


def fetch_jbe(
    *,
    years: list[int],
    dest: str | Path,
    manifest: str | Path | None = None,
    timeout: float = 30.0,
    client: httpx.Client | None = None,
    retries: int = 3,
    backoff: float = 1.0,
    max_wait: float = 120.0,
) -> FetchResult:
    """Download the bar-exam PDFs of ``years`` into ``dest/<year>/<subject>-<kind>.pdf``.

    ``manifest``: the manifest of official URLs (default :func:`default_manifest_path`).
    ``timeout``: seconds per network operation. ``client``: an :class:`httpx.Client` to use
    (default: a new one). ``retries``: retries per file after the first attempt, waiting
    ``backoff * 2**n`` seconds (or the server's ``Retry-After``, up to ``max_wait``).

    Per-file failures are returned in :attr:`FetchResult.failed` (and logged as warnings);
    an unreachable network, an unusable manifest or years the manifest does not cover raise
    :class:`~buildds.errors.FetchError`.
    """
    manifest_path = Path(manifest) if manifest is not None else default_manifest_path()
    if not manifest_path.exists():
        raise FetchError("manifest not found; pass --manifest <file> (the repository has one "
                         "at data_raw/jbe/manifest.json)", source=str(manifest_path))
    source_top, entries = _load_manifest(manifest_path)
    wanted_years = sorted(set(years))
    if not wanted_years:
        raise FetchError("no years requested")
    covered = {e.year for e in entries}
    missing = [y for y in wanted_years if y not in covered]
    if missing:
        have = f"{min(covered)}–{max(covered)}" if covered else "no years"
        raise FetchError(f"no manifest entries for year(s) {', '.join(map(str, missing))} "
                         f"(the manifest covers {have})", source=str(manifest_path))
    wanted = sorted((e for e in entries if e.year in set(wanted_years)),
                    key=lambda e: _sort_key(e.raw))

    dest = Path(dest)
    dest_manifest = dest / "manifest.json"
    recorded: dict[tuple[int, str, str], str] = {}
    if dest_manifest.exists():
        for e in _read_json_entries(dest_manifest)[1]:
            try:
                if e.get("sha256"):
                    recorded[(int(e["year"]), str(e["subject"]), str(e["kind"]))] = e["sha256"]
            except (AttributeError, KeyError, TypeError, ValueError):
                continue

    mirror = os.environ.get(MIRROR_ENV, "").strip() or None
    result = FetchResult(dest=dest, manifest=manifest_path)
    updates: dict[tuple[int, str, str], tuple[_Entry, str | None]] = {}
    own_client = client is None
    http = client or httpx.Client(headers={"User-Agent": USER_AGENT}, follow_redirects=True,
                                  timeout=timeout)
    down = _Downloader(http, timeout=timeout, retries=max(0, retries), backoff=backoff,
                       max_wait=max_wait)
    unreachable_in_a_row = 0

    def fail(e: _Entry, url: str | None, reason: str) -> None:
        result.failed.append(FetchFailure(e.rel, url, reason))

    try:
        for i, e in enumerate(wanted):
            target = dest / e.rel
            expected = e.sha256 or recorded.get(e.key)
            if target.is_file():
                if expected:
                    if sha256_file(target) == expected:
                        result.skipped.append(FetchedFile(e.rel, e.url, expected))
                        updates[e.key] = (e, expected)
                        continue
                    log.warning("%s: present but its sha256 does not match the manifest; "
                                "downloading it again", e.rel)
                elif _is_pdf(target):
                    result.skipped.append(FetchedFile(e.rel, e.url, None))
                    continue
                else:
                    log.warning("%s: present but not a PDF; downloading it again", e.rel)
            if not e.url:
                fail(e, None, f"no known URL — place the file by hand at {target}")
                continue
            url = _apply_mirror(e.url, mirror)
            shown = _redact(url)
            if unreachable_in_a_row >= _MAX_UNREACHABLE_IN_A_ROW:
                fail(e, shown, "not tried: the server stopped answering; run the command "
                               "again later, or place the file by hand")
                continue
            try:
                sha = down.fetch(url, target, expected)
            except _Unreachable as exc:
                if not down.reached:
                    todo = [w for w in wanted[i:] if not (dest / w.rel).is_file()]
                    raise FetchError(_hand_message(exc.exc, shown, dest, manifest_path, todo,
                                                   mirror)) from exc.exc
                unreachable_in_a_row += 1
                fail(e, shown, f"cannot connect ({type(exc.exc).__name__}) after "
                               f"{down.retries + 1} attempts")
                continue
            except _Refused as exc:
                unreachable_in_a_row = 0
                fail(e, shown, str(exc))
                continue
            unreachable_in_a_row = 0
            result.downloaded.append(FetchedFile(e.rel, shown, sha))
            updates[e.key] = (e, sha)
            log.info("fetched %s (sha256 %s…)", e.rel, sha[:12])
    finally:
        if own_client:
            http.close()
        if result.downloaded or (dest_manifest.exists() and updates):
            _write_dest_manifest(dest_manifest, source_top, updates)
    return result
