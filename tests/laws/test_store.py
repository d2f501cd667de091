"""The law store: versions keyed by enforcement date, valid_to chained, articles by date."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from pathlib import Path

import pytest

from buildds.errors import BuildError
from buildds.laws.revisions import Revision
from buildds.laws.store import LawStore, UnenforcedText
from buildds.schema.core import Source
from buildds.schema.laws import LawArticle, LawParagraph, LawText, SupplProvision

LAW = "140AC0000000045"


def article(key: str, sentence: str) -> LawArticle:
    return LawArticle(law_id=LAW, article=key, article_title=f"第{key}条",
                      paragraphs=(LawParagraph(num=1, sentence=sentence),), text=sentence,
                      flat=sentence, text_hash=hashlib.sha256(sentence.encode()).hexdigest())


def law_text(name: str, **articles: str) -> LawText:
    return LawText(law_id=LAW, law_title="刑法",
                   articles=tuple(article(k.lstrip("a"), v) for k, v in articles.items()),
                   source=Source(path=name, sha256="0" * 64))


def rev(day: date, amend: str = "505AC0000000066", **kw: object) -> Revision:
    return Revision(law_id=LAW, revision_id=f"{LAW}_{day:%Y%m%d}_{amend}", valid_from=day,
                    law_title="刑法", **kw)  # type: ignore[arg-type]


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_versions_chain_and_version_at(tmp_path: Path) -> None:
    store = LawStore(tmp_path)
    store.import_text(law_text("b.xml", a199="懲役"), rev(date(2023, 7, 13)))
    store.import_text(law_text("a.txt", a199="懲役旧"), rev(date(2011, 7, 14), "423AC0000000074"))
    v = store.import_text(law_text("c.xml", a199="拘禁刑"), rev(date(2025, 6, 1), "504AC0000000067"))
    assert v.valid_to is None
    got = store.versions(LAW)
    assert [x.valid_to for x in got] == [date(2023, 7, 13), date(2025, 6, 1), None]
    assert store.version_at(LAW, date(2016, 1, 1)).valid_from == date(2011, 7, 14)
    assert store.version_at(LAW, date(2025, 6, 1)).valid_from == date(2025, 6, 1)
    assert store.article_at(LAW, "199", date(2024, 1, 1)).flat == "懲役"
    with pytest.raises(BuildError, match=r"2000-01-01 is before its first version .*2011-07-14"):
        store.version_at(LAW, date(2000, 1, 1))
    # a versions.json put out of order by hand still gives the version in force on a day
    path = tmp_path / LAW / "versions.json"
    path.write_text(json.dumps(list(reversed(json.loads(path.read_text("utf-8")))),
                               ensure_ascii=False), encoding="utf-8")
    assert store.version_at(LAW, date(2016, 1, 1)).valid_from == date(2011, 7, 14)
    assert store.version_at(LAW, date(2030, 1, 1)).valid_from == date(2025, 6, 1)


def test_reimport_is_byte_identical(tmp_path: Path) -> None:
    store = LawStore(tmp_path)
    store.import_text(law_text("a.txt", a1="x"), rev(date(2011, 7, 14), "423AC0000000074"))
    store.import_text(law_text("b.xml", a1="y"), rev(date(2023, 7, 13)))
    before = snapshot(tmp_path)
    store.import_text(law_text("a.txt", a1="x"), rev(date(2011, 7, 14), "423AC0000000074"))
    assert snapshot(tmp_path) == before


def test_same_day_and_wrong_law_are_refused(tmp_path: Path) -> None:
    store = LawStore(tmp_path)
    store.import_text(law_text("b.xml", a1="y"), rev(date(2023, 7, 13)))
    with pytest.raises(BuildError, match="both come into force on 2023-07-13"):
        store.import_text(law_text("c.xml", a1="z"), rev(date(2023, 7, 13), "505AC0000000099"))
    other = Revision(law_id="129AC0000000089", revision_id="129AC0000000089_20230614_x",
                     valid_from=date(2023, 6, 14))
    with pytest.raises(BuildError, match="holds law 140AC0000000045.*129AC0000000089"):
        store.import_text(law_text("d.xml", a1="z"), other)
    assert len(store.versions(LAW)) == 1


def test_article_in_no_version_and_reused_numbers(tmp_path: Path) -> None:
    store = LawStore(tmp_path)
    store.import_text(law_text("a.txt", a208_2="危険運転致死傷"), rev(date(2011, 7, 14), "423AC0000000074"))
    store.import_text(law_text("b.xml", a208_2="凶器準備集合"), rev(date(2023, 7, 13)))
    # 刑法 208条の2: the same number, another offence — the date decides
    assert store.article_at(LAW, "208_2", date(2012, 1, 1)).flat == "危険運転致死傷"
    assert store.article_at(LAW, "208_2", date(2024, 1, 1)).flat == "凶器準備集合"
    with pytest.raises(BuildError, match="article 999 .*in no version"):
        store.article_at(LAW, "999", date(2024, 1, 1))


def test_unenforced_articles_are_reported(tmp_path: Path) -> None:
    store = LawStore(tmp_path)
    v = store.import_text(law_text("c.xml", a154="a", a155="b", a161_2="c", a168="d"),
                          rev(date(2025, 6, 1), "504AC0000000067", unenforced=("155", "167"),
                              unenforced_note="令和7年法律第39号"))
    assert v.unenforced_articles == ("155", "161_2")
    with pytest.raises(UnenforcedText, match="article 155 .*not yet in force.*令和7年法律第39号"):
        store.article_at(LAW, "155", date(2026, 1, 1))
    assert store.article_at(LAW, "155", date(2026, 1, 1), allow_unenforced=True).flat == "b"
    assert store.article_at(LAW, "168", date(2026, 1, 1)).flat == "d"


def test_suppl_provisions_are_kept_beside_the_articles(tmp_path: Path) -> None:
    store = LawStore(tmp_path)
    suppl = (SupplProvision(enforcement_clause="この法律は、公布の日から施行する。",
                            full_text="この法律は、公布の日から施行する。"),
             SupplProvision(amend_law_num="令和五年六月二三日法律第六六号",
                            enforcement_clause="この法律は、令和五年七月十三日から施行する。",
                            full_text="第一条この法律は…。第二条この法律の施行前にした行為に"
                                      "対する罰則の適用については、なお従前の例による。"))
    first = law_text("b.xml", a1="y").model_copy(update={"suppl_provisions": suppl})
    r = rev(date(2023, 7, 13))
    store.import_text(first, r)
    assert store.has_suppl(LAW, r.revision_id)
    assert store.suppl_provisions(LAW, r.revision_id) == suppl
    before = snapshot(tmp_path)
    assert f"{LAW}/{r.revision_id}.suppl.jsonl" in before
    store.import_text(first, r)
    assert snapshot(tmp_path) == before                   # a re-import writes the same bytes
    # a format without 附則 (an article JSONL) keeps an empty file: kept, none printed
    r2 = rev(date(2025, 6, 1), "504AC0000000067")
    store.import_text(law_text("c.jsonl", a1="z"), r2)
    assert store.has_suppl(LAW, r2.revision_id) and store.suppl_provisions(LAW, r2.revision_id) == ()
    # a store written before 附則 were kept still reads: no 附則, and has_suppl says so
    (tmp_path / LAW / f"{r.revision_id}.suppl.jsonl").unlink()
    assert not store.has_suppl(LAW, r.revision_id)
    assert store.suppl_provisions(LAW, r.revision_id) == ()
    assert store.articles(LAW, r.revision_id)[0].flat == "y"
    with pytest.raises(BuildError, match="no version x"):
        store.suppl_provisions(LAW, "x")


def test_another_text_of_a_held_revision_is_refused(tmp_path: Path) -> None:
    store = LawStore(tmp_path)
    store.import_text(law_text("b.html", a199="懲役"), rev(date(2023, 7, 13)))
    before = snapshot(tmp_path)
    other = law_text("old.txt", a199="別の本文")
    other = other.model_copy(update={"source": Source(path="old.txt", sha256="1" * 64)})
    with pytest.raises(BuildError, match=r"holds 140AC0000000045_20230713_505AC0000000066 "
                                         r"from b.html with another text"):
        store.import_text(other, rev(date(2023, 7, 13)))
    assert snapshot(tmp_path) == before
    # the same file re-read (same bytes) may rewrite its version: a reader fixed since
    store.import_text(law_text("b.html", a199="懲役。"), rev(date(2023, 7, 13)))
    assert store.article_at(LAW, "199", date(2024, 1, 1)).flat == "懲役。"


@pytest.mark.parametrize(("name", "damage", "why"), [
    ("versions.json", b"{garbage", r"versions.json: a damaged law store file"),
    ("versions.json", b"[" * 100_000 + b"]" * 100_000,
     r"versions.json: a damaged law store file .*deep"),
    ("140AC0000000045_20230713_505AC0000000066.jsonl", b"not json\n",
     r"_505AC0000000066.jsonl: line 2: a damaged law store file .*Invalid JSON"),
    ("140AC0000000045_20230713_505AC0000000066.suppl.jsonl", b'{"x": 1}\n',
     r"suppl.jsonl: line 1: a damaged law store file"),
])
def test_a_damaged_store_file_is_an_error_naming_it(tmp_path: Path, name: str, damage: bytes,
                                                    why: str) -> None:
    store = LawStore(tmp_path)
    store.import_text(law_text("b.xml", a199="懲役"), rev(date(2023, 7, 13)))
    path = tmp_path / LAW / name
    path.write_bytes(damage if name == "versions.json" else path.read_bytes() + damage)
    with pytest.raises(BuildError, match=why):
        store.versions(LAW)
        store.article_at(LAW, "199", date(2024, 1, 1))
        store.suppl_provisions(LAW, "140AC0000000045_20230713_505AC0000000066")
