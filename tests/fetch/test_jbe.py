"""buildds.fetch against a real HTTP server on 127.0.0.1 (never any other address)."""

from __future__ import annotations

import io
import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.errors import FetchError
from buildds.extract.jbe.raw import discover_exam_files
from buildds.fetch import MIRROR_ENV, USER_AGENT, default_manifest_path, fetch_jbe
from buildds.safeio.hashing import sha256_bytes
from tests.conftest import REPO, shared_path

SUBJECTS = ("kenpo", "minpo", "keiho")
KINDS = ("mondai", "seito")


def make_pdf(width: int, height: int = 300) -> bytes:
    doc = pdfium.PdfDocument.new()
    doc.new_page(width, height)
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


# ---------------------------------------------------------------------------- the server


class Server:
    """Routes: URL path → list of (status, headers, body); each hit pops the first response
    until one is left, which then repeats."""

    def __init__(self) -> None:
        self.routes: dict[str, list[tuple[int, dict[str, str], bytes]]] = {}
        self.hits: Counter[str] = Counter()
        self.times: dict[str, list[float]] = {}
        self.user_agents: list[str] = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with server.lock:
                    server.hits[self.path] += 1
                    server.times.setdefault(self.path, []).append(time.monotonic())
                    server.user_agents.append(self.headers.get("User-Agent", ""))
                    queue = server.routes.get(self.path)
                    if not queue:
                        status, headers, body = 404, {"Content-Type": "text/plain"}, b"no"
                    else:
                        status, headers, body = queue.pop(0) if len(queue) > 1 else queue[0]
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": 0.02}, daemon=True)

    def pdf(self, path: str, body: bytes) -> None:
        self.routes[path] = [(200, {"Content-Type": "application/pdf"}, body)]

    def total_hits(self) -> int:
        return sum(self.hits.values())


@pytest.fixture
def server() -> Iterator[Server]:
    srv = Server()
    srv.thread.start()
    try:
        yield srv
    finally:
        srv.httpd.shutdown()
        srv.httpd.server_close()


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    """A client that refuses any request not addressed to 127.0.0.1."""

    def loopback_only(request: httpx.Request) -> None:
        assert request.url.host == "127.0.0.1", f"test tried to reach {request.url.host}"

    with httpx.Client(event_hooks={"request": [loopback_only]}) as c:
        yield c


@pytest.fixture(autouse=True)
def _no_mirror(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(MIRROR_ENV, raising=False)


def serve_year(server: Server, year: int) -> dict[str, bytes]:
    """Serve six distinct PDFs for ``year``; return rel path → bytes."""
    bodies = {}
    for i, subject in enumerate(SUBJECTS):
        for j, kind in enumerate(KINDS):
            rel = f"{year}/{subject}-{kind}.pdf"
            body = make_pdf(100 + 10 * i + j, 200 + year % 100)
            server.pdf(f"/content/{year}-{subject}-{kind}.pdf", body)
            bodies[rel] = body
    return bodies


def write_manifest(path: Path, base: str, years: list[int], *, sha: dict[str, str] | None = None,
                   no_url: set[str] = frozenset()) -> Path:  # type: ignore[assignment]
    files = []
    for year in years:
        for subject in SUBJECTS:
            for kind in KINDS:
                rel = f"{year}/{subject}-{kind}.pdf"
                files.append({
                    "year": year, "subject": subject, "kind": kind, "path": rel,
                    "official_url": None if rel in no_url
                    else f"{base}/content/{year}-{subject}-{kind}.pdf",
                    "sha256": (sha or {}).get(rel),
                })
    path.write_text(json.dumps({"files": files}, ensure_ascii=False), "utf-8")
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith(".part"))


# ---------------------------------------------------------------------------- tests


def test_downloads_all_into_layout_and_records_sha256(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    dest = tmp_path / "raw"

    result = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    assert result.summary_line() == "fetched 6 files, 0 already present, 0 failed"
    assert sorted(f.path for f in result.downloaded) == sorted(bodies)
    for rel, body in bodies.items():
        assert (dest / rel).read_bytes() == body
    recorded = json.loads((dest / "manifest.json").read_text("utf-8"))["files"]
    assert {(e["path"], e["sha256"]) for e in recorded} == {
        (rel, sha256_bytes(body)) for rel, body in bodies.items()}
    assert all(e["official_url"].startswith(server.base) for e in recorded)
    assert all(ua == USER_AGENT and ua.startswith("buildds/") for ua in server.user_agents)
    assert leftovers(dest) == []
    # the build's discovery step reads and verifies what the fetcher wrote
    found = discover_exam_files(dest, [2015])
    assert [f.problems for f in found] == [[], [], []]
    assert all(f.mondai and f.seito for f in found)


def test_second_run_downloads_nothing(server, client, tmp_path):
    serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    dest = tmp_path / "raw"
    fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)
    hits = server.total_hits()
    recorded = (dest / "manifest.json").read_bytes()

    again = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    assert server.total_hits() == hits
    assert again.summary_line() == "fetched 0 files, 6 already present, 0 failed"
    assert (dest / "manifest.json").read_bytes() == recorded


