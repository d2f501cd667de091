"""Backends against a local OpenAI-compatible server (tests/evaluate/openai_server.py),
and the offline baselines. Nothing leaves 127.0.0.1."""

from __future__ import annotations

import asyncio
import gzip
import json
import logging
import time
from email.utils import formatdate

import httpx
import pytest

from buildds.errors import BuildError, ExtractError, MissingDependency
from buildds.evaluate.backends import Backend, make_backend
from buildds.evaluate.backends.base import EndpointRefused
from buildds.evaluate.backends.baselines import MajorityBackend, RandomBackend, TfidfBackend
from buildds.evaluate.backends.http_transport import ProtocolError, Reply, ResponseReader
from buildds.evaluate.backends.openai import OpenAIBackend, TokenBucket, parse_retry_after
from buildds.evaluate.backends.openai.request import token_estimate
from buildds.evaluate.cache import CachedBackend, ResponseCache
from buildds.schema.evaluation import ChatMessage, ChatRequest, ChatResult
from tests.evaluate.openai_server import BAD_ANSWER, OpenAITestServer

SECRET = "sk-test-very-secret-0123456789"


def req(text: str, sample_id: str | None = None, **kw) -> ChatRequest:
    return ChatRequest(
        messages=(ChatMessage(role="system", content="Answer 1 or 0."), ChatMessage(role="user", content=text)),
        sample_id=sample_id,
        **kw,
    )


@pytest.fixture(params=["asyncio", "httpx"])
def server(request):
    """The scripted server; every test that uses it runs with both HTTP clients of the
    OpenAI backend (``backend()`` reads ``srv.http_client``)."""
    with OpenAITestServer(stall_s=5.0) as srv:
        srv.http_client = request.param
        yield srv


@pytest.fixture
def key_env(monkeypatch):
    monkeypatch.setenv("BUILDDS_TEST_KEY", SECRET)
    return "BUILDDS_TEST_KEY"


def backend(server, key_env=None, **kw) -> OpenAIBackend:
    kw.setdefault("backoff_base_s", 0.01)
    kw.setdefault("timeout_s", 5.0)
    kw.setdefault("http_client", getattr(server, "http_client", None))
    if key_env:
        kw["api_key_env"] = key_env
    return OpenAIBackend("test-model", base_url=server.base_url, **kw)


def test_protocol_and_specs(server):
    b = make_backend("openai:test-model", base_url=server.base_url)
    assert isinstance(b, Backend)
    assert b.name == "openai:test-model"
    assert make_backend("mock").name == "mock"
    assert make_backend("mock:bad").name == "mock:bad"
    assert make_backend("random:7").name == "random:7"
    assert make_backend("majority").name == "majority"
    assert make_backend("tfidf").name == "tfidf"
    for spec in ("nope", "openai", "random:x", "mock:weird", "replay"):
        with pytest.raises(BuildError):
            make_backend(spec)


def test_default_openai_url_needs_a_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(BuildError, match=r"set \$OPENAI_API_KEY"):
        make_backend("openai:gpt-4o")


def test_answers_and_request_body(server):
    b = backend(server)
    results = asyncio.run(
        b.complete_many([req("q1 [answer:1]"), req("q2 [answer:0]"), req("q3 [bad]")])
    )
    assert [r.text for r in results] == ["1", "0", BAD_ANSWER]
    assert all(r.error is None and r.attempts == 1 for r in results)
    assert results[0].usage["total_tokens"] > 0
    assert server.counts == {"q1 [answer:1]": 1, "q2 [answer:0]": 1, "q3 [bad]": 1}
    body = server.bodies[0]
    assert body["model"] == "test-model"
    assert body["temperature"] == 0.0 and body["max_tokens"] == 1000
    assert body["messages"][0] == {"role": "system", "content": "Answer 1 or 0."}
    assert server.authorization == [None, None, None]  # no key configured, none sent


def test_429_honours_retry_after(server, retry_waits):
    b = backend(server)
    result = asyncio.run(b.complete(req("slow down [fail:429:1]")))
    assert len(retry_waits) == 1 and 1.0 <= retry_waits[0] <= 1.1  # Retry-After: 1, + jitter
    assert result.text == "1" and result.attempts == 2
    assert server.counts["slow down [fail:429:1]"] == 2


