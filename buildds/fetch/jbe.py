"""Fetching the bar-exam PDFs of some years (:func:`fetch_jbe`): the manifest's entries for
those years, each skipped when already present and verified, else downloaded; the run stops
early with a "place the files by hand" message when the network is unreachable."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from buildds.errors import FetchError
from buildds.fetch.download import (
    MIRROR_ENV,
    USER_AGENT,
    Downloader,
    Refused,
    Unreachable,
    apply_mirror,
    is_pdf,
    redact,
)
from buildds.fetch.lock import LOCK_NAME, LockEntry, read_lock, write_lock
from buildds.fetch.manifest import (
    ManifestEntry,
    default_manifest_path,
    entry_sort_key,
    load_manifest,
    read_json_entries,
    write_dest_manifest,
)
from buildds.fetch.results import FetchedFile, FetchFailure, FetchResult
from buildds.safeio.hashing import sha256_file

__all__ = ["fetch_jbe"]

log = logging.getLogger("buildds.fetch")

#: After this many files in a row failed to connect, do not try the rest.
_MAX_UNREACHABLE_IN_A_ROW = 3
#: How many files the "place by hand" message lists.
_HINT_FILES = 5


def _hand_message(exc: httpx.TransportError, url: str, dest: Path, manifest: Path,
                  todo: list[ManifestEntry], mirror: str | None) -> str:
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
    no_url = [e for e in todo if not e.url]
    if no_url:
        lines.append(f"{len(no_url)} file(s) have no known official URL (the manifest's "
                     "url_hint says where to look); save them the same way:")
        lines += [f"  {e.label}  ->  {dest / e.rel}" for e in no_url[:_HINT_FILES]]
        if len(no_url) > _HINT_FILES:
            lines.append(f"  … and {len(no_url) - _HINT_FILES} more")
    lines.append(f"All URLs are in {manifest}. The next run records the sha256 of every file "
                 f"placed by hand in {dest / LOCK_NAME} and verifies it from then on.")
    if mirror:
        lines.append(f"({MIRROR_ENV} is set: requests went to {redact(mirror)}.)")
    lines.append("Or build from a folder that already has the PDFs: "
                 "buildds jbe --raw <folder> --years …")
    return "\n".join(lines)


def _wanted_entries(entries: list[ManifestEntry], years: list[int], manifest_path: Path
                    ) -> list[ManifestEntry]:
    """The manifest's entries for ``years``, in manifest order; every year must be covered."""
    wanted_years = sorted(set(years))
    if not wanted_years:
        raise FetchError("no years requested")
    covered = {e.year for e in entries}
    missing = [y for y in wanted_years if y not in covered]
    if missing:
        have = f"{min(covered)}–{max(covered)}" if covered else "no years"
        raise FetchError(f"no manifest entries for year(s) {', '.join(map(str, missing))} "
                         f"(the manifest covers {have})", source=str(manifest_path))
    return sorted((e for e in entries if e.year in set(wanted_years)),
                  key=lambda e: entry_sort_key(e.raw))


def _recorded_checksums(dest_manifest: Path) -> dict[tuple[int, str, str], str]:
    """The sha256 that an earlier run recorded in ``<dest>/manifest.json``, by entry key."""
    recorded: dict[tuple[int, str, str], str] = {}
    if dest_manifest.exists():
        for e in read_json_entries(dest_manifest)[1]:
            try:
                if e.get("sha256"):
                    recorded[(int(e["year"]), str(e["subject"]), str(e["kind"]))] = e["sha256"]
            except (AttributeError, KeyError, TypeError, ValueError):
                continue
    return recorded