def test_damaged_local_file_is_downloaded_again(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    dest = tmp_path / "raw"
    fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)
    (dest / "2015/minpo-seito.pdf").write_bytes(b"%PDF-1.7 damaged")

    again = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    assert [f.path for f in again.downloaded] == ["2015/minpo-seito.pdf"]
    assert (dest / "2015/minpo-seito.pdf").read_bytes() == bodies["2015/minpo-seito.pdf"]


def test_manifest_inside_dest_is_updated_in_place(server, client, tmp_path):
    """The default case: --dest data_raw/jbe reads and pins data_raw/jbe/manifest.json."""
    bodies = serve_year(server, 2015)
    dest = tmp_path / "raw"
    dest.mkdir()
    manifest = write_manifest(dest / "manifest.json", server.base, [2015, 2016])
    data = json.loads(manifest.read_text("utf-8"))
    data["description"] = "keep me"
    manifest.write_text(json.dumps(data), "utf-8")

    result = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    assert result.failed == []
    data = json.loads(manifest.read_text("utf-8"))
    assert data["description"] == "keep me"
    assert len(data["files"]) == 12  # the 2016 entries are kept, unpinned
    pins = {e["path"]: e["sha256"] for e in data["files"]}
    assert all(pins[rel] == sha256_bytes(b) for rel, b in bodies.items())
    assert all(pins[f"2016/{s}-{k}.pdf"] is None for s in SUBJECTS for k in KINDS)
    (dest / "2015/kenpo-mondai.pdf").write_bytes(make_pdf(999))  # a different, valid PDF

    again = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    assert [f.path for f in again.downloaded] == ["2015/kenpo-mondai.pdf"]  # pin enforced
    assert (dest / "2015/kenpo-mondai.pdf").read_bytes() == bodies["2015/kenpo-mondai.pdf"]


def test_pinned_sha256_skips_matching_file_and_verifies_download(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    pins = {rel: sha256_bytes(b) for rel, b in bodies.items()}
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015], sha=pins)
    dest = tmp_path / "raw"
    (dest / "2015").mkdir(parents=True)
    (dest / "2015/kenpo-mondai.pdf").write_bytes(bodies["2015/kenpo-mondai.pdf"])

    result = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    assert result.summary_line() == "fetched 5 files, 1 already present, 0 failed"
    assert server.hits["/content/2015-kenpo-mondai.pdf"] == 0


def test_500_then_200_is_retried(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    path = "/content/2015-kenpo-mondai.pdf"
    server.routes[path].insert(0, (500, {"Content-Type": "text/plain"}, b"oops"))
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])

    result = fetch_jbe(years=[2015], dest=tmp_path / "raw", manifest=manifest, client=client,
                       backoff=0.01)

    assert result.failed == []
    assert server.hits[path] == 2
    assert (tmp_path / "raw/2015/kenpo-mondai.pdf").read_bytes() == bodies["2015/kenpo-mondai.pdf"]


def test_persistent_503_fails_after_retries(server, client, tmp_path):
    serve_year(server, 2015)
    path = "/content/2015-keiho-seito.pdf"
    server.routes[path] = [(503, {}, b"busy")]
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])

    result = fetch_jbe(years=[2015], dest=tmp_path / "raw", manifest=manifest, client=client,
                       retries=2, backoff=0.01)

    assert server.hits[path] == 3
    assert [(f.path, f.url) for f in result.failed] == [
        ("2015/keiho-seito.pdf", server.base + path)]
    assert "503" in result.failed[0].reason


def test_501_is_not_retried(server, client, tmp_path):
    serve_year(server, 2015)
    path = "/content/2015-keiho-seito.pdf"
    server.routes[path] = [(501, {}, b"no")]
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])

    result = fetch_jbe(years=[2015], dest=tmp_path / "raw", manifest=manifest, client=client,
                       retries=3, backoff=0.01)

    assert server.hits[path] == 1
    assert "501" in result.failed[0].reason


