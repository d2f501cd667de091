"""The e-Gov API v2 client against a real HTTP server on 127.0.0.1 serving canned answers."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from buildds.laws.egov_client import EgovClient, EgovError, EgovUnreachable, fetch_into_store
from buildds.laws.store import LawStore

LAW = "140AC0000000045"
OLD = f"{LAW}_20230713_505AC0000000066"
NEW = f"{LAW}_20250601_504AC0000000067"


def _rev(rid: str, when: str, status: str) -> dict[str, object]:
    # the shape of the real answer (egov-api/law_revisions_response_503AC0000000036.json)
    return {"law_revision_id": rid, "law_type": "Act", "law_title": "刑法",
            "law_title_kana": "けいほう", "abbrev": None, "category": "刑事",
            "updated": "2025-06-01T00:00:00+09:00", "amendment_promulgate_date": "2023-06-23",
            "amendment_enforcement_date": when, "amendment_enforcement_comment": None,
            "amendment_scheduled_enforcement_date": None, "amendment_law_id": rid[-15:],
            "amendment_law_title": "刑法等の一部を改正する法律", "amendment_law_title_kana": None,
            "amendment_law_num": "令和四年法律第六十七号", "amendment_type": "3",
            "repeal_status": "None", "repeal_date": None, "remain_in_force": False,
            "mission": "Partial", "current_revision_status": status}


REVISIONS = {"law_info": {"law_type": "Act", "law_id": LAW, "law_num": "明治四十年法律第四十五号",
                          "law_num_era": "Meiji", "law_num_year": 40, "law_num_type": "Act",
                          "law_num_num": "045", "promulgation_date": "1907-04-24"},
             "revisions": [_rev(NEW, "2025-06-01", "CurrentEnforced"),
                           _rev(OLD, "2023-07-13", "PreviousEnforced")]}


def law_xml(penalty: str) -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<law_data_response><law_full_text>
<Law Era="Meiji" Year="40" Num="045" LawType="Act" Lang="ja"><LawNum>明治四十年法律第四十五号</LawNum>
<LawBody><LawTitle>刑法</LawTitle><MainProvision>
<Article Num="199"><ArticleCaption>（殺人）</ArticleCaption><ArticleTitle>第百九十九条</ArticleTitle>
<Paragraph Num="1"><ParagraphNum/><ParagraphSentence><Sentence>人を殺した者は、死刑又は無期若しくは五年以上の{penalty}に処する。</Sentence></ParagraphSentence></Paragraph>
</Article></MainProvision></LawBody></Law></law_full_text></law_data_response>""".encode()


class Handler(BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        Handler.seen.append(self.path)
        if self.path == f"/api/2/law_revisions/{LAW}":
            self._send(200, json.dumps(REVISIONS, ensure_ascii=False).encode(), "application/json")
        elif self.path.startswith(f"/api/2/law_data/{NEW}?"):
            self._send(200, law_xml("拘禁刑"), "application/xml")
        elif self.path.startswith(f"/api/2/law_data/{OLD}?"):
            self._send(200, law_xml("懲役"), "application/xml")
        elif self.path.startswith("/api/2/law_revisions/redirect"):
            self.send_response(302)
            self.send_header("Location", "http://elsewhere.example/x")
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self._send(404, b"{}", "application/json")

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def api() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/api/2"
    finally:
        server.shutdown()
        server.server_close()


def test_revisions_and_law_data(api: str) -> None:
    with EgovClient(api, timeout=5) as client:
        revs, raw = client.law_revisions(LAW)
        assert [r.revision_id for r in revs] == [OLD, NEW]
        assert json.loads(raw) == REVISIONS
        xml = client.law_data(NEW)
    assert "拘禁刑".encode() in xml
    assert any("law_full_text_format=xml" in p for p in Handler.seen)


def test_fetch_into_store_as_of(api: str, tmp_path: Path) -> None:
    pytest.importorskip("buildds.laws.readers")
    with EgovClient(api, timeout=5) as client:
        v = fetch_into_store(tmp_path, LAW, as_of=date(2024, 1, 1), client=client)
        assert v.revision_id == OLD
        latest = fetch_into_store(tmp_path, LAW, client=client)
    assert latest.revision_id == NEW
    store = LawStore(tmp_path)
    assert [x.valid_to for x in store.versions(LAW)] == [date(2025, 6, 1), None]
    assert "拘禁刑" in store.article_at(LAW, "199", date(2025, 7, 1)).flat
    assert (tmp_path / "raw" / f"{LAW}_law_revisions.json").is_file()
    assert (tmp_path / "raw" / f"{NEW}.xml").is_file()


def test_http_errors_and_redirects(api: str) -> None:
    with EgovClient(api, timeout=5) as client:
        with pytest.raises(EgovError, match="HTTP 404"):
            client.law_revisions("999AC0000000999")
        with pytest.raises(EgovError, match="redirected to 'http://elsewhere.example/x'"):
            client.get("law_revisions/redirect")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_offline_says_what_to_download(tmp_path: Path) -> None:
    api = f"http://127.0.0.1:{_free_port()}/api/2"  # nothing listens: connection refused
    with EgovClient(api, timeout=5) as client, pytest.raises(EgovUnreachable) as info:
        fetch_into_store(tmp_path, LAW, client=client)
    msg = str(info.value)
    assert f"{api}/law_revisions/{LAW}" in msg
    assert str(tmp_path / "raw" / f"{LAW}_law_revisions.json") in msg
    assert "buildds laws import" in msg
    assert not (tmp_path / "raw").exists()