class _FetchRun:
    """One run over the wanted files: what was downloaded, skipped and failed, the checksums
    to record, and how many files in a row could not connect."""

    def __init__(self, down: Downloader, result: FetchResult, mirror: str | None,
                 recorded: dict[tuple[int, str, str], str],
                 lock: dict[str, LockEntry], update_lock: bool = False):
        self.down = down
        self.lock = dict(lock)
        self.locked_before = dict(lock)
        self.update_lock = update_lock
        self.result = result
        self.mirror = mirror
        self.recorded = recorded
        self.updates: dict[tuple[int, str, str], tuple[ManifestEntry, str | None]] = {}
        self.unreachable_in_a_row = 0

    def fail(self, e: ManifestEntry, url: str | None, reason: str) -> None:
        self.result.failed.append(FetchFailure(e.rel, url, reason))

    def expected_sha(self, e: ManifestEntry) -> tuple[str | None, str | None]:
        """The sha256 the file must have and where it comes from (None: the manifest).
        A sha256 in the manifest always wins; then the lock file (unless ``--update-lock``);
        then a checksum an earlier run recorded in ``<dest>/manifest.json``."""
        if e.sha256:
            return e.sha256, None
        locked = self.lock.get(e.rel)
        if locked and not self.update_lock:
            return locked.sha256, f"the lock file {LOCK_NAME}"
        if self.update_lock:
            return None, None
        return self.recorded.get(e.key), None

    def record_lock(self, e: ManifestEntry, target: Path, sha: str, url: str | None) -> None:
        """Record ``target`` in the lock; note a replaced entry (only ``--update-lock``)."""
        old = self.lock.get(e.rel)
        if old and old.sha256 != sha:
            self.result.lock_changes.append(f"{e.rel}: sha256 {old.sha256} -> {sha}")
        self.lock[e.rel] = LockEntry(sha, target.stat().st_size, url or (old.url if old else None))

    def already_present(self, e: ManifestEntry, target: Path, expected: str | None) -> bool:
        """Whether ``target`` is present and verified (then it is skipped)."""
        if not target.is_file():
            return False
        if expected:
            if sha256_file(target) == expected:
                self.result.skipped.append(FetchedFile(e.rel, e.url, expected))
                self.updates[e.key] = (e, expected)
                return True
            log.warning("%s: present but its sha256 does not match the manifest; "
                        "downloading it again", e.rel)
        elif is_pdf(target):
            self.result.skipped.append(FetchedFile(e.rel, e.url, None))
            return True
        else:
            log.warning("%s: present but not a PDF; downloading it again", e.rel)
        return False

    def fetch(self, i: int, e: ManifestEntry, wanted: list[ManifestEntry],
              manifest_path: Path) -> None:
        """Fetch ``wanted[i]`` (= ``e``) unless it is present; a failure is recorded, an
        unreachable network at the first request raises :class:`FetchError`."""
        dest = self.result.dest
        target = dest / e.rel
        expected, expected_from = self.expected_sha(e)
        # --update-lock downloads every locked file with a URL again, to accept what the
        # server sends now
        force = self.update_lock and e.rel in self.lock and bool(e.url)
        if not force and self.already_present(e, target, expected):
            self.record_lock(e, target, expected or sha256_file(target), e.url)
            return
        if not e.url:
            self.result.failed.append(FetchFailure(
                e.rel, None, f"no known URL — place the file by hand at {target}",
                by_hand=True, what=e.label, hint=e.url_hint))
            return
        url = apply_mirror(e.url, self.mirror)
        shown = redact(url)
        if self.unreachable_in_a_row >= _MAX_UNREACHABLE_IN_A_ROW:
            self.fail(e, shown, "not tried: the server stopped answering; run the command "
                                "again later, or place the file by hand")
            return
        try:
            sha = self.down.fetch(url, target, expected, expected_from)
        except Unreachable as exc:
            if not self.down.reached:
                todo = [w for w in wanted[i:] if not (dest / w.rel).is_file()]
                raise FetchError(_hand_message(exc.exc, shown, dest, manifest_path, todo,
                                               self.mirror)) from exc.exc
            self.unreachable_in_a_row += 1
            self.fail(e, shown, f"cannot connect ({type(exc.exc).__name__}) after "
                                f"{self.down.retries + 1} attempts")
            return
        except Refused as exc:
            self.unreachable_in_a_row = 0
            reason = str(exc)
            if e.inferred and reason.startswith(("HTTP 404", "HTTP 410")):
                reason = (f"inferred URL not found ({reason}): this URL was derived from the "
                          f"ministry's numbering, not seen published; find the real one on "
                          f"moj.go.jp or place the file by hand at {target}")
            self.fail(e, shown, reason)
            return
        self.unreachable_in_a_row = 0
        self.result.downloaded.append(FetchedFile(e.rel, shown, sha))
        self.updates[e.key] = (e, sha)
        self.record_lock(e, target, sha, e.url)
        log.info("fetched %s (sha256 %s…)", e.rel, sha[:12])


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
    update_lock: bool = False,
) -> FetchResult:
    """Download the bar-exam PDFs of ``years`` into ``dest/<year>/<subject>-<kind>.pdf``.

    ``manifest``: the manifest of official URLs (default :func:`default_manifest_path`).
    ``timeout``: seconds per network operation. ``client``: an :class:`httpx.Client` to use
    (default: a new one). ``retries``: retries per file after the first attempt, waiting
    ``backoff * 2**n`` seconds (or the server's ``Retry-After``, up to ``max_wait``).

    Per-file failures are returned in :attr:`FetchResult.failed` (and logged as warnings);
    an unreachable network, an unusable manifest or years the manifest does not cover raise
    :class:`~buildds.errors.FetchError`.

    ``<dest>/jbe.lock.json`` (:mod:`buildds.fetch.lock`) records the sha256 and size of every
    file on first download; later runs verify against it, and a file the server now sends
    differently fails naming both sha256. ``update_lock`` downloads the locked files again
    and accepts what the server sends (listed in :attr:`FetchResult.lock_changes`).
    """
    manifest_path = Path(manifest) if manifest is not None else default_manifest_path()
    if not manifest_path.exists():
        raise FetchError("manifest not found; pass --manifest <file> (the repository has one "
                         "at data_raw/jbe/manifest.json)", source=str(manifest_path))
    source_top, entries = load_manifest(manifest_path)
    wanted = _wanted_entries(entries, years, manifest_path)

    dest = Path(dest)
    dest_manifest = dest / "manifest.json"
    recorded = _recorded_checksums(dest_manifest)
    lock_path = dest / LOCK_NAME
    lock = read_lock(lock_path)

    mirror = os.environ.get(MIRROR_ENV, "").strip() or None
    result = FetchResult(dest=dest, manifest=manifest_path)
    own_client = client is None
    http = client or httpx.Client(headers={"User-Agent": USER_AGENT}, follow_redirects=True,
                                  timeout=timeout)
    down = Downloader(http, timeout=timeout, retries=max(0, retries), backoff=backoff,
                      max_wait=max_wait)
    run = _FetchRun(down, result, mirror, recorded, lock, update_lock)
    try:
        for i, e in enumerate(wanted):
            run.fetch(i, e, wanted, manifest_path)
    finally:
        if own_client:
            http.close()
        if result.downloaded or (dest_manifest.exists() and run.updates):
            write_dest_manifest(dest_manifest, source_top, run.updates)
        if run.lock != run.locked_before:
            write_lock(lock_path, run.lock)
    return result
