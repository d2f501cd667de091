"""The SQLite response cache: keys, what is stored, concurrency, the wrapper."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from buildds.evaluate.backends.mock import MockBackend
from buildds.evaluate.cache import CachedBackend, ResponseCache, cache_key
from buildds.schema.evaluation import ChatMessage, ChatRequest, ChatResult


def req(text: str, sample_id: str | None = None, **kw) -> ChatRequest:
    return ChatRequest(messages=(ChatMessage(role="user", content=text),), sample_id=sample_id, **kw)


def test_key_same_request_same_key():
    assert cache_key("openai:m", "m", req("q")) == cache_key("openai:m", "m", req("q"))
    # the sample id does not change the answer, so not the key either
    assert cache_key("openai:m", "m", req("q", "a")) == cache_key("openai:m", "m", req("q", "b"))


def test_key_changes_with_what_changes_the_answer():
    base = cache_key("openai:m", "m", req("q"))
    assert cache_key("openai:m", "m", req("q", temperature=1.0)) != base
    assert cache_key("openai:m", "m", req("q", max_tokens=10)) != base
    assert cache_key("openai:m", "m", req("q", extra={"seed": 1})) != base
    assert cache_key("openai:m2", "m2", req("q")) != base
    assert cache_key("openai:m", "m", req("Q")) != base
    assert cache_key("openai:m@http://127.0.0.1:1/v1", "m", req("q")) != base


@given(st.dictionaries(st.text(max_size=5), st.integers(), max_size=4))
@settings(max_examples=50)
def test_key_ignores_dict_order(extra):
    reordered = dict(reversed(list(extra.items())))
    assert cache_key("b", "m", req("q", extra=extra)) == cache_key("b", "m", req("q", extra=reordered))


def test_only_successes_are_stored(tmp_path):
    with ResponseCache(tmp_path / "c.sqlite") as cache:
        ok = ChatResult(text="1", usage={"total_tokens": 3})
        assert cache.put("k1", backend="b", model="m", request=req("q"), result=ok)
        assert not cache.put("k2", backend="b", model="m", request=req("q"), result=ChatResult(text=None, error="timeout"))
        assert len(cache) == 1
        hit = cache.get("k1")
        assert hit.text == "1" and hit.cached and hit.usage == {"total_tokens": 3}
        assert cache.get("k2") is None
    db = sqlite3.connect(tmp_path / "c.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    cols = [r[1] for r in db.execute("PRAGMA table_info(responses)")]
    assert cols == ["key", "backend", "model", "request_json", "result_json", "created"]


def test_errors_are_retried_next_run(tmp_path):
    inner = MockBackend("error")
    with ResponseCache(tmp_path / "c.sqlite") as cache:
        b = CachedBackend(inner, cache)
        asyncio.run(b.complete_many([req("a"), req("b")]))
        asyncio.run(b.complete_many([req("a"), req("b")]))
        assert inner.calls == 4 and len(cache) == 0


def test_cached_backend_hits_and_dedupes(tmp_path):
    inner = MockBackend("parity")
    with ResponseCache(tmp_path / "c.sqlite") as cache:
        b = CachedBackend(inner, cache)
        requests = [req("ab", "1"), req("abc", "2"), req("ab", "3")]  # 1 and 3 are the same request
        first = asyncio.run(b.complete_many(requests))
        assert inner.calls == 2
        assert [r.text for r in first] == ["1", "0", "1"] and not any(r.cached for r in first)
        seen: list[int] = []
        second = asyncio.run(b.complete_many(requests, on_result=lambda i, r: seen.append(i)))
        assert inner.calls == 2
        assert all(r.cached for r in second) and sorted(seen) == [0, 1, 2]
        assert asyncio.run(b.complete(req("ab"))).cached
        assert b.settings()["cache"].endswith("c.sqlite")


def test_uncacheable_backend_passes_through(tmp_path):
    inner = MockBackend("parity", answers={"1": "scripted"})
    with ResponseCache(tmp_path / "c.sqlite") as cache:
        b = CachedBackend(inner, cache)
        asyncio.run(b.complete_many([req("ab", "1"), req("ab", "2")]))
        assert len(cache) == 0 and inner.calls == 2


def test_concurrent_writers(tmp_path):
    with ResponseCache(tmp_path / "c.sqlite") as cache:

        def write(n: int) -> None:
            for i in range(50):
                cache.put(f"{n}-{i}", backend="b", model=None, request=req(str(i)), result=ChatResult(text="1"))

        threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(cache) == 200
    # a second connection (another process, a restarted run) sees every row
    assert sqlite3.connect(tmp_path / "c.sqlite").execute("SELECT COUNT(*) FROM responses").fetchone()[0] == 200


def test_api_key_not_in_cache(tmp_path, monkeypatch):
    from buildds.evaluate.backends.openai import OpenAIBackend

    monkeypatch.setenv("SECRET_ENV", "sk-should-not-be-stored")
    backend = OpenAIBackend("m", base_url="http://127.0.0.1:9/v1", api_key_env="SECRET_ENV")
    with ResponseCache(tmp_path / "c.sqlite") as cache:
        b = CachedBackend(backend, cache)
        cache.put(b.key(req("q")), backend=b.namespace, model=b.model, request=req("q"), result=ChatResult(text="1"))
    for path in tmp_path.iterdir():
        assert b"sk-should-not-be-stored" not in path.read_bytes()
