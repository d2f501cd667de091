"""The article-JSONL reader: the store's own files and a provider's per-article dump (extra
keys ignored, text_hash computed), chosen by read_law from the content; bad files named; on
the real 民法 2026-01 dump (skipped without ../shared)."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from pathlib import Path

import pytest

from buildds.errors import ExtractError
from buildds.laws.readers import read_article_jsonl, read_law, sniff_law_format
from buildds.laws.revisions import Revision
from buildds.laws.store import LawStore
from tests.conftest import shared_path

ROW = {"law_id": "129AC0000000089", "law_title": "民法", "version": "x", "as_of": "2026-01",
       "source": "provider", "article": "1", "article_title": "第一条", "caption": "（基本原則）",
       "deleted": False, "paragraphs": [{"num": 1, "sentence": "私権は、公共の福祉に適合しなければならない。",
                                         "items": []}],
       "text": "私権は、公共の福祉に適合しなければならない。",
       "flat": "私権は、公共の福祉に適合しなければならない。"}


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def test_provider_rows(tmp_path: Path) -> None:
    rows = [ROW, {**ROW, "article": "1_2", "article_title": "第一条の二", "caption": None}]
    path = _write(tmp_path / "a.jsonl", rows)
    assert sniff_law_format(path.read_bytes()) == "article_jsonl"
    text = read_law(path)
    assert (text.law_id, text.law_title, [a.article for a in text.articles]) == (
        "129AC0000000089", "民法", ["1", "1_2"])
    assert text.articles[0].text_hash == hashlib.sha256(ROW["flat"].encode()).hexdigest()
    assert text.suppl_provisions == ()


def test_store_round_trip(tmp_path: Path) -> None:
    text = read_article_jsonl(_write(tmp_path / "a.jsonl", [ROW]))
    rid = "129AC0000000089_20250601_504AC0000000068"
    store = LawStore(tmp_path / "s")
    store.import_text(text, Revision(law_id=text.law_id, revision_id=rid,
                                     valid_from=date(2025, 6, 1), sources="t"))
    again = read_law(tmp_path / "s" / text.law_id / f"{rid}.jsonl")
    assert again.articles == text.articles and again.law_title == text.law_id


@pytest.mark.parametrize(("rows", "message"), [
    ([ROW, {**ROW}], "article 1 twice"),
    ([ROW, {**ROW, "article": "2", "law_id": "140AC0000000045"}], "law 140AC0000000045"),
    ([ROW, {**ROW, "article": "2", "flat": 3}], "line 2 .article 2.: not an article"),
    ([ROW, {**ROW, "article": "2", "text_hash": "0" * 64}],
     "line 2 .article 2.: text_hash is not the sha256 of flat"),
    ([{**ROW, "article": "../x"}], "line 1: '../x' is not an article key"),
    ([{**ROW, "article": "3_0"}], "line 1: '3_0' is not an article key"),
])
def test_bad_rows(tmp_path: Path, rows: list[dict], message: str) -> None:
    path = _write(tmp_path / "bad.jsonl", rows)
    with pytest.raises(ExtractError, match=message) as info:
        read_law(path)
    assert "bad.jsonl" in str(info.value)


def test_not_json_after_the_first_line(tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text(json.dumps(ROW, ensure_ascii=False) + "\n{oops\n", "utf-8")
    with pytest.raises(ExtractError, match="line 2: not JSON"):
        read_law(path)


def test_real_civil_code_2026() -> None:
    text = read_law(shared_path("realdata", "laws", "jp-civil-code", "articles_2026-01.jsonl"))
    assert text.law_id == "129AC0000000089" and text.law_title == "民法"
    assert len(text.articles) == 1224