def test_500_retried_then_succeeds(server):
    result = asyncio.run(backend(server).complete(req("flaky [fail:500:2]")))
    assert (result.text, result.error, result.attempts) == ("1", None, 3)
    assert server.counts["flaky [fail:500:2]"] == 3


def test_500_gives_up_after_max_attempts(server):
    result = asyncio.run(backend(server, max_attempts=3).complete(req("down [fail:500:99]")))
    assert result.text is None
    assert result.error == "http 500 (gave up after 3 tries)"
    assert result.attempts == 3
    assert server.counts["down [fail:500:99]"] == 3


def test_400_not_retried(server):
    result = asyncio.run(backend(server).complete(req("bad request [fail:400:99]")))
    assert result.error.startswith("http 400")
    assert server.counts["bad request [fail:400:99]"] == 1


def test_stall_times_out_without_blocking_others(server):
    b = backend(server, timeout_s=1.5, max_attempts=1)
    requests = [req("stuck [stall]")] + [req(f"fine {i}") for i in range(5)]
    order: list[int] = []
    results = asyncio.run(b.complete_many(requests, on_result=lambda i, r: order.append(i)))
    # the stuck request timed out and did not hold the others: they all came back first
    assert sorted(order[:5]) == [1, 2, 3, 4, 5] and order[5] == 0
    assert results[0].text is None and results[0].error == "timeout"
    assert [r.text for r in results[1:]] == ["1"] * 5


def test_stall_is_retried_up_to_max_attempts(server):
    result = asyncio.run(backend(server, timeout_s=0.5, max_attempts=2).complete(req("stuck [stall]")))
    assert result.error == "timeout (gave up after 2 tries)"
    assert server.counts["stuck [stall]"] == 2


@pytest.mark.parametrize("http_client", ["asyncio", "httpx"])
def test_connection_error_recorded(http_client):
    b = OpenAIBackend("m", base_url="http://127.0.0.1:9/v1", max_attempts=2, backoff_base_s=0.01,
                      http_client=http_client)
    result = asyncio.run(b.complete(req("x")))
    assert result.text is None and result.error.startswith("connection error")
    assert result.attempts == 2


def test_api_key_sent_but_never_shown(server, key_env, caplog):
    caplog.set_level(logging.DEBUG)
    b = backend(server, key_env, max_attempts=2)
    results = asyncio.run(
        b.complete_many([req("ok"), req("fails [fail:500:99]"), req("rejected [fail:400:99]")])
    )
    assert set(server.authorization) == {f"Bearer {SECRET}"}
    assert results[0].text == "1"
    assert results[1].error and results[2].error
    # a 401 stops the run: its message names the backend and the key's variable, not the key
    with pytest.raises(EndpointRefused) as refused:
        asyncio.run(b.complete_many([req("rejected [echo-auth:401]")]))
    assert SECRET not in str(refused.value) and key_env in str(refused.value)
    assert SECRET not in caplog.text
    assert caplog.records  # the retry was logged, without the key
    assert SECRET not in json.dumps(b.settings())
    assert SECRET not in repr(b)
    assert all(SECRET not in (r.error or "") for r in results)
    assert b._redact(f"echoed {SECRET} back") == "echoed *** back"


@pytest.mark.parametrize("http_client", ["asyncio", "httpx"])
def test_concurrency_bound_respected(http_client):
    with OpenAITestServer(latency=0.05) as server:
        b = OpenAIBackend("m", base_url=server.base_url, concurrency=4, http_client=http_client)
        asyncio.run(b.complete_many([req(f"q{i}") for i in range(24)]))
        assert server.max_in_flight == 4


@pytest.mark.parametrize("http_client", ["asyncio", "httpx"])
def test_server_and_client_handle_64_concurrent(http_client):
    with OpenAITestServer(latency=0.2) as server:
        b = OpenAIBackend("m", base_url=server.base_url, concurrency=64, http_client=http_client)
        results = asyncio.run(b.complete_many([req(f"q{i}") for i in range(128)]))
        assert all(r.text == "1" for r in results)
        # 64 really in flight at once (speed itself is measured in benchmarks/, not here)
        assert server.max_in_flight == 64


