"""``buildds jbe --as-of DATE``: the bundled sample built as of a date against a small law store
written here (民法 and 刑法, two versions each: one substantive change, terminology changes)."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from buildds.cli import main
from buildds.errors import TransformError
from buildds.export.hf import select_fewshot_stable
from buildds.jobs.jbe import build_jbe
from buildds.jobs.jbe_as_of import SUBJECT_LAWS
from buildds.jobs.jbe_dataset import AsOfOptions
from buildds.laws.articles import make_article
from buildds.laws.revisions import Revision
from buildds.laws.store import LawStore
from buildds.sample import SAMPLE_DIR
from buildds.schema import JbeItem
from buildds.schema.core import Source
from buildds.schema.laws import (
    ArticleChange,
    Ground,
    GroundImpact,
    ItemGrounds,
    ItemImpact,
    LawParagraph,
    LawText,
)
from buildds.transform.corrections import load_corrections

CIVIL, PENAL = "129AC0000000089", "140AC0000000045"
#: revisions of the shipped revisions table (buildds/laws/data/revisions.yaml): the versions in
#: force on the sample's exam day (2025-05-14) and on AS_OF
CIVIL_OLD = f"{CIVIL}_20240401_504AC0000000102"
CIVIL_NEW = f"{CIVIL}_20250601_504AC0000000068"
PENAL_OLD = f"{PENAL}_20230713_505AC0000000066"
PENAL_NEW = f"{PENAL}_20250601_504AC0000000067"
AS_OF = date(2026, 1, 1)
#: the fake assessment: 民法 1-5 (錯誤, art. 95) changed in substance, 刑法 2-3 in wording,
#: 憲法 items not grounded; every other item unaffected
REVIEW, WORDING = "令和７年-民法-1-5", "令和７年-刑法-2-3"

CIVIL_ARTICLES = {
    "94": ("虚偽表示", "相手方と通じてした虚偽の意思表示は、無効とする。"),
    "95": ("錯誤", ("意思表示は、錯誤に基づくものであって、その錯誤が法律行為の目的及び取引上の"
                   "社会通念に照らして重要なものであるときは、取り消すことができる。")),
    "146": ("時効の利益の放棄", "時効の利益は、あらかじめ放棄することができない。"),
    "177": ("不動産に関する物権の変動の対抗要件", ("不動産に関する物権の得喪及び変更は、登記を"
            "しなければ、第三者に対抗することができない。")),
    "939": ("相続の放棄の効力", ("相続の放棄をした者は、その相続に関しては、初めから相続人と"
            "ならなかったものとみなす。")),
}
PENAL_ARTICLES = {
    "36": ("正当防衛", ("急迫不正の侵害に対して、自己又は他人の権利を防衛するため、やむを得ずに"
           "した行為は、罰しない。")),
    "235": ("窃盗", ("他人の財物を窃取した者は、窃盗の罪とし、十年以下の懲役又は五十万円以下の"
            "罰金に処する。")),
    "108": ("現住建造物等放火", ("放火して、現に人が住居に使用し又は現に人がいる建造物を焼損"
            "した者は、死刑又は無期若しくは五年以上の懲役に処する。")),
}


def _text(law_id: str, title: str, articles: dict[str, tuple[str, str]], name: str) -> LawText:
    made = tuple(make_article(law_id, key, f"第{key}条", caption,
                              [LawParagraph(num=1, sentence=sentence)])
                 for key, (caption, sentence) in articles.items())
    return LawText(law_id=law_id, law_title=title, articles=made,
                   source=Source(path=name, sha256=f"{len(name):064x}"))


def write_store(root: Path) -> Path:
    """民法 2024 → 2025 (95 changed in substance), 刑法 2023 → 2025 (懲役 → 拘禁刑)."""
    store = LawStore(root)
    civil_new = dict(CIVIL_ARTICLES)
    civil_new["95"] = ("錯誤", CIVIL_ARTICLES["95"][1] + "ただし、相手方が善意のときはこの限り"
                       "でない。")
    penal_new = {k: (c, s.replace("懲役", "拘禁刑")) for k, (c, s) in PENAL_ARTICLES.items()}
    for law, title, rev, day, arts in (
            (CIVIL, "民法", CIVIL_OLD, date(2024, 4, 1), CIVIL_ARTICLES),
            (CIVIL, "民法", CIVIL_NEW, date(2025, 6, 1), civil_new),
            (PENAL, "刑法", PENAL_OLD, date(2023, 7, 13), PENAL_ARTICLES),
            (PENAL, "刑法", PENAL_NEW, date(2025, 6, 1), penal_new)):
        store.import_text(_text(law, title, arts, f"{rev}.xml"),
                          Revision(law_id=law, revision_id=rev, valid_from=day, law_title=title))
    return root


def _impact(item: JbeItem, as_of: date) -> ItemImpact:
    law = SUBJECT_LAWS[item.subject_jp]
    if item.subject_jp == "憲法":
        return ItemImpact(item_id=item.id, status="unknown", assumed=date(2025, 5, 1),
                          as_of=as_of, grounds=ItemGrounds(item_id=item.id, status="unknown"),
                          reason="no article of its code found")
    article, status, kind, rev = "94", "unaffected", "unchanged", None
    if item.id == REVIEW:
        article, status, kind, rev = "95", "needs_review", "substantive", CIVIL_NEW
    elif item.id == WORDING:
        article, status, kind, rev = "235", "terminology_only", "terminology", PENAL_NEW
    ground = Ground(law_id=law, article=article, how="retrieved", score=3.0, rank=1)
    impacts = () if rev is None else (GroundImpact(
        ground=ground, revision_id=rev, enforced=date(int(rev[16:20]), int(rev[20:22]),
                                                      int(rev[22:24])),
        change=ArticleChange(law_id=law, kind=kind, old_article=article, new_article=article,
                             similarity=0.9)),)
    return ItemImpact(item_id=item.id, status=status, assumed=date(2025, 5, 1), as_of=as_of,
                      grounds=ItemGrounds(item_id=item.id, grounds=(ground,),
                                          status="retrieved"), impacts=impacts)


class FakeAssess:
    """Stands in for buildds.laws.impact.assess_items; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, items, store, as_of, **_):
        self.calls += 1
        return [_impact(it, as_of) for it in sorted(items, key=lambda i: i.id)]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return write_store(tmp_path / "store")


