"""The review app through Starlette's TestClient: the token gate, CSRF, served files (path
traversal, symlinks), escaping of untrusted item text, stale writes (409), the queue's filters
and progress, and the evidence template fallback."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.review.conftest import JbeSample, jbe_source

pytest.importorskip("starlette", reason="the review extra is not installed")

from starlette.testclient import TestClient

from buildds.review.app import create_app
from buildds.review.security import COOKIE, csrf_token
from buildds.review.sources.base import ReviewItem, StaleVerdict, Verdict

TOKEN = "test-token-123"
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


class FakeSource:
    """An in-memory source: items given, verdicts kept in a dict with a counter version."""

    def __init__(self, out: Path, items: Sequence[ReviewItem], kind: str = "fake"):
        self.kind = kind
        self.out = out
        self._items = list(items)
        self.stored: dict[str, Verdict] = {}
        self.writes: dict[str, int] = {}

    def items(self) -> Sequence[ReviewItem]:
        return self._items

    def verdict_for(self, key: str) -> Verdict | None:
        return self.stored.get(key)

    def version(self, key: str) -> str:
        return str(self.writes.get(key, 0))

    def record(self, verdict: Verdict, expected_version: str) -> str:
        if verdict.key not in {i.key for i in self._items}:
            raise KeyError(verdict.key)
        if expected_version != self.version(verdict.key):
            raise StaleVerdict(verdict.key)
        if verdict.action != "accept" and not verdict.note:
            raise ValueError("a reason is needed")
        self.stored[verdict.key] = verdict
        self.writes[verdict.key] = self.writes.get(verdict.key, 0) + 1
        return self.version(verdict.key)

    def files(self) -> Sequence[Path]:
        return []


def _item(key: str, **kw: Any) -> ReviewItem:
    base: dict[str, Any] = {"key": key, "kind": "fake", "title": f"item {key}",
                            "reasons": ("validation:x",), "facets": {"subject": "A"},
                            "fields": {"text": "t"}, "evidence": {"note": "n"}}
    return ReviewItem(**{**base, **kw})


def client(source: Any, *, login: bool = True) -> TestClient:
    c = TestClient(create_app(source, TOKEN), follow_redirects=False)
    if login:
        c.cookies.set(COOKIE, TOKEN)
    return c


def _form(page: str) -> dict[str, str]:
    return dict(re.findall(r'name="(csrf|version|q)" value="([^"]*)"', page))


# -- the token gate --------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/item/a", "/file?path=report.json", "/page?path=x&page=1",
                                  "/static/review.js"])
def test_no_token_is_403(tmp_path: Path, path: str) -> None:
    c = client(FakeSource(tmp_path, [_item("a")]), login=False)
    assert c.get(path).status_code == 403
    assert c.post("/item/a", data={"action": "accept"}).status_code == 403
    c.cookies.set(COOKIE, "wrong")
    assert c.get(path).status_code == 403
    assert c.get(f"{path}{'&' if '?' in path else '?'}token=wrong").status_code == 403


def test_the_token_sets_a_cookie_and_leaves_the_url(tmp_path: Path) -> None:
    c = client(FakeSource(tmp_path, [_item("a")]), login=False)
    r = c.get(f"/?token={TOKEN}&reason=validation")
    assert r.status_code == 303
    assert r.headers["location"] == "/?reason=validation"
    cookie = r.headers["set-cookie"]
    assert f"{COOKIE}={TOKEN}" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    r = c.get("/?reason=validation")
    assert r.status_code == 200
    assert "default-src 'none'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer"


# -- CSRF ------------------------------------------------------------------------------------

def test_a_post_without_the_csrf_token_is_403(tmp_path: Path) -> None:
    source = FakeSource(tmp_path, [_item("a")])
    c = client(source)
    assert c.post("/item/a", data={"action": "accept", "version": "0"}).status_code == 403
    assert c.post("/item/a", data={"action": "accept", "version": "0",
                                   "csrf": "nope"}).status_code == 403
    assert source.stored == {}
    ok = c.post("/item/a", data={"action": "accept", "version": "0", "csrf": csrf_token(TOKEN)})
    assert ok.status_code == 303
    assert source.stored["a"].action == "accept"
    assert csrf_token(TOKEN) != TOKEN


# -- escaping --------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["fake", "jbe"])
def test_script_in_item_text_renders_as_text(tmp_path: Path, kind: str) -> None:
    evidence = {"note": HOSTILE, "stem": HOSTILE, "question": HOSTILE, "label": "Y",
                "source": HOSTILE, "page": 1, "key_rows": [[HOSTILE, "1", "2"]],
                "statements": [[HOSTILE, HOSTILE]], "options": [], "pdf": None,
                "pdf_problem": HOSTILE, "instruction": HOSTILE, "item_id": HOSTILE}
    item = _item("a", kind=kind, title=HOSTILE, reasons=(HOSTILE,),
                 facets={"subject": HOSTILE}, fields={"text": HOSTILE}, evidence=evidence)
    c = client(FakeSource(tmp_path, [item], kind=kind))
    for page in (c.get("/").text, c.get("/item/a").text, c.get(f"/?reason={HOSTILE}").text):
        assert "<script>alert" not in page and "<img src=x" not in page
        assert "&lt;script&gt;alert(" in page


def test_a_kind_without_its_template_gets_the_default_one(tmp_path: Path) -> None:
    item = _item("a", kind="nosuchkind", evidence={"clause": "第1条", "nested": {"k": [1, 2]}})
    page = client(FakeSource(tmp_path, [item], kind="nosuchkind")).get("/item/a").text
    assert 'class="evidence-default"' in page
    assert "<dt>clause</dt>" in page and "第1条" in page


# -- stale writes ----------------------------------------------------------------------------

def test_a_stale_write_is_409_with_a_message(tmp_path: Path) -> None:
    source = FakeSource(tmp_path, [_item("a"), _item("b")])
    tab1, tab2 = client(source), client(source)
    form1, form2 = _form(tab1.get("/item/a").text), _form(tab2.get("/item/a").text)
    assert form1["version"] == form2["version"] == "0"
    r = tab1.post("/item/a", data={**form1, "action": "reject", "note": "wrong"})
    assert r.status_code == 303 and r.headers["location"] == "/item/b"
    r = tab2.post("/item/a", data={**form2, "action": "accept"})
    assert r.status_code == 409
    assert "Not saved" in r.text and 'role="alert"' in r.text
    assert source.stored["a"].action == "reject"  # the first tab's work is kept
    assert _form(r.text)["version"] == "1"  # the page now carries the current version


def test_a_verdict_the_item_cannot_take_is_400(tmp_path: Path) -> None:
    source = FakeSource(tmp_path, [_item("a")])
    c = client(source)
    form = _form(c.get("/item/a").text)
    r = c.post("/item/a", data={**form, "action": "reject", "note": ""})
    assert r.status_code == 400 and "a reason is needed" in r.text
    assert c.post("/item/a", data={**form, "action": "delete-all"}).status_code == 400
    assert c.post("/item/zzz", data={**form, "action": "accept"}).status_code == 404
    assert source.stored == {}


# -- the queue -------------------------------------------------------------------------------

def test_queue_filters_and_progress(tmp_path: Path) -> None:
    items = [_item("a", reasons=("ocr_low_confidence",), facets={"subject": "A"}),
             _item("b", reasons=("needs_review:rev1",), facets={"subject": "B"}),
             _item("c", reasons=("needs_review:rev2", "spot_check"), facets={"subject": "B"})]
    source = FakeSource(tmp_path, items)
    source.stored["b"] = Verdict(key="b", action="accept")
    c = client(source)

    def keys(query: str) -> list[str]:
        return re.findall(r'<a href="/item/(\w)', c.get(f"/?{query}").text)

    assert keys("") == ["a", "b", "c"]
    assert keys("reason=needs_review") == ["b", "c"]
    assert keys("reason=needs_review:rev2") == ["c"]
    assert keys("subject=B&status=left") == ["c"]
    assert keys("status=done") == ["b"]
    page = c.get("/").text
    assert re.search(r"<strong>1</strong> done · <strong>2</strong> left of 3", page)
    for shortcut in ("accept", "reject", "next item", "previous item"):
        assert shortcut in page  # the keys are documented on the page


def test_after_a_verdict_the_next_item_left_in_the_filtered_queue_opens(tmp_path: Path) -> None:
    items = [_item(k, facets={"subject": s}) for k, s in (("a", "A"), ("b", "B"), ("c", "A"))]
    source = FakeSource(tmp_path, items)
    c = client(source)
    form = _form(c.get("/item/a?subject=A").text)
    assert form["q"] == "subject=A"
    r = c.post("/item/a", data={**form, "action": "accept"})
    assert r.headers["location"] == "/item/c?subject=A"
    form = _form(c.get("/item/c?subject=A").text)
    r = c.post("/item/c", data={**form, "action": "accept"})
    assert r.headers["location"] == "/?subject=A"  # nothing left there: back to the queue


# -- served files ----------------------------------------------------------------------------

def test_files_outside_out_are_404(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.json").write_text("{}", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret", encoding="utf-8")
    (out / "link").symlink_to(secret)
    (out / "dirlink").symlink_to(tmp_path)
    c = client(FakeSource(out, [_item("a")]))
    assert c.get("/file?path=report.json").status_code == 200
    for bad in ("../secret.txt", str(secret), "link", "dirlink/secret.txt", "/etc/passwd",
                "..%2Fsecret.txt", "%2e%2e/secret.txt", "", "report.json%00", ".",
                "../out/../secret.txt"):
        r = c.get(f"/file?path={bad}")
        assert r.status_code == 404, bad
        assert "secret" not in r.text
        assert c.get(f"/page?path={bad}&page=1").status_code == 404, bad
    assert c.get("/static/../app.py").status_code == 404
    assert c.get("/static/app.py").status_code == 404


def test_jbe_inputs_and_pages_are_served(jbe_sample: JbeSample, tmp_path: Path) -> None:
    source = jbe_source(jbe_sample, tmp_path / "corrections")
    c = client(source)
    pdf = jbe_sample.raw / "2025" / "minpo-mondai.pdf"
    r = c.get("/file", params={"path": str(pdf)})
    assert r.status_code == 200 and r.content == pdf.read_bytes()
    assert r.headers["content-security-policy"] == "sandbox"
    r = c.get("/page", params={"path": str(pdf), "page": "2"})
    assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert list((jbe_sample.out / ".review-cache" / "pages").glob("*-p2-*.png"))
    assert c.get("/page", params={"path": str(pdf), "page": "99"}).status_code == 404
    # a file beside the inputs that the build did not read is not served
    stray = jbe_sample.raw / "stray.pdf"
    stray.write_bytes(pdf.read_bytes())
    assert c.get("/file", params={"path": str(stray)}).status_code == 404