def _on_a_virtual_clock(monkeypatch, b: OpenAIBackend, attr: str, rate_per_min: float,
                        window_s: float) -> list[tuple[float, ChatRequest | bytes]]:
    """Puts ``b``'s rate limiter ``attr`` on a virtual clock that only the limiter's sleeps
    advance, and records each try as (virtual time, body): the test counts what the limiter
    let through by then, whatever the machine's load (issue 16: no wall-clock thresholds)."""
    now = [0.0]
    setattr(b, attr, TokenBucket(rate_per_min, window_s=window_s, clock=lambda: now[0]))
    real_sleep = asyncio.sleep

    async def virtual_sleep(delay: float, result=None):
        now[0] += max(0.0, delay)
        await real_sleep(0)
        return result

    monkeypatch.setattr(asyncio, "sleep", virtual_sleep)
    sent: list[tuple[float, bytes]] = []
    real_attempt = b._attempt

    async def attempt(http, body: bytes):
        sent.append((now[0], body))
        return await real_attempt(http, body)

    monkeypatch.setattr(b, "_attempt", attempt)
    return sent


def test_rpm_limit_respected(server, monkeypatch):
    # 600 rpm with a 0.1 s window: a bucket of one request, refilled every 0.1 s
    b = backend(server, rpm=600, rate_window_s=0.1)
    sent = _on_a_virtual_clock(monkeypatch, b, "_requests_bucket", 600, 0.1)
    results = asyncio.run(b.complete_many([req(f"q{i}") for i in range(10)]))
    assert [r.text for r in results] == ["1"] * 10 and server.total == 10
    times = [t for t, _ in sent]
    assert len(times) == 10 and times == sorted(times)
    # by virtual time t, at most 1 + 10·t requests were let through; all 10 needed 0.9 s
    for k, t in enumerate(times):
        assert k + 1 <= 1 + 10 * t + 1e-9, (k, t)
    assert times[-1] == pytest.approx(0.9, abs=1e-6)


def test_tpm_limit_respected(server, monkeypatch):
    # 6000 tpm = 100 tokens/s with a 0.25 s window: a bucket of 25 tokens
    b = backend(server, tpm=6000, rate_window_s=0.25)
    sent = _on_a_virtual_clock(monkeypatch, b, "_tokens_bucket", 6000, 0.25)
    requests = [req(f"q{i:04d}", max_tokens=10) for i in range(6)]
    asyncio.run(b.complete_many(requests))
    assert len(sent) == 6 and server.total == 6
    cost = token_estimate(requests[0])
    assert all(token_estimate(r) == cost for r in requests) and cost > 1
    # by virtual time t, the tokens let through are at most the bucket + 100·t
    for k, (t, _) in enumerate(sent):
        assert (k + 1) * cost <= 25 + 100 * t + 1e-9, (k, t)
    assert sent[-1][0] >= (6 * cost - 25) / 100 - 1e-9  # the limit really held them back


def test_token_bucket_oversized_cost_does_not_deadlock():
    bucket = TokenBucket(60, window_s=1.0)  # capacity 1
    assert bucket.wait_time(50) == 0.0  # a full bucket lets one oversized request through
    assert bucket.wait_time(50) > 0


def test_parse_retry_after():
    assert parse_retry_after("1") == 1.0
    assert parse_retry_after("0.5") == 0.5
    now = time.time()
    assert 4 <= parse_retry_after(formatdate(now + 5, usegmt=True), now=now) <= 5.5
    assert parse_retry_after(formatdate(now - 5, usegmt=True), now=now) == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


def test_same_backend_across_event_loops(server):
    b = backend(server)
    assert asyncio.run(b.complete(req("a"))).text == "1"
    assert asyncio.run(b.complete(req("b"))).text == "1"


def test_results_in_input_order_and_on_result_sees_all(server):
    b = backend(server, concurrency=8)
    # later requests answer sooner: completion order differs from input order
    requests = [req(f"q{i} [latency:{(10 - i) * 0.01}] [answer:{i}]") for i in range(10)]
    seen: list[int] = []
    results = asyncio.run(b.complete_many(requests, on_result=lambda i, r: seen.append(i)))
    assert [r.text for r in results] == [str(i) for i in range(10)]
    assert sorted(seen) == list(range(10)) and seen != list(range(10))


