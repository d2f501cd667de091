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

``<dest>/jbe.lock.json`` (:mod:`.lock`) records the sha256 and size of every file on first
download; later runs verify each file against it and fail, naming both sha256, on a file the
server now sends differently (``update_lock=True`` / ``--update-lock`` accepts the change). A
sha256 in the manifest is checked first. An entry marked ``"inferred": true`` whose URL
answers 404 is reported as an inferred URL not found.

When the network is unreachable (the very first request cannot connect), it stops at once
and raises :class:`~buildds.errors.FetchError` explaining how to place the files by hand.

``BUILDDS_JBE_MIRROR`` (e.g. ``http://mirror.example/moj``) replaces the scheme and host of
every ``official_url`` (a path in the mirror URL is prepended to the official path).

Modules: :mod:`.manifest` (the manifest of official URLs), :mod:`.lock` (the lock file),
:mod:`.download` (one file, with retries and checks), :mod:`.jbe` (:func:`fetch_jbe`),
:mod:`.results`.
"""

from buildds.fetch.download import MIRROR_ENV, USER_AGENT
from buildds.fetch.jbe import fetch_jbe
from buildds.fetch.manifest import default_manifest_path
from buildds.fetch.results import FetchedFile, FetchFailure, FetchResult

__all__ = [
    "MIRROR_ENV",
    "USER_AGENT",
    "FetchFailure",
    "FetchResult",
    "FetchedFile",
    "default_manifest_path",
    "fetch_jbe",
]