def test_429_retry_after_is_honoured(server, client, tmp_path):
    serve_year(server, 2015)
    path = "/content/2015-minpo-mondai.pdf"
    server.routes[path].insert(0, (429, {"Retry-After": "1"}, b"slow down"))
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])

    result = fetch_jbe(years=[2015], dest=tmp_path / "raw", manifest=manifest, client=client,
                       backoff=0.01)

    assert result.failed == []
    first, second = server.times[path]
    assert second - first >= 0.95  # the header's 1 s, not the 0.01 s backoff


def test_retry_after_beyond_max_wait_gives_up(server, client, tmp_path):
    serve_year(server, 2015)
    path = "/content/2015-minpo-mondai.pdf"
    server.routes[path] = [(429, {"Retry-After": "3600"}, b"come back tomorrow")]
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])

    start = time.monotonic()
    result = fetch_jbe(years=[2015], dest=tmp_path / "raw", manifest=manifest, client=client)

    assert time.monotonic() - start < 5
    assert server.hits[path] == 1
    assert "3600" in result.failed[0].reason


def test_html_page_served_as_pdf_is_refused(server, client, tmp_path):
    serve_year(server, 2015)
    path = "/content/2015-kenpo-seito.pdf"
    server.routes[path] = [(200, {"Content-Type": "text/html; charset=utf-8"},
                            b"<!DOCTYPE html><html><body>Not found</body></html>")]
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    dest = tmp_path / "raw"

    result = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    assert result.summary_line() == "fetched 5 files, 0 already present, 1 failed"
    (failure,) = result.failed
    assert failure.path == "2015/kenpo-seito.pdf"
    assert failure.url == server.base + path
    assert "HTML page, not a PDF" in failure.reason
    assert not (dest / "2015/kenpo-seito.pdf").exists()
    assert leftovers(dest) == []
    recorded = json.loads((dest / "manifest.json").read_text("utf-8"))["files"]
    assert "2015/kenpo-seito.pdf" not in {e["path"] for e in recorded if e["sha256"]}
    assert "2015/kenpo-seito.pdf" in "\n".join(result.failure_lines())


def test_html_without_content_type_is_refused(server, client, tmp_path):
    serve_year(server, 2015)
    server.routes["/content/2015-kenpo-mondai.pdf"] = [
        (200, {"Content-Type": "application/pdf"}, b"  <html>moved</html>")]
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])

    result = fetch_jbe(years=[2015], dest=tmp_path / "raw", manifest=manifest, client=client)

    assert "HTML page" in result.failed[0].reason
    assert not (tmp_path / "raw/2015/kenpo-mondai.pdf").exists()


def test_checksum_mismatch_is_refused(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    pins = {rel: sha256_bytes(b) for rel, b in bodies.items()}
    pins["2015/keiho-mondai.pdf"] = "0" * 64
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015], sha=pins)
    dest = tmp_path / "raw"

    result = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    (failure,) = result.failed
    assert failure.path == "2015/keiho-mondai.pdf"
    assert "checksum mismatch" in failure.reason
    assert server.hits["/content/2015-keiho-mondai.pdf"] == 1  # not retried
    assert not (dest / "2015/keiho-mondai.pdf").exists()
    assert leftovers(dest) == []


def test_unreachable_server_says_place_files_by_hand(client, tmp_path):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    manifest = write_manifest(tmp_path / "m.json", f"http://127.0.0.1:{port}", [2015, 2016])
    dest = tmp_path / "raw"

    start = time.monotonic()
    with pytest.raises(FetchError) as info:
        fetch_jbe(years=[2015, 2016], dest=dest, manifest=manifest, client=client)

    assert time.monotonic() - start < 10  # stopped at once: 12 tries with backoff take far longer
    msg = str(info.value)
    assert "by hand" in msg
    assert f"{dest}/<year>/<subject>-<kind>.pdf" in msg
    assert f"http://127.0.0.1:{port}/content/2015-kenpo-mondai.pdf  ->  " \
           f"{dest / '2015/kenpo-mondai.pdf'}" in msg
    assert "and 7 more" in msg
    assert str(manifest) in msg
    assert "--raw" in msg
    assert not (dest / "manifest.json").exists()


def test_entry_without_url_is_reported_or_skipped_when_placed(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015],
                              no_url={"2015/kenpo-seito.pdf", "2015/minpo-seito.pdf"})
    dest = tmp_path / "raw"
    (dest / "2015").mkdir(parents=True)
    (dest / "2015/minpo-seito.pdf").write_bytes(bodies["2015/minpo-seito.pdf"])

    result = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    assert result.summary_line() == "fetched 4 files, 1 already present, 1 failed"
    (failure,) = result.failed
    assert failure.url is None
    assert failure.reason.startswith("no known URL — place the file by hand")
    assert str(dest / "2015/kenpo-seito.pdf") in failure.reason