# -- the HTTP clients ---------------------------------------------------------------------


def test_server_hanging_up_after_each_answer():
    """Servers close idle keep-alive connections: the asyncio client notices and reconnects
    (or retries at once on a new connection) without spending one of the sample's tries."""
    with OpenAITestServer(keep_alive=False) as server:
        b = OpenAIBackend("m", base_url=server.base_url, concurrency=2, backoff_base_s=5.0)
        results = asyncio.run(b.complete_many([req(f"q{i}") for i in range(20)]))
    assert [(r.text, r.error, r.attempts) for r in results] == [("1", None, 1)] * 20


def test_http_client_choice(monkeypatch):
    for name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BUILDDS_TEST_KEY", SECRET)
    local = "http://127.0.0.1:9/v1"
    assert OpenAIBackend("m", base_url=local).http_client == "asyncio"
    assert OpenAIBackend("m", base_url=local, http_client="httpx").http_client == "httpx"
    mock = httpx.MockTransport(lambda r: httpx.Response(200))
    assert OpenAIBackend("m", base_url=local, transport=mock).http_client == "httpx"
    # remote https APIs go through httpx (TLS, odd servers), unless asked otherwise
    assert OpenAIBackend("m", api_key_env="BUILDDS_TEST_KEY").http_client == "httpx"
    assert OpenAIBackend("m", api_key_env="BUILDDS_TEST_KEY",
                         http_client="asyncio").http_client == "asyncio"
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.invalid:3128")
    remote = OpenAIBackend("m", api_key_env="BUILDDS_TEST_KEY")
    assert remote.http_client == "httpx"  # httpx goes through the proxy
    with pytest.raises(BuildError):
        OpenAIBackend("m", base_url=local, http_client="curl")
    with pytest.raises(BuildError, match="http"):
        OpenAIBackend("m", base_url="ftp://127.0.0.1/v1")
    with pytest.raises(BuildError):
        OpenAIBackend("m", base_url=local, transport=mock, http_client="asyncio")
    monkeypatch.setenv("BUILDDS_TEST_KEY", SECRET + "\r\nX-Injected: 1")
    with pytest.raises(BuildError, match="line break") as info:
        OpenAIBackend("m", base_url=local, api_key_env="BUILDDS_TEST_KEY")
    assert SECRET not in str(info.value)


def test_httpx_transport_retries_after_429():
    replies = iter([
        httpx.Response(429, headers={"Retry-After": "0"}, json={"error": {}}),
        httpx.Response(200, json={"choices": [{"message": {"content": "0"}}]}),
    ])
    b = OpenAIBackend("m", base_url="http://model.invalid/v1",
                      transport=httpx.MockTransport(lambda r: next(replies)))
    result = asyncio.run(b.complete(req("x")))
    assert (result.text, result.error, result.attempts) == ("0", None, 2)


def _read(chunks: list[bytes]) -> ResponseReader | Reply:
    """Feeds ``chunks`` one by one; the reply, or the reader if none came."""
    reader = ResponseReader()
    for chunk in chunks:
        reply = reader.feed(chunk)
        if reply is not None:
            return reply
    return reader


def _bytewise(data: bytes) -> list[bytes]:
    return [data[i : i + 1] for i in range(len(data))]


def test_response_reader_content_length_and_chunked():
    plain = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nRetry-After: 3\r\n\r\nhello"
    assert _read(_bytewise(plain)) == Reply(200, "3", b"hello")
    chunked = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
               b"4;ext=1\r\nhell\r\n1\r\no\r\n0\r\n\r\n")
    assert _read(_bytewise(chunked)) == Reply(200, None, b"hello")
    trailers = chunked[:-2] + b"X-Trailer: 1\r\n\r\n"
    assert _read([trailers[:-3], trailers[-3:]]) == Reply(200, None, b"hello")
    interim = b"HTTP/1.1 100 Continue\r\n\r\n" + plain
    assert _read([interim]) == Reply(200, "3", b"hello")
    body = gzip.compress(b'{"a": 1}')
    zipped = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(body)
    assert _read([zipped + body]) == Reply(200, None, b'{"a": 1}')
    empty = _read([b"HTTP/1.1 204 No Content\r\n\r\n"])
    assert empty == Reply(204, None, b"")


