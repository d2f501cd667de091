"""The lock file ``<dest>/jbe.lock.json`` and inferred URLs, against a real HTTP server on
127.0.0.1 (the server and helpers are those of :mod:`tests.fetch.test_jbe`)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from buildds.cli import main
from buildds.fetch import fetch_jbe
from buildds.safeio.hashing import sha256_bytes
from tests.fetch.test_jbe import _no_mirror, client, make_pdf, serve_year, server, write_manifest

__all__ = ["_no_mirror", "client", "server"]  # the fixtures, imported for pytest


def read_lock(dest):
    return json.loads((dest / "jbe.lock.json").read_text("utf-8"))["files"]


def test_first_download_writes_the_lock(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    dest = tmp_path / "raw"

    fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    lock = read_lock(dest)
    assert sorted(lock) == sorted(bodies)
    for rel, body in bodies.items():
        assert lock[rel]["sha256"] == sha256_bytes(body)
        assert lock[rel]["size"] == len(body)
        assert lock[rel]["url"].endswith(rel.replace("/", "-"))
    text = (dest / "jbe.lock.json").read_text("utf-8")
    fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)
    assert (dest / "jbe.lock.json").read_text("utf-8") == text  # a second run: unchanged


def test_second_run_verifies_present_files_against_the_lock(server, client, tmp_path):
    serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    dest = tmp_path / "raw"
    fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)
    (dest / "manifest.json").unlink()  # only the lock is left to verify against
    hits = server.total_hits()

    result = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    assert server.total_hits() == hits
    assert len(result.skipped) == 6 and not result.failed
    assert {f.sha256 for f in result.skipped} == {e["sha256"] for e in read_lock(dest).values()}


def test_changed_served_file_fails_naming_old_and_new_sha(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    dest = tmp_path / "raw"
    fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)
    (dest / "manifest.json").unlink()
    new = make_pdf(999)
    server.pdf("/content/2015-minpo-seito.pdf", new)
    (dest / "2015/minpo-seito.pdf").unlink()  # so the run must fetch it again

    result = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)

    (failure,) = result.failed
    assert failure.path == "2015/minpo-seito.pdf"
    assert "jbe.lock.json" in failure.reason and "--update-lock" in failure.reason
    assert sha256_bytes(bodies["2015/minpo-seito.pdf"]) in failure.reason
    assert sha256_bytes(new) in failure.reason
    assert not (dest / "2015/minpo-seito.pdf").exists()
    assert result.missing() == ["2015/minpo-seito.pdf"]
    assert read_lock(dest)["2015/minpo-seito.pdf"]["sha256"] == sha256_bytes(
        bodies["2015/minpo-seito.pdf"])


def test_update_lock_accepts_the_change(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    dest = tmp_path / "raw"
    fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)
    (dest / "manifest.json").unlink()
    new = make_pdf(999)
    server.pdf("/content/2015-minpo-seito.pdf", new)

    result = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client,
                       update_lock=True)

    assert not result.failed
    old = sha256_bytes(bodies["2015/minpo-seito.pdf"])
    assert result.lock_changes == [f"2015/minpo-seito.pdf: sha256 {old} -> {sha256_bytes(new)}"]
    assert (dest / "2015/minpo-seito.pdf").read_bytes() == new
    assert read_lock(dest)["2015/minpo-seito.pdf"] == {
        "sha256": sha256_bytes(new), "size": len(new),
        "url": f"{server.base}/content/2015-minpo-seito.pdf"}
    again = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client)
    assert not again.failed and len(again.skipped) == 6


def test_manifest_sha256_is_checked_before_the_lock(server, client, tmp_path):
    bodies = serve_year(server, 2015)
    dest = tmp_path / "raw"
    fetch_jbe(years=[2015], dest=dest, client=client,
              manifest=write_manifest(tmp_path / "m.json", server.base, [2015]))
    pins = {"2015/kenpo-mondai.pdf": "0" * 64}
    (dest / "manifest.json").unlink()
    (dest / "2015/kenpo-mondai.pdf").unlink()
    manifest = write_manifest(tmp_path / "m2.json", server.base, [2015], sha=pins)

    result = fetch_jbe(years=[2015], dest=dest, manifest=manifest, client=client,
                       update_lock=True)

    (failure,) = result.failed
    assert "the manifest says" in failure.reason
    assert sha256_bytes(bodies["2015/kenpo-mondai.pdf"])[:12] in failure.reason


def test_inferred_url_that_404s_is_reported_as_such(server, tmp_path):
    serve_year(server, 2015)
    del server.routes["/content/2015-keiho-seito.pdf"]  # → 404
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    data = json.loads(manifest.read_text("utf-8"))
    for e in data["files"]:
        if e["path"] == "2015/keiho-seito.pdf":
            e["inferred"] = True
            e["inferred_from"] = "the numbering of the test server's other files"
    manifest.write_text(json.dumps(data), "utf-8")
    dest = tmp_path / "raw"

    res = CliRunner().invoke(main, ["fetch", "jbe", "--years", "2015", "--dest", str(dest),
                                    "--manifest", str(manifest), "--timeout", "5"])

    assert res.exit_code == 1, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "fetched 5 files, 0 already present, 1 failed" in res.output
    assert "2015/keiho-seito.pdf: inferred URL not found (HTTP 404" in res.output
    assert "missing 1 file(s): 2015/keiho-seito.pdf" in res.output
    assert "2015/keiho-seito.pdf" not in read_lock(dest)


def test_cli_update_lock_prints_the_change(server, tmp_path):
    serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015])
    dest = tmp_path / "raw"
    args = ["fetch", "jbe", "--years", "2015", "--dest", str(dest), "--manifest", str(manifest),
            "--timeout", "5"]
    assert CliRunner().invoke(main, args).exit_code == 0
    server.pdf("/content/2015-kenpo-seito.pdf", make_pdf(777))

    res = CliRunner().invoke(main, [*args, "--update-lock"])

    assert res.exit_code == 0, res.output
    assert "lock updated: 2015/kenpo-seito.pdf: sha256 " in res.output


def test_repo_manifest_explains_every_missing_url():
    """No URL is guessed: each entry has a published URL, or a url_hint whose id range lies
    between that year's last booklet id and the next year's first (computed here)."""
    from tests.conftest import REPO

    data = json.loads((REPO / "data_raw/jbe/manifest.json").read_text("utf-8"))
    assert "content id" in data["url_scheme"]
    ids: dict[int, list[int]] = {}
    for e in data["files"]:
        if e["kind"] == "mondai":
            ids.setdefault(e["year"], []).append(int(e["official_url"].rsplit("/", 1)[1][:-4]))
    no_url = [e for e in data["files"] if not e["official_url"]]
    assert len(no_url) == 24
    for e in data["files"]:
        assert not e.get("inferred")  # nothing is inferred: the ids are not derivable
        if e["official_url"]:
            assert "url_hint" not in e
            continue
        lo, hi = max(ids[e["year"]]) + 1, min(ids[e["year"] + 1]) - 1
        assert f"({lo:09d}–{hi:09d})" in e["url_hint"], e["path"]


def test_cli_lists_the_files_to_download_by_hand_and_locks_them_once_placed(server, tmp_path):
    """Entries without a URL: the command says what each file is, where to look (url_hint)
    and where to save it; once placed, a rerun finishes and the lock records their sha256."""
    bodies = serve_year(server, 2015)
    manifest = write_manifest(tmp_path / "m.json", server.base, [2015],
                              no_url={"2015/kenpo-seito.pdf", "2015/keiho-seito.pdf"})
    data = json.loads(manifest.read_text("utf-8"))
    for e in data["files"]:
        e.update(era="平成27年", subject_jp={"kenpo": "憲法", "minpo": "民法",
                                            "keiho": "刑法"}[e["subject"]])
        if not e["official_url"]:
            e["url_hint"] = f"content id after 001144533 ({e['subject']})"
    manifest.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    dest = tmp_path / "raw"
    args = ["fetch", "jbe", "--years", "2015", "--dest", str(dest), "--manifest", str(manifest),
            "--timeout", "5"]

    res = CliRunner().invoke(main, args)

    assert res.exit_code == 1, res.output
    assert "fetched 4 files, 0 already present, 2 failed" in res.output
    assert ("2 file(s) have no known official URL: download each by hand from the Ministry "
            "of Justice website") in res.output
    assert f"  平成27年 憲法 answer key (正解及び配点)  ->  {dest / '2015/kenpo-seito.pdf'}" \
        in res.output
    assert "      where to look: content id after 001144533 (keiho)" in res.output
    assert f"its sha256 recorded in {dest / 'jbe.lock.json'}" in res.output
    assert "missing 2 file(s): 2015/kenpo-seito.pdf, 2015/keiho-seito.pdf" in res.output
    assert "2015/kenpo-seito.pdf" not in read_lock(dest)

    for rel in ("2015/kenpo-seito.pdf", "2015/keiho-seito.pdf"):  # the user places them
        (dest / rel).write_bytes(bodies[rel])
    again = CliRunner().invoke(main, args)

    assert again.exit_code == 0, again.output
    assert "fetched 0 files, 6 already present, 0 failed" in again.output
    assert "by hand" not in again.output
    lock = read_lock(dest)
    for rel in ("2015/kenpo-seito.pdf", "2015/keiho-seito.pdf"):
        assert lock[rel]["sha256"] == sha256_bytes(bodies[rel])


def test_an_inferred_url_must_say_how_it_was_inferred(tmp_path):
    from buildds.errors import FetchError
    from buildds.fetch.manifest import load_manifest

    manifest = write_manifest(tmp_path / "m.json", "http://127.0.0.1:9", [2015])
    data = json.loads(manifest.read_text("utf-8"))
    data["files"][1]["inferred"] = True
    manifest.write_text(json.dumps(data), "utf-8")
    try:
        load_manifest(manifest)
    except FetchError as exc:
        assert "entry 2: an inferred official_url needs `inferred_from`" in exc.message
    else:
        raise AssertionError("an inferred URL without inferred_from was accepted")
    data["files"][1]["inferred_from"] = "2015's booklet ids + the 2023 key gap"
    manifest.write_text(json.dumps(data), "utf-8")
    assert load_manifest(manifest)[1][1].inferred


def test_repo_manifest_entries_are_each_seen_inferred_or_hinted():
    """Every booklet and key 2015–2024 is listed: with a URL seen published, an inferred URL
    with how it was inferred, or no URL and a url_hint (fetch then names it to place)."""
    from buildds.fetch.manifest import default_manifest_path, load_manifest

    _, entries = load_manifest(default_manifest_path())
    assert len(entries) == 60
    for e in entries:
        if e.inferred:
            assert e.url and e.raw.get("inferred_from"), e.rel
        elif e.url is None:
            assert e.url_hint and e.kind == "seito", e.rel
        assert e.label.split()[1] in ("憲法", "民法", "刑法"), e.label