def test_years_without_entries_raise(server, client, tmp_path):
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    with pytest.raises(FetchError, match=r"2013, 2014"):
        fetch_jbe(years=[2013, 2014, 2015], dest=tmp_path / "raw", manifest=manifest,
                  client=client)
    assert server.total_hits() == 0


def test_redirect_is_followed(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    real = "/content/2015-kenpo-mondai.pdf"
    server.routes["/old/2015-kenpo-mondai.pdf"] = [(302, {"Location": real}, b"")]
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    data = json.loads(manifest.read_text("utf-8"))
    data["files"][0]["official_url"] = server.base + "/old/2015-kenpo-mondai.pdf"
    manifest.write_text(json.dumps(data), "utf-8")

    result = fetch_jbe(years=[2015], dest=tmp_path / "raw", manifest=manifest, client=client)

    assert result.failed == []
    assert (tmp_path / "raw/2015/kenpo-mondai.pdf").read_bytes() == bodies["2015/kenpo-mondai.pdf"]


def test_mirror_env_with_the_repo_manifest(server, client, tmp_path, monkeypatch):
    repo_manifest = default_manifest_path()
    entries = [e for e in json.loads(repo_manifest.read_text("utf-8"))["files"]
               if e["year"] == 2024]
    for e in entries:
        path = e["official_url"].removeprefix("https://www.moj.go.jp")
        server.pdf("/mirror" + path, make_pdf(120))
    monkeypatch.setenv(MIRROR_ENV, server.base + "/mirror/")
    before = repo_manifest.read_bytes()

    result = fetch_jbe(years=[2024], dest=tmp_path / "raw", client=client)

    assert result.summary_line() == "fetched 6 files, 0 already present, 0 failed"
    assert repo_manifest.read_bytes() == before  # only <dest>/manifest.json is written
    recorded = json.loads((tmp_path / "raw/manifest.json").read_text("utf-8"))["files"]
    assert [e["official_url"] for e in recorded] == [e["official_url"] for e in entries]


def test_repo_manifest_covers_every_file():
    data = json.loads((REPO / "data_raw/jbe/manifest.json").read_text("utf-8"))
    files = data["files"]
    assert len(files) == 60
    assert {(e["year"], e["subject"], e["kind"]) for e in files} == {
        (y, s, k) for y in range(2015, 2025) for s in SUBJECTS for k in KINDS}
    for e in files:
        assert e["path"] == f"{e['year']}/{e['subject']}-{e['kind']}.pdf"
        assert e["sha256"] is None
        assert e["official_url"] is None or e["official_url"].startswith(
            "https://www.moj.go.jp/content/")
        assert {"era", "subject_jp"} <= e.keys()


def test_repo_manifest_urls_match_shared():
    shared = json.loads(shared_path("jbe", "pdf", "manifest.json").read_text("utf-8"))["files"]
    want = {(e["year"], e["subject"], e["kind"]): (e["official_url"], e["era"])
            for e in shared if not e.get("scan")}
    ours = json.loads((REPO / "data_raw/jbe/manifest.json").read_text("utf-8"))["files"]
    assert {(e["year"], e["subject"], e["kind"]): (e["official_url"], e["era"])
            for e in ours} == want


def test_cli_prints_summary_and_exits_0(server, tmp_path):
    serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    dest = tmp_path / "raw"

    res = CliRunner().invoke(main, ["fetch", "jbe", "--years", "2015", "--dest", str(dest),
                                    "--manifest", str(manifest), "--timeout", "5"])

    assert res.exit_code == 0, res.output
    assert "fetched 6 files, 0 already present, 0 failed" in res.output
    assert (dest / "2015/keiho-seito.pdf").is_file()


def test_cli_exits_1_when_a_file_failed(server, tmp_path):
    serve_year(server, 2015)
    del server.routes["/content/2015-keiho-seito.pdf"]  # → 404
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])

    res = CliRunner().invoke(main, ["fetch", "jbe", "--years", "2015", "--dest",
                                    str(tmp_path / "raw"), "--manifest", str(manifest)])

    assert res.exit_code == 1, res.output
    assert "fetched 5 files, 0 already present, 1 failed" in res.output


def test_cli_unreachable_is_a_clean_error(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    manifest = write_manifest(tmp_path / "m.json", f"http://127.0.0.1:{port}", [2015])

    res = CliRunner().invoke(main, ["fetch", "jbe", "--years", "2015", "--dest",
                                    str(tmp_path / "raw"), "--manifest", str(manifest)])

    assert res.exit_code == 1
    assert "by hand" in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