def test_response_reader_connection_end():
    reader = _read([b"HTTP/1.0 200 OK\r\n\r\npart one, ", b"part two"])
    assert isinstance(reader, ResponseReader)
    assert reader.eof() == Reply(200, None, b"part one, part two")
    assert reader.keep_alive is False
    closing = ResponseReader()
    closing.feed(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    assert closing.keep_alive is False
    cut = _read([b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"])
    with pytest.raises(ConnectionResetError):
        cut.eof()
    for bad in (b"SSH-2.0-OpenSSH\r\n\r\n", b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"):
        with pytest.raises(ProtocolError):
            _read([bad])


# -- resume: a killed run is finished by the next one ---------------------------------------


def _run_until(b, requests, stop_after: int) -> set[int]:
    """Run ``requests`` and cancel the run (a kill) once ``stop_after`` answers arrived;
    the indices of the requests answered by then."""
    answered: set[int] = set()

    async def main() -> None:
        task = asyncio.current_task()

        async def on_result(i: int, r: ChatResult) -> None:
            answered.add(i)
            if len(answered) == stop_after:
                task.cancel()
                await asyncio.sleep(0)

        await b.complete_many(requests, on_result=on_result)

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(main())
    return answered


def test_resume_sends_only_missing_requests(server, tmp_path):
    requests = [req(f"item {i}", sample_id=str(i)) for i in range(20)]
    with ResponseCache(tmp_path / "cache.sqlite") as cache:
        b = CachedBackend(backend(server, concurrency=1), cache)
        _run_until(b, requests, stop_after=10)
        assert server.total == 10 and len(cache) == 10
        first = set(server.counts)
        server.reset()
        results = asyncio.run(b.complete_many(requests))
    assert server.total == 10
    assert set(server.counts).isdisjoint(first)
    assert all(n == 1 for n in server.counts.values())
    assert [r.text for r in results] == ["1"] * 20
    assert sum(r.cached for r in results) == 10


def test_resume_under_concurrency_never_resends_an_answer(server, tmp_path):
    requests = [req(f"item {i} [latency:0.02]", sample_id=str(i)) for i in range(20)]
    with ResponseCache(tmp_path / "cache.sqlite") as cache:
        b = CachedBackend(backend(server, concurrency=8), cache)
        answered = _run_until(b, requests, stop_after=10)
        assert len(answered) >= 10 and len(cache) == len(answered)
        server.reset()
        results = asyncio.run(b.complete_many(requests))
    # every answer of the first run comes from the cache and its prompt is never sent again;
    # the rest are sent. (Requests cancelled in flight may still reach a busy server after
    # the reset, so the server's total is not the measure; the prompts are.)
    assert [r.cached for r in results] == [i in answered for i in range(20)]
    sent_again = set(server.counts)
    assert all(requests[i].messages[-1].content not in sent_again for i in answered)
    assert all(requests[i].messages[-1].content in sent_again
               for i in range(20) if i not in answered)
    assert all(r.text == "1" for r in results)


# -- offline backends -------------------------------------------------------------------------


TOY = [
    {"id": f"p{i}", "question": f"apple banana cherry {i}", "answer": True} for i in range(6)
] + [{"id": f"n{i}", "question": f"zebra yak xylophone {i}", "answer": False} for i in range(6)]


def _run_baseline(b, items) -> list[ChatResult]:
    return asyncio.run(b.complete_many([req("ignored", sample_id=it["id"]) for it in items]))


def test_tfidf_learns_separable_toy_data():
    b = make_backend("tfidf", items_by_id={it["id"]: it for it in TOY})
    b.fit(TOY, "answer")
    results = _run_baseline(b, TOY)
    accuracy = sum(r.text == ("1" if it["answer"] else "0") for r, it in zip(results, TOY)) / len(TOY)
    assert accuracy == 1.0
    # a request with no known item is answered from its prompt
    assert asyncio.run(b.complete(req("apple banana cherry"))).text == "1"


def test_tfidf_multilabel_and_multiclass():
    multi = [{"id": str(i), "question": q, "tags": t} for i, (q, t) in enumerate(
        [("cat dog", ["pets"]), ("stock bond", ["money"]), ("cat bond", ["money", "pets"]),
         ("dog cat", ["pets"]), ("bond stock", ["money"]), ("dog stock", ["money", "pets"])] * 2
    )]
    b = TfidfBackend(items_by_id={it["id"]: it for it in multi}, train_items=multi, label_field="tags")
    results = _run_baseline(b, multi)
    assert all(r.text for r in results)
    assert results[0].text == "pets" and results[1].text == "money"
    three = [{"id": str(i), "question": w * 3, "answer": w} for i, w in enumerate(["ab ", "cd ", "ef "] * 3)]
    b3 = TfidfBackend(items_by_id={it["id"]: it for it in three}, train_items=three)
    assert [r.text for r in _run_baseline(b3, three)] == [it["answer"] for it in three]


def test_majority_and_free_text():
    b = MajorityBackend(items_by_id={it["id"]: it for it in TOY})
    b.fit(TOY[:7], "answer")  # 6 True, 1 False
    assert {r.text for r in _run_baseline(b, TOY)} == {"1"}
    refs = [{"id": str(i), "reference": r} for i, r in enumerate(["art. 5", "art. 9", "art. 5"])]
    assert MajorityBackend(train_items=refs, label_field="reference").answer == "art. 5"
    assert b.settings()["answer"] == "1"


def test_baseline_must_be_fitted():
    with pytest.raises(BuildError, match="call fit"):
        asyncio.run(MajorityBackend().complete(req("x", sample_id="1")))


def test_random_is_seeded_and_order_independent():
    items = {str(i): {"id": str(i)} for i in range(50)}
    requests = [req("x", sample_id=str(i)) for i in range(50)]
    a = asyncio.run(RandomBackend(13, items_by_id=items).complete_many(requests))
    b = asyncio.run(RandomBackend(13, items_by_id=items).complete_many(requests[::-1]))
    c = asyncio.run(RandomBackend(14, items_by_id=items).complete_many(requests))
    assert [r.text for r in a] == [r.text for r in b][::-1]
    assert [r.text for r in a] != [r.text for r in c]
    assert {r.text for r in a} == {"0", "1"}
    fitted = RandomBackend(1, train_items=[{"answer": "A"}, {"answer": "B"}, {"answer": "C"}])
    assert {asyncio.run(fitted.complete(req("x", sample_id=str(i)))).text for i in range(40)} == {"A", "B", "C"}


def test_replay(tmp_path):
    path = tmp_path / "samples.jsonl"
    path.write_text('{"id": "a", "raw_output": "1"}\n{"id": "b", "raw_output": "0"}\n', encoding="utf-8")
    b = make_backend(f"replay:{path}")
    results = asyncio.run(b.complete_many([req("x", sample_id=s) for s in ("a", "b", "c")]))
    assert [(r.text, r.error) for r in results] == [("1", None), ("0", None), (None, "no saved output")]
    with pytest.raises(ExtractError, match="replay file not found"):
        make_backend(f"replay:{tmp_path / 'missing.jsonl'}")
    (tmp_path / "bad.jsonl").write_text("not json\n")
    with pytest.raises(BuildError, match="line 1"):
        make_backend(f"replay:{tmp_path / 'bad.jsonl'}")


def test_mock_modes():
    assert asyncio.run(make_backend("mock").complete(req("ab"))).text == "1"
    assert asyncio.run(make_backend("mock").complete(req("abc"))).text == "0"
    assert asyncio.run(make_backend("mock:bad").complete(req("ab"))).text.startswith("1. Explanation")
    assert asyncio.run(make_backend("mock:error").complete(req("ab"))).error == "mock error"
    scripted = make_backend("mock", answers={"x": "yes"})
    assert asyncio.run(scripted.complete(req("ab", sample_id="x"))).text == "yes"
    assert scripted.cacheable is False


def test_hf_missing_path_and_dependency(tmp_path):
    with pytest.raises(ExtractError, match="model folder not found"):
        make_backend(f"hf:{tmp_path / 'nope'}")
    try:
        import transformers  # noqa: F401
    except ImportError:
        with pytest.raises(MissingDependency, match=r"pip install 'buildds\[hf\]'"):
            make_backend(f"hf:{tmp_path}")
    else:  # pragma: no cover
        pytest.skip("transformers is installed")
