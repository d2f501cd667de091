"""A client of the e-Gov 法令API v2 (https://laws.e-gov.go.jp/api/2/): a law's revision list
and the Law XML of one revision.

* ``GET /api/2/law_revisions/{law_id}`` → :class:`~buildds.laws.revisions.Revision` records
  (:func:`buildds.laws.revisions.parse_law_revisions`);
* ``GET /api/2/law_data/{law_revision_id}?law_full_text_format=xml&response_format=xml`` →
  the ``<Law>`` element of the answer as an XML document (what the e-Gov XML reader reads),
  parsed without DTDs or entities.

Requests have a timeout, bodies are capped by the ``response_bytes`` limit, and redirects
are never followed (the API does not redirect; a redirect elsewhere is refused). The base URL
can be pointed at a mirror or a test server with ``BUILDDS_EGOV_API``. When the host cannot
be reached, :class:`EgovUnreachable` carries the URLs to download by hand and where to put
the files (:func:`manual_steps`).
"""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import Self

import httpx

from buildds.errors import BuildError
from buildds.laws.revisions import Revision, parse_law_revisions
from buildds.pipeline import atomic_write_bytes
from buildds.safeio import loads_strict
from buildds.safeio.limits import LIMITS
from buildds.schema.laws import LawVersion

__all__ = ["API_ENV", "DEFAULT_API", "EgovClient", "EgovError", "EgovUnreachable",
           "fetch_into_store", "manual_steps"]

DEFAULT_API = "https://laws.e-gov.go.jp/api/2"
#: Environment variable: another base URL for the API (a mirror, a test server)
API_ENV = "BUILDDS_EGOV_API"


class EgovError(BuildError):
    """The API answered, but not with what was asked (HTTP error, redirect, too large)."""


class EgovUnreachable(BuildError):
    """The API host could not be reached (no network, DNS failure, connection refused)."""


def manual_steps(law_id: str, raw: Path, api: str = DEFAULT_API,
                 revision_id: str | None = None) -> str:
    """What to download from where, and where to place it, when the API cannot be reached."""
    rid = revision_id or "<law_revision_id from that list>"
    revs = raw / f"{law_id}_law_revisions.json"
    xml = raw / f"{rid}.xml"
    return (f"download by hand:\n"
            f"  1. {api}/law_revisions/{law_id}\n     save it as {revs}\n"
            f"  2. {api}/law_data/{rid}?law_full_text_format=xml&response_format=xml\n"
            f"     save it as {xml}\n"
            f"then: buildds laws import {xml} --revisions {revs} --store {raw.parent}")


class EgovClient:
    """A client of one API base URL (default: :data:`DEFAULT_API` or ``$BUILDDS_EGOV_API``)."""

    def __init__(self, api: str | None = None, *, timeout: float = 30.0,
                 transport: httpx.BaseTransport | None = None):
        self.api = (api or os.environ.get(API_ENV) or DEFAULT_API).rstrip("/")
        self.client = httpx.Client(timeout=timeout, follow_redirects=False, transport=transport,
                                   headers={"User-Agent": "buildds (e-Gov API v2 client)"})

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, path: str, params: dict[str, str] | None = None) -> bytes:
        """The body of ``GET {api}/{path}``: 2xx only, no redirects, within the size limit."""
        url = f"{self.api}/{path}"
        cap = LIMITS["response_bytes"].default
        try:
            with self.client.stream("GET", url, params=params) as resp:
                if resp.is_redirect:
                    raise EgovError(f"{url}: redirected to {resp.headers.get('location')!r}; "
                                    f"redirects are not followed")
                if not resp.is_success:
                    resp.read()
                    raise EgovError(f"{url}: HTTP {resp.status_code} {resp.reason_phrase}"
                                    f"{': ' + resp.text[:200] if resp.text else ''}")
                body = bytearray()
                for chunk in resp.iter_bytes():
                    body += chunk
                    if len(body) > cap:
                        raise EgovError(f"{url}: the answer is larger than {cap:,} bytes "
                                        f"(limit response_bytes; raise it with BUILDDS_LIMITS)")
                return bytes(body)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise EgovUnreachable(f"cannot reach {self.api} ({exc})") from None
        except httpx.TransportError as exc:
            raise EgovError(f"{url}: {type(exc).__name__}: {exc}") from None

    def law_revisions(self, law_id: str) -> tuple[list[Revision], bytes]:
        """The law's revisions (oldest first) and the answer's bytes, to keep beside the XML."""
        body = self.get(f"law_revisions/{law_id}")
        try:
            data = loads_strict(body)
        except ValueError as exc:
            raise EgovError(f"{self.api}/law_revisions/{law_id}: not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise EgovError(f"{self.api}/law_revisions/{law_id}: not a JSON object")
        return parse_law_revisions(data, f"{self.api}/law_revisions/{law_id}"), body

    def law_data(self, revision_id: str) -> bytes:
        """The ``<Law>`` element of the answer for one revision, as an XML document (what
        the e-Gov XML reader reads)."""
        body = self.get(f"law_data/{revision_id}",
                        {"law_full_text_format": "xml", "response_format": "xml"})
        from lxml import etree

        from buildds.safeio.xml import safe_parser

        where = f"{self.api}/law_data/{revision_id}"
        try:
            root = etree.fromstring(body, safe_parser())
        except etree.XMLSyntaxError as exc:
            raise EgovError(f"{where}: not XML ({exc})") from None
        law = root if root.tag == "Law" else root.find(".//Law")
        if law is None:
            raise EgovError(f"{where}: the answer holds no <Law> element")
        return bytes(etree.tostring(law, encoding="UTF-8", xml_declaration=True))


def _pick(revisions: list[Revision], law_id: str, as_of: date | None) -> Revision:
    if as_of is None:
        enforced = [r for r in revisions if r.status == "enforced"]
        if not enforced:
            raise EgovError(f"law {law_id}: the API lists no enforced revision")
        return enforced[-1]
    before = [r for r in revisions if r.valid_from <= as_of]
    if not before:
        first = revisions[0].valid_from.isoformat() if revisions else "none listed"
        raise EgovError(f"law {law_id}: {as_of.isoformat()} is before its first revision "
                        f"({first})")
    return before[-1]


def fetch_into_store(store: Path, law_id: str, *, as_of: date | None = None,
                     client: EgovClient | None = None) -> LawVersion:
    """Fetch the revision of ``law_id`` in force on ``as_of`` (default: the latest enforced),
    keep the answers under ``store/raw/`` and import the text into the store. Offline, the
    :class:`EgovUnreachable` message says what to download and where to put it."""
    from buildds.laws.readers import read_law
    from buildds.laws.store import LawStore

    raw = store / "raw"
    own = client is None
    api = client or EgovClient()
    try:
        try:
            revisions, answer = api.law_revisions(law_id)
            rev = _pick(revisions, law_id, as_of)
            xml = api.law_data(rev.revision_id)
        except EgovUnreachable as exc:
            raise EgovUnreachable(f"{exc.message}\n{manual_steps(law_id, raw, api.api)}"
                                  ) from None
    finally:
        if own:
            api.close()
    atomic_write_bytes(raw / f"{law_id}_law_revisions.json", answer)
    path = raw / f"{rev.revision_id}.xml"
    atomic_write_bytes(path, xml)
    return LawStore(store).import_text(read_law(path), rev)