#: the sample is a synthetic 2025 exam: the shipped table has no day for it
EXAM_DATES = ((2025, date(2025, 5, 14)),)


def build(out: Path, store: Path, assess=None, corrections: Path | None = None,
          as_of: date = AS_OF, **kw):
    return build_jbe(years=[2025], raw=SAMPLE_DIR, out=out, progress=False, processes=1,
                     corrections=corrections, as_of=AsOfOptions(
                         day=as_of, store=store, assess=assess, exam_dates=EXAM_DATES), **kw)


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".cache" not in p.relative_to(root).parts}


def frame(out: Path, split: str = "test"):
    import pandas

    return pandas.read_parquet(out / "data" / f"{split}.parquet")


def test_as_of_build_splits_statuses_rejects_and_card(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    report = build(out, store, FakeAssess())
    d = report.dataset
    assert d is not None and d.exported and d.as_of is not None
    test, review, few = frame(out), frame(out, "needs_review"), frame(out, "fewshot")
    assert REVIEW in set(review.id) and REVIEW not in set(test.id)
    assert set(review.status) == {"needs_review"}
    assert review.set_index("id").status_reason[REVIEW].startswith("substantive 第95条")
    assert CIVIL_NEW in review.set_index("id").status_reason[REVIEW]
    # 憲法 items have unknown grounds: held back, never taken as unaffected
    kenpo = review[review.subject_jp == "憲法"]
    assert len(kenpo) > 0 and kenpo.status_reason.str.startswith("impact unknown").all()
    assert not (test.subject_jp == "憲法").any()
    by_id = test.set_index("id")
    assert by_id.status[WORDING] == "terminology_only" and PENAL_NEW in by_id.status_reason[
        WORDING]
    assert set(test.status) == {"current", "terminology_only"}
    assert len(test) + len(review) == len(d.items)
    # exemplars: unaffected items of the scored split only
    assert len(few) == 4 and set(few.id) <= set(test[test.status == "current"].id)
    assert set(test[test.is_fewshot].id) == set(few.id)
    rejects = [json.loads(x) for x in (out / "rejects.jsonl").read_text("utf-8").splitlines()]
    held = {r["id"]: r for r in rejects if r["reason"] == "needs_review"}
    assert set(held) == set(review.id) and CIVIL_NEW in held[REVIEW]["message"]
    card = (out / "README.md").read_text("utf-8")
    for needle in (f"## As of {AS_OF}", CIVIL_NEW, PENAL_NEW, "| 2025-06-01 |",
                   "`needs_review`", f"`{REVIEW}`", "name: needs_review", f"{46 * '0'}"):
        assert needle in card, needle
    assert CIVIL_OLD not in card  # the version in force on the date, not the older one
    data = json.loads((out / "report.json").read_text("utf-8"))["dataset"]["as_of"]
    assert data["counts"]["needs_review"] == len(review)
    assert data["counts"]["terminology_only"] == 1
    assert [v["revision_id"] for v in data["laws"]] == [CIVIL_NEW, PENAL_NEW]
    assert f"### As of {AS_OF}" in (out / "report.md").read_text("utf-8")


def test_default_build_has_no_status_columns(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "plain"
    build_jbe(years=[2025], raw=SAMPLE_DIR, out=out, progress=False, processes=1)
    assert not {"status", "grounds_status", "grounds"} & set(frame(out).columns)
    assert not (out / "data" / "needs_review.parquet").exists()
    assert "As of" not in (out / "README.md").read_text("utf-8")


def test_rerun_is_byte_identical_and_a_cache_hit(store: Path, tmp_path: Path) -> None:
    out, assess = tmp_path / "out", FakeAssess()
    build(out, store, assess)
    first = tree(out)
    again = build(out, store, assess)
    assert assess.calls == 1 and again.dataset is not None and again.dataset.unchanged
    assert tree(out) == first
    # a fresh folder gives the same bytes
    other = tmp_path / "other"
    build(other, store, FakeAssess())
    assert tree(other) == first
    # a changed store redoes the assessment and the export
    LawStore(store).import_text(
        _text(CIVIL, "民法", CIVIL_ARTICLES, "later.xml"),
        Revision(law_id=CIVIL, revision_id=f"{CIVIL}_20250401_506AC0000000001",
                 valid_from=date(2025, 4, 1), law_title="民法"))
    changed = build(out, store, assess)
    assert assess.calls == 2 and changed.dataset is not None and not changed.dataset.unchanged


def _corrections(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "corrections"
    folder.mkdir(exist_ok=True)
    (folder / "2025-review.yaml").write_text(text, encoding="utf-8")
    return folder


def test_correction_citing_the_revision_relabels_without_moving_exemplars(
        store: Path, tmp_path: Path) -> None:
    base = build(tmp_path / "base", store, FakeAssess()).dataset
    assert base is not None
    fix = _corrections(tmp_path, f"""
- id: {REVIEW}
  action: label
  expect: N
  label: Y
  revision: {CIVIL_NEW}
  reason: under the 2024 text the statement holds
""")
    out = tmp_path / "out"
    d = build(out, store, FakeAssess(), corrections=fix).dataset
    assert d is not None and not d.stale
    row = frame(out).set_index("id").loc[REVIEW]
    assert row.label == "Y" and row.status == "current" and not row.is_fewshot
    assert row.status_reason.startswith(f"reviewed for {CIVIL_NEW} by 2025-review.yaml#1")
    # the review keeps the grounds the flag rested on
    assert row.grounds_status == "retrieved" and [g["article"] for g in row.grounds] == ["95"]
    assert REVIEW not in set(frame(out, "needs_review").id)
    assert d.fewshot_ids == base.fewshot_ids
    # a default build leaves the correction out: the exam's law, the exam's label
    plain = build_jbe(years=[2025], raw=SAMPLE_DIR, out=tmp_path / "plain", progress=False,
                      processes=1, corrections=fix).dataset
    assert plain is not None and not plain.stale
    assert next(i for i in plain.items if i.id == REVIEW).label == "N"


def test_stale_and_pending_revision_corrections(store: Path, tmp_path: Path) -> None:
    fix = _corrections(tmp_path, f"""
- id: {REVIEW}
  action: label
  expect: Y
  label: N
  revision: {CIVIL_NEW}
  reason: expects the wrong label
- id: 令和７年-民法-1-1
  action: label
  expect: Y
  label: N
  revision: {CIVIL_NEW}
  reason: this revision did not touch the item
- id: {REVIEW}
  action: label
  expect: N
  label: Y
  revision: {CIVIL}_20270401_508AC0000000001
  reason: a later revision
""")
    out = tmp_path / "out"
    d = build(out, store, FakeAssess(), corrections=fix).dataset
    assert d is not None and d.as_of is not None
    assert sorted(s.origin for s in d.stale) == ["2025-review.yaml#1", "2025-review.yaml#2"]
    assert d.as_of.pending == ("2025-review.yaml#3",)
    assert REVIEW in set(frame(out, "needs_review").id)
    rejects = (out / "rejects.jsonl").read_text("utf-8")
    assert rejects.count("stale-correction") == 2


def test_relabel_of_a_non_exemplar_keeps_the_exemplars(store: Path, tmp_path: Path) -> None:
    base = build(tmp_path / "base", store, FakeAssess()).dataset
    assert base is not None
    target = next(i for i in base.items if i.id not in base.fewshot_ids
                  and i.subject_jp == "民法" and i.id != REVIEW)
    new = "N" if target.label == "Y" else "Y"
    fix = _corrections(tmp_path, f"""
- id: {target.id}
  action: label
  expect: {target.label}
  label: {new}
  reason: key misread
""")
    d = build(tmp_path / "out", store, FakeAssess(), corrections=fix).dataset
    assert d is not None and d.applied == 1
    assert d.fewshot_ids == base.fewshot_ids


def test_stable_fewshot_ignores_other_items() -> None:
    def item(n: int, label: str) -> JbeItem:
        return JbeItem(id=f"令和７年-民法-{n}-1", year="令和７年", subject="Civil Code",
                       subject_jp="民法", instruction="i", question="q", label=label,
                       answer=label == "Y", question_type="combination", points=2,
                       source="s", sha256="0" * 64, page=1)
    items = [item(n, "Y" if n % 2 else "N") for n in range(1, 41)]
    chosen = select_fewshot_stable(items, 3)
    others = [it for it in items if it.id not in chosen]
    flipped = [it.model_copy(update={"label": "N" if it.label == "Y" else "Y",
                                     "answer": not it.answer}) if it is others[0] else it
               for it in items]
    assert select_fewshot_stable(flipped, 3) == chosen
    assert select_fewshot_stable([it for it in items if it is not others[1]], 3) == chosen
    assert select_fewshot_stable(list(reversed(items)), 3) == chosen


def test_label_correction_citing_a_revision_needs_expect(tmp_path: Path) -> None:
    folder = _corrections(tmp_path, f"""
- id: {REVIEW}
  action: label
  label: Y
  revision: {CIVIL_NEW}
  reason: no expect
""")
    with pytest.raises(TransformError, match="expect"):
        load_corrections(folder)


def test_subject_laws_agree_with_grounding() -> None:
    from buildds.laws.grounding import SUBJECT_LAWS as GROUNDING

    assert SUBJECT_LAWS == GROUNDING


def _cli(tmp_path: Path, *args: str):
    out = tmp_path / "out"
    raw = tmp_path / "raw"
    if not raw.exists():
        shutil.copytree(SAMPLE_DIR, raw)
    result = CliRunner().invoke(main, ["jbe", "--years", "2025", "--raw", str(raw), "--out",
                                       str(out), "-q", "-j", "1", *args])
    return result, out


def test_errors_write_nothing(store: Path, tmp_path: Path) -> None:
    result, out = _cli(tmp_path, "--as-of", "2026-01-01", "--law-store",
                       str(tmp_path / "no-store"))
    assert result.exit_code == 2 and "no law store" in result.output and not out.exists()
    result, out = _cli(tmp_path, "--law-store", str(store))
    assert result.exit_code == 2 and "--as-of" in result.output and not out.exists()
    result, out = _cli(tmp_path, "--as-of", "2019-01-01", "--law-store", str(store))
    assert result.exit_code == 1 and "before its first version" in result.output
    assert not out.exists()
    empty = tmp_path / "empty-store"
    empty.mkdir()
    result, out = _cli(tmp_path, "--as-of", "2026-01-01", "--law-store", str(empty))
    assert result.exit_code == 1 and "holds none of the codes" in result.output
    assert not out.exists()


def test_cli_as_of_end_to_end(store: Path, tmp_path: Path, monkeypatch) -> None:
    import buildds.jobs.jbe_as_of as as_of_module

    fake = FakeAssess()
    real = as_of_module._assess

    def patched(items, store_, day, sha, cache, assess, exam_dates):
        assert exam_dates == {2025: date(2025, 5, 14)}
        return real(items, store_, day, sha, cache, assess or fake, exam_dates)

    monkeypatch.setattr(as_of_module, "_assess", patched)
    result, out = _cli(tmp_path, "--as-of", "2026-01-01", "--law-store", str(store),
                       "--exam-date", "2025=2025-05-14")
    assert result.exit_code == 0, result.output
    assert "as of 2026-01-01:" in result.output and "need review" in result.output
    first = tree(out)
    result, _ = _cli(tmp_path, "--as-of", "2026-01-01", "--law-store", str(store),
                     "--exam-date", "2025=2025-05-14")
    assert result.exit_code == 0 and tree(out) == first and fake.calls == 1
    result, _ = _cli(tmp_path, "--exam-date", "2025=May")
    assert result.exit_code == 2 and "--exam-date" in result.output


def test_real_assessment_end_to_end(store: Path, tmp_path: Path) -> None:
    pytest.importorskip("buildds.laws.impact")
    out = tmp_path / "out"
    d = build(out, store).dataset
    assert d is not None and d.exported and d.as_of is not None
    statuses = {s.id: s for s in d.as_of.statuses}
    test, review = frame(out), frame(out, "needs_review")
    assert set(test.id) | set(review.id) == set(statuses)
    assert all(statuses[i].status == "needs_review" for i in review.id)
    assert all(statuses[i].fewshot_eligible for i in frame(out, "fewshot").id)
    # 錯誤 (95) changed in substance; 窃盗 (235) in wording only; 正当防衛 (36) not at all
    assert statuses[REVIEW].status == "needs_review" and CIVIL_NEW in statuses[REVIEW].reason
    assert statuses[WORDING].status == "terminology_only" and WORDING in set(test.id)
    assert statuses["令和７年-刑法-1-1"].status == "current"
    first = tree(out)
    assert build(out, store).dataset.unchanged and tree(out) == first



def test_a_low_confidence_item_is_held_back_and_says_why() -> None:
    """Only weakly retrieved grounds changed: not scored (never taken as unaffected), and its
    reason says it is a low-confidence flag."""
    from datetime import date

    from buildds.jobs.jbe_as_of import _from_impact
    from buildds.schema.laws import ItemGrounds, ItemImpact

    impact = ItemImpact(item_id="x", status="low_confidence", assumed=date(2019, 5, 19),
                        as_of=date(2026, 1, 1),
                        grounds=ItemGrounds(item_id="x", status="retrieved"),
                        reason="weak changed grounds: 120 (score 35.59 < 0.85 × 51.90)")
    status = _from_impact(impact)
    assert status.status == "needs_review" and not status.fewshot_eligible
    assert status.reason == "low confidence: weak changed grounds: 120 (score 35.59 < 0.85 × 51.90)"


def test_grounds_columns_say_what_each_status_rests_on(store: Path, tmp_path: Path,
                                                       monkeypatch) -> None:
    """The real assessment: an item citing 第177条 has explicit grounds, one citing nothing its
    retrieved ones (score, rank ≤ top-k), a 憲法 item (no 憲法 in the store) none; read back by
    datasets and pandas alike, and the same bytes when served from the as-of cache."""
    pytest.importorskip("buildds.laws.impact")
    import datasets
    import pyarrow.parquet as pq

    from buildds.laws.impact import DEFAULT_TOP_K

    out = tmp_path / "out"
    build(out, store)
    dd = datasets.load_from_disk(str(out / "dataset"))
    rows = {r["id"]: r for split in ("test", "needs_review") for r in dd[split]}
    cited = rows["令和７年-民法-3-2"]
    assert cited["grounds_status"] == "explicit"
    assert cited["grounds"] == [{"law_id": CIVIL, "article": "177", "how": "explicit",
                                 "score": None, "rank": None, "paragraph": None}]
    retrieved = rows[REVIEW]
    assert retrieved["grounds_status"] == "retrieved" and retrieved["grounds"][0]["article"] == "95"
    ranks = [g["rank"] for g in retrieved["grounds"]]
    assert ranks == list(range(1, len(ranks) + 1)) and len(ranks) <= DEFAULT_TOP_K
    scores = [g["score"] for g in retrieved["grounds"]]
    assert all(isinstance(x, float) for x in scores) and scores == sorted(scores, reverse=True)
    assert {g["how"] for g in retrieved["grounds"]} == {"retrieved"}
    kenpo = rows["令和７年-憲法-1-1"]
    assert kenpo["grounds_status"] == "unknown" and kenpo["grounds"] == []
    assert kenpo["status"] == "needs_review"
    # parquet: the same values, typed (int32 rank, float64 score)
    review = frame(out, "needs_review").set_index("id")
    assert review.grounds_status[REVIEW] == "retrieved"
    assert [g["article"] for g in review.grounds[REVIEW]] == [
        g["article"] for g in retrieved["grounds"]]
    ground_type = pq.read_schema(out / "data" / "test.parquet").field("grounds").type
    assert str(ground_type.value_type) == ("struct<law_id: string, article: string, how: string,"
                                           " score: double, rank: int32, paragraph: int32>")
    card = (out / "README.md").read_text("utf-8")
    assert "| 憲法 | 4 | 0 | 14 |" in card and "BM25" in card
    assert "list of struct (law_id, article, how, score, rank, paragraph)" in card
    # served from the as-of cache (no grounding at all): the same bytes
    first = tree(out)
    (out / ".dataset-fingerprint").unlink()
    shutil.rmtree(out / "data")

    def no_grounding(*_a, **_k):
        raise AssertionError("grounded again")

    monkeypatch.setattr("buildds.laws.impact.assess_items", no_grounding)
    again = build(out, store).dataset
    assert again is not None and again.exported and not again.unchanged
    assert tree(out) == first


def test_the_as_of_cache_key_covers_the_shipped_law_tables() -> None:
    """A cached assessment is stale when the revisions table, the exam days or a terminology
    map shipped in buildds/laws/data changes, not only the code."""
    from buildds.code_version import code_files
    from buildds.jobs import jbe_as_of
    from buildds.pipeline import expand_names

    names = expand_names(Path(jbe_as_of.__file__).parents[1], code_files(*jbe_as_of._CODE))
    assert {"laws/data/revisions.yaml", "laws/data/exam_dates.yaml",
            "laws/data/terminology_kokinkei.yaml", "laws/impact.py"} <= set(names)
