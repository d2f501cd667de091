"""``send_files``: the OpenAI backend hands a request's original files (PDF, images) to the
endpoint as content parts, against the local scripted server (both HTTP clients)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.errors import BuildError
from buildds.evaluate.backends.openai import OpenAIBackend
from buildds.evaluate.cache import CachedBackend, ResponseCache
from buildds.evaluate.runner.backends import options_for
from buildds.schema.evaluation import Attachment, ChatMessage, ChatRequest
from tests.conftest import simple_pdf_bytes
from tests.evaluate.openai_server import OpenAITestServer

PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.fixture(params=["asyncio", "httpx"])
def server(request):
    with OpenAITestServer(stall_s=5.0) as srv:
        srv.http_client = request.param
        yield srv


def backend(server, **kw) -> OpenAIBackend:
    kw.setdefault("backoff_base_s", 0.01)
    kw.setdefault("timeout_s", 5.0)
    return OpenAIBackend("test-model", base_url=server.base_url,
                         http_client=server.http_client, **kw)


def attach(path: Path, media_type: str, data: bytes | None = None, *,
           sha256: str | None = None) -> Attachment:
    """Writes ``data`` (when given) to ``path`` and describes it."""
    if data is not None:
        path.write_bytes(data)
    sha = sha256 or hashlib.sha256(path.read_bytes()).hexdigest()
    return Attachment(name=path.name, sha256=sha, media_type=media_type, path=str(path))


def png_bytes() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 3), (200, 10, 10)).save(buf, format="PNG")
    return buf.getvalue()


def req(text: str, *attachments: Attachment) -> ChatRequest:
    return ChatRequest(messages=(ChatMessage(role="system", content="Answer."),
                                 ChatMessage(role="user", content=text)),
                       attachments=attachments, sample_id="s1", attempt=1)


def decode(url: str, media_type: str) -> bytes:
    prefix = f"data:{media_type};base64,"
    assert url.startswith(prefix)
    return base64.b64decode(url[len(prefix):], validate=True)


def test_pdf_and_png_go_after_the_text_and_docx_is_left_out(server, tmp_path, caplog):
    pdf, png = simple_pdf_bytes("Notice period: 30 days."), png_bytes()
    files = (attach(tmp_path / "contract.pdf", PDF, pdf),
             attach(tmp_path / "memo.docx", DOCX, b"PK\x03\x04 not really a docx"),
             attach(tmp_path / "plan.png", "image/png", png))
    with caplog.at_level("INFO", logger="buildds.evaluate.backends.openai"):
        result = asyncio.run(backend(server, send_files=True).complete(req("q [answer:7]", *files)))
    assert (result.text, result.error, result.attempts) == ("7", None, 1)
    [body] = server.bodies
    assert body["messages"][0] == {"role": "system", "content": "Answer."}
    content = body["messages"][1]["content"]
    assert [p["type"] for p in content] == ["text", "file", "image_url"]
    assert content[0] == {"type": "text", "text": "q [answer:7]"}
    assert set(content[1]) == {"type", "file"}
    assert set(content[1]["file"]) == {"filename", "file_data"}
    assert content[1]["file"]["filename"] == "contract.pdf"
    assert decode(content[1]["file"]["file_data"], PDF) == pdf
    assert set(content[2]["image_url"]) == {"url"}
    assert decode(content[2]["image_url"]["url"], "image/png") == png
    assert "memo" not in json.dumps(body)
    assert "not sent" in caplog.text and DOCX in caplog.text


def test_images_of_each_accepted_type(server, tmp_path):
    files = tuple(attach(tmp_path / f"i.{ext}", mt, f"{ext} bytes".encode())
                  for ext, mt in (("jpg", "image/jpeg"), ("gif", "image/gif"),
                                  ("webp", "image/webp"), ("tif", "image/tiff")))
    result = asyncio.run(backend(server, send_files=True).complete(req("q", *files)))
    assert result.error is None
    parts = server.bodies[0]["messages"][-1]["content"][1:]
    assert [decode(p["image_url"]["url"], mt) for p, mt in
            zip(parts, ("image/jpeg", "image/gif", "image/webp"), strict=True)] == [
        b"jpg bytes", b"gif bytes", b"webp bytes"]  # tiff: not an accepted input


def test_send_files_off_sends_exactly_what_it_always_sent(server, tmp_path):
    pdf = attach(tmp_path / "contract.pdf", PDF, simple_pdf_bytes("x"))
    plain, with_files = req("q"), req("q", pdf)
    b = backend(server)
    asyncio.run(b.complete_many([plain, with_files]))
    assert server.bodies[0] == server.bodies[1]
    assert server.bodies[0]["messages"][1] == {"role": "user", "content": "q"}
    before = json.dumps({"model": "test-model",
                         "messages": [{"role": "system", "content": "Answer."},
                                      {"role": "user", "content": "q"}],
                         "temperature": 0.0, "max_tokens": 1000}, ensure_ascii=False).encode()
    assert b._payload(with_files) == b._payload(plain) == before


def test_nothing_sendable_means_the_plain_body(server, tmp_path):
    docx = attach(tmp_path / "memo.docx", DOCX, b"PK")
    b = backend(server, send_files=True)
    result = asyncio.run(b.complete(req("q", docx)))
    assert result.error is None
    assert server.bodies[0]["messages"][1] == {"role": "user", "content": "q"}


def test_changed_file_is_an_error_and_nothing_is_sent(server, tmp_path):
    pdf = attach(tmp_path / "contract.pdf", PDF, b"%PDF-1.4 original")
    (tmp_path / "contract.pdf").write_bytes(b"%PDF-1.4 edited")
    result = asyncio.run(backend(server, send_files=True).complete(req("q", pdf)))
    assert result.text is None and result.attempts == 0
    assert "'contract.pdf'" in result.error and "sha256" in result.error
    assert server.total == 0


def test_missing_file_is_an_error_and_nothing_is_sent(server, tmp_path):
    gone = Attachment(name="gone.pdf", sha256="0" * 64, media_type=PDF,
                      path=str(tmp_path / "gone.pdf"))
    no_path = Attachment(name="nowhere.png", sha256="0" * 64, media_type="image/png")
    b = backend(server, send_files=True)
    results = asyncio.run(b.complete_many([req("a", gone), req("b", no_path)]))
    assert "'gone.pdf'" in results[0].error and "cannot read" in results[0].error
    assert "'nowhere.png'" in results[1].error
    assert all(r.text is None for r in results)
    assert server.total == 0


def test_files_over_the_limit_are_an_error(server, tmp_path):
    a = attach(tmp_path / "a.pdf", PDF, b"%PDF" + b"a" * 60)
    c = attach(tmp_path / "c.png", "image/png", b"b" * 50)
    b = backend(server, send_files=True, max_file_bytes=100)
    one, both = asyncio.run(b.complete_many([req("one", a), req("both", a, c)]))
    assert one.error is None
    assert both.text is None and "'c.png'" in both.error and "max_file_bytes" in both.error
    assert server.total == 1
    with pytest.raises(BuildError):
        backend(server, max_file_bytes=0)


def test_cache_keeps_answers_with_files_apart(server, tmp_path):
    pdf = attach(tmp_path / "contract.pdf", PDF, simple_pdf_bytes("x"))
    off, on = backend(server), backend(server, send_files=True)
    assert off.cache_namespace == f"openai:test-model@{server.base_url}"
    assert on.cache_namespace == f"openai:test-model+files@{server.base_url}"
    assert "send_files" not in off.settings()
    assert on.settings()["send_files"] is True
    with ResponseCache(tmp_path / "c.sqlite") as cache:
        c_off, c_on = CachedBackend(off, cache), CachedBackend(on, cache)
        assert c_off.key(req("q", pdf)) != c_on.key(req("q", pdf))
        asyncio.run(c_off.complete(req("q", pdf)))
        hit = asyncio.run(c_on.complete(req("q", pdf)))
        assert not hit.cached and server.total == 2  # asked again, with the file
        assert isinstance(server.bodies[1]["messages"][1]["content"], list)
        assert asyncio.run(c_on.complete(req("q", pdf))).cached


def test_runner_and_cli_pass_send_files(monkeypatch, tmp_path):
    assert options_for("openai:m", {"send_files": True, "rpm": None}) == {"send_files": True}
    assert options_for("mock", {"send_files": True}) == {}
    seen: list[dict] = []

    def fake_run_eval(dataset, **kw):
        seen.append(kw["backend_options"])
        raise BuildError("stop here")

    monkeypatch.setattr("buildds.evaluate.runner.run_eval", fake_run_eval)
    from buildds.commands.eval import eval_cmd

    for flag, expected in (([], None), (["--send-files"], True)):
        res = CliRunner().invoke(eval_cmd, [str(tmp_path), "--model", "mock", "--out",
                                            str(tmp_path / "o"), *flag])
        assert "stop here" in res.output
        assert seen[-1]["send_files"] is expected


def test_highbar_run_sends_the_task_pdf(server, tmp_path):
    """run_eval → highbar requests (attachments with paths) → the backend → the wire."""
    from buildds.evaluate.backends import make_backend
    from buildds.evaluate.runner import run_eval
    from tests.evaluate.tasks.highbar.helpers import KeywordJudge, write_task

    root = tmp_path / "tasks"
    folder = write_task(root, "t1", document=None)
    pdf = simple_pdf_bytes("1. Either party may terminate on 30 days' notice.")
    (folder / "documents" / "contract.pdf").write_bytes(pdf)

    def factory(spec: str, **options):
        if spec.startswith("judge:"):
            return KeywordJudge(spec)
        return make_backend(spec, http_client=server.http_client, **options)

    run_eval(root, task="highbar", models=["openai:test-model"],
             judges=["judge:a", "judge:b"], form_judges=["judge:a", "judge:b"],
             out=tmp_path / "out", backend_factory=factory,
             backend_options={"base_url": server.base_url, "send_files": True})
    assert len(server.bodies) == 2  # run 1 and run 2
    for body in server.bodies:
        text, part = body["messages"][-1]["content"]
        assert "30 days" in text["text"]  # the extracted text stays in the prompt
        assert part["file"]["filename"] == "contract.pdf"
        assert decode(part["file"]["file_data"], PDF) == pdf
